"""Section 5.1 (`sec:analysis-discussion`): asymptotic orders of the theorems, derived with sympy.

Nothing here is typed in: each order is a sympy limit of log(term)/log(variable).
"""

from __future__ import annotations

import sympy

from . import theorems

K, n, s0, s, d, c = sympy.symbols("K n sigma0_sq sigma_sq delta c", positive=True)


def growth_exponent(expr: sympy.Expr, var: sympy.Symbol) -> sympy.Expr:
    """lim log(expr)/log(var) as var -> oo: the polynomial order of `expr` in `var` (logs ignored)."""
    return sympy.simplify(sympy.limit(sympy.log(expr) / sympy.log(var), var, sympy.oo))


def theorem_5_1_symbolic(version: str = "theorem") -> dict[str, sympy.Expr]:
    """Theorem 5.1's terms as sympy expressions. `version='outline'` replaces the two gap terms
    by the main-text proof outline's (which keep Theorem 3.1's 1/sigma0)."""
    terms = theorems.theorem_5_1_terms(K, n, s0, s, d)
    if version == "outline":
        terms.update(theorems.outline_gap_terms(K, n, s0, s))
    return terms


def n_exponents(version: str = "theorem") -> dict[str, sympy.Expr]:
    """Order in n of each term of Theorem 5.1, for fixed K, sigma0^2, sigma^2, delta."""
    out = {}
    for name, term in theorem_5_1_symbolic(version).items():
        if name in ("mean_term", "noise_term"):
            # c n^e: the exponent is the derivative of log(term) in log(n)
            out[name] = sympy.simplify(sympy.diff(sympy.log(term), n) * n)
        else:
            out[name] = growth_exponent(term, n)
    return out


def K_exponent_of_gap_terms(version: str = "theorem", sigma0_sq_scaling: str = "constant"
                            ) -> dict[str, sympy.Expr]:
    """Order in K of the two gap terms for fixed n; sigma0^2 constant or c/K (Section 5.1)."""
    out = {}
    for name, term in theorem_5_1_symbolic(version).items():
        if name not in ("gap_term_E1", "gap_term_E2"):
            continue
        # c_K's log factors do not change the polynomial order; drop them to help the limit
        expr = term / theorems.c_K(K)
        if sigma0_sq_scaling == "1/K":
            expr = expr.subs(s0, c / K)
        out[name] = growth_exponent(expr, K)
    return out


def rho_limit_large_K() -> sympy.Expr:
    """lim_{K -> oo} rho (Section 5.1: 'rho ~ 1')."""
    return sympy.limit(theorems.rho(K, s0, s), K, sympy.oo)


def m_limit_large_K() -> sympy.Expr:
    """lim_{K -> oo} m (Section 5.1: 'm ~ sigma0^2 sigma^-2 / 25')."""
    return sympy.simplify(sympy.limit(theorems.m_exponent(K, s0, s), K, sympy.oo))


def mK_limit_sigma0_over_K() -> sympy.Expr:
    """lim_{K -> oo} m K with sigma0^2 = c/K (Section 5.1: 'mK >= 2 permits sigma0^2 = O(1/K)')."""
    return sympy.simplify(sympy.limit((theorems.m_exponent(K, s0, s) * K).subs(s0, c / K), K, sympy.oo))


def H_b_K_exponent(sigma0_sq_scaling: str = "constant") -> sympy.Expr:
    """Order in K of H_b with sigma0^2 constant or c/K (Section 5.1: 'H_b = O(K)')."""
    expr = theorems.H_b(K, s0, s)
    if sigma0_sq_scaling == "1/K":
        expr = expr.subs(s0, c / K)
    return growth_exponent(expr, K)


def H_b_derivatives() -> dict[str, sympy.Expr]:
    """Partial derivatives of H_b in K, sigma^2 and sigma0^2 (Section 5.1's monotonicity)."""
    hb = theorems.H_b(K, s0, s)
    return {"K": sympy.simplify(sympy.diff(hb, K)), "sigma_sq": sympy.simplify(sympy.diff(hb, s)),
            "sigma0_sq": sympy.simplify(sympy.diff(hb, s0))}

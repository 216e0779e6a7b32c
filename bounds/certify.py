"""Rigorous checks: arb interval arithmetic (python-flint) and sympy proofs.

`certify_theorem_3_1(K)`: Theorem 3.1 holds at K for every alpha > 0 iff c_K >= p_K(0), the top-gap
density at 0 (`bounds.gap` explains why the density peaks at 0). p_K(0) = K(K-1)/(2 pi) I_K with
I_K = int Phi(x)^(K-2) exp(-x^2) dx. We bound I_K from above rigorously: an upper Riemann sum on
[L, U] (on a cell [a, b], Phi^(K-2) <= Phi(b)^(K-2) and exp(-x^2) <= its maximum on the cell) plus
the tails int_{-inf}^L <= Phi(L)^(K-2) (sqrt(pi)/2) erfc(-L) and int_U^inf <= (sqrt(pi)/2) erfc(U),
every number an arb ball. The cell width halves until the bound certifies or a floor is reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy

from ._core import check_int


@dataclass(frozen=True)
class Certificate:
    """A rigorous comparison: `holds` is proven when `certified` (an upper bound `upper` on the
    left side lies below the right side's lower bound `lower`)."""

    K: int
    certified: bool
    upper: float      # rigorous upper bound on the smaller side (p_K(0))
    lower: float      # rigorous lower bound on the larger side (c_K)
    cell_width: float


def _arb():
    from flint import arb
    return arb


@lru_cache(maxsize=8)
def _grid(h: float, lo: float = -12.0, hi: float = 12.0):
    """Cell edges and, per cell, arb upper bounds of Phi(b) and of max exp(-x^2) on the cell."""
    arb = _arb()
    edges = np.arange(lo, hi + h / 2, h)
    sqrt2 = arb(2).sqrt()
    phi_b, emax = [], []
    for a, b in zip(edges[:-1], edges[1:]):
        phi_b.append((-arb(float(b)) / sqrt2).erfc() / 2)   # Phi(b) = erfc(-b/sqrt2)/2
        near = 0.0 if a <= 0.0 <= b else min(abs(a), abs(b))
        emax.append((-(arb(float(near)) ** 2)).exp())
    return edges, phi_b, emax


def p0_upper(K: int, h: float) -> float:
    """A rigorous upper bound on p_K(0) = K(K-1)/(2 pi) int Phi^(K-2) exp(-x^2) dx."""
    arb = _arb()
    edges, phi_b, emax = _grid(h)
    mid = np.sqrt(2 * np.log(K)) if K > 2 else 0.0
    lo_i = max(int(np.searchsorted(edges, mid - 9.0)) - 1, 0)
    hi_i = min(int(np.searchsorted(edges, mid + 5.0)), len(edges) - 1)
    L, U = arb(float(edges[lo_i])), arb(float(edges[hi_i]))
    sqrt2, sqrtpi = arb(2).sqrt(), arb.pi().sqrt()
    total = arb(0)
    hb = arb(float(h))
    for i in range(lo_i, hi_i):
        total += phi_b[i] ** (K - 2) * emax[i] * hb
    phi_L = (-L / sqrt2).erfc() / 2
    total += phi_L ** (K - 2) * sqrtpi / 2 * (-L).erfc()
    total += sqrtpi / 2 * U.erfc()
    val = arb(K) * arb(K - 1) / (2 * arb.pi()) * total
    return float(val.upper())


def p0_lower(K: int, h: float) -> float:
    """A rigorous lower bound on p_K(0): the lower Riemann sum of the same cells (on [a, b],
    Phi^(K-2) >= Phi(a)^(K-2) and exp(-x^2) >= exp(-max(a^2, b^2))), the tails left out (they are >= 0)."""
    arb = _arb()
    edges = np.arange(-12.0, 12.0 + h / 2, h)
    sqrt2 = arb(2).sqrt()
    total = arb(0)
    for a, b in zip(edges[:-1], edges[1:]):
        phi_a = (-arb(float(a)) / sqrt2).erfc() / 2
        total += phi_a ** (K - 2) * (-(arb(float(max(abs(a), abs(b)))) ** 2)).exp() * arb(float(b - a))
    val = arb(K) * arb(K - 1) / (2 * arb.pi()) * total
    return float(val.lower())


def zero_gap_density_bracket(K: int, sigma0_sq: float = 1.0, h: float = 0.0005) -> tuple[float, float]:
    """A rigorous interval [low, high] holding p(0) = p_K(0) / sigma0, the prior density of a zero
    top-two gap that `bounds.limit` turns on (`p0_lower`, `p0_upper` at cell width h; each end
    rounded outwards to a float)."""
    check_int("K", K, 2)
    arb = _arb()
    s0 = arb(float(sigma0_sq)).sqrt()
    lo, hi = arb(p0_lower(K, h)) / s0, arb(p0_upper(K, h)) / s0
    return float(lo.lower()), float(hi.upper())


def p0_upper_at_most(K: int, target: float,
                     widths: tuple[float, ...] = (0.2, 0.05, 0.01, 0.004, 0.002)) -> bool:
    """True if some rigorous upper bound on p_K(0) is <= target (refining the cells as needed)."""
    return any(p0_upper(K, h) <= target for h in widths)


def c_K_lower(K: int) -> float | None:
    """A rigorous lower bound on c_K, or None where c_K is not real (radicand certainly < 0)."""
    arb = _arb()
    lnK = arb(K).log()
    rad = (arb(K) / (4 * (2 * arb.pi()).sqrt() * lnK)).log()
    if rad.upper() < 0:
        return None
    rad_lo = max(float(rad.lower()), 0.0)
    val = 4 * arb(2).sqrt() * lnK * arb(rad_lo).sqrt() + 2 / (2 * arb.pi()).sqrt()
    return float(val.lower())


def c_K_certainly_undefined(K: int) -> bool:
    """True when the radicand of c_K is certainly negative (arb): c_K is certainly not real."""
    arb = _arb()
    lnK = arb(K).log()
    rad = (arb(K) / (4 * (2 * arb.pi()).sqrt() * lnK)).log()
    return bool(rad.upper() < 0)


def certify_theorem_3_1(K: int, widths: tuple[float, ...] = (0.2, 0.1, 0.05, 0.02, 0.01, 0.005)
                        ) -> Certificate:
    """Try to prove c_K >= p_K(0) (so e_*(alpha) <= c_K alpha/sigma0 for all alpha > 0)."""
    check_int("K", K, 2)
    lo = c_K_lower(K)
    if lo is None:
        return Certificate(K, False, float("nan"), float("nan"), 0.0)
    up = float("inf")
    for h in widths:
        up = p0_upper(K, h)
        if up <= lo:
            return Certificate(K, True, up, lo, h)
    return Certificate(K, False, up, lo, widths[-1])


# ---------------------------------------------------------------- sympy proof of Lemma sec:tau (upper)
def _rel(lhs, op: str, rhs):
    """An unevaluated sympy relation (so that sympy does not decide it on construction)."""
    cls = {"==": sympy.Eq, "<=": sympy.Le, "<": sympy.Lt, ">=": sympy.Ge, ">": sympy.Gt}[op]
    return cls(sympy.sympify(lhs), sympy.sympify(rhs), evaluate=False)


def prove_tau_upper() -> list[tuple[str, object, tuple]]:
    """The proof that tau_k^2 <= sigma0^2 sigma^2/(T_k sigma0^2 + sigma^2)(1 + sigma^2/(K sigma0^2))
    whenever every arm has T_j >= 1, as statements (text, a sympy relation, the relations assumed), each
    for every positive value of its symbols: a verification engine decides them (sympy or z3).

    Steps: with A = T_k sigma0^2 + sigma^2 and D = sum_j T_j sigma^2/(T_j sigma0^2 + sigma^2),
    (1) upper - tau_k^2 = sigma^4 (A D - K sigma^2) / (K A^2 D)   [identity];
    (2) g(t) = t sigma^2/(t sigma0^2 + sigma^2) has g' = sigma^4/(t sigma0^2 + sigma^2)^2 > 0;
    (3) g(t) >= g(1) for t >= 1, and A g(T_k) = T_k sigma^2, so A D >= T_k sigma^2 + (K-1) A g(1);
    (4) that bound minus K sigma^2 is (T_k - 1) sigma^2 (1 + (K-1) sigma0^2/(sigma0^2+sigma^2)) >= 0.
    """
    s0, s, T, K, D, t = sympy.symbols("sigma0_sq sigma_sq T_k K D t", positive=True)
    A = T * s0 + s
    tau = s0 * s / A + (s / A) ** 2 * s / D
    upper = s0 * s / A * (1 + s / (K * s0))
    g = t * s / (t * s0 + s)
    lower_AD = T * s + (K - 1) * A * s / (s0 + s)
    return [("identity: upper - tau^2 = sigma^4 (A D - K sigma^2)/(K A^2 D)",
             _rel(upper - tau, "==", s ** 2 * (A * D - K * s) / (K * A ** 2 * D)), ()),
            ("d/dt [t sigma^2/(t sigma0^2 + sigma^2)] = sigma^4/(t sigma0^2 + sigma^2)^2 > 0",
             sympy.And(_rel(sympy.Derivative(g, t), "==", s ** 2 / (t * s0 + s) ** 2),
                       _rel(s ** 2 / (t * s0 + s) ** 2, ">", 0)), ()),
            ("g(t) >= g(1) for t >= 1, and A g(T_k) = T_k sigma^2: so A D >= T_k sigma^2 + (K-1) A sigma^2/(sigma0^2 "
             "+ sigma^2) when every T_j >= 1",
             sympy.And(_rel(g, ">=", sympy.Subs(g, t, 1)), _rel(A * sympy.Subs(g, t, T), "==", T * s)),
             (_rel(t, ">=", 1),)),
            ("that bound - K sigma^2 = (T_k-1) sigma^2 (1 + (K-1) sigma0^2/(sigma0^2+sigma^2)) >= 0",
             sympy.And(_rel(lower_AD - K * s, "==", (T - 1) * s * (1 + (K - 1) * s0 / (s0 + s))),
                       _rel((T - 1) * s * (1 + (K - 1) * s0 / (s0 + s)), ">=", 0)),
             (_rel(T, ">=", 1), _rel(K, ">=", 1)))]


def prove_h2_le_h() -> list[tuple[str, object, tuple]]:
    """The steps of H_2 <= H (Section 2's H and H_2 = max_i i Delta_(i)^-2, gaps sorted increasingly), as
    statements (text, a sympy relation, the relations assumed) for every real value of their symbols,
    which a verification engine decides (z3). With y_j = Delta_(j)^-2 and S_t = y_1 + ... + y_t: (1)
    y_j >= y_i for j <= i; (2)-(3) by induction on t, S_t >= t y_i for t <= i; (4) S_i <= H, the other
    terms being nonnegative. So i Delta_(i)^-2 <= H for every i."""
    a, b, y, m, S, t, R = sympy.symbols("a b y m S t R", real=True)
    return [
        ("0 < a <= b gives a^-2 >= b^-2, so Delta_(j)^-2 >= Delta_(i)^-2 for j <= i",
         _rel(1 / a ** 2, ">=", 1 / b ** 2), (_rel(a, ">", 0), _rel(a, "<=", b))),
        ("induction on t, base: S_1 = y_1 >= 1 * m where m = Delta_(i)^-2", _rel(y, ">=", m), (_rel(y, ">=", m),)),
        ("induction on t, step: S_t >= t m and y_(t+1) >= m give S_(t+1) = S_t + y_(t+1) >= (t+1) m; so S_i >= i "
         "Delta_(i)^-2", _rel(S + y, ">=", (t + 1) * m), (_rel(t, ">=", 1), _rel(S, ">=", t * m), _rel(y, ">=", m))),
        ("S_i <= S_i + (the other terms, >= 0) = H; so i Delta_(i)^-2 <= H for every i, and H_2 <= H",
         _rel(S, "<=", S + R), (_rel(R, ">=", 0),)),
    ]


def prove_h_le_harmonic_h2() -> list[tuple[str, object, tuple]]:
    """The steps of H <= (1/2 + sum_{i=2}^K 1/i) H_2 where the two smallest gaps are equal (Section 2
    defines the best arm's gap as the smallest other gap), as statements for every real value (z3).
    With y_i = Delta_(i)^-2, M = H_2 and L_t = 1/2 + sum_{i=2}^t 1/i: (1) y_i <= M/i; (2) the base
    S_2 = y_1 + y_2 <= L_2 M from y_1 = y_2; (3) the step S_(t+1) <= L_(t+1) M. So H = S_K <= L_K M."""
    i, y, M, y1, y2, S, L, t = sympy.symbols("i y M y1 y2 S L t", real=True)
    half = sympy.Rational(1, 2)
    return [
        ("i Delta_(i)^-2 <= H_2 (H_2 is their largest) gives Delta_(i)^-2 <= H_2/i for every i >= 1",
         _rel(y, "<=", M / i), (_rel(i, ">=", 1), _rel(i * y, "<=", M))),
        ("induction on t >= 2, base: Delta_(1) = Delta_(2) and y_2 <= M/2 give S_2 = y_1 + y_2 <= (1/2 + 1/2) M",
         _rel(y1 + y2, "<=", M * (half + half)), (_rel(y1, "==", y2), _rel(y2, "<=", M / 2))),
        ("induction on t, step: S_t <= L_t M and y_(t+1) <= M/(t+1) give S_(t+1) <= (L_t + 1/(t+1)) M = L_(t+1) M; "
         "so H = S_K <= (1/2 + sum_{i=2}^K 1/i) H_2",
         _rel(S + y, "<=", M * (L + 1 / (t + 1))),
         (_rel(t, ">=", 2), _rel(S, "<=", M * L), _rel(y, "<=", M / (t + 1)))),
    ]


# ---------------------------------------------------------------- Section 2: H and H_2 by induction over partial sums
def h2_le_h_induction() -> dict:
    """The induction behind H_2 <= H (the steps of `prove_h2_le_h` as a system of states, which an induction
    engine decides case by case), in sympy. Fix an index i and m = Delta_(i)^-2 (gaps sorted increasingly);
    the state after t terms is (t, S_t, R_t): S_t = Delta_(1)^-2 + ... + Delta_(t)^-2 and R_t = H - S_t, the
    terms after t (positive), for t = 1..i. Base: S_1 = Delta_(1)^-2 with 0 < Delta_(1) <= Delta_(i). A round
    adds the next term Delta_(t+1)^-2 with 0 < Delta_(t+1) <= Delta_(i) (t + 1 <= i). Invariant: t m <= S_t
    <= H; at t = i, i Delta_(i)^-2 <= H.

    Keys: `params` and `given` (fixed over the induction, their domain), `state` and `state_given` (one
    state's symbols, their domain), `base` (the first state), `next` (the next state's symbols, in the order
    of `state`) and `round` (one round from a state to the next; other symbols are fresh at each round),
    `invariant`."""
    H, Di, m, i = sympy.symbols("H Delta_(i) m i", real=True)
    t, S, R, D1 = sympy.symbols("t S_t R_t Delta_(1)", real=True)
    t1, S1, R1, Dn = sympy.symbols("t' S_t' R_t' Delta_(t+1)", real=True)
    return {"params": (H, Di, m, i),
            "given": (_rel(Di, ">", 0), _rel(m * Di ** 2, "==", 1), _rel(i, ">=", 1)),
            "state": (t, S, R), "state_given": (_rel(t, ">=", 1), _rel(t, "<=", i), _rel(R, ">=", 0),
                                                _rel(S + R, "==", H)),
            "base": (_rel(t, "==", 1), _rel(D1, ">", 0), _rel(D1, "<=", Di), _rel(S, "==", D1 ** -2)),
            "next": (t1, S1, R1),
            "round": (_rel(t1, "==", t + 1), _rel(Dn, ">", 0), _rel(Dn, "<=", Di), _rel(S1, "==", S + Dn ** -2)),
            "invariant": sympy.And(_rel(t * m, "<=", S), _rel(S, "<=", H))}


def h_le_harmonic_h2_induction() -> dict:
    """The induction behind H <= (1/2 + sum_{i=2}^K 1/i) H_2 (the steps of `prove_h_le_harmonic_h2` as a system
    of states; keys as in `h2_le_h_induction`), in sympy. The state after t terms is (t, S_t, L_t) for t >= 2:
    S_t = Delta_(1)^-2 + ... + Delta_(t)^-2 and L_t = 1/2 + sum_{i=2}^t 1/i. Base: t = 2, S_2 = y_1 + y_2 with
    y_1 = y_2 (Delta_(1) = Delta_(2) = Delta_min) and 2 y_2 <= H_2, L_2 = 1. A round adds y_(t+1) with
    (t+1) y_(t+1) <= H_2 (H_2 is the largest i Delta_(i)^-2) and L_(t+1) = L_t + 1/(t+1). Invariant:
    S_t <= L_t H_2; at t = K, H <= (1/2 + sum_{i=2}^K 1/i) H_2."""
    M, t, S, L, y1, y2 = sympy.symbols("H_2 t S_t L_t y_1 y_2", real=True)
    t1, S1, L1, y = sympy.symbols("t' S_t' L_t' y_(t+1)", real=True)
    return {"params": (M,), "given": (_rel(M, ">", 0),),
            "state": (t, S, L), "state_given": (_rel(t, ">=", 2),),
            "base": (_rel(t, "==", 2), _rel(y1, "==", y2), _rel(2 * y2, "<=", M), _rel(S, "==", y1 + y2),
                     _rel(L, "==", 1)),
            "next": (t1, S1, L1),
            "round": (_rel(t1, "==", t + 1), _rel(t1 * y, "<=", M), _rel(S1, "==", S + y), _rel(L1, "==", L + 1 / t1)),
            "invariant": _rel(S, "<=", M * L)}

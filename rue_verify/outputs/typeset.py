"""The registry's expressions as LaTeX, one printer for the erratum and the report: the symbols
named as the paper writes them, erfc as an application, powers of functions with their parentheses.
What is typeset is `sympy.latex` of the very expression the ledger evaluates (`bounds.registry.symbolic`),
never retyped."""

from __future__ import annotations

from sympy.printing.latex import LatexPrinter

#: how the registry's symbols are typeset (and read back by the round-trip test)
SYMBOL_TEX = {"sigma0_sq": r"\sigma_{0}^{2}", "sigma_sq": r"\sigma^{2}", "nu_sq": r"\nu^{2}", "delta": r"\delta",
              "alpha": r"\alpha", "Delta": r"\Delta", "Delta_k": r"\Delta_{k}", "T_k": r"T_{k}",
              "tau_sq_k": r"\tau_{k}^{2}", "H_2": r"H_{2}"}


class _Printer(LatexPrinter):
    """sympy's LaTeX, with erfc written as a function applied to its argument (`\\operatorname{erfc}
    \\left(x\\right)`), a form LaTeX parsers read back as an application."""

    def _print_Pow(self, expr):
        """A power of a function with its parentheses, (log n)^(3/2), not log(n)^(3/2), which a
        reader (and a parser) may take for log(n^(3/2))."""
        if expr.base.is_Function and not (expr.exp.is_Rational and expr.exp.q == 2 and expr.exp.p in (1, -1)):
            return r"\left(%s\right)^{%s}" % (self._print(expr.base), self._print(expr.exp))
        return super()._print_Pow(expr)

    def _print_erfc(self, expr, exp=None):
        tex = r"\operatorname{erfc}\left(%s\right)" % self._print(expr.args[0])
        return tex if exp is None else r"%s^{%s}" % (tex, exp)


def typeset(expr) -> str:
    """LaTeX of a registry expression, with the symbols named as `SYMBOL_TEX` says."""
    from bounds.registry import SYMBOLS
    names = {SYMBOLS[k]: v for k, v in SYMBOL_TEX.items() if k in SYMBOLS}
    return _Printer({"symbol_names": names}).doprint(expr)


def formula(name: str | None) -> list[tuple[str, str]] | None:
    """The repaired formula `name` as [(term, LaTeX)] (one unnamed term for a single expression, the
    named terms of a sum), or None where it has no registered closed form (the text says why)."""
    from bounds.registry import REGISTRY, symbolic
    if not name or name not in REGISTRY or not REGISTRY[name].symbolic:
        return None
    expr = symbolic(name)
    if isinstance(expr, dict):
        return [(k, typeset(v)) for k, v in expr.items()]
    return [("", typeset(expr))]

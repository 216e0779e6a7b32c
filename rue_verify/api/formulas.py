"""The commands about the paper's formulas: `bound` (one formula's value, terms or expression) and
`vacuity` (where a bound of Section 5 says something)."""

from __future__ import annotations

from dataclasses import asdict

from ..errors import ParameterError
from ..outputs import text as lines
from .output import Output
from .params import command

#: the grid of `vacuity(map=True)`: sigma0^2 (rows) and sigma^2 (columns), each over five decades
MAP_GRID = (1e-3, 1e2, 6)


@command('bound')
def bound(name: str | None = None, form: str = "value", **params) -> Output:
    """`rue-verify bound`: every formula (`name` None), or formula `name` at `params` (its value with its
    terms, or the reason it is undefined), or its expression (`form` 'symbolic' or 'latex')."""
    from bounds.registry import REGISTRY, evaluate_record, symbolic
    if name is None:
        return Output([{"name": k, "label": e.label, "params": list(e.params)} for k, e in REGISTRY.items()],
                      [f"{k:<26} {e.label:<44} params: {', '.join(e.params)}" for k, e in REGISTRY.items()])
    if name not in REGISTRY:
        raise ValueError(f"unknown bound {name!r}; run 'rue-verify bound --list' (bounds.registry.REGISTRY)")
    if form not in ("value", "symbolic", "latex"):
        raise ParameterError("form", f"one of value, symbolic, latex, got {form!r}")
    if form != "value":
        import sympy
        try:
            expr = symbolic(name)
        except ValueError as err:
            raise ParameterError(form, str(err)) from None
        items = expr.items() if isinstance(expr, dict) else [(name, expr)]
        out = {k: (sympy.latex(e) if form == "latex" else str(e)) for k, e in items}
        return Output(out, [f"{k}: {e}" for k, e in out.items()])
    try:
        record = evaluate_record(name, **params)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name}: {err}") from None
    return Output(record, lines.bound(record))


@command('vacuity')
def vacuity(K: int, delta: float, sigma0_sq: float | None = None, sigma_sq: float | None = None,
            bound: str = "theorem_5_1", n_max: int = 10 ** 12, map: bool = False) -> Output:
    """`rue-verify vacuity`: the smallest n at which `bound` falls below 1 at (K, sigma0^2, sigma^2, delta), or
    with `map` over a grid of sigma0^2 x sigma^2 (`MAP_GRID`)."""
    from bounds.vacuity import smallest_informative_n, vacuity_map
    if map:
        import numpy as np
        g0 = g = np.geomspace(*MAP_GRID)
        m = vacuity_map(K, delta, g0, g, bound, n_max)
        return Output({"bound": bound, "K": K, "delta": delta, "n_max": n_max, "sigma0_sq": g0.tolist(),
                       "sigma_sq": g.tolist(), "smallest_n": [[None if v < 0 else int(v) for v in row] for row in m]},
                      lines.vacuity_map(bound, K, delta, n_max, g0, g, m))
    if sigma0_sq is None or sigma_sq is None:
        raise ParameterError("sigma0_sq" if sigma0_sq is None else "sigma_sq",
                             "sigma0_sq and sigma_sq are both required without map")
    r = smallest_informative_n(K, sigma0_sq, sigma_sq, delta, bound, n_max)
    return Output(asdict(r), [lines.vacuity(r)])

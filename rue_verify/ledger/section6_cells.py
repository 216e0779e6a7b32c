"""The result rows Section 6's claims judge, shared by the claims that read them (Section 6, the
state-of-the-art comparison, Section 2's UCB-E check): the rows of a result directory (or the
shipped ones) as cells keyed by (setup, K, budget, label), the row label of each algorithm under a
reading, the literal reading of Section 6's descriptions, and the text of the cells a comparison
did not win."""

from __future__ import annotations

import functools

from simulate.algorithms import get
from simulate.algorithms.spec import TIES
from simulate.environments import FIXED_BUDGETS, PAPER_BASELINES, R_SETUPS, RANDOM_BUDGETS

from ..errors import ParameterError
from ..reproduction import comparisons as C
from ..reproduction.results import load
from ..verify import REGISTRY, Mode, fmt, witness

#: the budget labels of the fixed and the random setups (simulate.environments declares what they mean)
FIXED_LABELS, RANDOM_LABELS = tuple(FIXED_BUDGETS), tuple(RANDOM_BUDGETS)


#: The literal readings of Section 6's descriptions, by the paper's own notation and definitions: H as
#: Section 2 defines it (every arm's term), ties at random (the paper states no rule; the authors'
#: lowest-index ties come from their code), N(0.5, 0.1) with the variance second as in N(mu0, sigma0^2),
#: and Section 6.1's own words for UCB-E on the random setups, a = 2. Every other reading is a
#: charitable finding.
LITERAL = {"H_convention": "section2", "ties": "project", "normal_scale": "variance", "a_form": "c"}


@functools.lru_cache(maxsize=4)
def _load(results: str | None):
    return load(results)


def results(mode: Mode, claim_id: str) -> tuple[list[dict], str]:
    """The result rows claim `claim_id` judges (`mode.inputs.results`: a result directory, or None for the
    paper-scale results shipped with the package) and the phrase that names them; a ValueError if
    they lack one of the studies the claim declares it needs (with `mode.inputs.partial_results`, the
    shipped results instead, and the phrase says why). Never runs a sweep."""
    res = _load(mode.inputs.results)
    needs = REGISTRY[claim_id].needs
    lack = res.lacks(*needs)
    if lack and mode.inputs.partial_results and mode.inputs.results is not None:
        shipped = _load(None)
        return shipped.require(*needs), f"{shipped.description}, because {res.description} {lack}"
    return res.require(*needs), res.description


class Cells(dict):
    """Result rows keyed by (setup, K, budget, label); a missing cell is a ValueError that says so."""

    def __missing__(self, key):
        raise ParameterError("results", f"no row for {key} (an incomplete run? rerun 'rue-verify reproduce' with the "
                         f"same arguments to finish it)")


def table(rows: list[dict], **match) -> Cells:
    """Rows matching `match` (column == value), keyed by (setup, K, budget, label)."""
    out = Cells()
    for r in rows:
        if all(str(r[k]) == str(v) for k, v in match.items()):
            out[(r["setup"], int(r["K"]), r["budget"], r["label"])] = r
    return out


def row_labels(convention: str, ucbe_form: str = "cn/H") -> dict[str, str]:
    """Algorithm -> row label under a tie convention and a UCB-E reading (the registry's labels)."""
    out = {}
    for name in ("rue",) + PAPER_BASELINES:
        alg = get(name)
        takes = {p.name for p in alg.params}
        params = {k: v for k, v in TIES.variants[convention].items() if k in takes}
        if "a_form" in takes:
            params["a_form"] = ucbe_form
        out[name] = alg.label(params)
    return out


def random_cells(rows: list[dict], normal_scale: str) -> Cells:
    """The random study's cells under one reading of N(0.5, 0.1) (R3 has no such reading)."""
    T = Cells()
    for setup in R_SETUPS:
        T.update(table(rows, study="random", setup=setup, normal_scale=normal_scale if setup != "R3" else "-"))
    return T


def cells_text(cells, comps, classes, limit=6) -> str:
    """The cells a comparison did not win, with their paired differences and 95% intervals (at most `limit`)."""
    items = [f"{c}: {fmt(x.diff, 3)} [{fmt(x.low, 3)}, {fmt(x.high, 3)}] {k}" for c, x, k in zip(cells, comps, classes)
             if k != "better"]
    more = f" (+{len(items) - limit} more)" if len(items) > limit else ""
    return ("; cells not won (RUE - baseline error, 95% interval): " + "; ".join(items[:limit]) + more) if items else ""


# ---------------------------------------------------------------- witnesses that recompute
def _row(results: str | None, key: str) -> dict:
    """The stored row of `key` in `results` (None: the shipped results), else in the shipped ones (a
    partial reproduction's report judges some claims on those)."""
    for source in dict.fromkeys((results, None)):
        for r in _load(source).rows:
            if r["key"] == key:
                return r
    raise ParameterError("results", f"no row with key {key!r}")


def pair_witness(mode: Mode, family: list[tuple[dict, dict]], i: int, claimed: str) -> dict:
    """A refuted claim about cell `i` of a family of paired comparisons (Holm over the family): RUE's
    row against the other's, the family named by the rows' keys so that it recomputes. `claimed`:
    'better' or 'worse' (the paired difference of error rates, RUE's minus the other's, is then
    claimed <= 0 or >= 0; the Holm-adjusted p-value shows it is significant the other way), or
    'similar' (the Holm-adjusted p-value is claimed >= 0.05)."""
    comps = [C.compare(a, b) for a, b in family]
    q = float(C.holm([c.p for c in comps])[i])
    params = {"check": "paired", "results": mode.inputs.results, "family": [[a["key"], b["key"]] for a, b in family],
              "cell": i, "claimed": claimed}
    if claimed == "similar":
        return witness(params, q, C.ALPHA, ">=", what="Holm-adjusted p-value of the cell against the level")
    return witness(params, comps[i].diff, 0.0, "<=" if claimed == "better" else ">=", p_holm=q,
                   what="RUE's error rate minus the other's (paired), against 0")


def reduction_witness(mode: Mode, a: dict, b: dict, stated: float, level: float, seed: int) -> dict:
    """A stated relative reduction (1 - e_RUE / e_X) outside its paired bootstrap interval: the
    interval's nearer end against the stated value."""
    _, lo, hi = C.relative_reduction(a, b, level=level, seed=seed)
    side = "above" if stated > hi else "below"
    params = {"check": "reduction", "results": mode.inputs.results, "a": a["key"], "b": b["key"], "stated": stated,
              "level": level, "seed": seed, "side": side}
    return witness(params, *((stated, hi) if side == "above" else (lo, stated)), "<=",
                   what="the stated reduction against the bootstrap interval's upper end" if side == "above" else
                   "the bootstrap interval's lower end against the stated reduction")


def recompute(params: dict) -> tuple[float, float]:
    """Both sides of a witness of `pair_witness` or `reduction_witness` (or of the growth of RUE's
    advantage with K, EXP-K-SCALING), from the stored rows."""
    if params["check"] == "paired":
        family = [(_row(params["results"], a), _row(params["results"], b)) for a, b in params["family"]]
        comps = [C.compare(a, b) for a, b in family]
        i = params["cell"]
        if params["claimed"] == "similar":
            return float(C.holm([c.p for c in comps])[i]), C.ALPHA
        return comps[i].diff, 0.0
    if params["check"] == "reduction":
        _, lo, hi = C.relative_reduction(_row(params["results"], params["a"]), _row(params["results"], params["b"]),
                                         level=params["level"], seed=params["seed"])
        return (params["stated"], hi) if params["side"] == "above" else (lo, params["stated"])
    if params["check"] == "growth":       # RUE's advantage (the other's error minus RUE's), mean over budgets
        adv = {K: sum(C.compare(_row(params["results"], a), _row(params["results"], b)).diff for a, b in cells)
               / len(cells) for K, cells in params["pairs"].items()}
        ks = sorted(adv, key=int)
        return adv[ks[-1]] - adv[ks[0]], 0.0
    raise ValueError(f"no recomputation for a witness of check {params.get('check')!r}")

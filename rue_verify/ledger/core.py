"""The claims ledger's machinery: findings, verdicts, witnesses, the claim registry and the
systematic searches (grid + seeded random sampling + margin minimisation) that the checks use."""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

import numpy as np
from scipy import optimize

#: Verdicts from most to least severe (CLAIMS.md). A claim's verdict is its most severe finding.
SEVERITY = ("refuted", "undefined", "inconsistent", "conditional", "vacuous", "inconclusive", "holds")


@dataclass
class Finding:
    """One finding about a claim: a verdict, the domain it covers, and its evidence."""

    verdict: str
    domain: str
    detail: str
    witness: dict | None = None
    certified: bool = False

    def __post_init__(self) -> None:
        if self.verdict not in SEVERITY:
            raise ValueError(f"verdict must be one of {SEVERITY}, got {self.verdict!r}")


@dataclass
class Mode:
    """How hard the checks work. `quick` finishes in minutes on 2 cores; `thorough` does more."""

    name: str = "quick"
    K_max: int = 10_000
    random_samples: int = 4_000
    sim_runs: int = 400
    seed: int = 20241001
    results: str | None = None     # a reproduction's result directory for the empirical claims

    @classmethod
    def thorough(cls) -> "Mode":
        return cls("thorough", 10_000, 40_000, 4_000)


@dataclass
class Claim:
    id: str
    location: str
    statement: str
    check: Callable[[Mode], tuple[str, list[Finding]]]


@dataclass
class ClaimResult:
    id: str
    location: str
    statement: str
    verdict: str
    summary: str
    findings: list[Finding]
    seconds: float
    mode: str = "quick"

    def to_json(self) -> dict:
        d = asdict(self)
        d["findings"] = [asdict(f) for f in self.findings]
        return _jsonable(d)


class Expect(str):
    """A summary written for one outcome: valid only if the claim's computed verdict is `verdict`.
    Otherwise `run_claim` replaces it by a summary generated from the findings, so prose can never
    contradict what was computed."""

    def __new__(cls, text: str, verdict: str) -> "Expect":
        obj = super().__new__(cls, text)
        obj.verdict = verdict
        return obj


def auto_summary(findings: list[Finding]) -> str:
    return "; ".join(f"{f.verdict} ({f.domain})" for f in findings)


REGISTRY: dict[str, Claim] = {}


def claim(id: str, location: str, statement: str):
    """Register a check: a function Mode -> (summary, findings)."""
    def deco(fn: Callable[[Mode], tuple[str, list[Finding]]]):
        if id in REGISTRY:
            raise ValueError(f"claim {id} registered twice")
        REGISTRY[id] = Claim(id, location, statement, fn)
        return fn
    return deco


def overall(findings: Iterable[Finding]) -> str:
    fs = list(findings)
    if not fs:
        raise ValueError("a claim needs at least one finding")
    return min((f.verdict for f in fs), key=SEVERITY.index)


def run_claim(c: Claim, mode: Mode) -> ClaimResult:
    t0 = time.perf_counter()
    summary, findings = c.check(mode)
    verdict = overall(findings)
    if isinstance(summary, Expect) and summary.verdict != verdict:
        summary = auto_summary(findings)
    return ClaimResult(c.id, c.location, c.statement, verdict, str(summary), findings,
                       round(time.perf_counter() - t0, 3), mode.name)


def witness(params: dict, lhs: Any, rhs: Any, relation: str = "<=", **extra: Any) -> dict:
    """A witness of a violated inequality: the paper claims `lhs relation rhs`."""
    w = {"params": params, "lhs": lhs, "rhs": rhs, "relation": relation}
    w.update(extra)
    return _jsonable(w)


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if math.isfinite(v) else str(v)
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if hasattr(x, "__float__") and not isinstance(x, (int, bool, str)):
        try:
            return float(x)
        except (TypeError, ValueError):
            return str(x)
    return x


def fmt(x: float, digits: int = 4) -> str:
    return f"{float(x):.{digits}g}"


# ---------------------------------------------------------------- systematic search
@dataclass(frozen=True)
class Dim:
    """One search dimension: `low`..`high`, on a 'log' or 'lin' scale, optionally integer."""

    low: float
    high: float
    scale: str = "log"
    integer: bool = False

    def from_unit(self, u: np.ndarray) -> np.ndarray:
        u = np.clip(u, 0.0, 1.0)
        if self.scale == "log":
            v = np.exp(np.log(self.low) + u * (np.log(self.high) - np.log(self.low)))
        else:
            v = self.low + u * (self.high - self.low)
        return np.round(v) if self.integer else v


@dataclass
class SearchResult:
    """The worst point found: `margin` = rhs - lhs (< 0 means the claim is violated there)."""

    params: dict
    margin: float
    evaluated: int
    violations: int
    domain: str


def minimize_margin(margin: Callable[[dict], float], space: dict[str, Dim], mode: Mode,
                    salt: int, grid_per_dim: int = 5, random: int | None = None,
                    constraint: Callable[[dict], bool] | None = None) -> SearchResult:
    """Grid, then seeded random sampling, then Nelder-Mead from the worst point found.

    `margin(params)` returns rhs - lhs of the claimed `lhs <= rhs` (or any quantity that the claim
    says is >= 0). Points where `constraint` is False (outside the claim's hypotheses) are skipped.
    """
    names = list(space)
    rng = np.random.default_rng([mode.seed, salt])
    units = [np.array(p) for p in np.array(np.meshgrid(*[np.linspace(0, 1, grid_per_dim)] * len(
        names))).reshape(len(names), -1).T]
    units += list(rng.random((random if random is not None else mode.random_samples, len(names))))

    def point(u: np.ndarray) -> dict:
        return {k: (int(space[k].from_unit(np.array(ui))) if space[k].integer
                    else float(space[k].from_unit(np.array(ui)))) for k, ui in zip(names, u)}

    best_u, best_m, count, bad = None, math.inf, 0, 0
    for u in units:
        p = point(u)
        if constraint is not None and not constraint(p):
            continue
        m = _safe(margin, p)
        count += 1
        bad += m < 0
        if m < best_m:
            best_u, best_m = u, m

    if best_u is not None and math.isfinite(best_m):
        def obj(u: np.ndarray) -> float:
            p = point(u)
            if constraint is not None and not constraint(p):
                return math.inf
            return _safe(margin, p)
        res = optimize.minimize(obj, best_u, method="Nelder-Mead",
                                options={"maxiter": 400, "xatol": 1e-6, "fatol": 1e-14})
        count += int(res.nfev)
        if res.fun < best_m:
            best_u, best_m = np.clip(res.x, 0, 1), float(res.fun)
    dom = "; ".join(f"{k} in [{space[k].low:g}, {space[k].high:g}]" + (" (integer)" if space[k].integer else "")
                    for k in names)
    return SearchResult(point(best_u) if best_u is not None else {}, float(best_m), count, int(bad),
                        dom)


def _safe(fn: Callable[[dict], float], p: dict) -> float:
    try:
        v = float(fn(p))
    except (ValueError, ZeroDivisionError, OverflowError, FloatingPointError):
        return math.inf
    return v if not math.isnan(v) else math.inf

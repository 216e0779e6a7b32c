"""Decide a step of your own about RUE's histories (`rue-verify decide FILE.py:NAME`, or `decide(step, ...)`
and `induct(...)` from a claims file).

Two methods, each saying exactly what it decided:

- **exhausted** (`decide`): the exact history search that decides the paper's steps on E
  (`verify.histories`, RUE's linear form `simulate.proofs.linear.RUELinear`) at every budget from 2K+1
  to n, at the (K, sigma0^2, sigma^2) given. The answer is a history on E that breaks the step at the
  first budget where one exists, replayed through the plain reference RUE; or "holds at every budget
  2K+1..n" at that point; or "undecided" where a violation exists only on a tie (no strict history).
  Margins within HiGHS's rounding of 0 are decided exactly, in rational arithmetic.
- **proved** (`induct`, `decide --induct`): the step written as an invariant over RUE's abstract
  state, proved for every n by induction (`verify.induction`, z3; the state and its lemmas are those
  of `ledger.proof_induction`), or refuted with a history the exact search finds for the solver's
  counterexample (give the step's linear form as well), or "open".

A linear step is a function `step(m, arms) -> list[Violation]`, called on every full pull sequence
`arms` (0-based arms, arm 0 the best): `m` is the model (counts `m.counts(arms)`, widths `m.width(arms)`,
ctilde `m.ctilde(T)`, eta `m.eta`, the column of arm k's mean `m.mu(k)`), and each `Violation` is a set
of linear rows (`Row(idx, coef, lo, hi)`: lo <= coef . z[idx] <= hi over the rewards and the means,
`MARGIN` the column of the violation's margin) that together say "the step fails here". The helpers
`gap_at_least(m, k, x)` and `gap_below(m, k, x)` write Delta_k > x and Delta_k < x with the margin.
Arms 2..K are tried in every order unless the step declares itself symmetric in them
(`step.symmetric = True`, or `symmetric=True`); the search then tries one order and checks the
declaration on every history it visits.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from simulate.proofs.linear import Row, replay
from simulate.proofs.linear import Violation as _ModelViolation

from .ledger.proof_histories import Params, gap_at_least, gap_below
from .verify.histories import MARGIN, Violation, search

ROUTES = ("paper", "repaired")
#: pull sequences the exact search visits per second on the developers' host (docs/bench.txt:
#: `bench --histories` measured 1,100-1,550): the basis of the run-time estimate
RATE = 1000.0
#: the default limit on the estimated run time, in seconds (`max_seconds`)
MAX_SECONDS = 120.0

__all__ = ["MARGIN", "ROUTES", "Row", "Violation", "AsymmetricStep", "Induct", "decide", "estimate", "gap_at_least",
           "gap_below", "induct"]


class AsymmetricStep(ValueError):
    """A step declared symmetric in arms 2..K is not: two relabellings of a history disagree."""


def _canonical(vs: list, m, relabel: dict[int, int] | None) -> list:
    """The violations as comparable sets of rows, with each arm a's mean column moved to arm
    relabel[a]'s (None: as they are)."""
    cols = {m.mu(a): m.mu(b) for a, b in (relabel or {}).items()}
    out = []
    for v in vs:
        rows = []
        for idx, coef, lo, hi in v.rows:
            pairs = tuple(sorted((int(cols.get(int(i), int(i))), float(f"{c:.9g}"))
                                 for i, c in zip(np.atleast_1d(idx), np.atleast_1d(coef)) if c != 0))
            rows.append((pairs, float(f"{lo:.9g}") if math.isfinite(lo) else lo,
                         float(f"{hi:.9g}") if math.isfinite(hi) else hi))
        out.append(tuple(sorted(rows)))
    return sorted(out)


def _checked(step: Callable, K: int) -> Callable:
    """`step`, checked on every history it is called on: relabelling arms 2..K by any permutation (every
    one of the (K - 1)! - 1 others, K <= 6) must relabel its violations' mean columns and nothing else.
    Every history the search does not visit is such a relabelling of one it visits, so the step's
    answer there is the relabelled answer here, which is what the search with one order assumes."""
    import itertools
    if K < 3:
        return step
    perms = [dict(zip(range(1, K), p)) for p in itertools.permutations(range(1, K))][1:]

    def wrapped(m, arms):
        vs = step(m, arms)
        for pi in perms:
            moved = tuple(pi.get(a, a) for a in arms)
            if _canonical(vs, m, pi) != _canonical(step(m, moved), m, None):
                order = "".join(str(pi[a] + 1) for a in range(1, K))
                raise AsymmetricStep(f"step: declared symmetric in arms 2..K, but relabelling arms 2..{K} as {order} "
                                     f"in the history {''.join(str(a + 1) for a in arms)} changes its violations "
                                     "otherwise than by the relabelling; drop the declaration "
                                     "(every arm is then tried)")
        return vs
    return wrapped


class StepFailed(ValueError):
    """Your step raised, or returned something that is not a list of `Violation`."""


def _guarded(step: Callable) -> Callable:
    """`step`, each answer checked: a list of `Violation`; an exception inside it, or another answer, is a
    `StepFailed` in one line naming the history and where in your file."""
    from .verify.faults import TimeLimit, one_line

    def wrapped(m, arms):
        try:
            vs = step(m, arms)
        except (KeyboardInterrupt, TimeLimit):
            raise
        except BaseException as err:
            raise StepFailed(f"step: raised on the history {''.join(str(a + 1) for a in arms)}: {one_line(err)}") \
                from None
        kinds = (Violation, _ModelViolation)        # the search's, or the linear form's (the paper's steps build it)
        if not isinstance(vs, (list, tuple)) or not all(isinstance(v, kinds) for v in vs):
            bad = vs if not isinstance(vs, (list, tuple)) else next(v for v in vs if not isinstance(v, kinds))
            raise StepFailed(f"step: must return a list of Violation (empty where the step holds), returned "
                             f"{'None' if bad is None else type(bad).__name__} on the history "
                             f"{''.join(str(a + 1) for a in arms)}")
        return list(vs)
    return wrapped


def estimate(K: int, n: int, relabel: bool, every_budget: bool = True) -> tuple[float, float]:
    """(pull sequences, seconds) the exact search may visit at K arms up to budget n: the tree below the
    initialisation has K children a node (at most min(K, depth + 2) up to relabelling arms 2..K), summed
    over the budgets searched; seconds at `RATE`. An upper estimate: pruning only removes nodes."""
    total = 0.0
    for b in (range(2 * K + 1, n + 1) if every_budget else (n,)):
        level = 1.0
        for d in range(b - 2 * K):
            level *= min(K, d + 2) if relabel else K
            total += level
    return total, total / RATE


def decide(step: Callable, K: int, n: int, sigma0_sq: float = 1.0, sigma_sq: float = 1.0, route: str = "paper", *,
           symmetric: bool | None = None, every_budget: bool = True, max_seconds: float = MAX_SECONDS) -> dict:
    """Search every history of RUE with known variances on E, at every budget 2K+1..n, for one that
    breaks `step`.

    Args:
        step: (model, arms) -> list of `Violation` (module docstring).
        K: arms, an integer in [2, 6].
        n: the largest budget, an integer in [2K + 1, 20].
        sigma0_sq, sigma_sq: the prior and reward variances RUE is told, > 0.
        route: 'paper' (Theorem 5.1's eta, E on rounds 2K+1..n) or 'repaired' (eta_repaired, rounds 2K..n).
        symmetric: the step is symmetric in arms 2..K (None: the step's own `symmetric` attribute, else
            False): one order of those arms is searched, and the declaration is checked on each history.
        every_budget: every budget from 2K+1 to n (True), or the budget n only.
        max_seconds: refuse to start when the estimated run time (`estimate`) is larger.

    Returns:
        {params, status ('holds', 'broken', 'undecided'), holds (True, False, or None where undecided), budgets,
        visited, leaves, pruned, programs,
        seconds, estimate} and, where the step breaks, `budget` and the witness (pulls 1-based, rewards in
        order, means, the violation's label and data, its margin); where undecided, `undecided`.

    Raises:
        ValueError: bad input, or an estimated run time over `max_seconds` (names both).
        AsymmetricStep: a step declared symmetric that is not.
    """
    for name, v, lo, hi in (("K", K, 2, 6), ("n", n, 2 * K + 1 if isinstance(K, int) else 5, 20)):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")
    for name, v in (("sigma0_sq", sigma0_sq), ("sigma_sq", sigma_sq)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    if route not in ROUTES:
        raise ValueError(f"route must be one of {', '.join(ROUTES)}, got {route!r}")
    sym = bool(getattr(step, "symmetric", False) if symmetric is None else symmetric)
    seqs, secs = estimate(K, n, sym, every_budget)
    if secs > max_seconds:
        raise ValueError(f"max_seconds: the search at K = {K} up to n = {n} may visit about {seqs:.3g} pull sequences, "
                         f"about {secs:.0f} s at {RATE:.0f} sequences/s, over the limit of {max_seconds:g} s; raise "
                         "it (--max-seconds), lower n or K, or declare the step symmetric if it is")
    if not callable(step):
        raise ValueError(f"step: a function step(m, arms) -> list of Violation is wanted, got {type(step).__name__}")
    import inspect
    try:
        inspect.signature(step).bind(None, None)
    except TypeError:
        raise ValueError(f"step: must take two arguments, step(m, arms); {getattr(step, '__name__', 'it')} takes "
                         f"{inspect.signature(step)}") from None
    except ValueError:                     # no signature to read (a builtin): its first call says
        pass
    fn = _checked(_guarded(step), K) if sym else _guarded(step)
    budgets = list(range(2 * K + 1, n + 1)) if every_budget else [n]
    t0 = time.perf_counter()
    tot = {"visited": 0, "leaves": 0, "pruned": 0, "programs": 0}
    res: dict[str, Any] = {}
    from .verify.faults import time_limit
    for b in budgets:
        p = Params(K, b, float(sigma0_sq), float(sigma_sq), route)
        m = p.model()
        m.relabel = sym
        with time_limit(2 * max_seconds + 30, "the search", "its estimate was lower: raise --max-seconds"):
            out = search(m, fn)
        for k in tot:
            tot[k] += getattr(out, k)
        if out.witness is not None:
            w = out.witness
            r = replay(m, w.arms, w.z[:m.n], w.z[m.n:])
            hist = {"pulls": [a + 1 for a in w.arms], "rewards": w.z[:m.n].tolist(), "means": w.z[m.n:].tolist(),
                    "where": w.violation.label, "data": dict(w.violation.data), "margin": float(w.margin)}
            if r["same_pulls"] and not r["tie"] and r["event_slack"] >= 0:
                res = {"status": "broken", "budget": b, "witness": hist, "params": p.as_dict()}
            else:                        # exactly a violation, but no strict history shows it
                res = {"status": "undecided", "budget": b, "params": p.as_dict(),
                       "undecided": f"a violation of margin {w.margin:.3g} exists on the pulls "
                                    f"{''.join(map(str, hist['pulls']))} only with a tie or on E's edge, which the "
                                    "plain reference RUE does not replay strictly"}
            break
        if out.tie is not None:
            arms, margin, label = out.tie
            res = {"status": "undecided", "budget": b, "params": p.as_dict(),
                   "undecided": f"on the search's floating-point coefficients, taken exactly (rational arithmetic), a "
                                f"margin {margin:.3g} > 0 exists ({label}) on the pulls "
                                f"{''.join(str(a + 1) for a in arms)}, but only on a tie of RUE's choice or on E's "
                                "edge: no strict history shows it (a margin that is 0 in real arithmetic looks like "
                                "this; the induction, --induct, decides such a step for every n)"}
            break
    if not res:
        res = {"status": "holds", "params": Params(K, n, float(sigma0_sq), float(sigma_sq), route).as_dict()}
    # holds: true or false where decided, null where undecided (a violation only on a tie decides neither way)
    res.update(holds={"holds": True, "broken": False}.get(res["status"]), budgets=[budgets[0], budgets[-1]],
               symmetric=sym,
               seconds=round(time.perf_counter() - t0, 3), estimate={"sequences": seqs, "seconds": round(secs, 1)},
               **tot)
    return res


def _formula(holds: Callable) -> Callable:
    """`holds`, each answer checked: a z3 Boolean formula; an exception inside it, or another answer
    (None, a Python bool), is a `StepFailed` in one line."""
    from .verify.faults import TimeLimit, one_line
    from .verify.induction import z3

    def wrapped(p, s):
        try:
            f = holds(p, s)
        except (KeyboardInterrupt, TimeLimit):
            raise
        except BaseException as err:
            raise StepFailed(f"step: Induct.holds raised: {one_line(err)}") from None
        if isinstance(f, bool):            # a constant is a formula too
            return z3().BoolVal(f)
        if not z3().is_bool(f):
            raise StepFailed(f"step: Induct.holds must return a z3 Boolean formula (e.g. z3.And(...), "
                             f"s['T_k'] >= 2), returned {'None' if f is None else type(f).__name__}")
        return f
    return wrapped


def false_state(spec: "Induct", params: dict) -> str | None:
    """Where `spec.holds` is false on the concrete history of a witness's `params` (K, n, sigma0_sq,
    sigma_sq, eta, route, history: pulls 1-based, rewards, means): the first state from the base state
    (after round 2K) at which, for some arm k of 2..K, the formula with every variable of RUE's abstract
    state set to its value on the history (exact rationals of the floats) simplifies to false, as
    'after round t, arm k'; None where it is true at every state and arm."""
    from bounds import theorems as th
    from bounds.estimation import posterior_arrays, tau_sq_tilde

    from .verify.induction import z3
    Z = z3()
    K, n, s0, s = int(params["K"]), int(params["n"]), float(params["sigma0_sq"]), float(params["sigma_sq"])
    h = params["history"]
    pulls, x, mu = [a - 1 for a in h["pulls"]], h["rewards"], h["means"]
    L = math.log(n)
    R = Z.RealVal

    def ctilde(T):
        return math.sqrt(2 * tau_sq_tilde(T, s0, s) * L)
    T, S = np.zeros(K), np.zeros(K)
    beta, beta_1 = float(th.beta(K, s0, s)), float(th.beta_1(K, s0, s))
    for t, (a, r) in enumerate(zip(pulls, x), 1):
        T[a] += 1
        S[a] += r
        if t < 2 * K:
            continue
        mean, var, _ = posterior_arrays(T, S, s0, s)
        for k in range(1, K):
            p = {"sigma0_sq": R(s0), "sigma_sq": R(s), "L": R(L), "eta": R(float(params["eta"])), "K": R(K),
                 "mu_1": R(mu[0]), "mu_k": R(mu[k]), "beta": R(beta), "sqrt_beta": R(math.sqrt(beta)),
                 "sqrt_beta_1": R(math.sqrt(beta_1)), "Delta": R(mu[0] - mu[k])}
            st = {"T_1": R(int(T[0])), "T_k": R(int(T[k])), "muhat_1": R(float(mean[0])),
                  "muhat_k": R(float(mean[k])), "tau_1": R(float(var[0])), "tau_k": R(float(var[k])),
                  "c_1": R(math.sqrt(2 * var[0] * L)), "c_k": R(math.sqrt(2 * var[k] * L)),
                  "ct_1": R(ctilde(T[0])), "ct_k": R(ctilde(T[k])), "ct_1m": R(ctilde(T[0] - 1)),
                  "ttau_1": R(tau_sq_tilde(T[0], s0, s)), "ttau_k": R(tau_sq_tilde(T[k], s0, s))}
            if Z.is_false(Z.simplify(spec.holds(p, st))):
                return f"after round {t}, arm {k + 1}"
    return None


@dataclass(frozen=True)
class Induct:
    """A step in the inductive form, for `induct` (`rue-verify decide FILE.py:NAME --induct`).

    Attributes:
        holds: (params, state) -> a z3 formula: the statement at one state of RUE's abstract state
            (`ledger.proof_induction`: params sigma0_sq, sigma_sq, L = log n, eta, K, mu_1, mu_k,
            Delta = mu_1 - mu_k, beta, sqrt_beta; state T_1, T_k, muhat_1, muhat_k, c_1, c_k, tau_1,
            tau_k, ct_1, ct_k, ct_1m = ctilde(T_1 - 1)).
        statement: what it says, in words.
        lemmas: the lemmas it may assume at each state: 'tau_upper' (Lemma sec:tau's upper side),
            'tau_lower' (its true lower side, tau^2 >= ttau^2).
        step: the same statement's linear form (`decide`'s `step`), so that a counterexample of the
            solver can be made a concrete history; None: a counterexample stays abstract.
        cuts: the round's argument in pieces (`verify.induction.Cut`: text, the round's label, (params,
            state, next) -> a z3 formula, the hypotheses it keeps), each proved as a case of its own and
            then assumed, as the proof writes them: a case too hard whole (for cvc5 especially) is often
            easy in pieces; a piece found false leaves the step open, never refuted.
    """

    holds: Callable
    statement: str = "your step"
    lemmas: tuple[str, ...] = ("tau_upper", "tau_lower")
    step: Callable | None = None
    cuts: tuple = ()


def induct(spec: Induct, route: str = "repaired", *, timeout_ms: int | None = None) -> dict:
    """Prove `spec` for every budget n by induction over RUE's states (z3), or refute it with a history.

    Returns:
        {status ('proved', 'refuted', 'open'), route, domain, rests_on, cases: [{label, answer, seconds}],
        seconds} and, refuted, the witness; open, why (the solver's counterexample with no history found,
        or its 'unknown').
    """
    from .ledger import proof_induction as pi
    from .verify import induction as ind
    if not isinstance(spec, Induct):
        raise ValueError(f"step: --induct needs an Induct(holds, ...) object (rue_verify.decide.Induct), got "
                         f"{type(spec).__name__}")
    if route not in ROUTES:
        raise ValueError(f"route must be one of {', '.join(ROUTES)}, got {route!r}")
    known = {"tau_upper": pi.TAU_UPPER, "tau_lower": pi.TAU_LOWER}
    bad = [x for x in spec.lemmas if x not in known]
    if bad:
        raise ValueError(f"lemmas: unknown {bad}; known: {', '.join(known)}")
    if not callable(spec.holds):
        raise ValueError(f"step: Induct.holds must be a function (params, state) -> a z3 formula, got "
                         f"{type(spec.holds).__name__}")
    if not all(isinstance(c, ind.Cut) for c in spec.cuts):
        raise ValueError("cuts: each a rue_verify.verify.induction.Cut(text, round, at, keep), got "
                         f"{[type(c).__name__ for c in spec.cuts]}")
    inv = ind.Invariant("yours", spec.statement, _formula(spec.holds), tuple(known[x] for x in spec.lemmas),
                        cuts=tuple(spec.cuts))
    t0 = time.perf_counter()
    d = ind.decide(pi.system(route), inv, **({"timeout_ms": timeout_ms} if timeout_ms else {}))
    out = {"route": route, "domain": d.domain, "rests_on": list(d.rests_on),
           "cases": [{"label": c.label, "answer": c.answer, "seconds": c.seconds, **({"cut": True} if c.cut else {})}
                     for c in d.cases]}
    if d.proved:
        out["status"] = "proved"
    elif d.failing is not None and spec.step is not None:
        wit, searched = pi.concretize("yours", route, d, spec=inv, history_step=lambda p: spec.step)
        out.update(status="refuted" if wit else "open", searched=searched, abstract=d.failing.model,
                   case=d.failing.label)
        if wit:
            false_at = false_state(spec, wit["params"])
            if false_at is None:         # the linear form broke where `holds` does not: the two forms disagree
                out.update(status="open", why="the history found for the solver's counterexample breaks the step's "
                           "linear form (Induct.step), but holds is true at every state of it (evaluated exactly on "
                           "its rewards' floating-point values): the two forms of the step disagree, so neither "
                           "refutes it", unconfirmed=wit)
            else:
                out.update(witness=wit, false_at=false_at)
    elif d.failing is not None:
        out.update(status="open", case=d.failing.label, abstract=d.failing.model,
                   why="the solver's counterexample is abstract; give the step's linear form (Induct(step=...)) to "
                       "search for a history behind it")
    else:
        open_ = next(c for c in d.cases if c.answer != "unsat")
        out.update(status="open", case=open_.label, why=f"the solver answered unknown ({open_.reason})" if
                   open_.answer == "unknown" else "a cut is false there (its case is satisfiable), so the round that "
                   "assumes it proves nothing; no counterexample of the step either")
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def describe(res: dict, step: str) -> list[str]:
    """A decision (`decide`) or an induction (`induct`) in words, one line per item: what was searched, and
    the verdict with its history or its cases; the command line prints these lines."""
    out: list[str] = []
    if "cases" in res:
        cases = "; ".join(f"{c['label']}: {c['answer']}" for c in res["cases"])
        rests = f", given {', '.join(res['rests_on'])}" if res["rests_on"] else ""
        out.append(f"{step} by induction over RUE's states ({res['route']} route; {res['seconds']:.2f} s)\n{cases}")
        if res["status"] == "proved":
            out.append(f"proved for every budget n on {res['domain']}{rests}")
        elif res["status"] == "refuted":
            w = res["witness"]["params"]
            out.append(f"refuted: the solver's counterexample, asked again at concrete values, led the exact search "
                       f"to a history on E that the plain reference RUE replays ({res['searched']}):\n  K = {w['K']}, "
                       f"n = {w['n']}, pulls {''.join(map(str, w['history']['pulls']))}\n  rewards "
                       f"{w['history']['rewards']}\n  means   {w['history']['means']}")
        else:
            out.append(f"open: {res.get('why') or res.get('searched')} (case '{res['case']}')")
        return out
    p = res["params"]
    lo, hi = res["budgets"]
    head = (f"{step} at K = {p['K']}, sigma0^2 = {p['sigma0_sq']:g}, sigma^2 = {p['sigma_sq']:g} "
            f"({p['route']} route: eta = {p['eta']:.6g}; E from round {p['E_rounds'][0]}); "
            + ("one order of arms 2..K (declared symmetric, checked)" if res["symmetric"] else "every arm tried")
            + f"; {res['visited']} pull sequences, {res['programs']} linear programs, {res['seconds']:.1f} s")
    span = f"every budget n = {lo}..{hi}" if lo != hi else f"the budget n = {hi} only"
    if res["status"] == "holds":
        out.append(f"{head}\nholds (exhausted): no history on E breaks it at {span}")
        return out
    if res["status"] == "undecided":
        out.append(f"{head}\nundecided at n = {res['budget']}: {res['undecided']}")
        return out
    w = res["witness"]
    out.append(f"{head}\nbroken at n = {res['budget']} ({w['where']}; margin {w['margin']:.6g}) by the history, "
               f"which the plain reference RUE replays:\n  pulls   {''.join(map(str, w['pulls']))}\n  rewards "
               f"{w['rewards']}\n  means   {w['means']}")
    return out



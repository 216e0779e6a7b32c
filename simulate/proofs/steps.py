"""The steps of Section 5's proofs that quantify over histories, as rows of RUE's linear form
(`simulate.proofs.linear.RUELinear`): for a full history of n rounds (arm 1, index 0 here, the best arm), the
ways a step can fail, each a `Violation` (linear rows in the rewards, the means and a margin m; the step is
broken on a history when m > 0 is feasible with RUE's choices and the event E). E is |mu_k - muhat_{k,t}| <=
eta c_{k,t} for t in {2K+1, ..., n} (proof of Theorem 5.1, as printed) or, on the repaired route, for t in
{2K, ..., n}.

The thresholds are the paper's formulas from `bounds` (eq. `Tk_up1`: `theorems.Tk_upper`; eq. `tilde_c`:
`estimation.c_tilde`; eq. `eqn:T1n`: `theorems.T1_lower`), evaluated at the counts the pull sequence fixes.

These translations are the search's (`rue_verify.ledger.proof_histories`, over `rue_verify.verify.histories`)
and the Farkas checker's (`rue_verify.certify.farkas` rebuilds a certificate's rows from them and the model, so
that a file's rows are the step's at the point its statement names): one source for both, importing numpy,
`bounds` and the linear form only (no search, no solver)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from bounds import repaired as rp
from bounds import theorems as th

from .linear import MARGIN, Row, RUELinear, Violation


@dataclass(frozen=True)
class Params:
    """One parameter point of a history search: (K, n, sigma0^2, sigma^2) and which route's eta and
    event range (the paper's: eta of Theorem 5.1, rounds 2K+1..n; the repaired: eta_repaired,
    rounds 2K..n)."""

    K: int
    n: int
    sigma0_sq: float
    sigma_sq: float
    route: str = "paper"

    @property
    def eta(self) -> float:
        f = th.eta if self.route == "paper" else rp.eta_repaired      # "repaired" or "repaired-2K+1"
        return float(f(self.K, self.sigma0_sq, self.sigma_sq))

    @property
    def beta(self) -> float:
        return float(th.beta(self.K, self.sigma0_sq, self.sigma_sq))

    @property
    def beta_1(self) -> float:
        return float(th.beta_1(self.K, self.sigma0_sq, self.sigma_sq)) if self.route == "paper" else 1.0

    def model(self) -> RUELinear:
        start = 2 * self.K if self.route == "repaired" else 2 * self.K + 1
        return RUELinear(self.K, self.n, self.sigma0_sq, self.sigma_sq, self.eta, event_from=start)

    def as_dict(self) -> dict:
        return {"K": self.K, "n": self.n, "sigma0_sq": self.sigma0_sq, "sigma_sq": self.sigma_sq,
                "route": self.route, "eta": self.eta, "E_rounds": [self.model().event_from, self.n]}


def _gap(m: RUELinear, k: int, sign: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Delta_k = mu_1 - mu_k as (idx, coef), times `sign`."""
    return np.array([m.mu(0), m.mu(k)]), sign * np.array([1.0, -1.0])


def gap_at_least(m: RUELinear, k: int, thr: float) -> Row:
    """Delta_k - margin >= thr."""
    idx, coef = _gap(m, k)
    return Row(np.append(idx, MARGIN), np.append(coef, -1.0), thr, math.inf)


def gap_below(m: RUELinear, k: int, thr: float) -> Row:
    """Delta_k + margin <= thr."""
    idx, coef = _gap(m, k)
    return Row(np.append(idx, MARGIN), np.append(coef, 1.0), -math.inf, thr)


def _recommends(m: RUELinear, arms: tuple[int, ...], J: int) -> list[Row]:
    """J_n = J: muhat_{J,n} >= muhat_{j,n} for every j (a tie may go to J: any fixed rule)."""
    cols, M = m.mean_rows(arms)
    return [Row(cols, M[J] - M[j], 0.0, math.inf) for j in range(m.K) if j != J]


def _counts_over_time(m: RUELinear, arms: tuple[int, ...]) -> np.ndarray:
    """T after each round t (row t-1), for t = 1..n."""
    T = np.zeros((len(arms), m.K))
    for t, a in enumerate(arms):
        T[t] = T[t - 1] if t else 0
        T[t, a] += 1
    return T


# ---------------------------------------------------------------- the steps
def tk_up(p: Params) -> Callable:
    """Eq. Tk_up1: on E, T_{k,t} <= 2 + 2 Delta_k^-2 (1+eta)^2 beta sigma^2 log n for k != 1 and every
    t; T_{k,t} grows with t, so t = n decides it. Broken: T_{k,n} > 2 and Delta_k > the root of
    T = Tk_upper(Delta) (with eta_repaired on the repaired route)."""
    upper = th.Tk_upper if p.route == "paper" else rp.Tk_upper_repaired
    X = float(upper(1.0, p.K, p.n, p.sigma0_sq, p.sigma_sq)) - 2       # Tk_upper = 2 + X / Delta^2

    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        T = m.counts(arms)
        # X <= 0 (a bound below 2, e.g. a formula planted wrong): every gap breaks it once T_k > 2
        return [Violation(f"arm {k + 1}: T_k = {int(T[k])}", [gap_at_least(m, k, math.sqrt(max(X, 0.0) / (T[k] - 2)))],
                          {"k": k, "T_k": int(T[k])})
                for k in range(1, m.K) if T[k] > 2]
    return step


def tk_low(p: Params, shifted: bool = False, unit_beta_1: bool = False) -> Callable:
    """Eq. Tk_lowv2: on E, (1-eta) sqrt(beta_1) ctilde_{k,t} <= (1+eta) sqrt(beta) ctilde_{1,t} + Delta_k
    for k != 1 and every round t of E's range. With `shifted` (the repair): beta_1 = 1 and arm 1's
    count one pull lower, ctilde(T_{1,t} - 1); with `unit_beta_1`, beta_1 = 1 and the count as printed.
    Broken: Delta_k below the largest over t of the rest."""
    eta, b, b1 = p.eta, p.beta, (1.0 if unit_beta_1 else p.beta_1)

    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        T = _counts_over_time(m, arms)[m.event_from - 1:]
        ct = m.ctilde(T)
        ct1 = m.ctilde(T[:, 0] - 1) if shifted else ct[:, 0]
        out = []
        for k in range(1, m.K):
            g = (1 - eta) * math.sqrt(b1) * ct[:, k] - (1 + eta) * math.sqrt(b) * ct1
            t = int(np.argmax(g))
            out.append(Violation(f"arm {k + 1} at round {m.event_from + t}", [gap_below(m, k, float(g[t]))],
                                 {"k": k, "round": m.event_from + t}))
        return out
    return step


def decomp(p: Params) -> Callable:
    """Eq. regret-decomV's inclusion: on E, an error J_n = J != 1 forces Delta_J <= eta (c_{1,n} + c_{J,n})."""
    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        c = m.width(arms)
        return [Violation(f"J_n = arm {J + 1}", _recommends(m, arms, J) + [gap_at_least(m, J, m.eta * (c[0] + c[J]))],
                          {"J": J}) for J in range(1, m.K)]
    return step


def prob_dk_v1(p: Params) -> Callable:
    """Eqs. prob-dk and prob-dk-v1's inclusion: on E and E_1 = {ctilde_{1,n} <= Delta_min/(sqrt(beta)(1+eta))},
    Delta_k >= eta sqrt(beta) (ctilde_{1,n} + ctilde_{k,n}) for every k != 1."""
    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        ct = m.ctilde(m.counts(arms))
        e1 = [Row(*_gap(m, j), math.sqrt(p.beta) * (1 + p.eta) * ct[0], math.inf)     # E_1: Delta_j >= threshold
              for j in range(1, m.K)]
        return [Violation(f"arm {k + 1}", e1 + [gap_below(m, k, p.eta * math.sqrt(p.beta) * (ct[0] + ct[k]))],
                          {"k": k}) for k in range(1, m.K)]
    return step


def gap_repaired(p: Params) -> Callable:
    """The repaired route's inclusion (repair of eqs. prob-dk, prob-dk-v1): on E, an error forces
    Delta_min < (1+eta) sqrt(beta) ctilde(T_{1,n} - 1)."""
    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        thr = (1 + p.eta) * math.sqrt(p.beta) * float(m.ctilde(m.counts(arms)[0] - 1))
        return [Violation(f"J_n = arm {J + 1}", _recommends(m, arms, J)
                          + [gap_at_least(m, k, thr) for k in range(1, m.K)], {"J": J}) for J in range(1, m.K)]
    return step


def t1n(p: Params) -> Callable:
    """Eq. eqn:T1n: on E, T_{1,n} >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 log n - 2(K-1)
    (`theorems.T1_lower`; eta_repaired on the repaired route). Broken: D = n - 2(K-1) - T_{1,n} > 0 and
    Delta_min > sqrt((K-1) X / D)."""
    upper = th.Tk_upper if p.route == "paper" else rp.Tk_upper_repaired
    X = float(upper(1.0, p.K, p.n, p.sigma0_sq, p.sigma_sq)) - 2

    def step(m: RUELinear, arms: tuple[int, ...]) -> list[Violation]:
        D = m.n - 2 * (m.K - 1) - m.counts(arms)[0]
        if D <= 0:
            return []
        thr = math.sqrt((m.K - 1) * max(X, 0.0) / D)
        return [Violation(f"T_1 = {int(m.counts(arms)[0])}", [gap_at_least(m, k, thr) for k in range(1, m.K)],
                          {"T_1": int(m.counts(arms)[0])})]
    return step


#: the steps by name: (builder, what it says)
STEPS: dict[str, tuple[Callable, str]] = {
    "Tk_up1": (tk_up, "on E, T_k <= 2 + 2 Delta_k^-2 (1+eta)^2 beta sigma^2 log n (k != 1, every round)"),
    "Tk_lowv2": (tk_low, "on E, (1-eta) sqrt(beta_1) ctilde_k <= (1+eta) sqrt(beta) ctilde_1 + Delta_k"),
    "Tk_lowv2-beta1": (lambda p: tk_low(p, unit_beta_1=True),
                       "on E, (1-eta) ctilde_k <= (1+eta) sqrt(beta) ctilde_1 + Delta_k (beta_1 = 1, counts as "
                       "printed)"),
    "Tk_lowv2-shifted": (lambda p: tk_low(p, shifted=True),
                         "on E, (1-eta) ctilde_k <= (1+eta) sqrt(beta) ctilde(T_1 - 1) + Delta_k"),
    "regret-decomV": (decomp, "on E, J_n != 1 forces Delta_J <= eta (c_1 + c_J)"),
    "prob-dk-v1": (prob_dk_v1, "on E and E_1, Delta_k >= eta sqrt(beta)(ctilde_1 + ctilde_k)"),
    "gap-repaired": (gap_repaired, "on E, J_n != 1 forces Delta_min < (1+eta) sqrt(beta) ctilde(T_1 - 1)"),
    "eqn:T1n": (t1n, "on E, T_1 >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 log n - 2(K-1)"),
}


def point(p: Params) -> dict:
    """The parameter point `p` as a certificate names it (`Params`'s fields)."""
    return {"K": p.K, "n": p.n, "sigma0_sq": p.sigma0_sq, "sigma_sq": p.sigma_sq, "route": p.route}


def stated(step: str, p: Params) -> str:
    """What a certificate of `step` at `p` states (the writer's and the checker's one text): the step, what it says,
    and the point with its route's eta (to 12 significant digits: a reader's libm may round it an ulp apart) and
    E's rounds."""
    said = p.as_dict()
    said["eta"] = float(f"{said['eta']:.12g}")
    return f"{step}: {STEPS[step][1]}; on every reward history of E at {said}"

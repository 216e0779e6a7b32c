"""RUE with known variances is linear in its rewards once its pull sequence is fixed (the fact the
exact history search rests on).

Given the counts T (the pull sequence up to round t), every count-dependent quantity of Section 4 is a
number: the weights w_k (eq. `blup`), the posterior variances tau_k^2 (eq. `MSE`), the widths
c_k = sqrt(2 tau_k^2 log n), ctilde_k (eq. `tilde_c`). The posterior means are linear in the per-arm
reward sums: muhat = A(T) S, where column j of A(T) is the posterior mean of the sums e_j
(`bounds.estimation.posterior_arrays`, the one formula of eq. `blup`, applied to unit vectors). So

- RUE's choice at round t, "U_{I_t,t} >= U_{j,t} for every j" with U built from the state after
  round t-1 (Algorithm 1, `alg:bai`), is a set of linear inequalities in the rewards;
- the event E's "|mu_k - muhat_{k,t}| <= eta c_{k,t}" (proof of Theorem 5.1) is linear in the rewards
  and the means.

`RUELinear` lays these rows out over the variables (x_1, ..., x_n, mu_1, ..., mu_K): the rewards in
the order they were drawn (the initialisation pulls arms 1, ..., K, then 1, ..., K again, as the
kernels do; Algorithm 1 only says "pull each arm twice", and nothing downstream depends on the
order) and the arm means. Arm 1 (index 0) is the best arm (the proof's "without loss of generality");
arms 2..K are interchangeable in the paper's steps, so only one of those never pulled after the
initialisation is tried next (the first), which visits each pull sequence once up to relabelling them
(`relabel`; a step that singles out one of arms 2..K needs every arm tried: `relabel = False`).

`replay` runs the plain reference RUE on a history and says whether it makes the same pulls, which a
witness of the search must do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from bounds.estimation import c_tilde, posterior_arrays


def mean_matrix(T: np.ndarray, sigma0_sq: float, sigma_sq: float) -> np.ndarray:
    """A(T), K x K: the posterior means of eq. `blup` are A(T) @ S for the reward sums S at counts T."""
    T = np.asarray(T, float)
    K = T.size
    mean, _, _ = posterior_arrays(np.broadcast_to(T, (K, K)), np.eye(K), sigma0_sq, sigma_sq)
    return mean.T.copy()           # row j of `mean` is muhat at S = e_j: column j of A


def widths(T: np.ndarray, n: int, sigma0_sq: float, sigma_sq: float) -> np.ndarray:
    """c_k = sqrt(2 tau_k^2 log n) at counts T (eq. `MSE`; the index's width in Algorithm 1)."""
    _, var, _ = posterior_arrays(np.asarray(T, float), np.zeros(len(T)), sigma0_sq, sigma_sq)
    return np.sqrt(2 * var * math.log(n))


#: the margin's column in a violation's rows (a step's rows may use it beside the model's variables)
MARGIN = -1


@dataclass
class Violation:
    """One way a step can fail on a full history: `rows` (idx, coef, lo, hi) that may use `MARGIN`;
    `label` names it (the arm, the round, which side); `data`, anything the caller wants back."""

    label: str
    rows: list
    data: dict = field(default_factory=dict)


class Row(NamedTuple):
    """One linear row lo <= coef . z[idx] <= hi over the search's variables (a plain tuple, which is
    what the history search takes)."""

    idx: np.ndarray
    coef: np.ndarray
    lo: float
    hi: float


@dataclass
class RUELinear:
    """RUE's histories with known variances as linear rows, for a search over pull sequences.

    Args:
        K: arms, >= 2.
        n: the budget (the length of every history), >= 2K + 1.
        sigma0_sq: the prior variance RUE uses, > 0.
        sigma_sq: the likelihood variance RUE uses, > 0.
        eta: the event E's width fraction (E: |mu_k - muhat_{k,t}| <= eta c_{k,t}), > 0.
        event_from: the first round E constrains (the paper: 2K + 1); later rounds up to n all are.
        relabel: try one order of arms 2..K (a step symmetric in them); False tries every arm.
    """

    K: int
    n: int
    sigma0_sq: float
    sigma_sq: float
    eta: float
    event_from: int | None = None
    relabel: bool = True
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if int(self.K) != self.K or self.K < 2:
            raise ValueError(f"K must be an integer >= 2, got {self.K}")
        if int(self.n) != self.n or self.n < 2 * self.K + 1:
            raise ValueError(f"n must be an integer >= 2K + 1 = {2 * self.K + 1}, got {self.n}")
        for name in ("sigma0_sq", "sigma_sq", "eta"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
        if self.event_from is None:
            self.event_from = 2 * self.K + 1

    # ------------------------------------------------------------ the variables
    @property
    def n_vars(self) -> int:
        """x_1..x_n (rewards in order), then mu_1..mu_K."""
        return self.n + self.K

    def mu(self, k: int) -> int:
        """The column of arm k's mean (0-based arm)."""
        return self.n + k

    # ------------------------------------------------------------ the state after a prefix
    def counts(self, arms: tuple[int, ...]) -> np.ndarray:
        return np.bincount(np.asarray(arms, int), minlength=self.K).astype(float)

    def _A(self, T: tuple) -> np.ndarray:
        key = ("A", T)
        if key not in self._cache:
            self._cache[key] = mean_matrix(np.array(T), self.sigma0_sq, self.sigma_sq)
        return self._cache[key]

    def _c(self, T: tuple) -> np.ndarray:
        key = ("c", T)
        if key not in self._cache:
            self._cache[key] = widths(np.array(T), self.n, self.sigma0_sq, self.sigma_sq)
        return self._cache[key]

    def mean_rows(self, arms: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """(columns, M): muhat_k after the pulls `arms` is M[k] @ z[columns] (columns = the rewards drawn)."""
        T = tuple(self.counts(arms))
        A = self._A(T)
        return np.arange(len(arms)), A[:, np.asarray(arms, int)]

    def width(self, arms: tuple[int, ...]) -> np.ndarray:
        """c_k after the pulls `arms`."""
        return self._c(tuple(self.counts(arms)))

    def ctilde(self, T) -> np.ndarray:
        """ctilde at counts T (eq. `tilde_c`)."""
        return c_tilde(np.asarray(T, float), self.n, self.sigma0_sq, self.sigma_sq)

    # ------------------------------------------------------------ the search's interface
    def start(self) -> tuple[int, ...]:
        """The initialisation: arms 1..K, then 1..K again (0-based)."""
        return tuple(list(range(self.K)) * 2)

    def root_rows(self) -> list[Row]:
        """Arm 1 is best: mu_1 - mu_k >= 0 for every k."""
        return [Row(np.array([self.mu(0), self.mu(k)]), np.array([1.0, -1.0]), 0.0, math.inf)
                for k in range(1, self.K)]

    def children(self, arms: tuple[int, ...]) -> list[int]:
        """The arms RUE may pull next: every arm, or up to relabelling arms 2..K (`relabel`): arm 1,
        every other arm pulled since the initialisation, and the first of those never pulled since."""
        if len(arms) >= self.n:
            return []
        if not self.relabel:
            return list(range(self.K))
        seen = set(arms[2 * self.K:])
        fresh = [k for k in range(1, self.K) if k not in seen]
        return [0] + sorted(k for k in seen if k) + fresh[:1]

    def rows(self, arms: tuple[int, ...]) -> list[Row]:
        """The rows that the last pull of `arms` adds: RUE's choice of it (made at the state before it,
        once past the initialisation) and the event E at the state after it (rounds >= event_from)."""
        t = len(arms)
        out = []
        if t > 2 * self.K:
            prev = arms[:-1]
            cols, M = self.mean_rows(prev)
            c = self.width(prev)
            i = arms[-1]
            for j in range(self.K):
                if j != i:        # U_i - U_j >= 0: (M_i - M_j) x >= c_j - c_i (ties allowed: any fixed rule)
                    out.append(Row(cols, M[i] - M[j], c[j] - c[i], math.inf))
        if t >= self.event_from:
            cols, M = self.mean_rows(arms)
            c = self.width(arms)
            for k in range(self.K):   # -eta c_k <= mu_k - muhat_k <= eta c_k
                out.append(Row(np.append(cols, self.mu(k)), np.append(-M[k], 1.0), -self.eta * c[k],
                               self.eta * c[k]))
        return out

    def slack_rows(self, arms: tuple[int, ...]) -> list[tuple[Row, int]]:
        """Every choice and event row of the whole history, each with the side(s) whose slack a strict
        witness wants positive (+1 the lower side, -1 the upper, 0 both)."""
        out = []
        for t in range(2 * self.K + 1, len(arms) + 1):
            for r in self.rows(arms[:t]):
                out.append((r, 0 if math.isfinite(r.hi) else 1))
        return out


def replay(model: RUELinear, arms: tuple[int, ...], x: np.ndarray, mu: np.ndarray) -> dict:
    """The plain reference RUE (Algorithm 1 with eqs. `blup` and `MSE`, `bounds.estimation`) run on the
    rewards x in the order drawn: whether every pull after the initialisation is the arm `arms` says
    (the strict argmax of the index; a tie is reported), E's smallest slack over its rounds, the counts
    after every round (`T`, n x K), and the last posterior (`mean`, `var`) with its recommendation `J`
    (the strict argmax; `J_tie` when it is not strict)."""
    K, n = model.K, model.n
    T = np.zeros(K)
    S = np.zeros(K)
    same, tie, slack = True, False, math.inf
    logn = math.log(n)
    counts = np.zeros((len(arms), K))
    for t, (a, r) in enumerate(zip(arms, x), 1):
        if t > 2 * K:
            mean, var, _ = posterior_arrays(T, S, model.sigma0_sq, model.sigma_sq)
            U = mean + np.sqrt(2 * var * logn)
            top = np.flatnonzero(U == U.max())
            tie |= top.size > 1
            same &= int(np.argmax(U)) == a
        T[a] += 1
        S[a] += r
        counts[t - 1] = T
        if t >= model.event_from:
            mean, var, _ = posterior_arrays(T, S, model.sigma0_sq, model.sigma_sq)
            slack = min(slack, float(np.min(model.eta * np.sqrt(2 * var * logn) - np.abs(mu - mean))))
    mean, var, _ = posterior_arrays(T, S, model.sigma0_sq, model.sigma_sq)
    return {"same_pulls": bool(same), "tie": bool(tie), "event_slack": slack, "T": counts, "mean": mean,
            "var": var, "J": int(np.argmax(mean)), "J_tie": bool(np.sum(mean == mean.max()) > 1)}

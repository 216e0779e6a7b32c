"""RUE (Algorithm 1, label `alg:bai`) with known variances, vectorised over replicate runs (arrays of
shape `(R, K)`) and tracking what the proof of Theorem 5.1 talks about, which the fast kernels of
`simulate.algorithms` do not: the event E (every confidence interval holds, label `regret-decomV`),
the inequalities of Lemma `TwoBoundOnC` (eqs. `Tk_up1`, `Tk_lowv2`), and the same steps on the
repaired route (`bounds.repaired`: eta_repaired, beta_1 = 1, the shifted Tk_lowv2, the reward-table
event E').

Two engines make the same pulls on the same reward table: the compiled one (`tracked_kernel`) and
the readable numpy loop below, the reference (`tests/simulate/test_tracked.py` holds them together).
Conventions: the numpy loop breaks an index tie uniformly at random, the kernel takes the first
maximum (with continuous rewards a tie has probability 0); the recommendation is the arm with the
largest posterior mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bounds import repaired, theorems
from bounds.estimation import c_tilde, posterior_arrays

from ..runner import outcomes


def argmax_random(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Row-wise argmax of `values` `(R, K)`, ties broken uniformly at random."""
    top = values >= values.max(axis=1, keepdims=True)
    keys = np.where(top, rng.random(values.shape), -1.0)
    return keys.argmax(axis=1)


def posterior_rows(T: np.ndarray, S: np.ndarray, sigma0_sq, sigma_sq) -> tuple[np.ndarray, np.ndarray]:
    """Eqs. `blup` and `MSE` for every run at once (`bounds.estimation.posterior_arrays`)."""
    mean, var, _ = posterior_arrays(T, S, sigma0_sq, sigma_sq)
    return mean, var


@dataclass
class RUEResult:
    """Per-run outcomes of `tracked_rue_runs` (all arrays of length R)."""

    recommended: np.ndarray
    best: np.ndarray
    simple_regret: np.ndarray
    pulls: np.ndarray                       # (R, K)
    event_E: np.ndarray | None = None       # the event E held at every t in {2K+1..n}
    tk_up_violated: np.ndarray | None = None
    tk_low_violated: np.ndarray | None = None
    decomp_covered: np.ndarray | None = None  # error on E implies Delta_J < eta (c_1 + c_J)
    tk_up_worst: np.ndarray | None = None   # (R, 4): excess T - rhs, lhs, rhs, round t
    tk_low_worst: np.ndarray | None = None  # (R, 4): excess lhs - rhs, lhs, rhs, round t
    extra: dict = field(default_factory=dict)
    #: the repaired route of Theorem 5.1's proof (eta = eta_repaired, beta_1 = 1), per run:
    #: E_rep (the event E with that eta), tk_up_rep (eq. Tk_up1 failed at some round on it),
    #: tk_low_shift (the shifted Tk_lowv2, with ctilde_1 at T_1 - 1, failed at some round),
    #: gap (an error whose Delta_min is not below (1 + eta) sqrt(beta) ctilde(T_1 - 1)), E_prime (the
    #: reward-table event E' of `bounds.repaired.not_E_bound_repaired` at every count reached, and the
    #: range at most r); each a boolean array of length R
    route: dict = field(default_factory=dict)

    @property
    def errors(self) -> np.ndarray:
        return self.recommended != self.best


@dataclass(frozen=True)
class Constants:
    """The proof's constants at (K, n, sigma0^2, sigma^2): the paper's eta, beta, beta_1; the repaired
    route's eta; and the range r of the event E' (`bounds.repaired.not_E_bound_repaired`'s
    reward-table event: the means' range at most r)."""

    eta: float
    beta: float
    beta1: float
    eta_r: float
    r_range: float

    @classmethod
    def at(cls, K: int, n: int, sigma0_sq: float, sigma_sq: float) -> "Constants":
        eta_r = float(repaired.eta_repaired(K, sigma0_sq, sigma_sq))
        return cls(float(theorems.eta(K, sigma0_sq, sigma_sq)), float(theorems.beta(K, sigma0_sq, sigma_sq)),
                   float(theorems.beta_1(K, sigma0_sq, sigma_sq)), eta_r,
                   eta_r / 3 * float(np.sqrt(2 * sigma0_sq * (2 * sigma0_sq + sigma_sq) * np.log(n) / sigma_sq)))


def tracked_rue_runs(means: np.ndarray, n: int, rng: np.random.Generator, *, sigma0_sq: float, sigma_sq: float,
                     reward: str = "gaussian", nu_sq: float = 1.0, track_proof: bool = False,
                     engine: str = "compiled", noise: np.ndarray | None = None) -> RUEResult:
    """Run RUE (Algorithm 1) with known variances on R bandits at once.

    Args:
        means: true means `(R, K)` (never read by the algorithm, only by the environment).
        n: budget, >= 2K.
        rng: the random stream.
        sigma0_sq, sigma_sq: the prior and reward variances RUE is told (positive).
        reward: 'gaussian' (variance `nu_sq`) or 'bernoulli'.
        track_proof: record the event E and Lemma `TwoBoundOnC`'s inequalities (the paper's eta,
            beta, beta_1) and the repaired route's steps.
        engine: 'compiled' (`tracked_kernel.tracked`, for Gaussian rewards; the numpy loop below
            otherwise) or 'numpy' (this loop, the reference).
        noise: `(R, n)` standard normals, run r's p-th reward being means + sqrt(nu_sq) noise[r, p]
            (Gaussian rewards only). The compiled engine draws it from `rng` when not given; the
            numpy loop draws reward by reward unless given one.
    """
    means = np.atleast_2d(np.asarray(means, dtype=float))
    R, K = means.shape
    if n < 2 * K:
        raise ValueError(f"n must be >= 2K = {2 * K} (RUE pulls each arm twice), got {n}")
    if engine not in ("compiled", "numpy"):
        raise ValueError(f"engine must be 'compiled' or 'numpy', got {engine!r}")
    if not (sigma0_sq > 0 and sigma_sq > 0):
        raise ValueError(f"sigma0_sq and sigma_sq must be > 0 (known variances), got {sigma0_sq}, {sigma_sq}")
    if reward not in ("gaussian", "bernoulli"):
        raise ValueError(f"reward must be 'bernoulli' or 'gaussian', got {reward!r}")
    if noise is not None and (reward != "gaussian" or np.shape(noise) != (R, n)):
        raise ValueError(f"noise: an (R, n) = ({R}, {n}) table of standard normals, for Gaussian rewards only; got "
                         f"shape {np.shape(noise)} with reward {reward!r}")
    if engine == "compiled" and reward == "gaussian":
        z = rng.standard_normal((R, n)) if noise is None else np.asarray(noise, float)
        return _compiled(means, n, z, sigma0_sq, sigma_sq, nu_sq, track_proof)
    env = _Rewards(means, rng, reward, nu_sq, noise)
    for _ in range(2):
        for k in range(K):
            env.pull(np.full(R, k))
    proof = _Proof(means, n, sigma0_sq, sigma_sq, env) if track_proof else None
    logn = np.log(n)
    for t in range(2 * K + 1, n + 1):
        mean, var = posterior_rows(env.T, env.S, sigma0_sq, sigma_sq)
        env.pull(argmax_random(mean + np.sqrt(2 * var * logn), rng))
        if proof:
            proof.check(*posterior_rows(env.T, env.S, sigma0_sq, sigma_sq), t)
    mean, var = posterior_rows(env.T, env.S, sigma0_sq, sigma_sq)
    J = argmax_random(mean, rng)
    res = RUEResult(J, means.argmax(axis=1), outcomes(means, J)[1], env.T.copy())
    if proof:
        res.event_E, res.tk_up_violated, res.tk_low_violated = proof.event, proof.up_bad, proof.low_bad
        res.tk_up_worst, res.tk_low_worst = proof.up_worst, proof.low_worst
        _finish(res, means, var, n, sigma0_sq, sigma_sq, proof.route)
    return res


class _Rewards:
    """The runs' reward draws and sufficient statistics: pull counts T and reward sums S `(R, K)`."""

    def __init__(self, means: np.ndarray, rng: np.random.Generator, reward: str, nu_sq: float,
                 noise: np.ndarray | None):
        self.means, self.rng, self.reward, self.nu_sq, self.noise = means, rng, reward, nu_sq, noise
        self.T = np.zeros(means.shape)
        self.S = np.zeros(means.shape)
        self.rows = np.arange(means.shape[0])
        self.drawn = 0

    def pull(self, arms: np.ndarray) -> None:
        """One reward for each run: run r pulls `arms[r]` (Bernoulli, or Gaussian N(mean, nu_sq) from
        the noise table when given)."""
        mu = self.means[self.rows, arms]
        if self.noise is not None:
            r = mu + np.sqrt(self.nu_sq) * self.noise[:, self.drawn]
        elif self.reward == "bernoulli":
            r = (self.rng.random(mu.shape) < mu).astype(float)
        else:
            r = mu + np.sqrt(self.nu_sq) * self.rng.standard_normal(mu.shape)
        self.drawn += 1
        self.T[self.rows, arms] += 1
        self.S[self.rows, arms] += r


class _Proof:
    """What the numpy loop tracks of Theorem 5.1's proof, round by round (`check`): the event E and
    Lemma TwoBoundOnC on the paper's route, with the worst violation of each inequality; and on the
    repaired route, its event E, eq. Tk_up1, the shifted Tk_lowv2 and the reward-table event E'."""

    def __init__(self, means: np.ndarray, n: int, sigma0_sq: float, sigma_sq: float, env: _Rewards):
        R, K = means.shape
        self.means, self.n, self.s0, self.s, self.env = means, n, sigma0_sq, sigma_sq, env
        self.c = Constants.at(K, n, sigma0_sq, sigma_sq)
        self.best, self.Delta, self.sub, self.up_rhs, self.up_rep_rhs = _rhs_up(means, n, K, sigma0_sq, sigma_sq)
        self.event = np.ones(R, bool)
        self.up_bad = np.zeros(R, bool)
        self.low_bad = np.zeros(R, bool)
        self.up_worst = np.tile([-np.inf, np.nan, np.nan, np.nan], (R, 1))
        self.low_worst = np.tile([-np.inf, np.nan, np.nan, np.nan], (R, 1))
        self.route = {k: np.zeros(R, bool) for k in ("tk_up_rep", "tk_low_shift", "gap")}
        self.route["E_rep"] = np.ones(R, bool)
        self.route["E_prime"] = (means.max(axis=1) - means.min(axis=1)) <= self.c.r_range
        self._table_event()

    def _ctilde(self, T: np.ndarray) -> np.ndarray:
        return c_tilde(T, self.n, self.s0, self.s)

    def _table_event(self) -> None:
        """E': every arm's running mean within eta ctilde(T)/3 of its mean (the repaired eta)."""
        T, S = self.env.T, self.env.S
        self.route["E_prime"] &= np.all(np.abs(S / T - self.means) <= self.c.eta_r * self._ctilde(T) / 3, axis=1)

    def _keep_worst(self, store: np.ndarray, excess: np.ndarray, lhs: np.ndarray, rhs: np.ndarray, t: int) -> None:
        rows = self.env.rows
        k = excess.argmax(axis=1)
        e = excess[rows, k]
        upd = e > store[:, 0]
        store[upd] = np.c_[e, lhs[rows, k], rhs[rows, k], np.full(rows.size, t)][upd]

    def check(self, mean: np.ndarray, var: np.ndarray, t: int) -> None:
        """The proof's steps after round t's pull, on the posterior (mean, var) of that state."""
        T, rows, c = self.env.T, self.env.rows, self.c
        width = np.sqrt(2 * var * np.log(self.n))
        ct = self._ctilde(T)
        # the repaired route (eta_repaired, beta_1 = 1)
        self.route["E_rep"] &= np.all(np.abs(self.means - mean) <= c.eta_r * width, axis=1)
        self.route["tk_up_rep"] |= np.any(T > self.up_rep_rhs, axis=1)
        c1_prev = self._ctilde(T[rows, self.best] - 1)[:, None]
        self.route["tk_low_shift"] |= np.any(
            self.sub & ((1 - c.eta_r) * ct > (1 + c.eta_r) * np.sqrt(c.beta) * c1_prev + self.Delta), axis=1)
        self._table_event()
        # the paper's route
        self.event &= np.all(np.abs(self.means - mean) <= c.eta * width, axis=1)
        self.up_bad |= np.any(T > self.up_rhs, axis=1)
        self._keep_worst(self.up_worst, np.where(self.sub, T - self.up_rhs, -np.inf), T, self.up_rhs, t)
        lhs = (1 - c.eta) * np.sqrt(c.beta1) * ct
        rhs = (1 + c.eta) * np.sqrt(c.beta) * ct[rows, self.best][:, None] + self.Delta
        self.low_bad |= np.any(self.sub & (lhs > rhs), axis=1)
        self._keep_worst(self.low_worst, np.where(self.sub, lhs - rhs, -np.inf), lhs, rhs, t)


def _rhs_up(means: np.ndarray, n: int, K: int, sigma0_sq: float, sigma_sq: float) -> tuple[np.ndarray, ...]:
    """(best arm, Delta, suboptimal mask, eq. Tk_up1's right side with the paper's eta and with
    eta_repaired; inf at the best arm), every `(R, K)` but the first."""
    R = means.shape[0]
    rows = np.arange(R)
    best = means.argmax(axis=1)
    Delta = means[rows, best][:, None] - means
    sub = np.ones((R, K), bool)
    sub[rows, best] = False
    safe = np.where(sub, Delta, 1.0)
    with np.errstate(divide="ignore"):
        up = np.where(sub, theorems.Tk_upper(safe, K, n, sigma0_sq, sigma_sq), np.inf)
        up_r = np.where(sub, repaired.Tk_upper_repaired(safe, K, n, sigma0_sq, sigma_sq), np.inf)
    return best, Delta, sub, up, up_r


def _finish(res: RUEResult, means: np.ndarray, var: np.ndarray, n: int, sigma0_sq: float, sigma_sq: float,
            route: dict) -> None:
    """What both engines compute from the last posterior: eq. regret-decomV's coverage of an error and
    the repaired route's gap inclusion."""
    R, K = means.shape
    rows, J, best = np.arange(R), res.recommended, res.best
    c = Constants.at(K, n, sigma0_sq, sigma_sq)
    width = np.sqrt(2 * var * np.log(n))
    covered = (means[rows, best] - means[rows, J]) < c.eta * (width[rows, best] + width[rows, J])
    res.decomp_covered = np.where(J != best, covered, True)
    sub = np.ones((R, K), bool)
    sub[rows, best] = False
    dmin = np.where(sub, means[rows, best][:, None] - means, np.inf).min(axis=1)
    thr = (1 + c.eta_r) * np.sqrt(c.beta) * c_tilde(res.pulls[rows, best] - 1, n, sigma0_sq, sigma_sq)
    route["gap"] = (J != best) & ~(dmin < thr)
    res.route = route


def _compiled(means: np.ndarray, n: int, z: np.ndarray, sigma0_sq: float, sigma_sq: float, nu_sq: float,
              track: bool) -> RUEResult:
    from .tracked_kernel import tracked
    R, K = means.shape
    best, _, _, up, up_r = _rhs_up(means, n, K, sigma0_sq, sigma_sq)
    c = Constants.at(K, n, sigma0_sq, sigma_sq)
    J, T, S, flags, worst = tracked(np.ascontiguousarray(means), np.ascontiguousarray(z), float(np.sqrt(nu_sq)), int(n),
                                    float(sigma0_sq), float(sigma_sq), bool(track), c.eta, c.beta, c.beta1, c.eta_r,
                                    c.r_range, up, up_r)
    res = RUEResult(J, best, outcomes(means, J)[1], T)
    if track:
        res.event_E, res.tk_up_violated, res.tk_low_violated = flags[:, 0], flags[:, 1], flags[:, 2]
        for w in (worst[:, 0], worst[:, 1]):
            w[np.isnan(w[:, 0]), 0] = -np.inf
        res.tk_up_worst, res.tk_low_worst = worst[:, 0].copy(), worst[:, 1].copy()
        route = {"E_rep": flags[:, 3], "tk_up_rep": flags[:, 4], "tk_low_shift": flags[:, 5], "E_prime": flags[:, 6]}
        _, var = posterior_rows(T, S, sigma0_sq, sigma_sq)
        _finish(res, means, var, n, sigma0_sq, sigma_sq, route)
    return res

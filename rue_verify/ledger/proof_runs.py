"""The ledger's own simulator: RUE (Algorithm 1, label `alg:bai`) and UCB-E vectorised over
replicate runs (arrays of shape `(R, K)`), readable numpy. RUE here records what the proof of
Theorem 5.1 talks about: the event E (all confidence intervals hold, label `regret-decomV`) and the
inequalities of Lemma `TwoBoundOnC`, which the compiled kernels of `simulate` do not track.

Conventions: ties in an index are broken uniformly at random; the recommendation is the arm with
the largest posterior mean (RUE) or empirical mean (UCB-E), ties again at random.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bounds import repaired, theorems
from bounds.estimation import c_tilde, posterior_arrays
from simulate.algorithms.variances import estimate
from simulate.runner import outcomes


def argmax_random(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Row-wise argmax of `values` `(R, K)`, ties broken uniformly at random."""
    top = values >= values.max(axis=1, keepdims=True)
    keys = np.where(top, rng.random(values.shape), -1.0)
    return keys.argmax(axis=1)


def draw_rewards(means: np.ndarray, arms: np.ndarray, rng: np.random.Generator, reward: str,
                 nu_sq: float) -> np.ndarray:
    """One reward for each run: run r pulls `arms[r]`. Bernoulli or Gaussian N(mean, nu_sq)."""
    mu = means[np.arange(means.shape[0]), arms]
    if reward == "bernoulli":
        return (rng.random(mu.shape) < mu).astype(float)
    if reward == "gaussian":
        return mu + np.sqrt(nu_sq) * rng.standard_normal(mu.shape)
    raise ValueError(f"reward must be 'bernoulli' or 'gaussian', got {reward!r}")


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


def tracked_rue_runs(means: np.ndarray, n: int, rng: np.random.Generator, *,
                     sigma0_sq: float | None = None, sigma_sq: float | None = None,
                     reward: str = "gaussian", nu_sq: float = 1.0, track_proof: bool = False,
                     engine: str = "compiled", noise: np.ndarray | None = None) -> RUEResult:
    """Run RUE (Algorithm 1) on R bandits at once.

    Args:
        means: true means `(R, K)` (never read by the algorithm, only by the environment).
        n: budget, >= 2K.
        rng: the random stream.
        sigma0_sq, sigma_sq: known variances; None for both means estimate them every round
            (`simulate.algorithms.variances.estimate`, the authors' estimator).
        reward: 'gaussian' (variance `nu_sq`) or 'bernoulli'.
        track_proof: record the event E and Lemma `TwoBoundOnC`'s inequalities (needs known
            variances; uses the paper's eta, beta, beta_1).
        engine: 'compiled' (`proof_kernel.tracked`, for known variances and Gaussian rewards; the
            numpy loop below otherwise) or 'numpy' (this loop, the reference).
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
    known = sigma0_sq is not None and sigma_sq is not None
    if (sigma0_sq is None) != (sigma_sq is None):
        raise ValueError("give both sigma0_sq and sigma_sq (known variances) or neither")
    if track_proof and not known:
        raise ValueError("track_proof needs known variances sigma0_sq and sigma_sq")
    if noise is not None and (reward != "gaussian" or np.shape(noise) != (R, n)):
        raise ValueError(f"noise: an (R, n) = ({R}, {n}) table of standard normals, for Gaussian rewards only; got "
                         f"shape {np.shape(noise)} with reward {reward!r}")
    if engine == "compiled" and known and reward == "gaussian":
        z = rng.standard_normal((R, n)) if noise is None else np.asarray(noise, float)
        return _compiled(means, n, z, sigma0_sq, sigma_sq, nu_sq, track_proof)
    T = np.zeros((R, K))
    S = np.zeros((R, K))
    Q = np.zeros((R, K))
    rows = np.arange(R)
    drawn = [0]

    def pull(arms: np.ndarray) -> None:
        if noise is None:
            r = draw_rewards(means, arms, rng, reward, nu_sq)
        else:
            r = means[rows, arms] + np.sqrt(nu_sq) * noise[:, drawn[0]]
            drawn[0] += 1
        T[rows, arms] += 1
        S[rows, arms] += r
        Q[rows, arms] += r * r

    for _ in range(2):
        for k in range(K):
            pull(np.full(R, k))
    best = means.argmax(axis=1)
    logn = np.log(n)
    if track_proof:
        eta = float(theorems.eta(K, sigma0_sq, sigma_sq))
        beta = float(theorems.beta(K, sigma0_sq, sigma_sq))
        beta1 = float(theorems.beta_1(K, sigma0_sq, sigma_sq))
        _, Delta, sub, tk_up_rhs, up_r_rhs = _rhs_up(means, n, K, sigma0_sq, sigma_sq)
        event = np.ones(R, bool)
        up_bad = np.zeros(R, bool)
        low_bad = np.zeros(R, bool)
        up_worst = np.tile([-np.inf, np.nan, np.nan, np.nan], (R, 1))
        low_worst = np.tile([-np.inf, np.nan, np.nan, np.nan], (R, 1))

        def keep_worst(store: np.ndarray, ex: np.ndarray, lhs: np.ndarray, rhs: np.ndarray, t: int) -> None:
            k = ex.argmax(axis=1)
            e = ex[rows, k]
            upd = e > store[:, 0]
            store[upd] = np.c_[e, lhs[rows, k], rhs[rows, k], np.full(R, t)][upd]

        # the repaired route (eta_repaired, beta_1 = 1): its own event E and the steps it rests on
        eta_r = float(repaired.eta_repaired(K, sigma0_sq, sigma_sq))
        r_range = eta_r / 3 * np.sqrt(2 * sigma0_sq * (2 * sigma0_sq + sigma_sq) * logn / sigma_sq)
        route = {k: np.zeros(R, bool) for k in ("tk_up_rep", "tk_low_shift", "gap")}
        route["E_rep"] = np.ones(R, bool)
        route["E_prime"] = (means.max(axis=1) - means.min(axis=1)) <= r_range

        def table_event() -> None:       # E': every arm's running mean within eta ctilde(T)/3 of its mean
            route["E_prime"] &= np.all(np.abs(S / T - means) <= eta_r * c_tilde(T, n, sigma0_sq, sigma_sq) / 3, axis=1)

        def check_route(mean: np.ndarray, c: np.ndarray) -> None:
            route["E_rep"] &= np.all(np.abs(means - mean) <= eta_r * c, axis=1)
            route["tk_up_rep"] |= np.any(T > up_r_rhs, axis=1)
            ct = c_tilde(T, n, sigma0_sq, sigma_sq)
            c1_prev = c_tilde(T[rows, best] - 1, n, sigma0_sq, sigma_sq)[:, None]
            route["tk_low_shift"] |= np.any(sub & ((1 - eta_r) * ct > (1 + eta_r) * np.sqrt(beta) * c1_prev + Delta),
                                            axis=1)
            table_event()

        table_event()

        def check(mean: np.ndarray, var: np.ndarray, t: int) -> None:
            c = np.sqrt(2 * var * logn)
            check_route(mean, c)
            event[:] &= np.all(np.abs(means - mean) <= eta * c, axis=1)
            up_bad[:] |= np.any(T > tk_up_rhs, axis=1)
            keep_worst(up_worst, np.where(sub, T - tk_up_rhs, -np.inf), T, tk_up_rhs, t)
            ct = c_tilde(T, n, sigma0_sq, sigma_sq)
            lhs = (1 - eta) * np.sqrt(beta1) * ct
            rhs = (1 + eta) * np.sqrt(beta) * ct[rows, best][:, None] + Delta
            low_bad[:] |= np.any(sub & (lhs > rhs), axis=1)
            keep_worst(low_worst, np.where(sub, lhs - rhs, -np.inf), lhs, rhs, t)

    for t in range(2 * K + 1, n + 1):
        if known:
            mean, var = posterior_rows(T, S, sigma0_sq, sigma_sq)
        else:
            mean, var = posterior_rows(T, S, *estimate(T, S, Q))
        pull(argmax_random(mean + np.sqrt(2 * var * logn), rng))
        if track_proof:
            m_t, v_t = posterior_rows(T, S, sigma0_sq, sigma_sq)
            check(m_t, v_t, t)
    if known:
        mean, var = posterior_rows(T, S, sigma0_sq, sigma_sq)
    else:
        mean, var = posterior_rows(T, S, *estimate(T, S, Q))
    J = argmax_random(mean, rng)
    res = RUEResult(J, best, outcomes(means, J)[1], T.copy())
    if track_proof:
        res.event_E, res.tk_up_violated, res.tk_low_violated = event, up_bad, low_bad
        res.tk_up_worst, res.tk_low_worst = up_worst, low_worst
        _finish(res, means, var, n, sigma0_sq, sigma_sq, route)
    return res


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
    eta = float(theorems.eta(K, sigma0_sq, sigma_sq))
    eta_r = float(repaired.eta_repaired(K, sigma0_sq, sigma_sq))
    beta = float(theorems.beta(K, sigma0_sq, sigma_sq))
    c = np.sqrt(2 * var * np.log(n))
    covered = (means[rows, best] - means[rows, J]) < eta * (c[rows, best] + c[rows, J])
    res.decomp_covered = np.where(J != best, covered, True)
    sub = np.ones((R, K), bool)
    sub[rows, best] = False
    dmin = np.where(sub, means[rows, best][:, None] - means, np.inf).min(axis=1)
    thr = (1 + eta_r) * np.sqrt(beta) * c_tilde(res.pulls[rows, best] - 1, n, sigma0_sq, sigma_sq)
    route["gap"] = (J != best) & ~(dmin < thr)
    res.route = route


def _compiled(means: np.ndarray, n: int, z: np.ndarray, sigma0_sq: float, sigma_sq: float, nu_sq: float,
              track: bool) -> RUEResult:
    from .proof_kernel import tracked
    R, K = means.shape
    best, _, _, up, up_r = _rhs_up(means, n, K, sigma0_sq, sigma_sq)
    eta = float(theorems.eta(K, sigma0_sq, sigma_sq))
    beta = float(theorems.beta(K, sigma0_sq, sigma_sq))
    beta1 = float(theorems.beta_1(K, sigma0_sq, sigma_sq))
    eta_r = float(repaired.eta_repaired(K, sigma0_sq, sigma_sq))
    r_range = eta_r / 3 * np.sqrt(2 * sigma0_sq * (2 * sigma0_sq + sigma_sq) * np.log(n) / sigma_sq)
    J, T, S, flags, worst = tracked(np.ascontiguousarray(means), np.ascontiguousarray(z), float(np.sqrt(nu_sq)), int(n),
                                    float(sigma0_sq), float(sigma_sq), bool(track), eta, beta, beta1, eta_r,
                                    float(r_range), up, up_r)
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


def ucbe_runs(means: np.ndarray, n: int, a: float, rng: np.random.Generator, *,
                   reward: str = "bernoulli", nu_sq: float = 1.0) -> np.ndarray:
    """UCB-E (Audibert et al. 2010) on R bandits: one pull per arm, then the arm maximising
    rbar_k + sqrt(a / T_k); recommends the largest empirical mean. Returns the recommended arms."""
    means = np.atleast_2d(np.asarray(means, dtype=float))
    R, K = means.shape
    if n < K:
        raise ValueError(f"n must be >= K = {K}, got {n}")
    if not a > 0:
        raise ValueError(f"a must be > 0, got {a}")
    T = np.zeros((R, K))
    S = np.zeros((R, K))
    rows = np.arange(R)
    for k in range(K):
        arms = np.full(R, k)
        S[rows, arms] += draw_rewards(means, arms, rng, reward, nu_sq)
        T[rows, arms] += 1
    for _ in range(K + 1, n + 1):
        arms = argmax_random(S / T + np.sqrt(a / T), rng)
        S[rows, arms] += draw_rewards(means, arms, rng, reward, nu_sq)
        T[rows, arms] += 1
    return argmax_random(S / T, rng)

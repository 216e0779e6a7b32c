"""Section 4 (`sec:estimation`): the random-effect posterior of the arm means and Lemma `sec:tau`.

The paper's formulas (eqs. `posterior-mu`, `blup`, `MSE`) for pull counts T_k and reward sums S_k::

    w_k = sigma0^2 / (sigma0^2 + sigma^2 / T_k)       (1 - w_k = sigma^2 / (T_k sigma0^2 + sigma^2))
    rbar_0 = sum_k (1 - w_k) S_k / sum_k (1 - w_k) T_k
    muhat_k = (1 - w_k) rbar_0 + w_k rbar_k
    tau_k^2 = w_k sigma^2 / T_k + (1 - w_k)^2 sigma^2 / sum_j T_j (1 - w_j)

All extend continuously to T_k = 0 (w_k = 0, w_k sigma^2 / T_k = sigma0^2); they are undefined only
when no arm has been pulled. `exact_gaussian_posterior` computes the posterior independently, by
conditioning the joint Gaussian of (mu0, mu_1..mu_K, rbar) for a flat or a known mu0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._core import UndefinedError, as_numeric, check_int, check_positive, namespace_for


class Posterior(NamedTuple):
    """Posterior means `mean` and variances `var`, each of shape `(K,)` (eqs. `blup`, `MSE`)."""

    mean: np.ndarray
    var: np.ndarray


def _check_T(T: Any) -> np.ndarray:
    T = np.asarray(T, dtype=float)
    if T.ndim != 1 or T.size < 2:
        raise ValueError(f"T must be a list of K >= 2 pull counts, got shape {T.shape}")
    if np.any(T < 0) or np.any(T != np.floor(T)):
        raise ValueError(f"T must hold integers >= 0, got {T.tolist()}")
    return T


def shrinkage(T: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """1 - w_k = sigma^2 / (T_k sigma0^2 + sigma^2) (eq. `blup`): the weight of the pooled mean in arm
    k's posterior mean; numbers, numpy arrays, mpmath or sympy alike."""
    return sigma_sq / (T * sigma0_sq + sigma_sq)


def shrinkage_terms(T: Any, sigma0_sq: Any, sigma_sq: Any) -> tuple[Any, Any, Any]:
    """(1 - w_k, w_k sigma^2 / T_k, sum_j T_j (1 - w_j)) written over any namespace.

    These are the three pieces of eqs. `blup` and `MSE`, in the forms that extend to T_k = 0.
    """
    one_minus_w = [shrinkage(t, sigma0_sq, sigma_sq) for t in T]
    s = [tau_sq_tilde(t, sigma0_sq, sigma_sq) for t in T]
    denom = sum(t * omw for t, omw in zip(T, one_minus_w))
    return one_minus_w, s, denom


def posterior_arrays(T: np.ndarray, S: np.ndarray, sigma0_sq: Any, sigma_sq: Any) -> tuple[np.ndarray, ...]:
    """Eqs. `blup` and `MSE` on arrays, unchecked: T and S of shape (K,) or (R, K) (one history a
    row), sigma0_sq and sigma_sq numbers or (R, 1). Returns (mean, var, sum_j T_j (1 - w_j)), the last
    with a trailing axis of length 1."""
    omw = shrinkage(T, sigma0_sq, sigma_sq)
    denom = (T * omw).sum(axis=-1, keepdims=True)
    rbar0 = (omw * S).sum(axis=-1, keepdims=True) / denom
    rbar = np.divide(S, T, out=np.zeros_like(S), where=T > 0)
    mean = omw * rbar0 + (1 - omw) * rbar
    var = tau_sq_tilde(T, sigma0_sq, sigma_sq) + omw ** 2 * sigma_sq / denom
    return mean, var, denom


def posterior_variance_formula(T: Any, sigma0_sq: Any, sigma_sq: Any) -> list:
    """tau_k^2 of eq. `MSE` for every k, over any namespace (numbers, mpmath or sympy symbols)."""
    one_minus_w, s, denom = shrinkage_terms(T, sigma0_sq, sigma_sq)
    return [s_k + omw ** 2 * sigma_sq / denom for s_k, omw in zip(s, one_minus_w)]


def posterior(T: Any, reward_sums: Any, sigma0_sq: float, sigma_sq: float) -> Posterior:
    """Posterior means and variances of the arm means (Section 4, eqs. `posterior-mu`, `blup`, `MSE`).

    Args:
        T: pull counts, shape `(K,)`, integers >= 0, not all zero.
        reward_sums: the sum of each arm's rewards, shape `(K,)` (0 where T_k = 0).
        sigma0_sq: prior variance of the arm means, > 0.
        sigma_sq: reward-noise variance of the Gaussian likelihood, > 0.

    Returns:
        `Posterior(mean, var)`, each of shape `(K,)`.

    Raises:
        ValueError: bad shapes or values (names the parameter).
        UndefinedError: no arm has been pulled (sum_k T_k (1 - w_k) = 0).
    """
    T = _check_T(T)
    S = np.asarray(reward_sums, dtype=float)
    if S.shape != T.shape:
        raise ValueError(f"reward_sums must have the shape of T {T.shape}, got {S.shape}")
    if np.any((T == 0) & (S != 0)):
        raise ValueError("reward_sums must be 0 for arms with T_k = 0")
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    if not np.any(T > 0):
        raise UndefinedError("no arm has been pulled: sum_k T_k (1 - w_k) = 0", {"T": T.tolist()})
    mean, var, _ = posterior_arrays(T, S, sigma0_sq, sigma_sq)
    return Posterior(mean, var)


def exact_gaussian_posterior(T: Any, reward_sums: Any, sigma0_sq: float, sigma_sq: float,
                             mu0: float | None = None) -> Posterior:
    """The posterior of (mu_1..mu_K) by exact Gaussian conditioning, computed independently of eqs.
    `blup` and `MSE` (the tests hold one against the other).

    Model: mu_k = mu0 + delta_k, delta_k ~ N(0, sigma0^2), rewards N(mu_k, sigma^2). The data enter
    through rbar_k ~ N(mu0 + delta_k, sigma^2 / T_k) for the pulled arms. Solved through the posterior
    precision of theta = (mu0, delta_1..delta_K) (or delta alone when mu0 is known).

    Args:
        T: pull counts, shape `(K,)`, integers >= 0, not all zero.
        reward_sums: each arm's sum of rewards, shape `(K,)` (0 where T_k = 0).
        sigma0_sq: the prior variance of the means, > 0.
        sigma_sq: the reward-noise variance of the Gaussian likelihood, > 0.
        mu0: the prior mean if known; None for a flat (improper) prior on it.

    Returns:
        `Posterior(mean, var)`, each of shape `(K,)`.
    """
    T = _check_T(T)
    S = np.asarray(reward_sums, dtype=float)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    K = T.size
    obs = T > 0
    if not obs.any():
        raise UndefinedError("no arm has been pulled", {"T": T.tolist()})
    rbar = S[obs] / T[obs]
    Wdiag = T[obs] / sigma_sq
    if mu0 is None:
        X = np.zeros((obs.sum(), K + 1))
        X[:, 0] = 1.0
        X[np.arange(obs.sum()), 1 + np.flatnonzero(obs)] = 1.0
        prior_prec = np.diag(np.r_[0.0, np.full(K, 1.0 / sigma0_sq)])
        P = prior_prec + X.T @ (Wdiag[:, None] * X)
        m = np.linalg.solve(P, X.T @ (Wdiag * rbar))
        cov = np.linalg.inv(P)
        A = np.hstack([np.ones((K, 1)), np.eye(K)])
        return Posterior(A @ m, np.diag(A @ cov @ A.T).copy())
    X = np.zeros((obs.sum(), K))
    X[np.arange(obs.sum()), np.flatnonzero(obs)] = 1.0
    P = np.eye(K) / sigma0_sq + X.T @ (Wdiag[:, None] * X)
    m = np.linalg.solve(P, X.T @ (Wdiag * (rbar - mu0)))
    return Posterior(mu0 + m, np.diag(np.linalg.inv(P)).copy())


# ---------------------------------------------------------------- Lemma `sec:tau`
def tau_sq_tilde(T_k: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """sigma0^2 sigma^2 / (T_k sigma0^2 + sigma^2): the per-arm variance of eq. `tilde_c`."""
    return sigma0_sq * sigma_sq / (T_k * sigma0_sq + sigma_sq)


def tau_sq_lower(T_k: Any, K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """Lemma `sec:tau`, left side: sigma0^2 sigma^2/(T_k sigma0^2 + sigma^2) (1 + sigma0^2/(K(sigma0^2 + sigma^2)))."""
    check_int("K", K, 2)
    return tau_sq_tilde(T_k, sigma0_sq, sigma_sq) * (1 + sigma0_sq / (K * (sigma0_sq + sigma_sq)))


def tau_sq_upper(T_k: Any, K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """Lemma `sec:tau`, right side: sigma0^2 sigma^2/(T_k sigma0^2 + sigma^2) (1 + sigma^2/(K sigma0^2))."""
    check_int("K", K, 2)
    return tau_sq_tilde(T_k, sigma0_sq, sigma_sq) * (1 + sigma_sq / (K * sigma0_sq))


def c_width(tau_sq: Any, n: Any) -> Any:
    """c_{k,t} = sqrt(2 tau_{k,t}^2 log n): RUE's confidence width (Section 4.2, proof outline)."""
    tau_sq, n = as_numeric(tau_sq), as_numeric(n)
    m = namespace_for(tau_sq, n)
    return m.sqrt(2 * tau_sq * m.log(n))


def c_tilde(T_k: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """ctilde_{k,n} = sqrt(2 sigma0^2 sigma^2 log n / (T_k sigma0^2 + sigma^2)) (eq. `tilde_c`)."""
    return c_width(tau_sq_tilde(T_k, sigma0_sq, sigma_sq), n)


def var_lemma_rhs(Delta_k: Any, tau_sq_k: Any, tau_sq_best: Any) -> Any:
    """Proposition 4.1 (`var-lemma`): exp(-Delta_k^2/(8 tau_k^2)) + exp(-Delta_k^2/(8 tau_{i*}^2))."""
    Delta_k, tau_sq_k, tau_sq_best = as_numeric(Delta_k), as_numeric(tau_sq_k), as_numeric(tau_sq_best)
    m = namespace_for(Delta_k, tau_sq_k, tau_sq_best)
    return m.exp(-Delta_k ** 2 / (8 * tau_sq_k)) + m.exp(-Delta_k ** 2 / (8 * tau_sq_best))

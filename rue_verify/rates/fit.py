"""The exponent of a quantity in n: a weighted least-squares line through (log n, log y) on the
large-n part of a curve, with an interval, the local slopes between neighbouring budgets, and a
check that a power law fits (the residuals against their standard errors), so that a log factor or
a bend is reported rather than mistaken for a power."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class Fit:
    exponent: float
    interval: tuple[float, float]
    n_range: tuple[int, int]
    local: list[tuple[float, float, float]]      # (geometric mid n, slope, its standard error)
    chi2_per_df: float                            # about 1 when a power law fits within the noise
    power_law: bool                               # the residuals are consistent with a line (p > 0.01)


def log_slope(x, y) -> float:
    """The slope of the least-squares line through (log x, log y): a curve's exponent where it is
    known exactly (a bound, an exact truth), with nothing to weigh."""
    return float(np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)[0])


def _slope(X: np.ndarray, Y: np.ndarray, W: np.ndarray) -> tuple[float, float, np.ndarray]:
    A = np.vstack([np.ones_like(X), X]).T
    cov = np.linalg.inv(A.T @ (A * W[:, None]))
    a, b = cov @ (A.T @ (W * Y))
    return float(a), float(b), cov


def fit_paired(n, per_run, tail: float = 0.5, level: float = 0.95, groups: int = 20) -> Fit:
    """The exponent of mean(per_run[:, j]) in n[j] when run r's values at every budget come from the
    same means and reward streams (common random numbers): `fit_groups` on `groups` consecutive
    blocks of runs."""
    V = np.asarray(per_run, float)
    if V.ndim != 2 or V.shape[1] != np.asarray(n).size:
        raise ValueError("fit_paired: per_run must be (runs, budgets) with one column per n")
    parts = np.array_split(V, min(groups, V.shape[0]))
    return fit_groups(n, np.array([p.sum(axis=0) for p in parts]), np.array([(p ** 2).sum(axis=0) for p in parts]),
                      np.array([p.shape[0] for p in parts]), tail, level)


def fit_groups(n, sums, sumsq, counts, tail: float = 0.5, level: float = 0.95) -> Fit:
    """The exponent of the mean in n from block statistics of paired runs (`sums`, `sumsq`: `(G, B)`
    sums and sums of squares of the per-run values over G blocks of runs, `counts` the blocks' sizes):
    the weighted line as in `fit_exponent`, but its interval, the local slopes' errors and the
    power-law check from a delete-a-block jackknife over the runs, which keeps the correlation across
    budgets that the pairing creates (and that makes the slopes far less noisy than independent
    budgets would). Block statistics are all it needs, so a stored study keeps only them."""
    n = np.asarray(n, float)
    S, Q, N = (np.asarray(a, float) for a in (sums, sumsq, counts))
    if S.shape != Q.shape or S.ndim != 2 or S.shape[1] != n.size or N.shape != (S.shape[0],):
        raise ValueError("fit_groups: sums and sumsq must be (groups, budgets), counts (groups,)")
    if np.any(S.sum(axis=0) <= 0):
        raise ValueError("fit_groups: a budget with a zero estimate has no logarithm")
    order = np.argsort(n)
    n, S, Q = n[order], S[:, order], Q[:, order]
    k = max(3, int(np.ceil(tail * n.size)))
    X = np.log(n[-k:])
    G = S.shape[0]

    def stats_of(s, q, m):
        mean = s / m
        se = np.sqrt(np.maximum(q - s * s / m, 0.0) / (m - 1) / m)
        W = (mean[-k:] / np.maximum(se[-k:], 1e-300)) ** 2
        _, b, _ = _slope(X, np.log(mean[-k:]), W)
        ly = np.log(mean)
        return b, np.diff(ly) / np.diff(np.log(n))
    b, local = stats_of(S.sum(axis=0), Q.sum(axis=0), N.sum())
    jack = [stats_of(S.sum(axis=0) - S[g], Q.sum(axis=0) - Q[g], N.sum() - N[g]) for g in range(G)]
    jb = np.array([j[0] for j in jack])
    jl = np.array([j[1] for j in jack])
    se_b = float(np.sqrt((G - 1) / G * np.sum((jb - jb.mean()) ** 2)))
    se_l = np.sqrt((G - 1) / G * np.sum((jl - jl.mean(axis=0)) ** 2, axis=0))
    half = stats.t.ppf(0.5 + level / 2, G - 1) * se_b
    tail_local = slice(n.size - k, None)
    z = (local[tail_local] - b) / np.maximum(se_l[tail_local], 1e-300)
    chi2, df = float(np.sum(z ** 2)), max(z.size - 1, 1)
    mids = np.sqrt(n[:-1] * n[1:])
    return Fit(b, (b - half, b + half), (int(n[-k]), int(n[-1])),
               [(float(m), float(s), float(e)) for m, s, e in zip(mids, local, se_l)], chi2 / df,
               float(stats.chi2.sf(chi2, df)) > 0.01)


def fit_exponent(n, y, se, tail: float = 0.5, level: float = 0.95, known_se: bool = False) -> Fit:
    """Fit log y = a + b log n on the largest-n fraction `tail` of the points (at least three), each
    weighted by its delta-method variance (se / y)^2; `level` interval on b from the t distribution
    (scaled by the residuals when they exceed their standard errors). Points with y <= 0 are
    dropped: a quantity measured as zero has no logarithm. With `known_se` (independent estimates
    whose standard errors are themselves well estimated, as many runs give) the interval is the
    normal one from those errors alone, so three points give a usable interval; the residuals still
    decide `power_law`."""
    n, y, se = (np.asarray(a, float) for a in (n, y, se))
    keep = (y > 0) & (se > 0)
    n, y, se = n[keep], y[keep], se[keep]
    if n.size < 3:
        raise ValueError("fit_exponent: fewer than three budgets with a positive estimate")
    order = np.argsort(n)
    n, y, se = n[order], y[order], se[order]
    k = max(3, int(np.ceil(tail * n.size)))
    X, Y, W = np.log(n[-k:]), np.log(y[-k:]), (y[-k:] / se[-k:]) ** 2
    A = np.vstack([np.ones_like(X), X]).T
    cov = np.linalg.inv(A.T @ (A * W[:, None]))
    a, b = cov @ (A.T @ (W * Y))
    resid = Y - (a + b * X)
    df = k - 2
    chi2 = float(np.sum(W * resid ** 2))
    if known_se:
        half = stats.norm.ppf(0.5 + level / 2) * np.sqrt(cov[1, 1])
    else:
        scale = max(1.0, chi2 / df) if df > 0 else 1.0
        half = stats.t.ppf(0.5 + level / 2, max(df, 1)) * np.sqrt(cov[1, 1] * scale)
    p = float(stats.chi2.sf(chi2, df)) if df > 0 else 1.0
    ln, ly, lse = np.log(n), np.log(y), se / y
    local = [(float(np.sqrt(n[i] * n[i + 1])), float((ly[i + 1] - ly[i]) / (ln[i + 1] - ln[i])),
              float(np.hypot(lse[i], lse[i + 1]) / (ln[i + 1] - ln[i]))) for i in range(n.size - 1)]
    return Fit(float(b), (float(b - half), float(b + half)), (int(n[-k]), int(n[-1])), local,
               chi2 / df if df > 0 else 0.0, p > 0.01)

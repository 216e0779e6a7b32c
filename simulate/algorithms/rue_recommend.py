"""RUE's recommendation at the end of a run, shared by its two kernels (`rue._block`, the plain pass
over every arm, and `rue_lazy._block`): the largest posterior mean (eqs. `blup`, `MSE`), ties at
random."""

from __future__ import annotations

from numba import njit

from .sources import argmax_random


@njit(cache=True, error_model="numpy", fastmath={"contract"}, inline="always")
def recommend(src, lo, b, T, S, omw, s02, s2, m, rec, pulls, sums):
    """Run lo + b's end (both RUE kernels): the largest posterior mean under (s02, s2), ties at random,
    and its pulls and reward sums stored; m and omw are scratch."""
    K = T.shape[0]
    d = 0.0
    q = 0.0
    for j in range(K):
        o = s2 / (T[j, b] * s02 + s2)
        omw[j, b] = o
        d += o * T[j, b]
        q += o * S[j, b]
    r0 = q / d
    for j in range(K):
        m[j] = omw[j, b] * r0 + (1.0 - omw[j, b]) * (S[j, b] / T[j, b] if T[j, b] > 0 else 0.0)
    rec[lo + b] = argmax_random(m, src, lo + b)
    for j in range(K):
        pulls[lo + b, j] = T[j, b]
    if sums.shape[0] > 0:
        for j in range(K):
            sums[lo + b, j] = S[j, b]

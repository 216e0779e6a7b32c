"""RUE's index of one arm with known variances, by the plain kernel's own expression (`rue._block`), for
the kernels that evaluate arms one at a time (`rue_lazy`, `rue_heap`): the same bits as the plain pass."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def index(o, r0, rbar, c, s02, d):
    """o rbar_0 + (1 - o) rbar + c sqrt(sigma0^2 o + o^2 d), o = 1 - w the arm's prior weight, d = sigma^2 /
    sum_j T_j o_j."""
    return o * r0 + (1.0 - o) * rbar + c * math.sqrt(s02 * o + o * o * d)

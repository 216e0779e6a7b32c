"""simulate.algorithms.lazy_argmax: the grid CDF recurrences, truncated Beta draws, and the argmax
law against plain Beta draws."""

import numpy as np
import pytest
from numba import njit
from scipy import special, stats

from simulate.algorithms import lazy_argmax as L
from simulate.algorithms._rng import lane_buffer, seed_lanes, seed_states
from tests.simulate.streams import TINY


# ---------------------------------------------------------------- TTTS's lazy argmax sampler
def test_cdf_recurrence_tracks_betainc():
    """The grid CDF kept by the a+1 / b+1 recurrences stays within 1e-10 of scipy's betainc, and
    the update window is exactly the set of grid points where the term is at least exp(CUT)
    (points within 1e-6 of the cut excepted), including posteriors narrower than a cell."""
    rng = np.random.default_rng(2)
    m = L.MAX_CELLS
    XS, lx, l1x = L.grid(m)
    x = np.arange(m + 1) / m
    for p, pulls in ((0.03, 4000), (0.3, 4000), (0.5, 4000), (0.9, 4000), (0.001, 20000), (0.5, 60000)):
        F, G, W, lnB = L.cdf_init(1, m)
        a = b = 1.0
        for t in range(pulls):
            r = float(rng.random() < p)
            L.cdf_update(F, G, W, lnB, 0, a, b, r, XS, lx, l1x)
            a, b = a + r, b + 1.0 - r
            if t % 997 == 0 or t == pulls - 1:
                e = a * lx[1:m] + b * l1x[1:m] - special.betaln(a, b)
                inside = np.arange(1, m)[e >= L.CUT]
                window = np.arange(W[0, 0], W[0, 1] + 1)
                unsure = np.arange(1, m)[np.abs(e - L.CUT) < 1e-6]
                assert set(inside) - set(unsure) <= set(window) <= set(inside) | set(unsure), (p, t)
        assert np.abs(F[:, 0] - special.betainc(a, b, x)).max() < 1e-10
        assert abs(lnB[0] - special.betaln(a, b)) < 1e-8 * max(1.0, abs(lnB[0]))


def _lazy_counts(A, B, N, seed, m=L.MAX_CELLS):
    x = np.arange(m + 1) / m
    F = np.ascontiguousarray(special.betainc(A[None, :], B[None, :], x[:, None]))
    _, lx, l1x = L.grid(m)

    @njit
    def run(F, A, B, N, seed):
        st = seed_states(np.array([seed], np.uint64))
        lanes = seed_lanes(np.array([seed], np.uint64))
        K = F.shape[1]
        u = lane_buffer(K)
        cand = np.empty(K, np.int64)
        out = np.zeros(K, np.int64)
        g = F.shape[0] // 2
        for _ in range(N):
            k, g = L.lazy_argmax(F, A, B, u, cand, g, lx, l1x, st, lanes, 0)
            out[k] += 1
        return out
    return run(F, A, B, N, seed)


@pytest.mark.statistical
@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("m", [L.MIN_CELLS, L.MAX_CELLS])
def test_lazy_argmax_has_the_argmax_law(case, m):
    """The lazy sampler's argmax frequencies against argmax of plain Beta draws (chi-square
    contingency test at level 1e-6), over posteriors from wide (few pulls) to narrow, on the
    coarsest and the finest grid `cells` gives."""
    rng = np.random.default_rng(100 + case)
    K = (3, 6, 6, 12, 20)[case]
    T = rng.integers(2, (12, 40, 400, 3000, 300)[case], K).astype(float)
    S = np.round(T * rng.uniform(0.3, 0.5, K))
    A, B = 1.0 + S, 1.0 + T - S
    N = 200_000
    lazy = _lazy_counts(A, B, N, case, m)
    plain = np.bincount(rng.beta(np.broadcast_to(A, (N, K)), np.broadcast_to(B, (N, K))).argmax(1), minlength=K)
    table = np.array([lazy, plain])[:, (lazy + plain) > 0]
    assert table.shape[1] == 1 or stats.chi2_contingency(table)[1] > TINY


def test_cells_grow_with_the_budget():
    """`cells` gives a power of two within [MIN_CELLS, MAX_CELLS], at least 4K where that fits, never
    fewer for a larger budget with the same arms (more arms with the same budget can get fewer: the
    posteriors end wider)."""
    grid = [(K, n) for K in (2, 10, 20, 33, 40, 80, 129, 1000) for n in (10, 4000, 40_000, 80_000, 400_000, 10**7)]
    for K, n in grid:
        m = L.cells(K, n)
        assert L.MIN_CELLS <= m <= L.MAX_CELLS and m & (m - 1) == 0, (K, n, m)
        assert m >= min(4 * K, L.MAX_CELLS), (K, n, m)
        for K2, n2 in grid:
            if K2 == K and n2 >= n:
                assert L.cells(K2, n2) >= m, (K, n, K2, n2)


def test_lazy_argmax_comparison_can_fail():
    """The same comparison catches a sampler whose CDF rows are off by one pull."""
    A, B = np.array([30.0, 28.0, 25.0]), np.array([30.0, 32.0, 35.0])
    N = 200_000
    lazy = _lazy_counts(A + np.array([3.0, 0.0, 0.0]), B, N, 0)      # arm 0 given 3 extra successes
    rng = np.random.default_rng(0)
    plain = np.bincount(rng.beta(np.broadcast_to(A, (N, 3)), np.broadcast_to(B, (N, 3))).argmax(1), minlength=3)
    assert stats.chi2_contingency(np.array([lazy, plain]))[1] < TINY


@njit
def _truncated_draws(a, b, c, lx, l1x, N, seed):
    st = seed_states(np.array([seed], np.uint64))
    out = np.empty(N)
    for k in range(N):
        out[k] = L.truncated_beta(a, b, c, lx, l1x, st, 0)
    return out


def _assert_truncated_law(a, b, m, c, seed):
    """400000 `truncated_beta` draws on the cell [c/m, (c+1)/m) lie in it and pass a KS test (level
    TINY) against Beta(a, b) conditioned on it."""
    _, lx, l1x = L.grid(m)
    lo, hi = c / m, (c + 1) / m
    x = _truncated_draws(a, b, c, lx, l1x, 400_000, seed)
    d = stats.beta(a, b)
    base = d.cdf(lo)
    cdf = lambda v: (d.cdf(v) - base) / (d.cdf(hi) - base)      # noqa: E731
    assert x.min() >= lo and x.max() < hi
    assert stats.kstest(x, cdf).pvalue > TINY, (a, b, m, c)


@pytest.mark.statistical
@pytest.mark.parametrize("a,b,m,c", [(40.0, 60.0, 64, 24), (3.0, 1.0, 10, 9), (1.0, 1.0, 2, 0),
                                     (900.0, 1100.0, 64, 32), (200.0, 300.0, 64, 25), (5.0, 2000.0, 64, 0)])
def test_truncated_beta_is_exact(a, b, m, c):
    """Draws from Beta(a, b) conditioned on the cell [c/m, (c+1)/m) against that law (KS): cells
    inside the bulk, at the edges 0 and 1, and on steep flanks where the squeeze rarely decides."""
    _assert_truncated_law(a, b, m, c, 7)


def _near_mode_cells(m, first=0, last=None):
    """(a, b, c): posteriors of 10 to 3e5 pulls with success shares 0.1-0.7, and each cell c within
    3 of the one holding the mode (kept within [first, last))."""
    last = m if last is None else last
    for T in (10, 100, 1000, 10_000, 100_000, 300_000):
        for p in (0.1, 0.37, 0.5, 0.7):
            a, b = 1.0 + round(p * T), 1.0 + T - round(p * T)
            c0 = int((a - 1) / (a + b - 2) * m)
            for c in range(max(c0 - 3, first), min(c0 + 4, last)):
                yield a, b, c


def _kind_cases(m=L.MAX_CELLS):
    """For each proposal kind of `envelope`, the first (a, b, c) of `_near_mode_cells` whose cell gets
    that kind."""
    _, lx, l1x = L.grid(m)
    found = {}
    for a, b, c in _near_mode_cells(m):
        found.setdefault(int(L.envelope(a, b, c, lx, l1x)[0]), (a, b, c))
    return found


def test_envelope_bounds_the_log_density():
    """For every proposal kind, on every cell near the mode of posteriors from 10 to 3e5 pulls, the
    envelope's bounds hold at 2001 points of the cell: above f(x) (the kind's envelope) and below
    it (the kind's squeeze), to within rounding (1e-9 of max(1, |f(x0)|)); every kind occurs."""
    m = L.MAX_CELLS
    _, lx, l1x = L.grid(m)
    kinds = set()
    for a, b, c in _near_mode_cells(m, 1, m - 1):
        kind, x0, f0, lam, toward, kmin, kmax, flo, fhi = L.envelope(a, b, c, lx, l1x)
        kinds.add(kind)
        x = np.linspace(c / m, (c + 1) / m, 2001)
        f = (a - 1) * np.log(x) + (b - 1) * np.log1p(-x)
        d = np.abs(x - x0)
        if kind == L.UNIFORM:
            above, below = np.full_like(x, f0), flo + (x - c / m) * m * (fhi - flo)
        elif kind == L.NORMAL:
            above, below = f0 - 0.5 * kmin * d * d, f0 - lam * d - 0.5 * kmax * d * d
        else:
            above, below = f0 - lam * d, f0 - lam * d - 0.5 * kmax * d * d
        tol = 1e-9 * max(1.0, abs(f0))
        assert np.all(f <= above + tol), (a, b, c, kind)
        assert np.all(f >= below - tol), (a, b, c, kind)
    assert kinds == {L.UNIFORM, L.NORMAL, L.EXPONENTIAL}


@pytest.mark.statistical
@pytest.mark.parametrize("kind", [L.UNIFORM, L.NORMAL, L.EXPONENTIAL])
def test_truncated_beta_is_exact_for_each_proposal(kind):
    """Each proposal kind's draws against the Beta law conditioned on the cell (KS, 400000 draws), on
    the first posterior of a sweep that gets it, at the grid TTTS uses."""
    m = L.MAX_CELLS
    a, b, c = _kind_cases(m)[kind]
    _assert_truncated_law(a, b, m, c, 11)

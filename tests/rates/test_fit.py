"""rue_verify.rates.fit: a known exponent is recovered inside its interval, a bend is reported as
not a power law, and the paired fit uses the correlation across budgets."""

import numpy as np

from rue_verify.rates import fit_exponent, fit_paired

N = np.geomspace(100, 1e5, 10)


def test_a_known_exponent_is_inside_its_interval():
    rng = np.random.default_rng(0)
    runs = 0.3 * N ** -0.7 * np.exp(rng.normal(0, 0.5, (800, 1)) + rng.normal(0, 0.2, (800, N.size)))
    f = fit_paired(N, runs)
    assert f.interval[0] <= -0.7 <= f.interval[1] and f.interval[1] - f.interval[0] < 0.2 and f.power_law
    y = 2 * N ** -1.0
    g = fit_exponent(N, y * (1 + 0.01 * rng.standard_normal(N.size)), 0.01 * y)
    assert g.interval[0] <= -1.0 <= g.interval[1]


def test_a_bend_is_not_called_a_power_law():
    y = np.where(N < 3000, N ** -1.0, 3000 ** -0.8 * N ** -0.2)
    rng = np.random.default_rng(1)
    runs = y * np.exp(rng.normal(0, 0.05, (400, N.size)))
    assert not fit_paired(N, runs, tail=1.0).power_law

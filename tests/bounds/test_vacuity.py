"""bounds.vacuity: where a bound of Section 5 first drops below 1."""

from bounds import theorems as th
from bounds import vacuity


def test_vacuity_finds_the_crossing():
    r = vacuity.smallest_informative_n(100, 1.0, 0.1, 0.01)
    assert r.n_first is not None
    assert th.theorem_5_1_bound(100, r.n_first, 1.0, 0.1, 0.01) < 1
    assert th.theorem_5_1_bound(100, r.n_first - 1, 1.0, 0.1, 0.01) >= 1
    never = vacuity.smallest_informative_n(100, 1.0, 1.0, 1.0, n_max=10 ** 9)
    assert never.n_first is None and "grid" in never.reason
    und = vacuity.smallest_informative_n(20, 1.0, 1.0, 1.0)
    assert und.n_first is None and und.reason.startswith("undefined")

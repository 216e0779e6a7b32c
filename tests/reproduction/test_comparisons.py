"""rue_verify.comparisons and the empirical claims' verdict logic, on synthetic result tables where
the truth is known: a clear win, a tie, and a win on half of the cells."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rue_verify.ledger.section6 import _conjunction
from rue_verify.reproduction import comparisons as C
from rue_verify.verify import from_classes


def row(setting, algorithm, failed, instances=1):
    failed = np.asarray(failed, bool)
    runs = failed.size // instances
    return {"key": f"{setting}|{algorithm}|{{}}", "instances": instances, "runs": runs, "total_runs": failed.size,
            "failure_bits": np.packbits(failed).tobytes().hex(),
            "per_instance_failures": ";".join(str(int(x)) for x in failed.reshape(instances, runs).sum(axis=1))}


def pair(p_a, p_b, n=2000, seed=0, instances=1, shared=0.8):
    """Rows of two algorithms on common random numbers: correlated failures with rates p_a, p_b."""
    rng = np.random.default_rng(seed)
    u = rng.random(n)
    v = np.where(rng.random(n) < shared, u, rng.random(n))
    return row("S", "a", u < p_a, instances), row("S", "b", v < p_b, instances)


def test_a_clear_win_a_tie_and_a_loss():
    win = C.compare(*pair(0.10, 0.30))
    tie = C.compare(*pair(0.20, 0.20))
    loss = C.compare(*pair(0.40, 0.20, seed=1))
    assert C.classify([win]) == ["better"] and win.high < 0 and win.p < 1e-6
    assert C.classify([tie]) == ["undecided"] and tie.low < 0 < tie.high
    assert C.classify([loss]) == ["worse"] and loss.low > 0


def test_a_conjunction_over_cells_follows_its_worst_cell():
    wins = [C.compare(*pair(0.10, 0.30, seed=s)) for s in range(6)]
    half = wins[:3] + [C.compare(*pair(0.2, 0.2, seed=10 + s)) for s in range(3)]
    lost = wins[:5] + [C.compare(*pair(0.4, 0.2, seed=20))]
    assert from_classes(C.classify(wins), "d", "x").verdict == "holds"
    cls = C.classify(half)
    assert from_classes(cls, "d", "x").verdict == "inconclusive"
    assert "better in 3, worse in 0, undecided in 3 of 6" in _conjunction(cls, "x")
    assert from_classes(C.classify(lost), "d", "x").verdict == "refuted"


def test_holm_is_the_step_down_correction():
    p = [0.01, 0.04, 0.03, 0.005]
    assert C.holm(p).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # a cell significant alone is not significant among many
    assert C.classify([C.Comparison(-0.05, -0.1, -0.01, 0.02, "runs", 1)]) == ["better"]
    many = [C.Comparison(-0.05, -0.1, -0.01, 0.02, "runs", 1)] + [C.Comparison(0, -1, 1, 1.0, "runs", 1)] * 4
    assert C.classify(many)[0] == "undecided"


def test_instances_are_paired_by_instance():
    rng = np.random.default_rng(3)
    hard = rng.uniform(0, 0.8, 40)              # instance difficulty shared by both algorithms
    a = np.concatenate([rng.random(50) < h for h in hard])
    b = np.concatenate([rng.random(50) < min(h + 0.05, 1) for h in hard])
    c = C.compare(row("S", "a", a, 40), row("S", "b", b, 40))
    assert c.unit == "instances" and c.n == 40 and c.high < 0


@settings(max_examples=30)
@given(pa=st.floats(0.05, 0.6), pb=st.floats(0.05, 0.6), seed=st.integers(0, 1000))
def test_relative_reduction_interval_covers_its_estimate(pa, pb, seed):
    a, b = pair(pa, pb, n=800, seed=seed)
    est, lo, hi = C.relative_reduction(a, b, seed=seed)
    assert lo <= est <= hi or np.isnan(est)


def test_rows_of_different_settings_are_not_compared():
    with pytest.raises(ValueError, match="different settings"):
        C.compare(row("S", "a", [1, 0]), row("T", "b", [0, 0]))

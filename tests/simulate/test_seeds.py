"""simulate.seeds: a named stream depends on the seed and its name only, and names differ."""

import numpy as np

from simulate.seeds import run_seeds, sequence, stream


def test_a_stream_is_its_name_under_its_seed():
    a = stream(3, "means", 7).random(5)
    stream(3, "other").random(100)                        # drawing another stream changes nothing
    assert np.array_equal(stream(3, "means", 7).random(5), a)
    assert not np.array_equal(stream(3, "means", 8).random(5), a)
    assert not np.array_equal(stream(4, "means", 7).random(5), a)


def test_run_seeds_are_the_named_sequence_state():
    s = run_seeds(11, "rue:F1", 6)
    assert s.dtype == np.uint64 and s.shape == (6,) and len(set(s.tolist())) == 6
    assert np.array_equal(s, sequence(11, "rue:F1").generate_state(6, dtype=np.uint64))
    assert np.array_equal(run_seeds(11, "rue:F1", 3), s[:3])

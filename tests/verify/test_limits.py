"""The limits user code runs under (`verify.faults`), the reading of counts from a point
(`graph.count_at`) and strict JSON (`findings.dumps`): each shown to stop, refuse or rewrite the planted
case it exists for."""

import json
import time

import numpy as np
import pytest
import sympy

from rue_verify.verify.faults import OutOfMemory, TimeLimit, memory_limit, one_line, time_limit
from rue_verify.verify.findings import dumps
from rue_verify.verify.graph import count_at


def test_a_loop_is_stopped_at_its_time_limit_and_an_outer_limit_is_given_back():
    t0 = time.monotonic()
    with pytest.raises(TimeLimit, match="the loop ran past its time limit of 0.2 s"):
        with time_limit(0.2, "the loop"):
            while True:
                pass
    assert time.monotonic() - t0 < 5
    with pytest.raises(TimeLimit, match="outer"):        # an inner, longer limit leaves the outer in charge
        with time_limit(0.3, "outer"):
            with time_limit(30, "inner"):
                while True:
                    pass
    with time_limit(None, "none"):                         # no limit: nothing fires
        time.sleep(0.05)


def test_an_allocation_past_the_free_memory_is_refused_and_the_limit_is_lifted_after():
    import resource

    from simulate.cost import available_memory
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(OutOfMemory, match="needs more memory than this machine has free"):
        with memory_limit("the planted allocation"):
            bytearray(int(available_memory() * 2) + 2 ** 30)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_count_is_a_whole_number_in_range_or_refused_naming_it():
    assert count_at({"K": 3}, "K") == 3 and count_at({"K": 3.0}, "K") == 3 and count_at({"n": 1e3}, "n") == 1000
    for bad in (2.5, True, "3", None, float("inf"), float("nan"), 1):
        with pytest.raises(ValueError, match="K must be a whole number in \\[2"):
            count_at({"K": bad}, "K", 2)


def test_strict_json_writes_no_nan_or_infinity():
    text = dumps({"a": float("nan"), "b": np.float64("inf"), "c": [-np.inf], "d": sympy.oo, "e": np.int64(3)})
    back = json.loads(text, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert back == {"a": "nan", "b": "inf", "c": ["-inf"], "d": "inf", "e": 3}


def test_one_line_names_the_users_frame():
    def mine():
        return {}["missing"]
    try:
        mine()
    except KeyError as err:
        line = one_line(err)
    assert line.startswith("KeyError: 'missing' (test_limits.py:") and "in mine)" in line

"""The toolkit's own exceptions cross a process boundary intact: a claim or a study task runs in a worker
process, and an exception the parent cannot unpickle broke the whole pool (BrokenProcessPool) instead of
reaching the caller with its message."""

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from bounds._core import UndefinedError
from rue_verify.errors import ParameterError
from rue_verify.user_bounds import BoundError

ERRORS = [ParameterError("rates", "/tmp/x holds no results.csv"), BoundError("f.py:B", "not callable"),
          UndefinedError("sqrt of a negative", {"K": 3, "n": 2.5})]


@pytest.mark.parametrize("err", ERRORS, ids=lambda e: type(e).__name__)
def test_each_error_survives_pickling_with_its_message_and_fields(err):
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err) and str(back) == str(err)
    assert vars(back) == vars(err)


def _raise(i):
    raise ERRORS[i]


def test_an_error_raised_in_a_worker_reaches_the_caller():
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(ParameterError, match="rates: /tmp/x holds no results.csv") as got:
            pool.submit(_raise, 0).result()
    assert got.value.param == "rates"


class Plain(ValueError):
    """ParameterError as it was, without its __reduce__."""

    def __init__(self, param, reason):
        super().__init__(f"{param}: {reason}")


def test_a_class_without_the_fix_would_not():
    """The planted case: an error built from two fields is rebuilt the default way from its one message,
    which its constructor refuses (asked directly: a test plugin may patch how exceptions pickle)."""
    e = Plain("a", "b")
    cls, args = e.__reduce__()[:2]
    with pytest.raises(TypeError):
        cls(*args)
    cls, args = ERRORS[0].__reduce__()[:2]
    assert str(cls(*args)) == str(ERRORS[0])

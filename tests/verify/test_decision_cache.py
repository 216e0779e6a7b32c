"""The decision cache (`statements.decide`): a decision is kept under a key of its statement and of the engine's
code, read back the same, never a decision a time limit cut short; a changed statement, a corrupted file or the
cache turned off decides afresh."""

import sympy

from rue_verify.verify import statements
from rue_verify.verify.statements import Decision, Holds, decide, rel


def _files(tmp_path):
    return sorted((tmp_path / "decisions").glob("*.json"))


def test_a_decision_is_kept_and_read_back_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv(statements.CACHE_ENV, str(tmp_path))
    x = sympy.Symbol("x", positive=True)
    st = Holds(rel(x + 1, ">", x))
    first = decide(st)
    assert first.status == "certified" and len(_files(tmp_path)) == 1
    again = decide(Holds(rel(x + 1, ">", x)))                    # built again: the same key, read back
    assert again == first and len(_files(tmp_path)) == 1
    wrong = decide(Holds(rel(x - 1, ">", x)))                    # another statement: decided, not read back
    assert wrong.status == "refuted" and len(_files(tmp_path)) == 2


def test_a_corrupted_file_is_decided_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv(statements.CACHE_ENV, str(tmp_path))
    x = sympy.Symbol("x", positive=True)
    st = Holds(rel(x ** 2 + 1, ">", 0))
    decide(st)
    (path,) = _files(tmp_path)
    path.write_text('{"status": "refut')                        # half a file, as a killed writer could not leave
    assert decide(st).status == "certified"
    path.write_text('{"decision": {"status": "certified", "method": "sympy", "detail": "kept", "extra": 1}}')
    assert decide(st).detail != "kept"                                   # another layout: decided afresh


def test_a_timed_out_decision_is_not_kept_and_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv(statements.CACHE_ENV, str(tmp_path))
    x = sympy.Symbol("x", positive=True)
    key = statements._cache_key(Holds(rel(x, ">", 0)))
    statements._cache_put(key, Decision("argued", "z3", "z3 could not decide it within 8 s (timeout)"))
    assert not _files(tmp_path)
    statements._cache_put(key, Decision("argued", "z3", "z3 could not decide it within 8 s"), keep_timed=True)
    assert len(_files(tmp_path)) == 1
    monkeypatch.setenv(statements.CACHE_ENV, "off")
    other = tmp_path / "other"
    decide(Holds(rel(x + 2, ">", x)))
    assert not other.exists() and len(_files(tmp_path)) == 1


def test_a_statement_with_fresh_variables_has_one_key():
    """A rule's fresh variable (a Dummy) is new in every run; the key names it by its order, so the same statement
    built twice has one key, and two statements that differ have two."""
    def built():
        d = sympy.Dummy("u", positive=True)
        return Holds(rel(d + 1, ">", d))
    assert statements._cache_key(built()) == statements._cache_key(built())
    d = sympy.Dummy("u", positive=True)
    assert statements._cache_key(Holds(rel(d + 2, ">", d))) != statements._cache_key(built())


def test_a_sample_of_the_shipped_decisions_is_decided_afresh_the_same():
    """The decisions shipped with the package are this engine's own, under its hash: a seeded sample of them,
    decided afresh with every cache off, gets the same status (a stale or altered pack would not); a pack from
    another engine's hash is not read at all."""
    import os
    import random
    shipped = statements.shipped_decisions()
    if not shipped:
        import pytest
        pytest.skip("no decisions shipped for this engine's hash (rebuild rue_verify/data/decisions.json.gz)")
    keys = sorted(k for k, v in shipped.items() if "holds" in v and v["decision"]["status"] in ("certified", "refuted"))
    sample = random.Random(2024).sample(keys, min(12, len(keys)))
    old = os.environ.get(statements.CACHE_ENV)
    os.environ[statements.CACHE_ENV] = "off"
    try:
        keyed = 0
        for key in sample:
            st = statements.kept_statement(shipped[key])
            assert st is not None, key
            # a vacuity check's negation is kept under its statement's key and "-negation" (`proofs._negation`). A
            # statement with a Dummy is unpickled with the Dummy's creation index, which can meet another Dummy of
            # this process (after other tests), so its key is compared only where it holds no Dummy
            if not any(sympy.sympify(p).atoms(sympy.Dummy) for p in (st.claim, *st.given)):
                assert statements._cache_key(st) == key.removesuffix("-negation"), key
                keyed += 1
            again = decide(st)                    # afresh: the caches are off
            timed = again.status == "argued" and any(w in again.detail for w in statements._TIMED)
            assert again.status == shipped[key]["decision"]["status"] or timed, (key, again)
        assert keyed >= len(sample) // 3, keyed
    finally:
        if old is None:
            del os.environ[statements.CACHE_ENV]
        else:
            os.environ[statements.CACHE_ENV] = old


def test_functions_of_one_name_with_other_assumptions_have_other_keys():
    """sympy's srepr omits an undefined function's assumptions: f(1) > 0 for a positive f and for a plain f are
    other statements (certified and not), so the key writes the assumptions out."""
    pos, plain = sympy.Function("f_keyed", positive=True), sympy.Function("f_keyed")
    assert statements._cache_key(Holds(rel(pos(1), ">", 0))) != statements._cache_key(Holds(rel(plain(1), ">", 0)))

"""The history search's outcomes shipped with the package (`proof_history_record`): current for this code, equal to
a walk done afresh, ignored where the code differs or the decision cache is off."""

from __future__ import annotations

import pytest

from rue_verify.ledger import SETTINGS
from rue_verify.ledger import proof_history_record as rec
from rue_verify.ledger.proof_histories import ROUTE_STEPS, STEPS, Params, walk_code
from rue_verify.verify.histories import search_many

FIELDS = ("visited", "leaves", "pruned", "programs", "near_zero", "where")


def test_the_shipped_outcomes_are_this_codes_and_cover_the_quick_grid(monkeypatch):
    """Fails until `python -m rue_verify.ledger.proof_history_build` is run after a change to the search, the
    ledger's history steps or a formula of `bounds` (the first command then walks every point again: correct, slow)."""
    from rue_verify.ledger import proof_histories
    assert rec.shipped(walk_code()), (f"rue_verify/data/{rec.SHIPPED_FILE} is absent or of other code than "
                                      f"{walk_code()}: rebuild it")

    def walked(*a, **k):
        raise AssertionError("a point of the quick grid was walked: its outcome is not shipped")
    monkeypatch.setattr(proof_histories, "search_many", walked)
    for route in ROUTE_STEPS:
        runs = proof_histories._walks.__wrapped__(route, tuple(SETTINGS["quick"]["history_n"]))
        assert all(runs.values())


def _fresh(p, steps):
    return search_many(p.model(), {s: STEPS[s][0](p) for s in steps}, exact=False)


@pytest.mark.parametrize("route, point", [("repaired", (3, 9, 1.0, 0.1)), ("paper", (2, 5, 1.0, 1.0))])
def test_a_shipped_point_equals_its_walk_done_afresh(route, point):
    p = Params(*point, route)
    steps = ROUTE_STEPS[route]
    shipped = rec.shipped(walk_code())[rec.key(p, steps, walk_code())]
    fresh = _fresh(p, steps)
    assert set(shipped) == set(fresh) == set(steps)
    for s in steps:
        a, b = shipped[s], fresh[s]
        assert [getattr(a, f) for f in FIELDS] == [getattr(b, f) for f in FIELDS], s
        assert a.smallest == pytest.approx(b.smallest, rel=1e-9, abs=1e-12)
        assert (a.witness is None) == (b.witness is None)
        if a.witness is not None:
            assert a.witness.arms == b.witness.arms


def test_a_point_is_read_only_under_this_codes_hash_and_with_the_cache_on(monkeypatch):
    p = Params(2, 6, 1.0, 1.0, "repaired")
    steps, code = ROUTE_STEPS["repaired"], walk_code()
    assert rec.lookup(p, steps, code) is not None
    assert rec.lookup(p, steps[:-1], code) is None                # other steps: another key
    for off in ("off", "0", "no", "false"):                      # --recheck: every point walked again
        monkeypatch.setenv("RUE_VERIFY_CACHE", off)
        assert rec.lookup(p, steps, code) is None
    monkeypatch.delenv("RUE_VERIFY_CACHE")
    assert rec.lookup(p, steps, "another code") is None           # a changed formula or search: nothing matches
    assert rec.shipped("another code") == {}


def test_the_code_hash_follows_the_formulas_of_bounds(tmp_path, monkeypatch):
    """A formula of `bounds` changed changes the hash, so its thresholds are walked again."""
    import inspect

    import bounds
    from simulate.proofs import linear
    before = rec.code_hash([linear])
    real = bounds.__file__
    copy = tmp_path / "bounds"
    copy.mkdir()
    for f in sorted(type(tmp_path)(inspect.getfile(bounds)).parent.glob("*.py")):
        (copy / f.name).write_text(f.read_text())
    (copy / "theorems.py").write_text((copy / "theorems.py").read_text() + "\n# a change\n")
    monkeypatch.setattr(bounds, "__file__", str(copy / "__init__.py"))
    assert rec.code_hash([linear]) != before
    monkeypatch.setattr(bounds, "__file__", real)
    assert rec.code_hash([linear]) == before


def _same(a, b) -> bool:
    return ([getattr(a, f) for f in FIELDS] == [getattr(b, f) for f in FIELDS]
            and a.smallest == pytest.approx(b.smallest, rel=1e-9, abs=1e-12)
            and (a.witness is None) == (b.witness is None)
            and (a.witness is None or a.witness.arms == b.witness.arms))


def test_every_shipped_point_of_the_quick_grid_equals_its_walk_done_afresh(tmp_path):
    """The first command reads these outcomes instead of walking: each point of the quick grid, every route, is walked
    afresh here (about 15 s of CPU) and must equal the shipped outcome, so a record edited by hand (a witness
    removed, a holding outcome added at a point: the review's planted case) fails the suite."""
    from rue_verify.ledger import proof_histories
    code = walk_code()
    rec.recording(lambda: [proof_histories._walks.__wrapped__(route, tuple(SETTINGS["quick"]["history_n"]))
                           for route in ROUTE_STEPS], tmp_path / "fresh.json.gz", code)
    import gzip
    import json
    fresh = rec.decode(json.loads(gzip.decompress((tmp_path / "fresh.json.gz").read_bytes()))["outcomes"])
    shipped = rec.shipped(code)
    assert fresh and set(fresh) <= set(shipped)
    differ = [k for k, v in fresh.items()
              if set(v) != set(shipped[k]) or not all(_same(shipped[k][s], v[s]) for s in v)]
    assert not differ, f"{len(differ)} shipped points differ from their walk done afresh"
    witnessed = next(k for k, v in fresh.items() if any(o.witness is not None for o in v.values()))
    planted = {s: type(o)(**{**o.__dict__, "witness": None}) for s, o in shipped[witnessed].items()}   # a witness cut
    assert not all(_same(planted[s], o) for s, o in fresh[witnessed].items())


def test_a_planted_shipped_outcome_is_found_out_by_the_fresh_walk():
    """The comparison above can fail: an outcome from another point (a planted record) differs from the walk."""
    steps = ROUTE_STEPS["repaired"]
    wrong = rec.shipped(walk_code())[rec.key(Params(4, 13, 1.0, 1.0, "repaired"), steps, walk_code())]
    fresh = _fresh(Params(2, 6, 1.0, 1.0, "repaired"), steps)
    assert any([getattr(wrong[s], f) for f in FIELDS] != [getattr(fresh[s], f) for f in FIELDS] for s in steps)


def test_the_record_is_json_that_reads_back_to_the_same_outcomes_and_builds_no_other_class():
    """The shipped file is plain JSON (gzip): its outcomes, witnesses with their arrays and rows included, read back
    to objects that encode to the same JSON; a tag naming a class outside the record's few is refused, and a dict
    whose keys could pass for a tag cannot be recorded (so reading never builds what the file names)."""
    import gzip
    import json
    from importlib import resources
    raw = json.loads(gzip.decompress(resources.files("rue_verify").joinpath("data", rec.SHIPPED_FILE).read_bytes()))
    assert raw["code"] == walk_code()
    back = rec.decode(raw["outcomes"])
    assert rec.encode(back) == raw["outcomes"]
    witnesses = [o.witness for v in back.values() for o in v.values() if o.witness is not None]
    assert witnesses, "the quick grid's paper route has witnesses: the record should hold some"
    w = witnesses[0]
    assert w.z.dtype.kind == "f" and isinstance(w.arms, tuple) and w.violation.rows[0].idx.dtype.kind == "i"
    with pytest.raises(ValueError, match="unknown class"):
        rec.decode({"__class__": "Popen", "args": ["true"]})
    with pytest.raises(ValueError, match="cannot be recorded"):
        rec.encode({"__class__": "Outcome"})
    with pytest.raises(TypeError, match="cannot hold"):
        rec.encode({"x": object()})
    assert rec.decode(rec.encode({"a": float("inf"), "b": (1, 2.5)})) == {"a": float("inf"), "b": (1, 2.5)}


@pytest.mark.parametrize("dist", ["numpy", "scipy", "z3-solver"])
def test_the_code_hash_follows_the_solvers_versions(monkeypatch, dist):
    """Another numpy, scipy (HiGHS) or z3 (which decides margins near 0) walks again: the hash names their versions."""
    from importlib import metadata

    from simulate.proofs import linear
    before = rec.code_hash([linear])
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda d: "0.0-other" if d == dist else real(d))
    assert rec.code_hash([linear]) != before

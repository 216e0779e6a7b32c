"""Farkas certificates of the exact history search (`rue_verify.certify.farkas`): a recorded search's tree checks
in exact rationals, with no LP solver; every planted corruption (a multiplier changed, a pruned node's certificate
removed, a row altered, a child removed, a key that does not match) is rejected; the checker imports no solver
and no search code; recording leaves the search's results as they were."""

import copy
import json
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache

import pytest

from rue_verify.certify import farkas
from rue_verify.ledger.proof_histories import ROUTE_STEPS, STEPS, Params
from rue_verify.verify.histories import Tree, search_many
from simulate.proofs.steps import point, stated

P = Params(3, 10, 1.0, 1.0, "repaired")
STEP = "gap-repaired"           # its leaves carry both kinds: margin bounds and infeasible violations


@lru_cache(maxsize=1)
def _recorded():
    tree = Tree()
    out = search_many(P.model(), {s: STEPS[s][0](P) for s in ROUTE_STEPS["repaired"]}, exact=False, record=tree)
    return tree, out


def _cert(step: str = STEP) -> dict:
    tree, _ = _recorded()
    c = farkas.certificate(tree, stated(step, P), "source-hash", f"history step {step}", step=step,
                           branching={"rule": "relabel", "K": P.K, "after": 2 * P.K}, point=point(P))
    return json.loads(json.dumps(c, sort_keys=True))        # as a reader gets it: through a JSON file


def _pruned(c: dict) -> dict:
    return next(nd for nd in c["nodes"] if nd["status"] == "pruned")


def _bump(q: str) -> str:
    return str(Fraction(q) * Fraction(1000001, 1000000))


def test_recording_changes_no_result_and_certifies_every_decision():
    tree, rec = _recorded()
    plain = search_many(P.model(), {s: STEPS[s][0](P) for s in ROUTE_STEPS["repaired"]}, exact=False)
    for s in plain:
        a, b = plain[s], rec[s]
        assert (a.visited, a.leaves, a.pruned, a.programs, a.holds, a.smallest, a.where) == \
               (b.visited, b.leaves, b.pruned, b.programs, b.holds, b.smallest, b.where)
    n = tree.counts()
    assert n["pruned"] == rec[STEP].pruned >= 1 and n["pruned_certified"] == n["pruned"]
    assert n["leaves"] == rec[STEP].leaves
    assert all(done == total > 0 for total, done in n["checks"].values())
    kinds = {c["kind"] for nd in tree.nodes for c in nd.get("checks", {}).get(STEP, [])}
    assert kinds == {"bound", "infeasible"}


@pytest.mark.parametrize("step", ROUTE_STEPS["repaired"])
def test_a_small_search_certificate_checks(step):
    ok, detail = farkas.check(_cert(step))
    assert ok, detail
    assert "pruned" in detail and "leaves" in detail


def test_a_changed_multiplier_is_rejected():
    c = _cert()
    nd = _pruned(c)
    nd["y"][0][1] = _bump(nd["y"][0][1])
    ok, detail = farkas.check(c)
    assert not ok and "pruned node" in detail
    c = _cert()
    leaf = next(nd for nd in c["nodes"] if nd["status"] == "leaf" and nd["checks"])
    leaf["checks"][0]["y"][-1][1] = _bump(leaf["checks"][0]["y"][-1][1])
    ok, detail = farkas.check(c)
    assert not ok and "leaf" in detail


def test_a_multiplier_taking_a_side_its_row_has_not_is_rejected():
    c = _cert()
    nd = _pruned(c)
    one_sided = next(i for i, r in enumerate(c["root"]["rows"]) if r[3] is None)   # lo <= a.z only
    nd["y"].append([one_sided, "-1/1"])
    ok, detail = farkas.check(c)
    assert not ok and "side" in detail


def test_a_pruned_node_without_its_certificate_is_rejected():
    c = _cert()
    _pruned(c)["y"] = None
    ok, detail = farkas.check(c)
    assert not ok and "uncertified" in detail
    c = _cert()
    del _pruned(c)["y"]
    assert not farkas.check(c)[0]


def test_a_leaf_without_its_checks_is_rejected():
    c = _cert()
    leaf = next(nd for nd in c["nodes"] if nd["status"] == "leaf" and nd["checks"])
    del leaf["checks"]
    ok, detail = farkas.check(c)
    assert not ok and ("no check" in detail or "not every way" in detail), detail


def test_an_altered_row_is_rejected():
    for where in ("coefficient", "bound"):
        c = _cert()
        nd = _pruned(c)
        i, y = max(nd["y"])                # the last row the certificate uses: the pruned node's own
        row = nd["rows"][i - (sum(len(a["rows"]) for a in [c["root"]] + _ancestors(c, nd)))]
        if where == "coefficient":
            c["values"].append("3/7")
            row[1][0] = len(c["values"]) - 1
        else:                              # the side its multiplier takes, loosened
            c["values"].append("-1000/1" if Fraction(y) > 0 else "1000/1")
            row[2 if Fraction(y) > 0 else 3] = len(c["values"]) - 1
        ok, detail = farkas.check(c)
        assert not ok and "not the model's rows" in detail, detail     # the rows rebuilt from the model differ


def _ancestors(c: dict, nd: dict) -> list:
    """The nodes strictly between the root and `nd`, in order."""
    by = {tuple(a["arms"]): a for a in c["nodes"]}
    r = len(c["root"]["arms"])
    return [by[tuple(nd["arms"][:t])] for t in range(r + 1, len(nd["arms"]))]


def test_a_removed_child_is_rejected():
    c = _cert()
    leaf = next(nd for nd in c["nodes"] if nd["status"] == "leaf")
    c["nodes"].remove(leaf)
    ok, detail = farkas.check(c)
    assert not ok and "cover" in detail
    # removed with its parent's branch too: the stated branching rule still asks for it
    c = _cert()
    parent = next(nd for nd in c["nodes"] if nd["status"] == "internal" and len(nd["branch"]) > 1)
    a = parent["branch"].pop()
    gone = tuple(parent["arms"]) + (a,)
    c["nodes"] = [nd for nd in c["nodes"] if tuple(nd["arms"][:len(gone)]) != gone]
    ok, detail = farkas.check(c)
    assert not ok and "rule" in detail


def test_a_key_not_matching_is_rejected():
    c = _cert()
    c["statement"] = c["statement"] + " (changed)"
    ok, detail = farkas.check(c)
    assert not ok and "key" in detail
    c = _cert()
    c["kind"] = "boxes"
    assert not farkas.check(c)[0]


def test_a_node_outside_the_tree_or_a_short_leaf_is_rejected():
    c = _cert()
    extra = copy.deepcopy(next(nd for nd in c["nodes"] if nd["status"] == "leaf"))
    extra["arms"] = extra["arms"][:-1] + [7]
    c["nodes"].append(extra)
    assert not farkas.check(c)[0]
    c = _cert()
    c["n"] = c["n"] + 1
    ok, detail = farkas.check(c)
    assert not ok and "pulls" in detail


def test_the_checker_imports_no_solver_and_no_search(tmp_path):
    """In a fresh interpreter, loading the checker and checking a certificate from a file (its rows rebuilt from
    `simulate.proofs`) loads neither z3, HiGHS, scipy.optimize nor any module of rue_verify.verify or the ledger."""
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(_cert(), sort_keys=True))
    code = ("import json, sys\n"
            "from rue_verify.certify import farkas\n"
            f"ok, detail = farkas.check(json.load(open({str(path)!r})))\n"
            "bad = sorted(k for k in sys.modules if k.split('.')[0] in ('z3', 'highspy', 'cvc5')\n"
            "             or k.startswith(('scipy.optimize', 'rue_verify.verify', 'rue_verify.ledger')))\n"
            "print(json.dumps([ok, detail, bad]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    ok, detail, bad = json.loads(out.stdout.strip().splitlines()[-1])
    assert ok, detail
    assert bad == []


def test_the_papers_history_certificates_cover_every_holding_step_at_every_point_and_check():
    """`Paper.certificates` of the paper (written by `certificates --write`): at a small grid, one Farkas certificate
    per step no history breaks and per parameter point, each checking in exact rationals, those with largest
    margins of 0 exactly among them; a step some history breaks gets none."""
    from types import SimpleNamespace

    from rue_verify.ledger import PAPER
    from rue_verify.ledger.proof_histories import _walks, grid
    mode = SimpleNamespace(history_n=((2, 6),))
    uncovered: list = []
    certs = list(PAPER.certificates(mode, uncovered))
    assert uncovered == []          # margins of 0 exactly (regret-decomV's ties) are certified too, with L = 0
    expected = 0
    for route, steps in ROUTE_STEPS.items():
        runs = _walks(route, mode.history_n)
        holding = [s for s in steps if all(o.witness is None for _, o in runs[s])]
        broken = set(steps) - set(holding)
        expected += len(holding) * len(grid(mode, route))
        assert not any(c["step"] in broken and f"({route} route)" in c["what"] for c in certs)
    assert len(certs) == expected > 0
    for c in certs:
        ok, detail = farkas.check(json.loads(json.dumps(c)))
        assert ok, (c["what"], detail)
    c = json.loads(json.dumps(certs[0]))
    c["statement"] = c["statement"].replace("K", "k", 1)              # moved to another statement: its key fails
    assert not farkas.check(c)[0]


@pytest.mark.parametrize("corrupt, word", [
    (lambda c: c.pop("branching"), "branching rule"),                                   # optional no more
    (lambda c: c["branching"].update(K=1), "branching rule"),                            # the rule over fewer arms
    (lambda c: c.update(step=None), "names no step"),                                    # the pruning only
    (lambda c: c.update(complete=False), "not complete"),
    (lambda c: c.update(n=str(c["n"])), "integers"),
    (lambda c: c["root"].update(arms=c["root"]["arms"] + [0]), "initialisation"),         # a subtree as the root
    (lambda c: c["root"]["rows"][0][0].append(0), "pair up"),                            # a column without coefficient
    (lambda c: c["root"]["rows"].append([[c["n_vars"]], [0], None, 0]), "margin's column"),  # the tree bounds m itself
    (lambda c: c.update(step="gap-paper"), "not about its step"),                         # another step's name
])
def test_the_holes_a_reviewer_found_in_the_farkas_check_are_closed(corrupt, word):
    c = _cert()
    corrupt(c)
    ok, detail = farkas.check(c)
    assert not ok and word in detail, detail


@lru_cache(maxsize=1)
def _tie_cert() -> dict:
    """regret-decomV at K = 2, n = 5: it holds with equality in the reals on two histories (the widths of E meet),
    where its bounds' doubles leave the exact margin bound an ulp above 0; the paper's writer states the tolerance."""
    from types import SimpleNamespace

    from rue_verify.ledger import PAPER
    mode = SimpleNamespace(history_n=((2, 5),))
    uncovered: list = []
    certs = [c for c in PAPER.certificates(mode, uncovered) if c["step"] == "regret-decomV"
             and "K = 2, n = 5, sigma0^2 = 1, sigma^2 = 1" in c["what"]]
    assert uncovered == [] and len(certs) == 1
    return json.loads(json.dumps(certs[0]))


def test_a_step_met_with_equality_checks_only_with_its_stated_tolerance():
    c = copy.deepcopy(_tie_cert())
    assert c["tolerance"] == farkas._q(farkas.MAX_TOLERANCE) and c["statement"].endswith(
        farkas.tolerance_suffix(farkas.MAX_TOLERANCE))
    ok, detail = farkas.check(c)
    assert ok and "up to that tolerance" in detail, detail
    exact = copy.deepcopy(c)
    exact.pop("tolerance")                          # read as exact: the ulp above 0 fails it
    ok, detail = farkas.check(exact)
    assert not ok and "not the step's" in detail, detail        # its statement still states the tolerance
    exact["statement"] = exact["statement"][:-len(farkas.tolerance_suffix(farkas.MAX_TOLERANCE))]
    exact["key"] = farkas.key(exact["statement"], exact["source"])
    ok, detail = farkas.check(exact)
    assert not ok and "bound the margin by" in detail, detail


@pytest.mark.parametrize("corrupt, word", [
    (lambda c: c.update(tolerance="1/1000"), "outside"),                                 # a tolerance too wide
    (lambda c: c.update(tolerance="-1/10"), "outside"),
    (lambda c: c.update(statement=c["statement"].split(", up to a margin")[0],
                        key=farkas.key(c["statement"].split(", up to a margin")[0], c["source"])),
     "ends with"),                                                                       # the statement reads exact
    (lambda c: c.update(statement=c["statement"].replace("1/1000000000000", "1/10000000000000"),      # says 1e-13
                        key=farkas.key(c["statement"].replace("1/1000000000000", "1/10000000000000"), c["source"])),
     "ends with"),
    (lambda c: c.update(statement=c["statement"] + " (exact, not merely" + c["statement"].split(":", 1)[1] + ")",
                        key=farkas.key(c["statement"] + " (exact, not merely" + c["statement"].split(":", 1)[1] + ")",
                                       c["source"])),
     "ends with"),                                                                       # the words denied after
])
def test_a_tolerance_the_checker_does_not_allow_is_refused(corrupt, word):
    c = copy.deepcopy(_tie_cert())
    corrupt(c)
    ok, detail = farkas.check(c)
    assert not ok and word in detail, detail


def test_multipliers_solved_for_exactly_exist_exactly_when_the_rows_allow_them():
    """`solved_multipliers` (the last resort where HiGHS's answer sits on the wrong support): a contradiction gets a
    ray, a margin bounded on a face gets its bound, and rows with neither get none."""
    from rue_verify.verify.histories import solved_multipliers
    inf = float("inf")
    x, m = 0, 1
    ray = solved_multipliers([([x], [1], 1.0, inf), ([x], [1], -inf, 0.0)], {}, True)          # x >= 1, x <= 0
    assert ray and farkas.verify_multipliers([([x], [Fraction(1)], Fraction(1), None),
                                              ([x], [Fraction(1)], None, Fraction(0))], ray, {}, True)[0]
    face = [([x], [1], 0.0, 0.0), ([m, x], [1, -1], -inf, 0.0)]                              # x = 0, m <= x
    assert solved_multipliers(face, {}, True) is None                                        # feasible: no ray
    bound = solved_multipliers(face, {m: Fraction(-1)}, False)
    assert bound is not None                                                                 # but m <= 0 there
    assert solved_multipliers([([x], [1], 0.0, 1.0), ([m, x], [1, -1], -inf, 0.0)],          # x in [0, 1]: m <= 1
                              {m: Fraction(-1)}, False) is None


def test_a_decision_highs_answers_on_the_wrong_support_is_certified_by_multipliers_solved_for(monkeypatch):
    """prob-dk-v1 at K = 2, n = 9, (sigma0^2, sigma^2) = (1, 0.1): one leaf's violation has no exact multipliers near
    HiGHS's answer, even solved again from scratch; solved for exactly, it has, and the point's certificate checks."""
    from rue_verify.verify import histories
    p = Params(2, 9, 1.0, 0.1, "paper")

    def record():
        tree = Tree()
        search_many(p.model(), {"prob-dk-v1": STEPS["prob-dk-v1"][0](p)}, exact=False, record=tree)
        return tree
    tree = record()
    total, done = tree.counts()["checks"]["prob-dk-v1"]
    assert done == total > 0
    c = farkas.certificate(tree, stated("prob-dk-v1", p), "s", "w", step="prob-dk-v1",
                           branching={"rule": "relabel", "K": 2, "after": 4}, point=point(p))
    assert farkas.check(json.loads(json.dumps(c)))[0]
    with monkeypatch.context() as mp:
        mp.setattr(histories, "solved_multipliers", lambda *a, **k: None)
        total, done = record().counts()["checks"]["prob-dk-v1"]
    assert done < total                   # without it, uncertified: the test can fail


def test_the_checkers_coefficient_reading_is_the_searchs():
    """The checker reads a model's coefficient as the search does (`farkas._coefficient`, written again so that the
    checker imports no search code, against `verify.histories.rational`): the same Fraction on rationals the doubles
    round, on irrationals, on tiny and huge numbers. Planted: reading the double exactly differs (the comparison can
    fail)."""
    import math
    import random
    from fractions import Fraction

    from rue_verify.verify.histories import rational
    rng = random.Random(79)
    xs = [1 / 3, 0.1, 2 / 7, -5 / 11, 1e-13, 3e9, math.sqrt(2), math.log(7), math.pi * 1e-7, 0.0, -0.0, 1.0]
    xs += [rng.uniform(-50, 50) for _ in range(300)] + [rng.randint(1, 999) / rng.randint(1, 999) for _ in range(300)]
    assert all(farkas._coefficient(x) == rational(x) for x in xs)
    assert farkas._coefficient(1 / 3) == Fraction(1, 3) != Fraction(1 / 3)
    assert [farkas._coefficient(x) for x in xs] != [Fraction(x) for x in xs]

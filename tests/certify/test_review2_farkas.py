"""A second review of the certificates (Farkas certificates of the exact history search,
`rue_verify.certify.farkas`). Each test failed before its fix: a certificate whose statement is FALSE (a history at
that very point breaks the step, which the search itself finds) passed `farkas.check`.

At P = (K=2, n=5, sigma0^2=1, sigma^2=1, paper route) the search finds a history breaking Tk_up1 (`search_many`
returns its witness) while regret-decomV holds there.

"""

import json
from functools import lru_cache

from rue_verify.certify import farkas
from rue_verify.ledger.proof_histories import STEPS, Params
from rue_verify.verify.histories import Tree, search_many
from simulate.proofs.steps import point, stated

P = Params(2, 5, 1.0, 1.0, "paper")
TOL = farkas.MAX_TOLERANCE
SUFFIX = farkas.tolerance_suffix(TOL)


def statement(step: str, point: dict | None = None) -> str:
    """The statement `proof_histories.farkas_certificates` writes (with the tolerance its certificates state), at P
    or at the point `point` names."""
    p = P if point is None else Params(point["K"], point["n"], point["sigma0_sq"], point["sigma_sq"], point["route"])
    return stated(step, p) + SUFFIX


@lru_cache(maxsize=1)
def _recorded():
    tree = Tree()
    out = search_many(P.model(), {s: STEPS[s][0](P) for s in ("regret-decomV", "Tk_up1")}, exact=False, record=tree)
    return tree, out


def _cert(step: str) -> dict:
    tree, _ = _recorded()
    rule = {"rule": "relabel", "K": P.K, "after": 2 * P.K} if P.model().relabel else {"rule": "every", "K": P.K}
    c = farkas.certificate(tree, statement(step), "source-hash", f"history step {step}", step=step, branching=rule,
                           point=point(P),
                           tolerance=TOL)
    return json.loads(json.dumps(c, sort_keys=True))


def _rekey(c: dict) -> dict:
    c["key"] = farkas.key(c["statement"], c["source"])
    return c


def test_the_premise_tk_up1_is_broken_at_p_and_regret_decomv_checks():
    _, out = _recorded()
    assert out["Tk_up1"].witness is not None and out["regret-decomV"].witness is None
    assert farkas.check(_cert("regret-decomV"))[0]
    assert not farkas.check(_cert("Tk_up1"))[0]        # honest: its violated leaf has no multipliers


def test_another_steps_tree_relabelled_certifies_a_broken_step():
    """Was a hole (the checker now rebuilds every row from the model and the step at the point named): nothing tied
    a leaf's checks to the step the certificate names, the checks being whatever rows the file holds.
    regret-decomV's certificate with `step` and `statement` set to Tk_up1 (key recomputed) passed, certifying
    'Tk_up1 ... on every reward history of E at P', which a history at P breaks."""
    c = _cert("regret-decomV")
    c["step"] = "Tk_up1"
    c["statement"] = statement("Tk_up1")
    ok, detail = farkas.check(_rekey(c))
    assert not ok and "not the model's" in detail, f"a broken step certified: {detail}"


def test_a_leaf_with_its_checks_emptied_certifies_a_broken_step():
    """HOLE: a leaf must hold the key `checks`, but an empty list passes ('a leaf may have none'): Tk_up1's own
    certificate, its violated leaf's checks (the one without multipliers) emptied, passes with '0 leaf checks'."""
    c = _cert("Tk_up1")
    for nd in [c["root"], *c["nodes"]]:
        if nd["status"] == "leaf":
            nd["checks"] = []
    ok, detail = farkas.check(c)
    assert not ok and "not the model's" in detail, f"a broken step certified by leaves with no checks: {detail}"


def test_the_statement_s_parameter_point_is_not_read():
    """HOLE: the statement names the point (K, n, sigma0^2, sigma^2, route); the checker never compares it with
    the file's n_vars, n, rows or branching. A K = 2, n = 5 tree passes under a statement about K = 9, n = 500."""
    c = _cert("regret-decomV")
    c["statement"] = statement("regret-decomV", dict(P.as_dict(), K=9, n=500))
    ok, detail = farkas.check(_rekey(c))
    assert not ok and "not the model's" in detail, f"a tree at K=2, n=5 certifies a statement at K=9, n=500: {detail}"


def test_a_contradictory_row_at_the_root_prunes_the_whole_tree():
    """HOLE (the root cause: the rows are not recomputed from the model, `TRUSTS`): one row 0 >= 1 (no column,
    lower side 1) added to the root's rows, the root marked pruned with multiplier 1 on it, and every node
    dropped: the certificate of the broken step passes with '0 leaves'."""
    c = _cert("Tk_up1")
    c["values"].append("1/1")
    c["root"]["rows"].append([[], [], len(c["values"]) - 1, None])
    c["root"].update(status="pruned", branch=[], y=[[len(c["root"]["rows"]) - 1, "1/1"]])
    c["nodes"] = []
    ok, detail = farkas.check(c)
    assert not ok and "not the model's" in detail, f"a broken step certified by one contradictory row: {detail}"

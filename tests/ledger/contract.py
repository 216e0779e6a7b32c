"""What every ledger module owes, checked on its own claims in a small mode with another seed than
the pinned quick run: each claim runs, every finding (and every repair's) says what it covered and
what it found, every numeric witness of a violation is recomputed by the claim's
declared recomputation and does violate the stated relation, and the declaration is complete (a
refuted, undefined or inconsistent claim has repairs or a reason)."""

from rue_verify.ledger import REGISTRY, Mode, run_ledger
from rue_verify.verify import SEVERITY
from rue_verify.verify.witnesses import recompute_witness

SMALL = Mode("test", K_max=400, random_samples=300, sim_runs=60, seed=3, search_points=6, search_runs=50,
             confirm_runs=500)


def claims_of(module: str) -> list[str]:
    return [c.id for c in REGISTRY.values() if c.check.__module__ == f"rue_verify.ledger.{module}"]


def check_module(module: str) -> list:
    ids = claims_of(module)
    assert ids, module
    results = run_ledger(SMALL, ids)
    for r in results:
        c = REGISTRY[r.id]
        # (the verdict is the most severe finding's by construction, `core.run_claim`; what a module owes
        # is findings that say what they covered and what they found)
        assert r.findings and r.verdict in SEVERITY, r.id
        for f in r.findings + [g for x in r.repairs for g in x.findings]:
            assert f.domain.strip() and f.detail.strip(), (r.id, f)
        for x in r.repairs:
            assert x.findings and x.statement.strip(), (r.id, x.statement)
        if r.verdict in ("refuted", "undefined", "inconsistent"):
            assert c.repairs or c.no_repair, r.id
        for f in r.findings + [g for x in r.repairs for g in x.findings]:
            w = f.witness
            if f.verdict not in ("refuted", "conditional") or not w or \
                    not all(isinstance(w.get(s), (int, float)) for s in ("lhs", "rhs")):
                continue
            lhs, rhs = recompute_witness(c, w)
            assert abs(lhs - w["lhs"]) <= 1e-6 * max(abs(lhs), 1e-300) and \
                abs(rhs - w["rhs"]) <= 1e-6 * max(abs(rhs), 1e-300), (r.id, w)
            assert (lhs > rhs) if w["relation"] == "<=" else (lhs < rhs) if w["relation"] == ">=" else True, (r.id, w)
    return results

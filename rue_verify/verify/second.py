"""z3's links read with a second solver: a proof row (or a cited lemma's condition) that z3 certified, carrying the
SMT-LIB problem z3 found unsat (`smt2`), is certified only where cvc5 re-decides that problem unsat too
(`rue_verify.certify.answers`: shipped, kept, or decided now). Where cvc5 answers sat (it disagrees), unknown (it
cannot decide it in any of its configurations, each under its limit) or cannot read it, the row reads `argued`,
its detail saying that z3 answered unsat and what cvc5 answered (and `cvc5` holding cvc5's answer); a condition so
read is `unchecked`, and the row citing the lemma argued. The proofs are then settled again (`proofs.settle_proof`)
and their claims' verdicts recomputed, so that a proof resting on such a row is not `proved`, nor any node resting
on that proof, through the graph's own rules. A certified row that carries no problem of its own but whose finding
keeps the statement it decided (`Finding.checks`: a rule's or a monotone step's relation), decided by z3, is read
on that decision's problem (its kept decision, `statements.decide`), which the row then carries where cvc5 does not
re-decide it. A row an induction decided carries the problem of each of its unsat cases (`smt2_cases`): the link
holds only if every case does, so the row is certified only where cvc5 re-decides every case, and argued, naming
the case, where it does not.

`read` runs on a run's results where the runner collects them (`verify.runner.collect`), before the proof graph is
resolved: every reader of a run, `claims`, `proofs`, `report` and `erratum` alike, reads the one reading, whatever
the paper (a paper without a node table too). A problem z3 got already true (`certify.smt.hollow`: sympy decided
the relation) is sympy's decision, not re-decided; a step sympy decided is sympy's, whatever z3 says of it. What a
derivation's link decided on the way (a finding's or a fact's hypothesis, a premise, a definedness condition) it
keeps (`hypotheses`, `derivation._carry`), and a hand-written proof's `Cites` condition its problem, each read as a
condition is. The code mutants' reruns
(`verify.code_mutants`) are resolved directly, not collected, and read z3 alone: a mutant a second solver cannot
re-decide in its time limits says nothing of the code."""

from __future__ import annotations

import contextlib

from .carried import cases, hollow, problems  # noqa: F401  (the rows' problems, walked in one place)

_hollow = hollow

#: whether `read` reads (`z3_alone` turns it off for a block: the answers' build collects z3's problems)
_ON = [True]


@contextlib.contextmanager
def z3_alone():
    """A block in which `read` changes nothing: runs read z3's answers alone (`certify.answers_build` runs the
    ledger so, to collect z3's problems before cvc5 decides any)."""
    _ON.append(False)
    try:
        yield
    finally:
        _ON.pop()


def row_problems(row: dict, check=None) -> list[tuple[dict, str, str]]:
    """(the dict that carries it, statement, SMT-LIB text) of a proof row's z3 problems: those it carries
    (`problems`: its own, its conditions', what its link decided on the way), and, for a certified row with no
    problem of its own whose finding keeps the statement it decided (`check`, a `Holds`), that statement's kept
    decision's problem where z3 decided it (the row's own statement, else the check's, its statement)."""
    carried = problems(row)
    if "smt2" in row or row.get("status") != "certified":
        return carried
    from .statements import Holds, decide
    if not isinstance(check, Holds):
        return carried
    d = decide(check)                                          # kept: the run decided it already
    if d.status == "certified" and d.method == "z3" and d.smt2 and not _hollow(d.smt2):
        # the row's own decision, though the link kept it among what it decided on the way too (`hypotheses`)
        return [(row, row.get("statement") or check.text(), d.smt2)] + [c for c in carried if c[2] != d.smt2]
    return carried


def results_problems(results):
    """(where, row, the dict that carries it, statement, SMT-LIB text) of every z3 problem of the results' proofs
    (`row_problems`: their claims' findings and all their repairs'), `where` naming the claim (or repair) and step."""
    from .proofs import proof_findings
    for where, f in proof_findings(results):
        checks = getattr(f, "checks", None) or {}
        for row in f.proof.get("steps", []):
            for d, statement, text in row_problems(row, checks.get(row.get("step"))):
                yield f"{where} step {row.get('step')}", row, d, statement, text


def _established(d: dict, row: dict) -> bool:
    """Whether `d` (the row, or a dict inside it) reads established: a row certified, a condition holding."""
    return d.get("status") == "certified" if d is row else d.get("state", d.get("status")) in ("holds", "certified")


def _z3(d: dict) -> str:
    """What the row said when z3 alone decided it, to follow cvc5's answer."""
    said = str(d.get("detail") or "").removeprefix("z3: ")
    return f" (z3: {said})" if said else ""


def _case_label(statement: str) -> str:
    """An induction case's label, from its statement ("... [case: LABEL]")."""
    return statement.rsplit(" [case: ", 1)[-1].removesuffix("]")


def reread_row(row: dict, answer, check=None) -> bool:
    """Read one certified proof row's z3 problems (`row_problems`, `check` the statement its finding keeps for it)
    with `answer` ((statement, smt2) -> (ok, detail)); where one is not re-decided, the row is argued and says so
    (module docstring), carrying the problem. Whether the row moved."""
    if row.get("status") != "certified":
        return False
    failed, case_failed = [], []
    own_cases = set(cases(row))
    for d, statement, text in row_problems(row, check):
        if not _established(d, row):
            continue
        ok, detail = answer(statement, text)
        if ok:
            continue
        if d is row and (statement, text) in own_cases:       # an induction's case: the induction is not re-decided
            case_failed.append((statement, detail))
            continue
        failed.append((d, detail))
        if d is row and "smt2" not in row:                    # the finding's kept decision: the row carries it now
            row.update(smt2=text, statement=statement)
        if d is not row:                                      # a cited lemma's condition: not established
            d.update(state="unchecked", cvc5=detail, detail=f"z3 answers unsat, but {detail}" + _z3(d))
    if not failed and not case_failed:
        return False
    own = next((detail for d, detail in failed if d is row), None)
    said = ([f"z3 answers unsat, but {own}"] if own else []) + \
        [f"z3 answers unsat on the induction's case '{_case_label(statement)}', but {detail}"
         for statement, detail in case_failed] + \
        [f"z3 answers unsat on a condition ({d.get('text') or d['statement']}), but {detail}"
         for d, detail in failed if d is not row]
    row.update(status="argued", cvc5=own or (case_failed[0][1] if case_failed else failed[0][1]),
               detail="; ".join(said) + _z3(row))
    return True


def read(results, answer=None) -> int:
    """Every certified row of the results' proofs (their claims' findings and their repairs') read with cvc5's
    answers (`answer`: (statement, smt2) -> (ok, detail); default `certify.answers.answer`, each problem asked once);
    the proofs that moved settled again and their claims' verdicts recomputed. How many rows moved (0 inside
    `z3_alone`)."""
    if not _ON[-1]:
        return 0
    from .claims import auto_summary
    from .findings import overall
    from .proofs import settle_proof
    if answer is None:
        from ..certify.answers import answer as cvc5

        def answer(statement, text):
            return cvc5(text, statement)
    asked: dict = {}

    def once(statement, text):
        if (statement, text) not in asked:
            asked[statement, text] = answer(statement, text)
        return asked[statement, text]

    moved = 0
    for r in results:
        touched = False
        for f in [*r.findings, *(x for rep in getattr(r, "repairs", []) for x in rep.findings)]:
            if not f.proof:
                continue
            checks = getattr(f, "checks", None) or {}
            n = sum(reread_row(row, once, checks.get(row.get("step"))) for row in f.proof.get("steps", []))
            if n:
                settle_proof(f)
                moved, touched = moved + n, True
        if touched:
            verdict = overall(r.findings)
            if verdict != r.verdict:
                r.verdict, r.summary = verdict, auto_summary(r.findings)
    return moved

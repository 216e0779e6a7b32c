"""sympy certificates (`rue_verify.certify.rewrite`): the ledger's steps sympy decided, kept as srepr text, re-decided
by sympy alone; planted corruptions (a false identity, a flipped inequality, a given the decision needs dropped, a
statement that is not the file's claim, a reversed sum read by Karr's convention, a malicious srepr) are rejected,
each saying why; MaxOver's sign is read from its terms' only over a range shown nonempty; the checker loads no
search."""

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest
import sympy

from rue_verify.certify import check, collect, rewrite
from rue_verify.verify.statements import Holds, decide, rel


def _sympy_steps(findings) -> dict:
    """{step text: Holds} of each step of `findings` that the engine certified by sympy with no z3 problem or box
    cover of its own (the steps the collector certifies by z3's second opinion or by this kind)."""
    out = {}
    for what, h in collect._checked_steps([SimpleNamespace(id="T", findings=findings, repairs=[])]):
        d = decide(h)
        if d.status == "certified" and d.method == "sympy" and not d.smt2 and not d.cover:
            out[what.split(": ", 1)[1]] = h
    return out


@pytest.fixture(scope="module")
def steps() -> dict:
    """The steps sympy decided in five of the ledger's derivations (Fact 3's integrals, Fact 1's, nu_t's numerator
    with an indexed sequence, the reward tables' and the prior's unions with Pr, Cup, Normal and Mean, and the
    repaired H_2 bound with MaxOver and harmonic numbers)."""
    from rue_verify.ledger import proof_event, section2, section3
    from rue_verify.verify.derivation import from_derivation
    return _sympy_steps([from_derivation(section3.mills_upper_derivation(), "t > 0"),
                         from_derivation(section3.fact1_derivation(), "alpha >= 0"),
                         proof_event.nu_t_derivation(), proof_event.not_E_derivation(),
                         from_derivation(section2.lower_h2_derivation(), "K >= 2")])


def cert_of(h, what="test") -> dict:
    """The certificate of `h` as a file holds it (JSON and back)."""
    return json.loads(json.dumps(rewrite.certificate(h, h.text(), "source-hash", what)))


def step(steps, start: str):
    return next(h for text, h in steps.items() if text.startswith(start))


def resealed(cert: dict, claim: str | None = None, given: list | None = None) -> dict:
    """`cert` with its claim or givens replaced by other srepr text, its statement printed from them and its key
    recomputed: a consistent file of another statement, which only the decision can reject."""
    fn = cert["functions"]
    c = rewrite.parse(claim or cert["claim"], fn)
    g = tuple(rewrite.parse(x, fn) for x in (cert["given"] if given is None else given))
    return json.loads(json.dumps(rewrite.certificate((c, g), Holds(c, g, "sympy").text(), cert["source"], "forged")))


def test_the_ledger_s_sympy_steps_carry_certificates_that_check(steps):
    """Every such step checks, 'log K + 1/2 <= log(2K)' times H_2 too: it needs H_2 = MaxOver(...) >= 0, which the
    checker reads from MaxOver's terms (its one rule of the toolkit's functions); the same file with the rule's
    sign unknown (the maximum renamed, an arbitrary function) does not check."""
    assert len(steps) >= 14
    failed = {}
    for text, h in steps.items():
        ok, detail = rewrite.check(cert_of(h))
        if not ok:
            failed[text] = detail
    assert not failed, failed
    c = cert_of(step(steps, "1/2 <= log 2"))
    fn = {("MaxUnder" if k == "MaxOver" else k): v for k, v in c["functions"].items()}
    renamed = resealed({**c, "functions": fn, "replaced": ["MaxUnder"]},
                       claim=c["claim"].replace("Function('MaxOver')", "Function('MaxUnder')"))
    ok, detail = rewrite.check(renamed)
    assert not ok and "does not re-decide" in detail, detail


def test_a_file_holds_srepr_the_symbols_assumptions_and_the_replaced_functions(steps):
    c = cert_of(step(steps, "the reward tables' union"))
    assert c["kind"] == "sympy" and c["key"] == rewrite.key(c["statement"], "source-hash")
    assert c["claim"].startswith("GreaterThan(Derivative(") and "Function('Pr')" in c["claim"]
    assert {"Pr", "Cup", "Normal", "Mean"} <= set(c["replaced"])
    assert c["functions"]["Pr"] == {"nargs": [1], "assumptions": {}}
    assert ["K", ["positive"]] in c["symbols"]
    ok, detail = rewrite.check(c)
    assert ok and "Pr" in detail and "arbitrary functions" in detail, detail


def test_a_false_identity_is_rejected(steps):
    """The spread identity with 1/2 changed to 1/3 in its srepr: alone, the statement no longer prints from the file;
    with the statement and key made to match, sympy does not re-decide it."""
    c = cert_of(step(steps, "[fact spread]"))
    assert rewrite.check(c)[0]
    assert "Rational(-1, 2)" in c["claim"]
    bad = dict(c, claim=c["claim"].replace("Rational(-1, 2)", "Rational(-1, 3)", 1))
    ok, detail = rewrite.check(bad)
    assert not ok and "not the file's claim" in detail, detail
    ok, detail = rewrite.check(resealed(c, claim=bad["claim"]))
    assert not ok and "does not re-decide" in detail, detail
    c = cert_of(step(steps, "int_t^oo (x/t) phi(x) dx"))                        # an integral's factor changed
    assert rewrite.check(c)[0] and "Rational(1, 2)" in c["claim"]
    ok, detail = rewrite.check(resealed(c, claim=c["claim"].replace("Rational(1, 2)", "Rational(1, 3)", 1)))
    assert not ok and "does not re-decide" in detail, detail


def test_an_inequality_flipped_is_rejected(steps):
    for start in ("[fact numerator] each term is at most", "[fact reward tables] the mean"):
        c = cert_of(step(steps, start))
        assert rewrite.check(c)[0]
        head = c["claim"].split("(", 1)[0]
        flipped = {"LessThan": "StrictGreaterThan", "GreaterThan": "StrictLessThan"}[head]
        ok, detail = rewrite.check(resealed(c, claim=flipped + c["claim"][len(head):]))
        assert not ok and "does not re-decide" in detail, (start, detail)


def test_a_given_the_decision_needs_dropped_is_rejected(steps):
    """n >= 1 holds given n >= 2 (n is only positive): the check reads the given as n = 2 + t; without it, it fails."""
    c = cert_of(step(steps, "[fact reward tables] the mean"))
    ok, detail = rewrite.check(c)
    assert ok and "under the given relations" in detail, detail
    needed = [g for g in c["given"] if "Symbol('n'" in g]
    assert needed
    ok, detail = rewrite.check(resealed(c, given=[g for g in c["given"] if g not in needed]))
    assert not ok and "does not re-decide" in detail, detail


def test_a_changed_statement_fails_by_its_key_or_by_its_printing(steps):
    c = cert_of(step(steps, "1 - Phi(t) = int_t^oo phi"))
    assert rewrite.check(c)[0]
    bad = dict(c, statement=c["statement"].replace("erfc", "erf"))
    ok, detail = rewrite.check(bad)
    assert not ok and "key" in detail
    bad["key"] = rewrite.key(bad["statement"], bad["source"])
    ok, detail = rewrite.check(bad)
    assert not ok and "not the file's claim" in detail, detail
    bad = dict(c, statement=c["statement"] + " for t integer")          # an assumption the file's symbols lack
    bad["key"] = rewrite.key(bad["statement"], bad["source"])
    assert not rewrite.check(bad)[0]


def test_the_file_s_fields_must_be_what_it_applies(steps):
    c = cert_of(step(steps, "the reward tables' union"))
    bad = json.loads(json.dumps(c))                 # Pr given an assumption: no longer an arbitrary function
    bad["functions"]["Pr"]["assumptions"] = {"nonnegative": True}
    assert not rewrite.check(bad)[0]
    bad = json.loads(json.dumps(c))
    bad["symbols"] = [[n, a + ["integer"]] if n == "K" else [n, a] for n, a in bad["symbols"]]
    ok, detail = rewrite.check(bad)
    assert not ok and "`symbols`" in detail
    bad = json.loads(json.dumps(c))                 # a sympy name as an undefined function: it would print as sympy's
    bad["functions"]["log"] = {"nargs": None, "assumptions": {"positive": True}}
    assert not rewrite.check(bad)[0]


MALICIOUS = ["__import__('os').system('touch {mark}')", "Symbol('x').__class__", "(lambda: open('{mark}', 'w'))()",
             "Integer(1) + Integer(2)", "[open('{mark}', 'w') for _ in Tuple()]",
             "Symbol('x', evaluate=__import__('os'))", "Function('f').__globals__", "exec('open(\"{mark}\", \"w\")')",
             "Symbol('x y')", "getattr(Symbol, 'x')"]


@pytest.mark.parametrize("text", MALICIOUS)
def test_a_malicious_srepr_is_refused_without_running_it(text, tmp_path):
    mark = tmp_path / "ran"
    payload = text.format(mark=mark)
    with pytest.raises((ValueError, SyntaxError)):
        rewrite.parse(payload, {"f": {"nargs": None, "assumptions": {}}})
    c = rewrite.certificate((rel(sympy.Symbol("x", positive=True), ">", 0), ()), "x > 0 for x positive", "s", "t")
    c["claim"] = payload
    ok, detail = rewrite.check(c)
    assert not ok and "malformed" in detail and not mark.exists(), detail


def test_a_sum_whose_range_may_run_backwards_is_not_read_by_karr_s_convention():
    """sum_{i=1}^n 1 = n for n a nonnegative integer; for any integer n sympy's doit says the same (Karr: a reversed
    range sums to minus the range between), the engine reads a reversed range as empty: not certified."""
    i = sympy.Symbol("i", integer=True)
    for n, holds in ((sympy.Symbol("n", integer=True, nonnegative=True), True),
                     (sympy.Symbol("n", integer=True), False)):
        h = Holds(sympy.Eq(sympy.Sum(1, (i, 1, n)), n, evaluate=False), method="sympy")
        assert rewrite.check(cert_of(h))[0] is holds


def test_an_index_of_a_range_fixed_outside_its_function_is_refused():
    """MaxOver(j, (j, 1, K)) read as an arbitrary function has j among its arguments: a given fixing j (or j used
    outside) could choose where distinct maxima coincide; the check refuses such a file."""
    from rue_verify.verify.sums import max_over
    j, K = sympy.Symbol("j", integer=True), sympy.Symbol("K", integer=True, positive=True)
    m = max_over(j, (j, 1, K))
    ok, detail = rewrite.check(cert_of(Holds(rel(m - m / 2, "==", m / 2), method="sympy")))
    assert ok, detail
    ok, detail = rewrite.check(cert_of(Holds(rel(m + j, "==", j + m), (rel(j, ">=", 1),), method="sympy")))
    assert not ok and "index j" in detail, detail


def test_the_collector_writes_a_sympy_certificate_only_where_its_check_passes(tmp_path):
    """A step sympy decided that z3 does not re-decide (an integral, and the step that needs MaxOver's sign from its
    terms') gets a "sympy" certificate, which the directory's checker verifies; nothing of the two stays uncovered."""
    from rue_verify.ledger import section2, section3
    from rue_verify.verify.derivation import from_derivation
    res = SimpleNamespace(id="T", findings=[from_derivation(section3.mills_upper_derivation(), "t > 0"),
                                            from_derivation(section2.lower_h2_derivation(), "K >= 2")], repairs=[])
    uncovered: list = []
    paths = collect.write_certificates([res], tmp_path, uncovered=uncovered)
    kinds = {p.name: json.loads(p.read_text())["kind"] for p in paths}
    assert "sympy" in kinds.values()
    rows = check.check_directory(tmp_path)
    assert rows and all(ok for _, _, ok, _ in rows), [r for r in rows if not r[2]]
    assert {k for _, k, _, _ in rows} >= {"sympy"}
    assert not uncovered, uncovered
    texts = [json.loads(p.read_text())["statement"] for p in paths]
    assert any("log(2*K)*MaxOver" in t for t in texts), texts


def test_a_maximum_has_its_terms_sign_only_over_a_range_shown_nonempty():
    """The checker's one rule of the toolkit's functions: MaxOver(f, (k, lo, hi)) is positive when its terms are
    and lo..hi is shown nonempty. Planted wrong: the range may be empty (K may be 0), a term may be negative, a sign
    read where a term is only positive from some index on, and the claim the rule is asked for flipped."""
    from rue_verify.verify.sums import max_over
    j = sympy.Symbol("j", integer=True)
    K = sympy.Symbol("K", integer=True, positive=True)
    K0 = sympy.Symbol("K", integer=True, nonnegative=True)
    x = sympy.Symbol("x", positive=True)
    good = max_over(j / x, (j, 1, K))
    ok, detail = rewrite.check(cert_of(Holds(rel(good * x, ">", 0), method="sympy")))
    assert ok and "MaxOver's sign" in detail, detail
    for wrong in (rel(max_over(j / x, (j, 1, K0)) * x, ">", 0),              # K = 0: an empty range, no maximum
                  rel(max_over((j - 2) / x, (j, 1, K)), ">=", 0),             # the term at j = 1 is negative
                  rel(max_over((j - 2) / x, (j, 3, K)), ">", 0),              # 3..K is empty at K = 1, 2
                  rel(good * x, "<=", 0)):                                    # the relation flipped
        ok, detail = rewrite.check(cert_of(Holds(wrong, method="sympy")))
        assert not ok, (wrong, detail)


def test_the_checker_imports_no_solver_and_no_search(tmp_path, steps):
    """In a fresh interpreter, loading the checker and checking sympy certificates (an integral, a derivative of Pr,
    a sum with MaxOver) loads neither z3, HiGHS, cvc5, scipy.optimize nor any module of rue_verify.verify."""
    certs = [cert_of(step(steps, s)) for s in ("int_t^oo (x/t) phi(x) dx", "the reward tables' union",
                                               "[fact spread]")]
    (tmp_path / "certs.json").write_text(json.dumps(certs))
    code = ("import json, sys\n"
            "from rue_verify.certify import rewrite\n"
            f"oks = [rewrite.check(c)[0] for c in json.load(open({str(tmp_path / 'certs.json')!r}))]\n"
            "bad = sorted(k for k in sys.modules if k.split('.')[0] in ('z3', 'highspy', 'cvc5')\n"
            "             or k.startswith('scipy.optimize') or k.startswith('rue_verify.verify'))\n"
            "print(json.dumps([oks, bad]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    oks, bad = json.loads(out.stdout.strip().splitlines()[-1])
    assert oks == [True, True, True] and bad == []

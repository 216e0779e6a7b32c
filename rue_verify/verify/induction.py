"""Steps about an algorithm's histories proved for every budget: induction over the algorithm's
states, each case decided by an SMT solver (z3), its counterexamples handed back to the caller to be
made concrete.

A step "on the event E, for every round" is, in the papers' own proofs, one round's argument: if the
statement holds at the state after round t and the algorithm makes its pull at round t+1 from that
state, it holds after round t+1. Stated over real variables (counts as reals, means, widths; the
parameters symbolic), each case of that argument is a formula whose negation an SMT solver decides:

- `unsat`: the case is proved for every value of its variables, hence for every budget n (the budget
  enters only through its variables, e.g. log n > 0) and every parameter the variables cover;
- `sat`: an abstract counterexample, a state and a round the argument cannot exclude (it may be
  unreachable: the caller's exact history search decides whether a real history reaches it);
- `unknown`: neither (nonlinear arithmetic, or the time limit).

Counts as reals are a relaxation: every reachable state is among the states the solver sees, so a
proof is sound; a counterexample may be spurious, which is why it must be made concrete.

What E covers matters. The state after round t decides the pull at round t+1; E covers the states from
the base state (after the initialisation) plus `event_from`. So the base state, and every later state
before E's range, make their pull unconstrained by E, and the induction's step from them is decided
without E: a fault of an argument that assumes E one round too early comes out here, untold.

A `System` (the caller's: an algorithm's abstract states) gives the variables and the rounds; a step
is an `Invariant` (proved by induction) or an `AtState` (an implication at any state E covers, e.g.
the last one). Each names the lemmas it rests on (`Lemma`: a node of a proof graph, entered as an
assumption at every state). This module knows no algorithm and no paper, and imports z3 only when a
step is decided (`z3-solver` from PyPI).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable

#: the solver's time limit per case, in milliseconds
TIMEOUT_MS = 20_000
#: the label of the base case
BASE = "the base state (after the initialisation)"
#: the label of the case that ties a step's `Reading` to what it decided
READ = "the relation the derivations read, from what the step decided"


class SolverMissing(RuntimeError):
    """z3 is not installed: the induction cannot run (one line says how to install it)."""


def z3():
    """The z3 module, or `SolverMissing` with the line that installs it."""
    try:
        import z3 as _z3
    except ImportError as e:                                   # pragma: no cover - the package depends on it
        raise SolverMissing("the induction needs the SMT solver z3: pip install z3-solver") from e
    return _z3


@dataclass(frozen=True)
class Lemma:
    """A fact a step rests on: `node`, the proof graph's node it is (an edge of the step's node);
    `text`, what it says; `at(params, state)`, its formula at a state (an assumption at every state
    the case has)."""

    node: str
    text: str
    at: Callable[[dict, dict], Any]


@dataclass(frozen=True)
class Cut:
    """An intermediate relation of a round's argument (`Invariant.cuts`), proved first and then assumed: in each
    case of a round labelled `round` (`System.rounds`) from a state E covers, `at(params, state, next)` is proved
    from the case's hypotheses whose description starts with one of `keep` (all of them when `keep` is empty:
    fewer hypotheses can only make it harder to prove, never wrongly proved), each earlier cut assumed, as a case
    of its own; the round's case then assumes it. A case whole can be beyond a solver (a second one especially)
    where its pieces are not: the pieces are each an unsat problem, and the step is proved only if every one is.
    A cut the solver finds false (sat) leaves the step unknown, never refuted: its model is no counterexample of
    the step."""

    text: str
    round: str
    at: Callable[[dict, dict, dict], Any]
    keep: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reading:
    """The relation a step gives the derivations that use it, tied to what z3 decided (`Invariant.reading`).

    `relation`: a sympy relation (built from the same formulas as the step's z3 formula, by the caller), the statement
    a derivation's `Found` link is matched against; `objects(params, state)` -> the z3 term of each of its symbols
    (or whole subexpressions: log(n) as the state's L), a `from_sympy` environment; `given(params, state)` -> z3
    formulas tying the relation's remaining objects to the state (the route's eta to the system's free eta, the
    recommended arm), each in the case's hypotheses.

    `decide` adds one case: at a state the step covers, what it decided (an invariant's formula, an at-state step's
    implication) and `given` imply the relation (unsat of its negation). Only then does the finding carry the
    relation as its statement (`finding`): the statement a derivation reads is what the solver proved, never a
    text written beside it. A reading whose hypotheses contradict each other (z3 finds them unsatisfiable) ties
    nothing and is refused, like a false one; the case is no counterexample of the step either way."""

    relation: Any
    objects: Callable[[dict, dict], dict]
    given: Callable[[dict, dict], list] | None = None


@dataclass(frozen=True)
class System:
    """An algorithm's abstract states, given by the caller as functions:

    - `params()` -> (variables, constraints, optional): what is fixed over a history (the parameters,
      the true means), with their domain; `optional` maps a name to definitions a step adds only when
      it names them (`Invariant.defs`): a nonlinear definition a step does not need can only slow the
      solver;
    - `state(params, tag)` -> (variables, constraints): one state's variables (counts, posterior
      means, widths), named with the tag so that two states do not share them;
    - `base(params, state)` -> constraints that fix the state after the initialisation;
    - `rounds(params, state, next)` -> [(label, formula)]: the ways one round goes from a state to the
      next (which arm is pulled and the rule that chose it at `state`);
    - `event(params, state)` -> the event E at a state;
    - `event_from`: the first state E covers, counted from the base state (0: the base state itself);
    - `domain`: what the variables cover, in words (the domain a proof covers).
    """

    params: Callable[[], tuple[dict, list]]
    state: Callable[[dict, str], tuple[dict, list]]
    base: Callable[[dict, dict], list]
    rounds: Callable[[dict, dict, dict], list]
    event: Callable[[dict, dict], Any]
    event_from: int
    domain: str


@dataclass(frozen=True)
class Invariant:
    """A statement about every state on E (`holds(params, state)`), proved by induction from the base
    state; `lemmas`, what each case may assume at each of its states."""

    name: str
    statement: str
    holds: Callable[[dict, dict], Any]
    lemmas: tuple[Lemma, ...] = ()
    #: the system's optional definitions the step uses (`System.params`)
    defs: tuple[str, ...] = ()
    #: intermediate relations of a round's argument, each proved as a case of its own and then assumed (`Cut`)
    cuts: tuple[Cut, ...] = ()
    #: the relation the derivations read, tied to the invariant by a case of its own (`Reading`)
    reading: Reading | None = None


@dataclass(frozen=True)
class AtState:
    """An implication at every state E covers (the last state among them): `given(params, state)` ->
    formulas (hypotheses, which may introduce variables of their own), `then(params, state)` -> the
    conclusion."""

    name: str
    statement: str
    given: Callable[[dict, dict], list]
    then: Callable[[dict, dict], Any]
    lemmas: tuple[Lemma, ...] = ()
    #: the system's optional definitions the step uses (`System.params`)
    defs: tuple[str, ...] = ()
    #: the relation the derivations read, tied to the implication by a case of its own (`Reading`)
    reading: Reading | None = None


@dataclass
class Case:
    """One case of a step: what it assumes (`label`), the solver's answer ('unsat' proves it, 'sat'
    gives `model`, an abstract counterexample; 'unknown' with `reason`), and its seconds. `offset`:
    the state the case starts from, counted from the base state (None: any state of its class)."""

    label: str
    answer: str
    seconds: float
    offset: int | None = None
    model: dict | None = None
    reason: str = ""
    #: an unsat case's SMT-LIB 2 text, exactly the problem z3 decided (each formula a named assertion under a comment
    #: saying what it is: `statements.smt2_problem`), for cvc5 to re-decide (`rue_verify.certify.smt`); else None
    smt2: str | None = None
    #: a cut's own case (`Cut`): its 'sat' is no counterexample of the step
    cut: bool = False
    #: the reading's case (`Reading`): its 'sat' is no counterexample of the step either
    reading: bool = False


@dataclass
class Decision:
    """What the solver decided of a step: 'proved' (every case unsat), 'counterexample' (some case
    sat: `failing`, the first), or 'unknown'; the cases, the lemmas' nodes it rests on, and the domain
    the proof covers."""

    step: str
    statement: str
    status: str
    cases: list[Case]
    rests_on: tuple[str, ...]
    domain: str
    seconds: float = 0.0
    #: the invariant decided, as z3 holds it at a generic state (AtState: its premises implying its conclusion)
    formula: object = None

    #: the relation the step's `Reading` ties to what it decided (None: no reading, or its case was not unsat)
    relation: Any = None
    #: why the reading ties nothing ('' when it does or there is none)
    unread: str = ""

    @property
    def failing(self) -> Case | None:
        return next((c for c in self.cases if c.answer == "sat" and not (c.cut or c.reading)), None)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def summary(self) -> str:
        """One line: the status, the cases and where it fails."""
        cases = "; ".join(f"{c.label}: {c.answer}" for c in self.cases)
        return f"{self.step}: {self.status} ({cases}; {self.seconds:.2f} s)"


def _num(v) -> float | bool:
    """A z3 model value as a Python number."""
    Z = z3()
    if Z.is_true(v) or Z.is_false(v):
        return bool(Z.is_true(v))
    if Z.is_rational_value(v):
        f = v.as_fraction()
        return float(f.numerator) / float(f.denominator) if f.denominator else float("nan")
    if Z.is_algebraic_value(v):
        return float(v.approx(20).as_decimal(20).rstrip("?"))
    if Z.is_int_value(v):
        return float(v.as_long())
    return float("nan")


def _model(m) -> dict:
    out = {}
    for d in m.decls():
        if d.arity() == 0 and not d.name().startswith("/"):
            out[d.name()] = _num(m[d])
    return dict(sorted(out.items()))


def _check(label: str, named: list, timeout_ms: int, offset: int | None, step: str = "") -> Case:
    """One case decided: `named` [(what it is, formula)], the last the statement negated."""
    Z = z3()
    s = Z.Solver()
    s.set(timeout=int(timeout_ms))
    s.add(*[f for _, f in named])
    t0 = time.perf_counter()
    r = s.check()
    dt = round(time.perf_counter() - t0, 4)
    if r == Z.unsat:
        return Case(label, "unsat", dt, offset, smt2=_smt2(label, named, step))
    if r == Z.sat:
        return Case(label, "sat", dt, offset, _model(s.model()))
    return Case(label, "unknown", dt, offset, reason=s.reason_unknown())


def _smt2(label: str, named: list, step: str) -> str:
    """An unsat case's SMT-LIB 2 text: its formulas as z3 had them, named assertions in order, the last (the
    statement negated) named `negated_claim`."""
    from .statements import smt2_problem
    n = len(named) - 1
    return smt2_problem([("negated_claim" if i == n else f"case_{i}", what, f) for i, (what, f) in enumerate(named)],
                        [f"z3 found these assertions unsatisfiable: the case '{label}' of the induction proving {step} "
                         "for every n (counts as reals: every reachable state is among its models)."])


def _named(*groups) -> list:
    """[(what, formula)] from groups (what, formulas): each formula of a group under its group's words."""
    return [(what, f) for what, fs in groups for f in fs]


def _fixed(fix: dict | None) -> list:
    """Constraints name == value for the variables `fix` names (z3 identifies a variable by its name)."""
    Z = z3()
    return [Z.Real(k) == Z.RealVal(str(v)) for k, v in (fix or {}).items()]


def _lemmas(step, p: dict, *states: dict) -> list:
    """[(what, formula)]: each lemma the step rests on, at each state."""
    return [(f"the lemma {lem.node} at the state {'before' if i == 0 and len(states) > 1 else 'after' if i else 'of'} "
             f"the case: {lem.text}", lem.at(p, s)) for i, s in enumerate(states) for lem in step.lemmas]


def decide(system: System, step: Invariant | AtState, *, timeout_ms: int = TIMEOUT_MS,
           fix: dict | None = None, extra: Callable[[dict], list] | None = None,
           only: str | None = None) -> Decision:
    """Decide `step` on `system` for every state and budget the variables cover.

    An `Invariant` has these cases: the base state (the statement after the initialisation, E
    assumed there only if it covers it); the round from the base state; the rounds from each state
    before E's range; the round from any state E covers. Each round's case is split by the ways the
    round goes (`System.rounds`); each assumes the statement before it (the induction's hypothesis),
    the lemmas at both states, E at each state E covers, and asks for a state after it where the
    statement fails. An `AtState` has one case: any state E covers.

    Args:
        system: the algorithm's abstract states.
        step: the step.
        timeout_ms: the solver's time limit per case.
        fix: variable name -> value, to ask for a counterexample at given values (a concrete K, counts).
        extra: params -> constraints added to every case (e.g. a parameter tied to its definition, to
            ask whether a counterexample survives it).
        only: decide only the case with this label (a counterexample asked again at given values).

    Returns:
        A `Decision`.
    """
    Z = z3()
    t0 = time.perf_counter()
    extra_given = extra is not None
    p, pc, optional = system.params()
    unknown = [d for d in step.defs if d not in optional]
    if unknown:
        raise ValueError(f"step {step.name} uses definitions the system does not have: {unknown}; it has "
                         f"{sorted(optional)}")
    extra = _named(("the system's parameters: their domain", pc),
                   *[(f"the system's definition {d}, which the step names", optional[d]) for d in step.defs],
                   ("a variable fixed at a value asked", _fixed(fix)),
                   ("a constraint the caller adds to every case", extra(p) if extra else []))
    cases: list[Case] = []

    def covers(j: int) -> bool:             # E covers the state j rounds after the base state
        return j >= system.event_from

    if isinstance(step, AtState):
        s, sc = system.state(p, "t")
        j = max(1, system.event_from)            # a state after the base state that E covers
        given = step.given(p, s)
        then = step.then(p, s)
        formula = Z.Implies(Z.And(*given), then) if given else then
        if given and Z.is_false(Z.simplify(then)):
            # the step says its hypotheses cannot hold together: their conjunction's negation is the claim, so that
            # the case's certificate negates a relation, not the constant false (`certify.smt` refuses that)
            last = [("the step's hypotheses together (the step's conclusion is false: the claim is that they "
                     "cannot hold together), negated", [Z.Not(Z.Not(Z.And(*given)))])]
        else:
            last = [("the step's hypothesis", given), ("the step's conclusion negated", [Z.Not(then)])]
        fs = extra + _named(("the state's constraints", sc)) + _lemmas(step, p, s) + _named(
            ("the event E at the state", [system.event(p, s)]), *last)
        if only in (None, "any state E covers"):
            cases.append(_check("any state E covers", fs, timeout_ms, j, step.name))
    else:
        s, sc = system.state(p, "t")
        formula = step.holds(p, s)
        base = extra + _named(("the state's constraints", sc), ("the base state: the initialisation",
                                                                 system.base(p, s)))
        base += _lemmas(step, p, s) + _named(("the event E at the base state", [system.event(p, s)] if covers(0)
                                              else []))
        if only in (None, BASE):
            cases.append(_check(BASE, base + _named(("the invariant negated at the base state",
                                                     [Z.Not(step.holds(p, s))])), timeout_ms, 0, step.name))
        starts = [(0, True)] + [(j, False) for j in range(1, system.event_from)] + [(max(1, system.event_from), False)]
        for j, at_base in starts:
            s, sc = system.state(p, "t")
            s2, sc2 = system.state(p, "t1")
            common = extra + _named(("the state before the round: its constraints", sc),
                                    ("the state after the round: its constraints", sc2),
                                    ("the state before the round is the base state", system.base(p, s) if at_base
                                     else [])) + _lemmas(step, p, s, s2)
            common += _named(("the event E at the state before the round", [system.event(p, s)] if covers(j) else []),
                             ("the event E at the state after the round", [system.event(p, s2)] if covers(j + 1)
                              else []))
            where = ("from the base state" if at_base else
                     f"from the state {j} rounds after the base" if j < system.event_from else
                     "from any later state") + (", on E" if covers(j) else ", not on E")
            for label, rnd in system.rounds(p, s, s2):
                if only is not None and only != f"the round {where}: {label}":
                    continue
                offset = j if at_base or j < system.event_from else None
                fs = common + _named(("the induction's hypothesis: the invariant before the round", [step.holds(p, s)]),
                                     (f"the round: {label}", [rnd]))
                for cut in (c for c in getattr(step, "cuts", ()) if c.round == label and covers(j)):
                    kept = [(w, f) for w, f in fs if not cut.keep or w.startswith(cut.keep)]
                    c_label = f"the round {where}: {label} [the cut: {cut.text}]"
                    case = _check(c_label, kept + [("the cut negated", Z.Not(cut.at(p, s, s2)))], timeout_ms, offset,
                                  step.name)
                    case.cut = True
                    cases.append(case)
                    fs = fs + [(f"a cut, proved as a case of its own ('{c_label}'): {cut.text}", cut.at(p, s, s2))]
                fs = fs + [("the invariant negated after the round", Z.Not(step.holds(p, s2)))]
                cases.append(_check(f"the round {where}: {label}", fs, timeout_ms, offset, step.name))
    # no case at all (an `only=` that matches none, a system with no rounds) decides nothing: unknown, never proved
    status = ("counterexample" if any(c.answer == "sat" and not c.cut for c in cases) else
              "unknown" if not cases or any(c.answer != "unsat" for c in cases) else "proved")
    relation, unread = None, ""
    reading = getattr(step, "reading", None)
    # a reading is read of a proved step (a step not proved gives a derivation nothing), or when asked for by name
    if reading is not None and ((only is None and status == "proved") or only == READ):
        case, unread = _read(system, step, reading, p, extra, timeout_ms)
        cases.append(case)
        if fix or extra_given:
            # decided at given values or under added constraints: the step is not proved on the system's domain, so
            # nothing it decided is a relation a derivation may read for every state
            unread = unread or "the step was decided at fixed values or under added constraints (fix=, extra=)"
        relation = reading.relation if not unread else None
    return Decision(step.name, step.statement, status, cases, tuple(dict.fromkeys(lem.node for lem in step.lemmas)),
                    system.domain, round(time.perf_counter() - t0, 4), formula, relation, unread)


_OP_OF = {"LessThan": "<=", "StrictLessThan": "<", "GreaterThan": ">=", "StrictGreaterThan": ">", "Equality": "=="}
_Z3_OPS = {"LessThan": lambda a, b: a <= b, "StrictLessThan": lambda a, b: a < b, "GreaterThan": lambda a, b: a >= b,
           "StrictGreaterThan": lambda a, b: a > b, "Equality": lambda a, b: a == b}


def _read(system: System, step, reading: Reading, p: dict, extra: list, timeout_ms: int) -> tuple[Case, str]:
    """The reading's case (`Reading`): at a generic state (every state the step covers is one), the parameters'
    domain, the state's constraints, what the step decided there and the reading's ties imply its relation.
    Returns (the case, '' when it ties the relation, else why not). Its hypotheses are first asked for a model:
    hypotheses that contradict each other would prove any relation, so they tie none."""
    import sympy
    Z = z3()
    s, sc = system.state(p, "t")
    if isinstance(step, AtState):
        given = step.given(p, s)
        decided = Z.Implies(Z.And(*given), step.then(p, s)) if given else step.then(p, s)
    else:
        decided = step.holds(p, s)
    r = sympy.sympify(reading.relation)
    if type(r).__name__ not in _Z3_OPS:
        raise TypeError(f"a reading's relation is one of =, <=, <, >=, > (sympy); got {r!r}")
    env = reading.objects(p, s)
    (a, sa), (b, sb) = from_sympy(r.lhs, env), from_sympy(r.rhs, env)
    hyps = extra + _named(("the state's constraints", sc), ("what the step decided, at the state", [decided]),
                          ("the reading's ties of its objects to the state", reading.given(p, s) if reading.given
                           else []),
                          ("the square roots of the relation's sides, defined", sa + sb))
    # the hypotheses must have a model: z3 is asked for one, with the same limit
    alone = Z.Solver()
    alone.set(timeout=int(timeout_ms))
    alone.add(*[f for _, f in hyps])
    consistent = alone.check()
    case = _check(READ, hyps + [("the relation the derivations read, negated", Z.Not(_Z3_OPS[type(r).__name__](a, b)))],
                  timeout_ms, None, step.name)
    case.reading = True
    if consistent == Z.unsat:
        return case, "its hypotheses contradict each other (z3 finds them unsatisfiable), so it ties nothing"
    if consistent != Z.sat:
        return case, f"z3 could not show its hypotheses consistent ({alone.reason_unknown() or 'unknown'})"
    if case.answer != "unsat":
        return case, (f"z3 does not derive the relation from what the step decided ({case.answer}"
                      + (f", at {case.model}" if case.model else "") + ")")
    # the relation must come from what the step decided, not from the ties (or the domain) alone
    without = Z.Solver()
    without.set(timeout=int(timeout_ms))
    without.add(*[f for w, f in hyps if w != "what the step decided, at the state"],
                Z.Not(_Z3_OPS[type(r).__name__](a, b)))
    if without.check() == Z.unsat:
        return case, ("the relation follows from its ties and the domain alone (z3: unsat without what the step "
                      "decided), so it reads nothing the step proved")
    return case, ""


def finding(d: Decision, *, witness: dict | None = None, searched: str = "", node: str | None = None):
    """A finding from a decision: 'holds', certified, when every case is unsat (proved for every budget
    on the domain stated, given the lemmas it rests on, which the proof that uses it must list as its
    own steps); 'refuted' with `witness`, a concrete history the caller's exact search found for the
    abstract counterexample; otherwise 'inconclusive', the step open, with the abstract counterexample
    and what the search covered (`searched`), or the solver's 'unknown'."""
    from .findings import Finding, made_by_engine
    given = f", given {', '.join(d.rests_on)}" if d.rests_on else ""
    domain = f"every budget n and every state of {d.domain}{given} (induction, z3)"
    cases = "; ".join(f"{c.label}: {c.answer}" for c in d.cases)
    if d.proved:
        text, latex = statement_of(d.formula) if d.formula is not None else (None, None)
        proved = Finding("holds", domain, f"{d.statement}: proved for every n by induction over the states, every "
                                          f"case unsat ({cases}).", certified=True, node=node,
                         statement=text and f"at every state: {text}", latex=latex)
        # each case's SMT-LIB problem, for its certificate (`certify.collect`; not a field: no JSON carries it)
        proved.smt2_cases = [(f"{d.statement} on {d.domain} [case: {c.label}]", f"induction {d.step}: {c.label}",
                              c.smt2) for c in d.cases if c.answer == "unsat" and c.smt2]
        # the lemmas each case assumed: a link this finding justifies must rest on each (`derivation._found_link`)
        proved.rests_on = tuple(d.rests_on)
        if d.relation is not None:
            # the relation its reading's case tied to what z3 decided: the statement a `Found` link is matched against,
            # stated by the method itself (`derivation.restate` refuses to replace it)
            from .derivation import Statement
            r = d.relation
            st = Statement(r.lhs, _OP_OF[type(r).__name__], r.rhs)
            proved.statement_object, proved.proof_statement, proved.statement_tied = st, st.record(), True
            # where the relation holds: at the system's states, its symbols the states' objects (the caller's
            # `Reading.objects`); a derivation that reads it must be about those states (`derivation._found_link`)
            proved.reading_scope = f"at every state of {d.domain} that the step covers"
        elif d.unread:
            proved.unread = f"its reading was not tied to what it decided: {d.unread}"
        return made_by_engine(proved, "an induction decided by z3")
    bad = d.failing
    if bad is not None:
        shown = {k: round(v, 6) if isinstance(v, float) else v for k, v in (bad.model or {}).items()}
        sat = [c.label for c in d.cases if c.answer == "sat"]
        abstract = (f"with every value free, the case(s) {'; '.join(repr(x) for x in sat)} are satisfiable (the "
                    f"first at {shown})")
        if witness is not None:
            return Finding("refuted", domain, f"{d.statement}: {abstract}; asked again at concrete values, the exact "
                                              f"history search made one concrete ({searched}), a history that the "
                                              "plain reference algorithm replays.", witness, node=node)
        return Finding("inconclusive", domain, f"{d.statement}: open. {abstract}; no history reaching it was found "
                                               f"({searched or 'no search ran'}).", node=node)
    false_cut = next((c for c in d.cases if c.cut and c.answer == "sat"), None)
    if false_cut is not None:
        return Finding("inconclusive", domain, f"{d.statement}: open; a cut of the argument is false on "
                                               f"the variables' domain ('{false_cut.label}' is satisfiable), so the "
                                               "round's case that assumes it proves nothing (no counterexample of the "
                                               "step either).", node=node)
    unknown = next((c for c in d.cases if c.answer == "unknown" and not c.reading), None)
    if unknown is None:
        return Finding("inconclusive", domain, f"{d.statement}: open; no case was decided (none matched what was "
                                               "asked), so nothing is proved.", node=node)
    return Finding("inconclusive", domain, f"{d.statement}: open; the solver answered unknown on '{unknown.label}' "
                                           f"({unknown.reason or 'no reason given'}).", node=node)


def from_sympy(expr, env: dict) -> tuple[Any, list]:
    """A sympy expression as a z3 real term, with the constraints its square roots need: `env` maps
    sympy symbols (or whole subexpressions, e.g. log(n)) to z3 terms; a square root becomes a fresh
    variable r >= 0 with r^2 equal to its argument. So a formula written once, in `bounds`, is what the
    solver reasons about (one source per formula). Raises ValueError on what it cannot translate
    (a transcendental function not in `env`)."""
    import sympy
    Z = z3()
    side: list = []

    def go(e):
        if e in env:
            return env[e]
        if e.is_Integer:
            return Z.RealVal(int(e))
        if e.is_Rational:
            return Z.RealVal(f"{e.p}/{e.q}")
        if e.is_Add:
            out = go(e.args[0])
            for a in e.args[1:]:
                out = out + go(a)
            return out
        if e.is_Mul:
            out = go(e.args[0])
            for a in e.args[1:]:
                out = out * go(a)
            return out
        if e.is_Pow:
            b, x = e.args
            if x == sympy.Rational(1, 2) or x == sympy.Rational(-1, 2):
                arg = go(b)
                # named by its argument (not a fresh counter, which differs between processes): the same problem text
                # in every process, and one root for one argument
                r = Z.Real("sqrt_" + hashlib.sha256(arg.sexpr().encode()).hexdigest()[:16])
                side.extend([r >= 0, r * r == arg])
                return r if x > 0 else 1 / r
            if x.is_Integer:
                base = go(b)
                k = abs(int(x))
                out = base
                for _ in range(k - 1):
                    out = out * base
                return out if x > 0 else 1 / out
        raise ValueError(f"no z3 form for {e} (give it in env)")

    return go(sympy.sympify(expr)), side


def to_sympy(e):
    """A z3 formula of real or integer arithmetic (the steps' invariants) as a sympy expression, for its
    text and LaTeX: variables become symbols of their names, numerals rationals; an operator sympy has
    no counterpart for raises ValueError (the caller shows z3's own text instead)."""
    import sympy
    Z = z3()
    if Z.is_rational_value(e) or Z.is_int_value(e):
        return sympy.Rational(str(e.as_fraction()) if Z.is_rational_value(e) else e.as_long())
    if Z.is_algebraic_value(e):
        return sympy.nsimplify(e.approx(20).as_decimal(20).rstrip("?"))
    if Z.is_true(e):
        return sympy.true
    if Z.is_false(e):
        return sympy.false
    if Z.is_const(e):
        return sympy.Symbol(str(e), real=True)
    args = [to_sympy(a) for a in e.children()]
    k = e.decl().kind()
    # arithmetic evaluated (1*x shown as x: the rendering only; z3 decided the formula as built), relations not
    ops = {Z.Z3_OP_ADD: lambda a: sympy.Add(*a), Z.Z3_OP_MUL: lambda a: sympy.Mul(*a),
           Z.Z3_OP_SUB: lambda a: a[0] - sympy.Add(*a[1:]), Z.Z3_OP_UMINUS: lambda a: -a[0],
           Z.Z3_OP_DIV: lambda a: a[0] / a[1], Z.Z3_OP_POWER: lambda a: a[0] ** a[1],
           Z.Z3_OP_LE: lambda a: sympy.Le(*a, evaluate=False), Z.Z3_OP_LT: lambda a: sympy.Lt(*a, evaluate=False),
           Z.Z3_OP_GE: lambda a: sympy.Ge(*a, evaluate=False), Z.Z3_OP_GT: lambda a: sympy.Gt(*a, evaluate=False),
           Z.Z3_OP_EQ: lambda a: sympy.Eq(*a, evaluate=False), Z.Z3_OP_AND: lambda a: sympy.And(*a, evaluate=False),
           Z.Z3_OP_OR: lambda a: sympy.Or(*a, evaluate=False), Z.Z3_OP_NOT: lambda a: sympy.Not(a[0], evaluate=False),
           Z.Z3_OP_IMPLIES: lambda a: sympy.Implies(*a, evaluate=False),
           Z.Z3_OP_TO_REAL: lambda a: a[0], Z.Z3_OP_TO_INT: lambda a: sympy.floor(a[0])}
    if k not in ops:
        raise ValueError(f"no sympy counterpart for z3's {e.decl().name()}")
    return ops[k](args)


def statement_of(formula) -> tuple[str, str]:
    """(text, LaTeX) of a z3 formula: sympy's where `to_sympy` renders it, z3's own text (in \\texttt) otherwise."""
    try:
        import sympy
        expr = to_sympy(formula)
        return str(expr), sympy.latex(expr)
    except (ValueError, TypeError, AttributeError):
        text = str(formula)
        return text, r"\texttt{" + text.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("%", r"\%") \
            .replace("&", r"\&").replace("#", r"\#").replace("{", r"\{").replace("}", r"\}") + "}"

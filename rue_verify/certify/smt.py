"""SMT-LIB 2 certificates: a z3 `unsat` re-decided by a second solver, cvc5 (from PyPI, `pip install cvc5`).

A certificate of kind "smt2" holds, beside the common fields (`rue_verify.certify`), `smt2`: the SMT-LIB 2 text of
exactly the problem z3 decided (`rue_verify.verify.statements.smt2_problem`): the logic, every constant declared,
each abstraction fact (exp(a) >= 1 + a, Gordon's Mills-ratio bounds, a symbol's sign, ...) and each hypothesis a
named assertion under a comment saying what it is and where it comes from, the negated link as the assertion
named `negated_claim`, then `(check-sat)`. A reader can run any SMT solver on the file; `check` runs cvc5.

`check` accepts a certificate only when

- its `key` is the sha256 of its `statement` and `source` (a certificate moved to another link, or a changed
  formula, does not match);
- the text is a problem and nothing else: `set-logic`, `set-info`, declarations, assertions, one `(check-sat)`
  last, and exactly one assertion named `negated_claim`;
- cvc5 answers `unsat` on it, in one of its configurations (`CONFIGS`, each under its time limit). `sat` (cvc5
  finds a model of the facts and the
  negated link: z3 and cvc5 disagree, or the file was altered), `unknown` and a parse failure are rejections,
  each saying why;
- the facts alone are not unsatisfiable (cvc5 does not answer `unsat` on every assertion but the negated link and
  an induction case's own formulas, within `CONSISTENCY_SECONDS`): facts that contradict one another prove every
  link and certify nothing. Only `unsat` rejects here: finding a model of many nonlinear facts can take cvc5 longer
  than the proof did, and a contradiction is found fast where there is one.

cvc5 runs in a child process, stopped past its time limit: its own limit (`tlimit-per`) does not stop its
nonlinear coverings procedure. A limit is of CPU time (the kernel's RLIMIT_CPU on the child, where the platform forks
and has one; the clock only as a backstop): a loaded machine gives cvc5 fewer seconds of the clock, not fewer of
work, so an answer does not depend on what else runs (`certify.answers` ships and keeps the answers). Its
configurations are tried in turn (measured on the ledger's links: the coverings alone decide most of them fastest,
where cvc5's default for QF_NRA, coverings with incremental linearization, takes longer or times out; one only the
default decides, one only the linearization): any of them answering unsat re-decides the problem, any answering sat
rejects it. The last two turn off the coverings' variable elimination (`nl-cov-var-elim`). Measured on the 70 z3
problems of the quick ledger's proofs (`certify.answers_build`, which decides 301 with those of the shipped
decisions): the first three leave 7 of them unknown; without variable elimination the coverings alone decide two
(PF-T1N-E2's step 3 in 0.2 s of CPU, the repaired THM-FAIL's step 14), cvc5's defaults two more (the repaired
THM-FAIL's steps 12 and 22, in 23 and 29 s of CPU; none of the first three decides them in 60). Three stay unknown
(the repaired DISC-RHO's step 9, the repaired THM-FAIL's steps 5 and 6), as in each of the 28 to 52 other
configurations a sweep of cvc5's options tried on them (projections, liftings, linear models, decision modes,
simplifications, seeds, ...), 30 s or more each.

Assertion names say what each is: `fact_i` a fact of the abstraction (a property of exp, log, erf, a square root,
floor, ... or a symbol's assumption: true of the functions it constrains wherever the statement is defined, so the
facts hold together), `given_i` a relation of the statement's domain (its hypotheses, which the engine has shown
satisfiable with the facts: a statement whose negation is certified too is never certified), `case_i` a formula of
an induction's case (the system's states and round: a case whose round cannot happen is proved by its formulas
contradicting one another, so these are left out of the consistency check).

What the check does not establish, and a reader trusts or checks by reading the file: that the negated claim and
the givens are the statement's translation (the statement heads the file as a comment; a certificate filed under
another statement, with its key recomputed, checks all the same); that each fact is true of what it constrains
(each says what it is in its comment: exp's tangent, a square root's definition, a symbol's sign, ...: a false
fact certifies a false claim); that an integer constant is one in the statement; that an induction's `case_`
formulas are the system's (they are left out of the consistency check, as a case that cannot happen is proved by
its formulas contradicting one another, and are accepted only in a certificate whose statement names an
induction's case); and the facts' consistency beyond what cvc5 finds unsat within
`CONSISTENCY_SECONDS` (a contradiction cvc5 cannot find fast passes).

This module imports cvc5 and the standard library only: no z3, no search code."""

from __future__ import annotations

import hashlib
import re

#: what a reader trusts of a passing certificate of this kind (the checker prints it beside the counts)
TRUSTS = ("that the negated claim and the givens translate the statement, that each named fact is true of what it "
          "constrains, and the induction cases' formulas")

#: cvc5's configurations tried in turn on a problem: (name, options, time limit in seconds of CPU); the last two
#: without the coverings' variable elimination, each deciding links the first three leave unknown (module docstring)
CONFIGS = (("coverings", {"nl-ext": "none", "nl-cov": "true"}, 25.0), ("cvc5's defaults", {}, 10.0),
           ("incremental linearization", {"nl-cov": "false", "nl-ext-tplanes": "true"}, 5.0),
           ("coverings without variable elimination", {"nl-ext": "none", "nl-cov": "true", "nl-cov-var-elim": "false"},
            5.0),
           ("cvc5's defaults without variable elimination", {"nl-cov-var-elim": "false"}, 40.0))
#: the clock's backstop on a child cvc5: this many times its CPU limit, and a minute (`decide`)
WALL_FACTOR = 20
#: the time limit of the facts' consistency check (module docstring), in seconds
CONSISTENCY_SECONDS = 2.0
#: the commands a certificate's problem may hold (anything else: push, pop, reset, set-option, ... is refused)
COMMANDS = ("set-logic", "set-info", "declare-fun", "declare-const", "define-fun", "assert", "check-sat")
#: the name of the assertion that is the link negated
NEGATED = "negated_claim"
#: what an induction case's certificate statement holds (`collect`: "... [case: LABEL]"): only such a certificate may
#: hold `case_` assertions, which the facts' consistency check leaves out
INDUCTION_CASE = " [case: "


def key(statement: str, source: str) -> str:
    """The certificate's key: the sha256 (hex) of the JSON array [statement, source] (UTF-8), so that no two
    (statement, source) pairs share one (a plain concatenation would let a statement's tail be the source's head)."""
    import json
    return hashlib.sha256(json.dumps([statement, source]).encode("utf-8")).hexdigest()


def certificate(smt2_text: str, statement: str, source: str, what: str) -> dict:
    """A certificate of kind "smt2" (module docstring): `statement`, the link's relation as text; `source`, the
    hash of the code the link is built from; `what`, one line naming the node and link it certifies."""
    return {"kind": "smt2", "key": key(statement, source), "statement": statement, "source": source, "what": what,
            "smt2": smt2_text}


def check(cert: dict, configs: tuple = CONFIGS, consistency_seconds: float = CONSISTENCY_SECONDS
          ) -> tuple[bool, str]:
    """(ok, detail): ok only when the key matches and cvc5 decides the problem unsat, and not unsat without its
    negated link (module docstring)."""
    for field in ("kind", "key", "statement", "source", "smt2"):
        if not isinstance(cert.get(field), str):
            return False, f"the certificate has no {field} (a string)"
    if cert["kind"] != "smt2":
        return False, f"a certificate of kind {cert['kind']!r}, not 'smt2'"
    if cert["key"] != key(cert["statement"], cert["source"]):
        return False, "its key is not the sha256 of its statement and source: it certifies another link"
    try:
        commands = commands_of(cert["smt2"])
    except ValueError as err:
        return False, f"the SMT-LIB text cannot be read: {err}"
    bad = problem_fault(commands)
    if bad:
        return False, bad
    base = [c for c in commands if c[1] != "check-sat" and not _is_negated(c[0])]
    negated = [c for c in commands if _is_negated(c[0])]
    facts = [c for c in base if not (_named(c[0]) or "").startswith("case_")]
    if len(facts) < len(base) and INDUCTION_CASE not in cert["statement"]:
        return False, ("it holds `case_` assertions, which the consistency check leaves out, but its statement is no "
                       f"induction's case (no '{INDUCTION_CASE}' in it): a case's formulas would go unchecked")
    answers = []
    for name, options, seconds in configs:
        answer, why = decide(base + negated, seconds, options)
        answers.append(f"{name}: {answer}{f' ({why})' if why else ''}")
        if answer in ("unsat", "sat"):
            break
    if answer != "unsat":
        return False, f"cvc5 does not re-decide it unsat: it answers {'; '.join(answers)}" + \
            (" (it disagrees with z3's unsat)" if answer == "sat" else "")
    by = name
    alone, why = decide(facts, consistency_seconds)
    if alone == "unsat":
        return False, "the facts are unsat without the negated link: they contradict one another and certify nothing"
    asserted = sum(c == "assert" for _, c in commands)
    return True, f"cvc5 re-decides it unsat ({by}; {asserted} assertions, the negated link among them; the facts " \
                 f"and the domain without it: {alone}{f' ({why})' if why else ''})"


def _let_body(t: list[str]) -> list[str]:
    """The tokens of a term with its enclosing `(let (BINDINGS) BODY)` wrappers taken off: BODY's."""
    while len(t) > 4 and t[:2] == ["(", "let"] and t[2] == "(" and t[-1] == ")":
        depth, i = 0, 2
        for i in range(2, len(t)):
            depth += {"(": 1, ")": -1}.get(t[i], 0)
            if depth == 0:
                break
        t = t[i + 1:-1]
    return t


def hollow(text: str) -> bool:
    """Whether an SMT-LIB problem's negated link is `(not true)`: the claim reached the solver already evaluated to
    true (sympy decided the relation from its symbols' assumptions when it was built), so the problem says nothing
    of the claim's content and certifies nothing (`check` refuses it; the writers leave it out and say so)."""
    try:
        negated = [c for c, _ in commands_of(text) if _is_negated(c)]
    except ValueError:
        return False
    return len(negated) == 1 and _let_body(tokens(negated[0])[4:-4])[:4] == ["(", "not", "true", ")"]


def commands_of(text: str) -> list[tuple[str, str]]:
    """The top-level commands of an SMT-LIB 2 text as (text, name): comments (`;` to the end of the line) dropped,
    string literals and |quoted symbols| kept whole. ValueError on unbalanced parentheses or text outside a
    command."""
    out, depth, start, i, n = [], 0, None, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if ch in "|\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise ValueError(f"an unterminated {ch} at character {i}")
            i = j + 1
            continue
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"a ')' with no '(' at character {i}")
            if depth == 0:
                cmd = text[start:i + 1]
                name = re.match(r"\(\s*([^\s()]*)", cmd).group(1)
                out.append((cmd, name))
        elif depth == 0 and not ch.isspace():
            raise ValueError(f"text outside a command at character {i}: {text[i:i + 20]!r}")
        i += 1
    if depth:
        raise ValueError("unbalanced parentheses: the text ends inside a command")
    return out


#: the logics a certificate may set (the writer's: real arithmetic, with integer constants where a symbol is one)
LOGICS = ("QF_NRA", "QF_NIRA")


def problem_fault(commands: list[tuple[str, str]]) -> str | None:
    """Why `commands` is not one problem with its negated link (None when it is): only the commands of a problem,
    constants only (no function with arguments, no definition: a defined symbol would pin a variable the claim is
    about), of sort Real or Int, one logic of `LOGICS` first, every assertion named as `_named` reads it, the
    negated link asserted once and of the form (not ...) about a declared constant, one (check-sat) last."""
    names = [name for _, name in commands]
    other = sorted(set(names) - set(COMMANDS) | ({"define-fun"} & set(names)))
    if other:
        return f"the file holds commands outside a problem's: {', '.join(other)}"
    if names.count("check-sat") != 1 or names[-1] != "check-sat":
        return "the file must end with its one (check-sat)"
    if names.count("set-logic") != 1 or names[0] != "set-logic":
        return "the file must set its logic once, first"
    declared = set()
    for text, name in commands:
        t = tokens(text)
        if name == "set-logic" and (len(t) != 4 or t[2] not in LOGICS):
            return f"the logic must be one of {', '.join(LOGICS)}: {text[:80]}"
        if name == "declare-fun" and not (len(t) == 7 and t[3:5] == ["(", ")"] and t[5] in ("Real", "Int")):
            return f"a declaration that is not a constant of sort Real or Int: {text[:80]}"
        if name == "declare-const" and not (len(t) == 5 and t[3] in ("Real", "Int")):
            return f"a declaration that is not a constant of sort Real or Int: {text[:80]}"
        if name in ("declare-fun", "declare-const"):
            declared.add(t[2])
        if name == "assert" and _named(text) is None:
            return f"an assertion that is not of the form (assert (! TERM :named NAME)): {text[:80]}"
    negated = [c for c, _ in commands if _is_negated(c)]
    if len(negated) != 1:
        return f"the file must assert the negated link once, named {NEGATED} ({len(negated)} found)"
    whole = tokens(negated[0])
    t = whole[:4] + _let_body(whole[4:-4]) + whole[-4:]   # z3 writes shared subterms as let bindings around it
    if t[4:8] == ["(", "not", "true", ")"]:
        return ("the negated link is (not true): the claim reached the solver already evaluated to true, so the "
                "problem says nothing of it")
    if t[4:6] != ["(", "not"] or not declared & set(whole[4:-4]):
        return f"the negated link must be (not CLAIM), its claim about a declared constant: {negated[0][:120]}"
    if {"true", "false"} & set(whole[4:-4]):
        return ("the negated link holds a literal true or false: a claim translated from a relation has none, and "
                "one can make it unsat on its own ((not (or true C)) certifies any statement)")
    return None


def tokens(command: str) -> list[str]:
    """The tokens of one command: parentheses, |quoted symbols| and "strings" whole, every other atom; comments
    (`;` to the end of the line, outside a quoted symbol or a string) dropped, as cvc5 reads them."""
    out, i, n = [], 0, len(command)
    while i < n:
        ch = command[i]
        if ch == ";":
            j = command.find("\n", i)
            i = n if j < 0 else j + 1
        elif ch in "()":
            out.append(ch)
            i += 1
        elif ch in "|\"":
            j = command.find(ch, i + 1)
            j = n - 1 if j < 0 else j
            out.append(command[i:j + 1])
            i = j + 1
        elif ch.isspace():
            i += 1
        else:
            j = i
            while j < n and not command[j].isspace() and command[j] not in "();|\"":
                j += 1
            out.append(command[i:j])
            i = j
    return out


def _named(command: str) -> str | None:
    """The name an assertion gives itself, read from its tokens (comments dropped) as cvc5 reads it: the
    assertion must be `(assert (! TERM :named NAME))`, the annotation the outermost; None for another command or
    another form."""
    t = tokens(command)
    if t[:4] != ["(", "assert", "(", "!"] or len(t) < 9 or t[-4] != ":named" or t[-2:] != [")", ")"]:
        return None
    return t[-3]


def _is_negated(command: str) -> bool:
    return _named(command) == NEGATED


def decide(commands: list[tuple[str, str]], seconds: float = 30.0, options: dict | None = None) -> tuple[str, str]:
    """cvc5's answer ('sat', 'unsat', 'unknown', or 'error') on the commands followed by (check-sat), under its
    `options` (cvc5's own names and values; its defaults otherwise), with why (the unknown's explanation, the parse
    error, the time limit): in a child process stopped past `seconds` of CPU time (the kernel's limit, its next whole
    second), or past `WALL_FACTOR` times that and a minute of the clock, where the platform can fork and limit a
    process's CPU; here under cvc5's own limit (of the clock) otherwise."""
    import multiprocessing as mp
    import signal
    try:
        import resource  # noqa: F401 (POSIX: the child's CPU limit)
        ctx = mp.get_context("fork")
    except (ImportError, ValueError):            # no fork or no CPU limit on this platform: cvc5's own limit only
        return _decide_here(commands, seconds, options)
    wall = WALL_FACTOR * seconds + 60.0
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_decide_into, args=(commands, seconds, options, send), daemon=True)
    proc.start()
    send.close()
    try:
        if recv.poll(wall):
            return recv.recv()
        return "unknown", f"no answer within {wall:g} s of the clock"
    except EOFError:
        proc.join(5)
        if proc.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
            return "unknown", f"no answer within {_cpu_limit(seconds)} s of CPU"
        return "error", f"cvc5's process ended without an answer (exit code {proc.exitcode})"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()


def _cpu_limit(seconds: float) -> int:
    """The whole seconds of CPU a child cvc5 is given for a limit of `seconds` (the kernel counts whole seconds)."""
    import math
    return max(1, math.ceil(seconds))


def _decide_into(commands, seconds, options, send) -> None:
    """In the child: its CPU limited to `seconds` (SIGXCPU ends it, no core written; SIGKILL two seconds later), cvc5's
    own limit (of the clock) set to the parent's backstop, the answer sent."""
    import resource
    cpu = _cpu_limit(seconds)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        cpu = min(cpu, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2 if hard == resource.RLIM_INFINITY else hard))
    send.send(_decide_here(commands, WALL_FACTOR * seconds + 60.0, options))
    send.close()


def _decide_here(commands: list[tuple[str, str]], seconds: float, options: dict | None) -> tuple[str, str]:
    try:
        import cvc5
    except ImportError:
        return "error", "cvc5 is not installed (pip install cvc5)"
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(int(seconds * 1000)))
    for k, v in (options or {}).items():
        solver.setOption(k, v)
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, "\n".join(c for c, _ in commands), "certificate")
    try:
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            cmd.invoke(solver, symbols)
        result = solver.checkSat()
    except Exception as err:                      # cvc5 raises on a term it cannot read: the certificate fails
        return "error", f"cvc5 could not read it: {str(err)[:300]}"
    if result.isUnsat():
        return "unsat", ""
    if result.isSat():
        return "sat", ""
    return "unknown", str(result.getUnknownExplanation())

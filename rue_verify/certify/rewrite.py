"""sympy certificates (kind "sympy"): a step sympy decided, kept as sympy's own text and re-decided by sympy alone.

A step the engine decides by sympy (`statements.Holds(method="sympy")`: a derivative, an integral, a sum or an
identity worked out, the sides' difference simplified and its sign read from the symbols' assumptions) has no
solver's proof to keep. Its certificate keeps the statement itself, as sympy's `srepr` text, and the reader's
sympy decides it again by the fixed procedure below, apart from the search: this module imports sympy and the
standard library only (`tests/certify/test_rewrite.py` holds it to that).

The kind's own fields (beside `kind`, `key`, `statement`, `source`, `what`, see `rue_verify.certify`):

- `claim`: the claim's srepr; `given`: each given relation's srepr (the statement's domain beyond the symbols'
  assumptions, which the srepr carries: `Symbol('K', integer=True, positive=True)`; a symbol may carry only the
  signs, integrality and realness of `SYMBOL_ASSUMPTIONS`);
- `symbols`: [printed name, [assumption, ...]] of each symbol, as the srepr gives them (for a reader; the check
  compares them with what it read);
- `functions`: {name: {"nargs": [counts] or null, "assumptions": {assumption: true/false}}} of each undefined
  function the srepr applies (`Function('name')`): its arity and declared assumptions (a sequence declared
  positive), which srepr omits;
- `replaced`: the toolkit's own function classes (`Pr`, `Cup`, `MaxOver`, `Normal`, `Mean`, `Ex`, ...) that the
  file writes as undefined functions of the same name and arity, with no assumption: a claim sympy proves for
  arbitrary functions in their place holds for ours, with one rule of their own: a `MaxOver(f, (k, lo, hi))` over a
  range shown nonempty has the sign its terms are shown to share (`_maximum_sign`). One that needs other rules of
  theirs (a probability's range, a bound) does not re-decide so and is left uncovered when the certificates are
  written (`collect.sympy_certificate` writes only a file whose check passes), never certified.

The srepr is read by `parse`, never by `eval`: an AST walk that builds only sympy's constructors of `SYMPY_NAMES`
and `UNEVALUATED`, the names oo, pi and E, and `Function('name')` of a name listed in `functions`, with literal
arguments (strings, integers, srepr's keywords). Anything else (an attribute, a lambda, a subscript, a
comprehension, `__import__`, an operator but a minus sign on a literal) is refused before anything is built.
Relations and `And`/`Or`/`Not` are built with `evaluate=False`, as the engine wrote them.

`check(cert)` verifies, in this order:

1. the key: `key` = sha256 of the JSON array [statement, source];
2. the file reads (`parse`), its `symbols`, `functions` and `replaced` are what it applies, and sympy's printing of
   the claim and the givens is the statement's text (`statement` = the claim, then after " for " the givens and
   the symbols' assumptions in words, `Holds.text`'s form, every free symbol's said): the claim decided is the
   one the key names;
3. an index of a range given as an argument of an undefined function (j in `MaxOver(f(j), (j, 1, K))`, which
   binds it) occurs nowhere outside such arguments, so that neither a given nor another term fixes it;
4. the decision (`decide`), each relation of the claim (a conjunction's parts; not(a < b) read as a >= b):
   - an application with a range (`_ranges`) that holds no variable of a sum, integral or derivative of the
     relation is one value there: it is read as a fresh symbol (distinct applications, distinct symbols), with
     the signs sympy knows of it; so is a sum whose range the symbols' assumptions do not show to run forwards
     (hi >= lo - 1, `_forward`): sympy reads a reversed range by Karr's convention (minus the range between), the
     engine as empty, so such a sum is read by neither (one inside another sum, an integral or a derivative
     leaves the relation undecided);
   - each side evaluated (`value`: sympy's `doit`, derivatives, integrals and sums worked out, but a sum whose
     term is not a rational function of its index, whose summation by sympy can run for minutes: kept as it is,
     as the engine keeps it);
   - their difference d simplified (`simplify(factor_terms(d))`, then that with erfc written 1 - erf, and
     `factor(together(.))` of it); an equation holds when a form is 0 (or sympy says it is zero), an inequality
     when sympy's assumptions give a form's sign (`is_nonnegative`, `is_positive`);
   - first with no given relation (true for every value is true on the domain), then, if that does not decide,
     with the givens read as substitutions (`substitutions`), applied to the evaluated sides: in order, a given
     `s >= e`, `s > e`, `s <= e`, `s < e` or `s = e` (either side; s a symbol not yet read and bound nowhere, e
     free of s, after the earlier substitutions) becomes s = e + t, s = e - t (t a fresh symbol, t >= 0, or t > 0
     for a strict relation; an integer when s and e are) or s = e. Sound: at every point of the domain, t = s - e
     (or e - s) is a value t may take, so the substituted claim, shown for every such t and every value of the
     other symbols, holds there. A given read no way is left out (a larger domain: still sound) and named.

The check has no time limit of its own (sympy has none): a file can make it work long, and its reader stop it.

What the check does not establish, and a reader trusts instead (`TRUSTS`): sympy's rules (its doit, simplify,
factor, and its reading of signs from assumptions: a wrong rule of sympy's would pass a wrong claim, as it would
in the engine), its printer (the statement's text is the claim as sympy prints it), that the statement is the
step's (`Holds.text`; the key's other half is the engine's code hash), with what its text does not say: a symbol's
`real` and a function's listed assumptions; and that each replaced function is a function of its arguments. An
application with a range kept as a function (it holds a variable of a derivative, say) is read with its index
among its arguments; step 3 keeps any given or other term from fixing that index."""

from __future__ import annotations

import ast
import hashlib
import json
import re

KIND = "sympy"
#: what a reader trusts of a passing certificate of this kind (the checker prints it beside the counts)
TRUSTS = ("sympy's own rules (doit: derivatives, integrals, sums; simplify, factor; an expression's sign from the "
          "symbols' assumptions) and its printer (the file's claim, printed, is the statement's text); that the "
          "statement is the step's, with a symbol's `real` and a function's listed assumptions (a sequence declared "
          "positive), which its text does not say; that the toolkit's functions listed as replaced are functions "
          "of their arguments (a claim true for arbitrary functions in their place is true of them); and that "
          "MaxOver(f, (k, lo, hi)) is the largest f(k) over the integers k in lo..hi, so it has the sign its terms "
          "are shown to share when that range is shown nonempty (the one rule of the toolkit's functions it applies)")

#: the assumption keywords a symbol or a function may carry in a file
ASSUMPTIONS = frozenset(("real", "extended_real", "complex", "positive", "negative", "nonnegative", "nonpositive",
                         "nonzero", "zero", "integer", "rational", "irrational", "finite", "infinite", "even", "odd",
                         "prime", "composite", "commutative", "imaginary", "algebraic", "transcendental",
                         "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive",
                         "extended_nonzero", "hermitian", "antihermitian", "noninteger"))
#: names sympy prints for its constants and singletons: a symbol so named would print as the constant (I as the
#: imaginary unit), so that the statement's text says another claim; refused
CONSTANT_NAMES = frozenset(("I", "E", "pi", "oo", "zoo", "nan", "S", "N", "O", "Q", "EulerGamma", "GoldenRatio",
                            "Catalan", "TribonacciConstant", "true", "false", "True", "False", "None"))
#: the assumptions a symbol may carry in a file: the signs and integrality the statement's text says in words, and real
SYMBOL_ASSUMPTIONS = frozenset(("positive", "negative", "nonnegative", "nonpositive", "nonzero", "integer", "real"))
#: sympy's constructors a file's srepr may call, by the name srepr writes (relations and connectives: unevaluated)
SYMPY_NAMES = ("Symbol", "Dummy", "Integer", "Rational", "Float", "Add", "Mul", "Pow", "Tuple", "Sum", "Integral",
               "Derivative", "Indexed", "IndexedBase", "exp", "log", "erf", "erfc", "harmonic", "Abs", "Max", "Min")
UNEVALUATED = {"Equality": "Eq", "Unequality": "Ne", "LessThan": "Le", "StrictLessThan": "Lt", "GreaterThan": "Ge",
               "StrictGreaterThan": "Gt", "And": "And", "Or": "Or", "Not": "Not"}


def key(statement: str, source: str) -> str:
    """The certificate's key: the sha256 (hex) of the JSON array [statement, source] (UTF-8), as every kind's."""
    return hashlib.sha256(json.dumps([statement, source]).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------------- read
def function(name: str, spec: dict):
    """The undefined sympy function a file's `functions[name]` describes: its `nargs` (a list, or null: any) and
    its `assumptions`."""
    import sympy
    if not name.isidentifier() or hasattr(sympy, name):
        raise ValueError(f"{name!r} is not a name an undefined function may have (an identifier, not one of sympy's)")
    if set(spec) != {"nargs", "assumptions"} or not all(
            k in ASSUMPTIONS and isinstance(v, bool) for k, v in spec["assumptions"].items()):
        raise ValueError(f"functions[{name!r}] is not {{nargs, assumptions: {{assumption: true/false}}}}")
    nargs = spec["nargs"]
    if nargs is not None and not (nargs and all(type(n) is int and 0 <= n < 100 for n in nargs)):
        raise ValueError(f"functions[{name!r}]: nargs is null or a list of argument counts")
    return sympy.Function(name, **spec["assumptions"], **({} if nargs is None else {"nargs": tuple(nargs)}))


def parse(text: str, functions: dict):
    """The sympy expression an srepr `text` writes, built node by node from its AST, never by `eval`: calls of
    sympy's `SYMPY_NAMES` and `UNEVALUATED` (built with evaluate=False) and of `Function('name')` (a name of
    `functions`, made by `function`), the names oo, pi and E, string and integer literals, -literal, and the
    keywords srepr writes: a Symbol's or Dummy's assumptions (True/False) and dummy_index, a Float's precision.
    Raises ValueError on anything else, before anything is built."""
    import sympy
    tree = ast.parse(text, mode="eval")
    allowed = (ast.Expression, ast.Call, ast.Name, ast.Load, ast.Constant, ast.keyword, ast.UnaryOp, ast.USub)
    for n in ast.walk(tree):
        if not isinstance(n, allowed):
            raise ValueError(f"not allowed in a certificate's expression: {type(n).__name__}")
    names = {"oo": sympy.oo, "pi": sympy.pi, "E": sympy.E}
    made = {name: function(name, spec) for name, spec in functions.items()}

    def build(n):
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.operand, ast.Constant) and type(n.operand.value) is int:
            return -n.operand.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.operand, ast.Name) and n.operand.id == "oo":
            return -sympy.oo
        if isinstance(n, ast.Name) and n.id in names:
            return names[n.id]
        if not isinstance(n, ast.Call):
            raise ValueError(f"not allowed there: {ast.dump(n)[:80]}")
        f, kw = n.func, {}
        if isinstance(f, ast.Call):           # Function('name')(args)
            if not (isinstance(f.func, ast.Name) and f.func.id == "Function" and len(f.args) == 1 and not f.keywords
                    and isinstance(f.args[0], ast.Constant) and f.args[0].value in made):
                raise ValueError("an applied function is Function('name') of a name the file lists in `functions`")
            fn = made[f.args[0].value]
        elif isinstance(f, ast.Name) and f.id in UNEVALUATED:
            fn, kw = getattr(sympy, UNEVALUATED[f.id]), {"evaluate": False}
        elif isinstance(f, ast.Name) and f.id in SYMPY_NAMES:
            fn = getattr(sympy, f.id)
        else:
            raise ValueError(f"not a constructor a certificate may call: {ast.dump(f)[:80]}")
        for k in n.keywords:
            v = k.value.value if isinstance(k.value, ast.Constant) else None
            ok = isinstance(f, ast.Name) and (
                f.id in ("Symbol", "Dummy") and k.arg in SYMBOL_ASSUMPTIONS and v is True
                or f.id == "Dummy" and k.arg == "dummy_index" and type(v) is int
                or f.id == "Float" and k.arg == "precision" and type(v) is int)
            if not ok:
                raise ValueError(f"the keyword {k.arg!r} is not allowed there")
            kw[k.arg] = v
        named = isinstance(f, ast.Name) and f.id in ("Symbol", "Dummy", "Float")
        if named:
            # a string reaches only a symbol's name or a Float's digits: any other string a constructor takes,
            # sympy parses, and its parser evaluates Python (a file could run code in the checker)
            if not (len(n.args) == 1 and isinstance(n.args[0], ast.Constant) and type(n.args[0].value) is str):
                raise ValueError(f"{f.id} takes one string literal here")
            text = n.args[0].value
            if not (text.isidentifier() if f.id != "Float" else re.fullmatch(r"-?\d+(\.\d*)?(e-?\d+)?", text)):
                raise ValueError(f"{f.id}'s string is not {'an identifier' if f.id != 'Float' else 'a number'}: "
                                 f"{text!r:.80}")
            if f.id != "Float" and text in CONSTANT_NAMES:
                raise ValueError(f"a symbol named {text!r} prints as sympy's constant of that name: the statement's "
                                 "text would say another number")
            args = [text]
        else:
            args = [build(a) for a in n.args]
        out = fn(*args, **kw)
        if isinstance(f, ast.Name) and f.id == "Float" and sympy.Float(str(out), precision=out._prec) != out:
            raise ValueError(f"the number {text} prints as {out}, which is another number: the statement's text "
                             "would not say which")
        return out
    return build(tree.body)


# -------------------------------------------------------------------------------------------------- decide
def _forward(s) -> bool:
    """Whether every range of the sum `s` is shown to run forwards (hi >= lo - 1: empty or not, never reversed) from
    the symbols' assumptions, outermost first, an outer index written lo + j (j a nonnegative integer)."""
    import sympy
    sub: dict = {}
    for k, lo, hi in reversed(s.limits):
        lo, hi = lo.xreplace(sub), hi.xreplace(sub)
        if (hi - lo + 1).is_nonnegative is not True:
            return False
        sub[k] = lo + sympy.Dummy("j", integer=True, nonnegative=True)
    return True


def value(e):
    """`e` evaluated (`doit`), but for each sum whose term is not a rational function of its index (and which holds
    no variable bound around it), kept as it is (module docstring)."""
    import sympy
    bound = _variables([e])
    keep = {s: sympy.Dummy("kept") for s in e.atoms(sympy.Sum) if not s.free_symbols & bound
            and not all(s.function.is_rational_function(lim[0]) for lim in s.limits)}
    return e.xreplace(keep).doit().xreplace({v: k for k, v in keep.items()})


def _variables(exprs, derivatives: bool = True) -> set:
    """The variables the sums and integrals of `exprs` bind, and (`derivatives`) those of its derivatives."""
    import sympy
    out = set()
    for e in exprs:
        out |= {lim[0] for s in e.atoms(sympy.Sum, sympy.Integral) for lim in s.limits}
        out |= {v for d in e.atoms(sympy.Derivative) for v, _ in d.variable_count} if derivatives else set()
    return out


def _ranges(exprs) -> set:
    """The applications of an undefined function with a range (j, lo, hi) among its arguments (MaxOver, Cup)."""
    import sympy
    from sympy.core.function import AppliedUndef
    return {a for e in exprs for a in e.atoms(AppliedUndef)
            if any(isinstance(t, sympy.Tuple) and len(t.args) == 3 and isinstance(t.args[0], sympy.Symbol)
                   for t in a.args)}


def _indices(exprs) -> set:
    import sympy
    return {t.args[0] for a in _ranges(exprs) for t in a.args if isinstance(t, sympy.Tuple) and len(t.args) == 3}


def _maximum_sign(a) -> dict:
    """The sign of MaxOver(f, (k, lo, hi)), read as the largest of f(k) over the integers lo..hi (the one rule of the
    toolkit's functions this checker applies, `TRUSTS`): when its ends are shown integers and the range nonempty
    (hi - lo >= 0 from the symbols' assumptions) and sympy shows the term's sign at k = lo + j for every nonnegative
    integer j, the maximum
    has it: {"positive": True} or {"nonnegative": True} (or negative, nonpositive); {} otherwise."""
    import sympy
    if type(a).__name__ != "MaxOver" or len(a.args) != 2 or not isinstance(a.args[1], sympy.Tuple) \
            or len(a.args[1].args) != 3 or not isinstance(a.args[1].args[0], sympy.Symbol):
        return {}
    f, (k, lo, hi) = a.args[0], a.args[1].args
    if lo.is_integer is not True or hi.is_integer is not True or (hi - lo).is_nonnegative is not True:
        return {}                   # k = lo + j runs over the range's integers only when its ends are integers
    f = f.xreplace({k: lo + sympy.Dummy("j", integer=True, nonnegative=True)})
    for sign in ("positive", "negative", "nonnegative", "nonpositive"):
        if getattr(f, f"is_{sign}") is True:
            return {sign: True}
    return {}


def holds(part, sub: dict | None = None) -> bool:
    """Whether the relation `part` is shown by sympy for every value its symbols' assumptions allow: its sides
    evaluated (`value`), substituted (`sub`, a reading of the givens), their difference simplified and its sign
    read. An application with a range (`_ranges`) that holds no variable of a sum, integral or derivative is one
    value there, and is read as a fresh symbol (sympy cannot differentiate an undefined function of a Tuple); so is
    a sum not shown to run forwards (`_forward`), which simplify would otherwise read by Karr's convention."""
    import sympy
    if isinstance(part, sympy.Not) and isinstance(part.args[0], sympy.Rel):
        part = part.args[0].negated
    if not isinstance(part, sympy.Rel):
        return False
    bound = _variables([part])
    backwards = [s for s in part.atoms(sympy.Sum) if not _forward(s)]
    if any(s.free_symbols & bound for s in backwards):
        return False                      # a sum that may run backwards, inside a sum, integral or derivative
    said = {a: _maximum_sign(a) or {k: getattr(a, f"is_{k}") for k in SYMBOL_ASSUMPTIONS
                                    if getattr(a, f"is_{k}") is not None}
            for a in _ranges([part]) if not a.free_symbols & bound}
    said.update({s: {} for s in backwards})
    atoms = {a: sympy.Dummy(type(a).__name__, **kw) for a, kw in said.items()}     # with what sympy knows of it
    lhs, rhs = (value(side.xreplace(atoms)).subs(sub or {}) for side in (part.lhs, part.rhs))
    d = sympy.factor_terms(lhs - rhs)
    forms = [sympy.simplify(d)]
    if forms[0] != 0 and forms[0].has(sympy.erfc):
        forms.append(sympy.simplify(forms[0].rewrite(sympy.erf)))
    forms.append(sympy.factor(sympy.together(forms[0])))
    for f in forms:
        if isinstance(part, (sympy.Eq, sympy.Ne)):
            if (f == 0 or f.is_zero is True) if isinstance(part, sympy.Eq) else f.is_zero is False:
                return True
            continue
        f = f if isinstance(part, (sympy.Ge, sympy.Gt)) else -f
        if (f.is_positive if isinstance(part, (sympy.Gt, sympy.Lt)) else f.is_nonnegative) is True:
            return True
    return False


def substitutions(given: list, bound: set = frozenset()) -> tuple[dict, list]:
    """The given relations read in order as substitutions (module docstring): ({symbol: value}, the givens not
    read). A symbol of `bound` (a variable a sum, an integral or a range binds somewhere) is never read."""
    import sympy
    flip = {sympy.Ge: sympy.Le, sympy.Gt: sympy.Lt, sympy.Le: sympy.Ge, sympy.Lt: sympy.Gt, sympy.Eq: sympy.Eq}
    sub: dict = {}
    unread = []
    for g0 in given:
        g = g0.xreplace(sub)
        read = None
        if type(g) in flip:
            for s, op, e in ((g.lhs, type(g), g.rhs), (g.rhs, flip[type(g)], g.lhs)):
                if isinstance(s, sympy.Symbol) and s not in sub and s not in bound and s not in e.free_symbols:
                    read = s, op, e
                    break
        if read is None:
            unread.append(g0)
            continue
        s, op, e = read
        if op is sympy.Eq:
            v = e
        else:
            t = sympy.Dummy(f"t_{s.name}", **({"positive": True} if op in (sympy.Gt, sympy.Lt) else
                                              {"nonnegative": True}),
                            **({"integer": True} if s.is_integer and e.is_integer else {}))
            v = e + t if op in (sympy.Ge, sympy.Gt) else e - t
        sub = {k: w.xreplace({s: v}) for k, w in sub.items()}
        sub[s] = v
    return sub, unread


def decide(claim, given: list) -> tuple[bool, str]:
    """(holds, how): each relation of `claim` shown by `holds`, first on the symbols' assumptions alone, then under
    the givens read as substitutions (module docstring)."""
    import sympy
    parts = list(claim.args) if isinstance(claim, sympy.And) else [claim]
    if all(holds(p) for p in parts):
        return True, "without the given relations (true for every value the symbols' assumptions allow)"
    if not given:
        return False, "sympy does not show it on the symbols' assumptions"
    sub, unread = substitutions(given, _variables([claim, *given], derivatives=False) | _indices([claim, *given]))
    left = f" (not read: {', '.join(map(str, unread))})" if unread else ""
    if sub and all(holds(p, sub) for p in parts):
        return True, f"under the given relations read as {len(sub)} substitution(s){left}"
    return False, (f"sympy does not show it, without the given relations nor under {len(sub)} substitution(s) read "
                   f"from them{left}")


# ----------------------------------------------------------------------------------------------- the file
def _assumption_text(s) -> str:
    """A symbol's assumptions in words, as the statement's text gives them (`statements._assumption_text`)."""
    a = s.assumptions0
    said = [w for w in ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer") if a.get(w)
            and not (w == "nonnegative" and s.is_positive)
            and not (w == "nonzero" and (s.is_positive or s.is_negative))]
    return f"{s} {' '.join(said)}" if said else ""


def _symbols(exprs) -> list:
    """The symbols (and indexed terms, which carry their base's assumptions) of `exprs`, by name."""
    import sympy
    out = set()
    for e in exprs:
        out |= e.atoms(sympy.Symbol) | e.atoms(sympy.Indexed)
    return sorted(out, key=lambda s: (str(s), sympy.srepr(s)))


def _symbols_field(exprs) -> list:
    import sympy
    return [[str(s), sorted(k for k, v in s._assumptions_orig.items() if v)] for s in _symbols(exprs)
            if isinstance(s, sympy.Symbol)]


def _functions_field(exprs) -> dict:
    """{name: {nargs, assumptions}} of each undefined function applied in `exprs`."""
    import sympy
    from sympy.core.function import AppliedUndef
    out: dict = {}
    for e in exprs:
        for a in e.atoms(AppliedUndef):
            f = type(a)
            n = f.nargs
            spec = {"nargs": None if n == sympy.S.Naturals0 else sorted(int(k) for k in n),
                    "assumptions": {k: v for k, v in f._kwargs.items() if k in ASSUMPTIONS and isinstance(v, bool)}}
            if out.setdefault(f.__name__, spec) != spec:
                raise ValueError(f"two functions named {f.__name__}, with different arities or assumptions")
    return out


def _unshown_index_sign(exprs) -> str | None:
    """None when every sum's and product's index, and every definite integral's variable, carries no sign its range
    does not show (an index declared negative over 1..n would decide the sum's sign); else which one."""
    import sympy
    for e in exprs:
        for s in e.atoms(sympy.Sum, sympy.Product, sympy.Integral):
            for lim in s.limits:
                if len(lim) != 3:
                    continue
                v, lo, hi = lim
                integer = not isinstance(s, sympy.Integral)
                shown = {"positive": lo.is_positive or (integer and (lo - 1).is_nonnegative),
                         "nonnegative": lo.is_nonnegative,
                         "negative": hi.is_negative or (integer and (hi + 1).is_nonpositive),
                         "nonpositive": hi.is_nonpositive}
                shown["nonzero"] = shown["positive"] or shown["negative"]
                shown["nonnegative"] = shown["nonnegative"] or shown["positive"]
                shown["nonpositive"] = shown["nonpositive"] or shown["negative"]
                for word, ok in shown.items():
                    if v._assumptions_orig.get(word) and ok is not True:
                        return f"the bound variable {v} is declared {word}, which its range ({lo}, {hi}) does not show"
    return None


def _free(exprs) -> set:
    """The symbols (and indexed terms) that occur free somewhere in `exprs`: sympy's free symbols, a range
    application's (`_ranges`) own index not counted inside it; a symbol bound in one place and free in another is
    free."""
    import sympy
    apps = _ranges(exprs)
    keep = {a: sympy.Dummy() for a in apps}
    out = set()
    for e in exprs:
        out |= e.xreplace(keep).free_symbols
    for a in apps:
        own = {t.args[0] for t in a.args if isinstance(t, sympy.Tuple) and len(t.args) == 3}
        out |= a.free_symbols - own
    return out


def _said_statement(statement: str, claim, given: list) -> str | None:
    """None when `statement` is the claim printed, then after " for " the givens printed and the symbols'
    assumptions in words (`Holds.text`'s form: every free symbol's said; a bound variable's said or not, as the
    toolkit's binding functions count it free or not), each once; else why not."""
    exprs = [claim, *given]
    syms = _symbols(exprs)
    every = {_assumption_text(s) for s in syms} - {""}
    loose = _free(exprs)
    free = {_assumption_text(s) for s in syms if s in loose} - {""}
    said = ", ".join(str(g) for g in given)
    if statement == str(claim) and not said and not free:
        return None
    if not statement.startswith(f"{claim} for {said}"):
        return f"the statement's text is not the file's claim and givens as sympy prints them ({str(claim)[:160]}...)"
    rest = statement[len(f"{claim} for {said}"):]
    if said and rest and not rest.startswith(", "):
        return "the statement's text goes on after the givens with no list of assumptions"
    tail = [w for w in (rest[2:] if said else rest).split(", ") if w]
    if not (said or tail) or len(set(tail)) != len(tail) or not free <= set(tail) <= every:
        return (f"the statement's assumptions ({', '.join(tail)[:160]}) are not the file's symbols' "
                f"({', '.join(sorted(free))[:160]})")
    return None


def certificate(h_or_parts, statement: str, source: str, what: str) -> dict:
    """The certificate (a JSON-ready dict) of a step sympy decided.

    Args:
        h_or_parts: the step's `Holds` (its `claim` and `given`), or a pair (claim, givens).
        statement: the step's statement as text (`Holds.text()`).
        source: the hash of the code it was built from.
        what: one line naming the node and step it certifies.

    The toolkit's own function classes (a sympy Function subclass defined outside sympy) are written as undefined
    functions of the same name and arity (`replaced`); another class defined outside sympy raises ValueError."""
    import sympy
    claim, given = (h_or_parts.claim, h_or_parts.given) if hasattr(h_or_parts, "claim") else h_or_parts
    replaced: set = set()
    exprs = [_undefine(sympy.sympify(e), replaced) for e in (claim, *given)]
    return {"kind": KIND, "key": key(statement, source), "statement": statement, "source": source, "what": what,
            "claim": sympy.srepr(exprs[0]), "given": [sympy.srepr(g) for g in exprs[1:]],
            "symbols": _symbols_field(exprs), "functions": _functions_field(exprs), "replaced": sorted(replaced)}


def _undefine(e, replaced: set):
    """`e` with every application of a function class defined outside sympy written as an undefined function of
    its name and arity (its arguments likewise), relations and connectives rebuilt unevaluated."""
    import sympy
    from sympy.core.function import AppliedUndef
    own = not isinstance(e, AppliedUndef) and not (type(e).__module__ or "").startswith("sympy.")
    if own and not isinstance(e, sympy.Function):
        raise ValueError(f"{type(e).__name__} is a class of the toolkit, not a function: not written")
    args = [_undefine(a, replaced) for a in e.args]
    if own:
        replaced.add(type(e).__name__)
        n = type(e).nargs
        return sympy.Function(type(e).__name__, **({} if n == sympy.S.Naturals0 else {"nargs": tuple(sorted(n))}))(
            *args)
    if all(a is b for a, b in zip(args, e.args)):
        return e
    if isinstance(e, (sympy.Rel, sympy.And, sympy.Or, sympy.Not)):
        return type(e)(*args, evaluate=False)
    return e.func(*args)


# ------------------------------------------------------------------------------------------------- check
def check(cert: dict) -> tuple[bool, str]:
    """(ok, detail): the key, the file read and printed as its statement, and the claim re-decided by sympy
    (module docstring)."""
    try:
        return _check(cert)
    except Exception as err:                   # a malformed file: rejected, with why
        return False, f"malformed sympy certificate: {type(err).__name__}: {str(err)[:200]}"


def _check(cert: dict) -> tuple[bool, str]:
    import sympy
    if cert.get("kind") != KIND:
        return False, f"not a sympy certificate (kind {cert.get('kind')!r})"
    if cert.get("key") != key(cert["statement"], cert["source"]):
        return False, "the key is not the sha256 of [statement, source]: the certificate is not this statement's"
    functions, replaced = cert["functions"], cert["replaced"]
    if not isinstance(functions, dict) or not all(r in functions and not functions[r]["assumptions"]
                                                  for r in replaced):
        return False, "a replaced function is not listed in `functions`, with no assumption"
    claim = parse(cert["claim"], functions)
    given = [parse(g, functions) for g in cert["given"]]
    exprs = [claim, *given]
    if _functions_field(exprs) != functions:
        return False, "`functions` is not the functions the file applies"
    if _symbols_field(exprs) != cert["symbols"]:
        return False, "`symbols` is not the symbols the file's expressions carry, with their assumptions"
    moved = [f for e in exprs for f in e.atoms(sympy.Float) if sympy.Float(str(f), precision=f._prec) != f]
    if moved:
        return False, (f"the number {moved[0]!r} (computed as the file is read) prints as {moved[0]}, another number: "
                       "the statement's text would not say which")
    why = _said_statement(cert["statement"], claim, given) or _unshown_index_sign([claim, *given])
    if why:
        return False, why
    outside = _indices(exprs) & {s for e in exprs for s in e.xreplace(
        {a: 0 for a in _ranges(exprs)}).free_symbols}
    if outside:
        return False, (f"the index {sorted(map(str, outside))[0]} of a range inside a function occurs outside it: "
                       "not an index it binds")
    ok, how = decide(claim, given)
    said = (f" with the toolkit's {', '.join(replaced)} read as arbitrary functions" if replaced else "") + (
        " (MaxOver's sign from its terms')" if "MaxOver" in replaced else "")
    if not ok:
        return False, (f"sympy does not re-decide it{said}" + (" (a claim that needs their own rules, a sign or a "
                                                               "bound, is not re-decided so)" if said else "")
                       + f": {how}")
    return True, f"sympy re-decides it{said}, {how}"

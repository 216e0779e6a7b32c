"""bounds.registry: every formula by name, its symbolic and numeric forms from one definition."""

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds.registry import REGISTRY, SYMBOLS, evaluate, symbolic
from rue_verify import testing as S

SYM_NUM_REL = 1e-10   # lambdified sympy vs numpy evaluation of the same function


def _draw_params(entry, data):
    vals = {}
    for p in entry.params:
        if p == "K":
            vals[p] = data.draw(st.integers(40, 5000), label=p)
        elif p == "n":
            vals[p] = float(4 * (vals.get("K", 40) - 1) + data.draw(st.integers(1, 10 ** 6), label=p))
        elif p == "delta":
            vals[p] = data.draw(S.delta, label=p)
        elif p == "p":
            vals[p] = data.draw(st.floats(0.05, 0.45), label=p)
        elif p == "t":
            vals[p] = data.draw(st.floats(0.1, 10), label=p)
        else:
            vals[p] = data.draw(st.floats(0.05, 20), label=p)
    return vals


SYMBOLIC = [k for k, e in REGISTRY.items() if e.symbolic]


@pytest.mark.parametrize("name", SYMBOLIC)
@settings(max_examples=8)
@given(data=st.data())
def test_symbolic_and_numeric_forms_agree(name, data):
    entry = REGISTRY[name]
    vals = _draw_params(entry, data)
    try:
        num = evaluate(name, **vals)
    except (bounds.UndefinedError, ValueError):
        return
    expr = symbolic(name)
    subs = {SYMBOLS[p]: v for p, v in vals.items()}
    items = expr.items() if isinstance(expr, dict) else [(None, expr)]
    for key, e in items:
        got = float(sympy.N(e.subs(subs), 30))
        want = float(num[key] if key is not None else num)
        assert got == pytest.approx(want, rel=SYM_NUM_REL, abs=1e-300)

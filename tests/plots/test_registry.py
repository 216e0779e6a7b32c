"""rue_verify.plots.registry: every family is declared once with the claims it bears on; a saved
figure has its table as CSV beside its PNG and SVG, and redrawing from the CSV alone draws the same
numbers."""

import numpy as np

from rue_verify.ledger import REGISTRY
from rue_verify.plots import FAMILIES, Inputs, Table, draw_all, redraw
from rue_verify.plots.registry import Scale
from rue_verify.reproduction import load

TINY = Scale("test", mc_draws=1000, rue_runs=4, ucbe_runs=20, full_info_pairs=1000)


def test_every_family_names_real_claims_and_a_caption():
    for f in FAMILIES.values():
        assert f.caption and set(f.claims) <= set(REGISTRY), f.name


def test_the_families_available_follow_the_inputs():
    bare = Inputs(TINY)
    have = {n for n, f in FAMILIES.items() if f.available(bare)}
    assert "theorem-3-1" in have and "ledger-overview" not in have and "figure4-two-stage" not in have
    full = Inputs(TINY, rows=load().rows, ledger=("x",))
    assert all(f.available(full) for f in FAMILIES.values())


def drawn_lines(png_stem):
    """The numbers a redraw puts on the axes: every line's data of the figure drawn from the CSV."""
    t = Table.from_csv(png_stem.with_suffix(".csv"))
    fig = FAMILIES[t.meta["family"]].draw(t)
    return [np.asarray(ln.get_ydata(), float) for ax in fig.axes for ln in ax.get_lines()]


def test_a_figure_redraws_from_its_csv_alone(tmp_path):
    rows = tuple(r for r in load().rows if r["study"] == "two-stage")
    inputs = Inputs(TINY, rows=rows)
    draw_all(inputs, tmp_path, ["c-K-constant", "figure4-two-stage"])
    for name in ("c-K-constant", "figure4-two-stage"):
        for ext in ("png", "svg", "csv"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 500
        direct = FAMILIES[name].draw(FAMILIES[name].compute(inputs))
        want = [np.asarray(ln.get_ydata(), float) for ax in direct.axes for ln in ax.get_lines()]
        got = drawn_lines(tmp_path / name)
        assert len(got) == len(want) and all(np.allclose(a, b, equal_nan=True) for a, b in zip(got, want))
        again = redraw(tmp_path / f"{name}.csv", tmp_path / f"{name}-again")
        assert [p.rsplit(".", 1)[1] for p in again] == ["png", "svg", "csv"]
        # the same table, the same bytes (no date, no random element ids): a regenerated report's
        # diff shows only what changed
        for ext in ("png", "svg"):
            assert (tmp_path / f"{name}.{ext}").read_bytes() == (tmp_path / f"{name}-again.{ext}").read_bytes(), ext


def test_a_figure_family_that_raises_is_a_line_not_the_end_of_the_report(tmp_path, monkeypatch):
    """`make` turns a family's exception into a `Failed` line naming the family and the exception; the
    report's head says it, and the other figures are kept."""
    import dataclasses

    from rue_verify.outputs.report import _intro
    from rue_verify.plots.registry import FAMILIES, SCALES, Failed, Inputs, make

    name = next(iter(FAMILIES))

    def boom(inputs):
        raise RuntimeError("planted")
    monkeypatch.setitem(FAMILIES, name, dataclasses.replace(FAMILIES[name], compute=boom))
    out = make(name, Inputs(SCALES["quick"], 0, ()), tmp_path)
    assert isinstance(out, Failed) and name in out and "RuntimeError: planted" in out
    assert not list(tmp_path.iterdir())
    meta = {"version": "x", "scale": "quick", "ledger_mode": "quick", "ledger_seed": 1, "claims": 3, "figures": [],
            "finished": "now", "seconds": 1, "errored": ["C2"], "figure_errors": {name: str(out)}}
    assert "C2" in _intro(meta) and "RuntimeError: planted" in _intro(meta)

"""rue_verify.plots.ship: a figure whose table (CSV), family, drawing code and matplotlib are those of the figure
shipped with the package copies the shipped images instead of drawing; those images are what drawing gives
(so the copy is honest); any other table, a corrupted shipped file or a mismatched key is drawn, never copied;
--redraw / RUE_VERIFY_REDRAW=1 draw anyway."""

import dataclasses
import gzip
import json
import shutil

import pytest

from rue_verify.plots import ship, ship_build
from rue_verify.plots.registry import FAMILIES, QUICK, Failed, Inputs, Table, draw_all, make, redraw, save
from rue_verify.reproduction import load

#: cheap families of the quick report: an exact computation, and a reproduction figure (algorithms' line styles)
CHEAP = ("c-K-constant", "figure4-two-stage")
STALE = "the shipped figures are not this code's: regenerate them with `python -m rue_verify.plots.ship_build`"


def shipped(name, where=None):
    """(PNG, SVG, caption line) of `name` as shipped."""
    d = where or ship.shipped_directory()
    entry = ship.manifest(d)["figures"][name]
    return (d / f"{name}.png").read_bytes(), gzip.decompress((d / f"{name}.svg.gz").read_bytes()), entry["line"]


@pytest.fixture
def counted(monkeypatch):
    """Every family's drawing counted: name -> how many times it drew."""
    calls = {}
    for name, fam in list(FAMILIES.items()):
        def draw(table, ax=None, _draw=fam.draw, _name=name):
            calls[_name] = calls.get(_name, 0) + 1
            return _draw(table, ax=ax)
        monkeypatch.setitem(FAMILIES, name, dataclasses.replace(fam, draw=draw))
    monkeypatch.delenv(ship.REDRAW_ENV, raising=False)
    return calls


def test_every_quick_report_figure_is_shipped_under_this_codes_key_and_the_set_is_small():
    m = ship.manifest()
    assert m and m["format"] == ship.FORMAT
    quick = {n for n, f in FAMILIES.items() if f.available(Inputs(QUICK, rows=tuple(load().rows)), ledger=True)}
    assert set(m["figures"]) == quick
    for name, entry in m["figures"].items():
        csv = ship.shipped_table(name)
        assert ship.sha256_hex(csv.encode()) == entry["csv"], name
        assert ship.key(name, csv) == entry["key"], f"{name}: {STALE}"
        assert ship.lookup(name, entry["key"]) is not None, name
    size = sum(p.stat().st_size for p in ship.shipped_directory().iterdir())
    assert 1e6 < size < 6e6, size


def test_a_figure_whose_table_matches_copies_the_shipped_bytes_which_drawing_gives(tmp_path, monkeypatch):
    """Computed as the quick report computes it, the table's key is the shipped one's: the figure is written
    without drawing (a drawing that raises is never called), with the shipped bytes and caption; drawn again
    from its CSV, it gives those very bytes."""
    def refuse(table, ax=None):
        raise AssertionError("drawn, though the shipped figure's table is this one")
    monkeypatch.delenv(ship.REDRAW_ENV, raising=False)
    inputs = Inputs(QUICK, 0, tuple(load().rows))
    for name in CHEAP:
        real = FAMILIES[name]
        monkeypatch.setitem(FAMILIES, name, dataclasses.replace(real, draw=refuse))
        line = make(name, inputs, tmp_path / "reused")
        assert not isinstance(line, Failed), f"{line} ({STALE}?)"
        png, svg, shipped_line = shipped(name)
        assert line == shipped_line
        assert (tmp_path / "reused" / f"{name}.png").read_bytes() == png
        assert (tmp_path / "reused" / f"{name}.svg").read_bytes() == svg
        assert (tmp_path / "reused" / f"{name}.csv").read_text() == ship.shipped_table(name)
        monkeypatch.setitem(FAMILIES, name, real)
        redraw(tmp_path / "reused" / f"{name}.csv", tmp_path / "drawn" / name)       # drawn, never copied
        assert (tmp_path / "drawn" / f"{name}.png").read_bytes() == png
        assert (tmp_path / "drawn" / f"{name}.svg").read_bytes() == svg


@pytest.mark.slow
def test_every_shipped_table_draws_to_its_shipped_bytes():
    assert set(ship_build.check().values()) == {"same"}


def test_a_table_changed_by_one_value_is_drawn_and_differs_from_the_shipped(tmp_path, counted):
    name = "c-K-constant"
    table = Table.from_csv(ship.shipped_table(name))
    row = table.rows[len(table.rows) // 2]
    row["tightest"] *= 2                              # one value of the plotted line
    save(FAMILIES[name], table, tmp_path / name)
    assert counted == {name: 1}
    png, svg, _ = shipped(name)
    assert (tmp_path / f"{name}.png").read_bytes() != png
    assert (tmp_path / f"{name}.svg").read_bytes() != svg
    # the unchanged table, through the same path, is copied
    save(FAMILIES[name], Table.from_csv(ship.shipped_table(name)), tmp_path / "same")
    assert counted == {name: 1} and (tmp_path / "same.png").read_bytes() == png


def _planted(tmp_path, monkeypatch, name, how):
    """A copy of the shipped directory with `name`'s entry spoiled by `how`, read instead of the package's."""
    d = tmp_path / "shipped"
    shutil.copytree(ship.shipped_directory(), d)
    how(d, name)
    monkeypatch.setattr(ship, "WHERE", d)
    return d


def _flip_png(d, name):
    p = d / f"{name}.png"
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF
    p.write_bytes(bytes(data))


def _truncate_svg(d, name):
    p = d / f"{name}.svg.gz"
    p.write_bytes(p.read_bytes()[:-40])


def _other_svg(d, name):
    """A valid gzip of another figure's SVG: it decompresses, but does not hash as listed."""
    other = next(n for n in CHEAP if n != name)
    shutil.copy(d / f"{other}.svg.gz", d / f"{name}.svg.gz")


def _missing_png(d, name):
    (d / f"{name}.png").unlink()


def _key(d, name):
    m = json.loads((d / ship.MANIFEST).read_text())
    m["figures"][name]["key"] = "0" * 64
    (d / ship.MANIFEST).write_text(json.dumps(m))


def _manifest(d, name):
    (d / ship.MANIFEST).write_text("{not json")


@pytest.mark.parametrize("how", [_flip_png, _truncate_svg, _other_svg, _missing_png, _key, _manifest],
                         ids=lambda f: f.__name__.strip("_"))
def test_a_corrupted_shipped_figure_or_a_key_mismatch_is_drawn_never_copied(tmp_path, monkeypatch, counted, how):
    name = "c-K-constant"
    png, svg, _ = shipped(name)
    csv = ship.shipped_table(name)
    d = _planted(tmp_path, monkeypatch, name, how)
    assert ship.lookup(name, ship.key(name, csv)) is None
    save(FAMILIES[name], Table.from_csv(csv), tmp_path / name)
    assert counted == {name: 1}
    assert (tmp_path / f"{name}.png").read_bytes() == png          # what drawing gives: the intact shipped bytes
    assert (tmp_path / f"{name}.svg").read_bytes() == svg
    if how in (_flip_png, _other_svg):                               # the spoiled file was there, and not taken
        assert (d / f"{name}.png").read_bytes() != png or gzip.decompress((d / f"{name}.svg.gz").read_bytes()) != svg


def test_another_matplotlib_or_style_is_drawn(tmp_path, monkeypatch, counted):
    import matplotlib
    name = "c-K-constant"
    csv = ship.shipped_table(name)
    shipped_key = ship.manifest()["figures"][name]["key"]
    version = matplotlib.__version__
    monkeypatch.setattr(ship, "_CONTEXT", {})
    monkeypatch.setattr(matplotlib, "__version__", "0.0.test")
    assert ship.key(name, csv) != shipped_key
    save(FAMILIES[name], Table.from_csv(csv), tmp_path / name)
    assert counted == {name: 1}
    monkeypatch.setattr(matplotlib, "__version__", version)
    monkeypatch.setattr(ship, "_CONTEXT", {})
    assert ship.key(name, csv) == shipped_key
    with matplotlib.rc_context({"axes.facecolor": "0.9"}):          # a style that draws otherwise
        assert ship.key(name, csv) != shipped_key
        save(FAMILIES[name], Table.from_csv(csv), tmp_path / "styled")
    assert counted == {name: 2}
    assert (tmp_path / "styled.png").read_bytes() != shipped(name)[0]


def test_the_redraw_flag_and_the_environment_force_drawing(tmp_path, monkeypatch, counted):
    name = "c-K-constant"
    table = Table.from_csv(ship.shipped_table(name))
    save(FAMILIES[name], table, tmp_path / "a")
    assert counted == {}                                            # copied
    save(FAMILIES[name], table, tmp_path / "b", redraw=True)
    assert counted == {name: 1}
    monkeypatch.setenv(ship.REDRAW_ENV, "0")
    save(FAMILIES[name], table, tmp_path / "c")
    assert counted == {name: 1}
    monkeypatch.setenv(ship.REDRAW_ENV, "1")
    save(FAMILIES[name], table, tmp_path / "d")
    assert counted == {name: 2}
    draw_all(Inputs(QUICK), tmp_path, [name])                       # the quick report's own table, computed
    assert counted == {name: 3}
    for stem in ("b", "c", "d", name):                              # drawn or copied, the same bytes
        assert (tmp_path / f"{stem}.png").read_bytes() == (tmp_path / "a.png").read_bytes(), stem


def test_report_redraw_reaches_every_figure(tmp_path, monkeypatch):
    """`api.report(redraw=True)` (`rue-verify report --redraw`) asks every figure, in the pool and after it,
    to be drawn; without it, none."""
    from rue_verify import api
    from rue_verify.plots import registry
    asked = []

    def fake_make(name, inputs, directory, redraw=False):
        asked.append((name, redraw))
        return Failed(f"figure {name} failed: not drawn in this test")
    monkeypatch.setattr(registry, "make", fake_make)
    monkeypatch.setattr(registry, "make_group", lambda names, inputs, directory, redraw=False:
                        {n: fake_make(n, inputs, directory, redraw) for n in names})
    for flag in (True, False):
        asked.clear()
        out = api.report(out=str(tmp_path / f"r{flag}"), ids=["DISC-MK"], workers=1, redraw=flag)
        assert out.status == 1
        assert {n for n, _ in asked} == set(FAMILIES) and {r for _, r in asked} == {flag}


def test_ship_builds_from_a_reports_figures_and_leaves_out_one_that_does_not_redraw(tmp_path, monkeypatch, counted):
    """`ship.build` from a report's figures directory: each figure drawn again from its CSV; one whose image is
    not what its CSV draws is not shipped; what is shipped is then copied, not drawn."""
    rows = tuple(r for r in load().rows if r["study"] == "two-stage")
    figures = tmp_path / "report" / "figures"
    table = Table.from_csv(ship.shipped_table("c-K-constant"))
    table.rows[0]["tightest"] = 0.5                                 # not the package's table: its own key
    save(FAMILIES["c-K-constant"], table, figures / "c-K-constant")
    draw_all(Inputs(QUICK, rows=rows), figures, ["figure4-two-stage"], redraw=True)
    (figures / "figure4-two-stage.png").write_bytes(b"\x89PNG not what the CSV draws")
    m = ship_build.build(tmp_path / "report", tmp_path / "ship")
    assert set(m["figures"]) == {"c-K-constant"}
    assert sorted(p.name for p in (tmp_path / "ship").iterdir()) == [
        "c-K-constant.csv.gz", "c-K-constant.png", "c-K-constant.svg.gz", "manifest.json"]
    monkeypatch.setattr(ship, "WHERE", tmp_path / "ship")
    counted.clear()
    save(FAMILIES["c-K-constant"], table, tmp_path / "again")
    assert counted == {}
    assert (tmp_path / "again.png").read_bytes() == (figures / "c-K-constant.png").read_bytes()

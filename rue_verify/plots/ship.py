"""Figures shipped with the package: the images of `report --quick`, reused where a run computes the same table.

A figure is a function of its table (the CSV as written), its family, the drawing code and matplotlib. For each
figure of the quick report the package ships, in `rue_verify/data/figures/`, that table (NAME.csv.gz), its PNG
(NAME.png) and SVG (NAME.svg.gz), and in `manifest.json` its key (`key`: a hash of the table's CSV, the family's
name and the drawing context, `context`), its caption line and the hash of each image's bytes. `registry.save`
computes the table as always, then, if the key equals the shipped entry's and the shipped images' bytes hash as
the manifest says, copies them instead of drawing; otherwise (another table, other drawing code or matplotlib, a
corrupted or missing file) it draws, as before. Reuse is honest because drawing the same table gives the same
bytes: `check()` (and the tests) redraws shipped tables and compares.

Forcing a redraw: `rue-verify report --redraw`, `api.report(redraw=True)`, or `RUE_VERIFY_REDRAW=1` in the
environment (every command that saves figures). Regenerating the shipped figures after a change to the drawing
code, matplotlib or the quick report's tables (one quick report, drawn afresh, about a minute on 2 cores):

    python -m rue_verify.plots.ship            # or --from REPORT_DIR: ship a report's figures
    python -m rue_verify.plots.ship --check    # redraw every shipped table; its bytes must be the shipped ones
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import zlib
from pathlib import Path

#: set to 1 (yes, true, on) to draw every figure afresh instead of reusing a shipped image
REDRAW_ENV = "RUE_VERIFY_REDRAW"
#: the shipped figures' directory inside the package, and its manifest
DATA = "data/figures"
MANIFEST = "manifest.json"
#: the manifest's layout (a change makes every entry a mismatch, so the figures are drawn)
FORMAT = 1
#: a directory to read shipped figures from instead of the package's (None: the package's); the tests plant
#: corrupted copies here
WHERE: Path | None = None
#: rcParams that do not change a saved image (the interactive backend, key bindings, GUI windows)
_NOT_DRAWN = ("backend", "interactive", "toolbar", "keymap.", "webagg.", "tk.", "macosx.", "savefig.directory",
              "figure.raise_window", "figure.max_open_warning", "animation.")
_CONTEXT: dict = {}
_MANIFESTS: dict = {}


def forced() -> bool:
    """Whether the environment asks for every figure to be drawn afresh (`RUE_VERIFY_REDRAW`)."""
    return os.environ.get(REDRAW_ENV, "").strip().lower() in ("1", "yes", "true", "on")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def context() -> str:
    """The hash of what besides a table decides every figure's bytes: the source of every module of
    `rue_verify.plots` (the drawing code, `save` and this file), the values the drawings read from elsewhere (the
    verdicts' palette and order, the proof words), the versions of matplotlib, FreeType and numpy, the machine's
    architecture, the default font's file, and the rcParams that draw (read at each call; the rest once per
    process). The algorithms' line styles are in `key`, for those a table names."""
    import matplotlib
    if not _CONTEXT:
        import platform

        import numpy
        from matplotlib import font_manager, ft2font

        from ..outputs.render import PALETTE
        from ..verify import SEVERITY
        from ..verify.proofs import PROOF_WORDS
        h = hashlib.sha256(f"rue-verify figures {FORMAT}\n".encode())
        for path in sorted(Path(__file__).parent.glob("*.py")):
            h.update(f"{path.name}\n".encode() + path.read_bytes())
        h.update(repr((PALETTE, SEVERITY, PROOF_WORDS)).encode())
        h.update(f"matplotlib={matplotlib.__version__} freetype={ft2font.__freetype_version__} "
                 f"numpy={numpy.__version__} machine={platform.machine()}\n".encode())
        h.update(Path(font_manager.findfont(font_manager.FontProperties())).read_bytes())
        _CONTEXT["static"] = h.hexdigest()
    rc = repr(sorted((k, repr(v)) for k, v in matplotlib.rcParams.items() if not k.startswith(_NOT_DRAWN)))
    return _sha(f"{_CONTEXT['static']}\n{rc}".encode())


def _styles(csv: str) -> str:
    """The line style and label of every registered algorithm whose name occurs in `csv`, at its defaults and
    under each of its readings' variants: what the drawings take from `simulate.algorithms` (`line_style`, a
    series' colour). A drawing takes an algorithm's style only by a name its table holds, so an algorithm added
    elsewhere changes no other figure's key."""
    from simulate.algorithms import REGISTRY
    if "styles" not in _CONTEXT:
        _CONTEXT["styles"] = {name: repr((a.style, a.label(), a.line(), [(a.label(v), a.line(v)) for r in a.readings
                                                                         for v in r.variants.values()]))
                              for name, a in REGISTRY.items()}
    return "\n".join(f"{name}={style}" for name, style in sorted(_CONTEXT["styles"].items()) if name in csv)


def key(family: str, csv: str) -> str:
    """A figure's key: the hash of its family's name, its table's CSV (as written), the drawing `context` and the
    styles of the algorithms the table names."""
    return _sha(f"{family}\n{context()}\n{_styles(csv)}\n".encode() + csv.encode("utf-8"))


def _directory() -> Path:
    if WHERE is not None:
        return Path(WHERE)
    from importlib import resources
    return Path(str(resources.files("rue_verify").joinpath(DATA)))


def manifest(where: str | Path | None = None) -> dict:
    """The shipped figures' manifest ({} where it is missing, unreadable or of another format); read once per
    directory and process."""
    d = Path(where) if where is not None else _directory()
    if str(d) not in _MANIFESTS:
        try:
            m = json.loads((d / MANIFEST).read_text())
            _MANIFESTS[str(d)] = m if isinstance(m, dict) and m.get("format") == FORMAT else {}
        except (OSError, ValueError):
            _MANIFESTS[str(d)] = {}
    return _MANIFESTS[str(d)]


def lookup(family: str, figure_key: str) -> tuple[bytes, bytes, str] | None:
    """The shipped (PNG bytes, SVG bytes, caption line) of `family` if its entry's key is `figure_key` and both
    images hash as the manifest says; None otherwise (the figure is then drawn, never a doubtful file copied)."""
    d = _directory()
    entry = manifest(d).get("figures", {}).get(family)
    if not isinstance(entry, dict) or entry.get("key") != figure_key:
        return None
    try:
        png = (d / f"{family}.png").read_bytes()
        svg = gzip.decompress((d / f"{family}.svg.gz").read_bytes())
    except (OSError, EOFError, ValueError, zlib.error):
        return None
    if _sha(png) != entry.get("png") or _sha(svg) != entry.get("svg") or not isinstance(entry.get("line"), str):
        return None
    return png, svg, entry["line"]


def shipped_table(family: str, where: str | Path | None = None) -> str:
    """The CSV of `family`'s shipped table (KeyError where none is shipped)."""
    d = Path(where) if where is not None else _directory()
    if family not in manifest(d).get("figures", {}):
        raise KeyError(family)
    return gzip.decompress((d / f"{family}.csv.gz").read_bytes()).decode("utf-8")


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)         # no date: the same figure, the same file


def build(source: str | Path | None = None, into: str | Path | None = None, workers: int | None = None,
          progress: bool = False) -> dict:
    """Ship the figures of a report: `source` a report directory (or its figures/), or None to run `report
    --quick` first with every figure drawn afresh. Each figure is drawn again from its CSV alone and must give
    the report's bytes (a figure that does not is left out, with a line on stderr); its table, PNG and SVG are
    written into `into` (default: the package's `rue_verify/data/figures/`), each atomically, the manifest last,
    so an interrupted build leaves entries whose images do not hash as listed (drawn, never copied). Files of
    figures no longer shipped are removed. Returns the manifest."""
    import tempfile

    from ..store.files import write_bytes, write_text
    from .registry import FAMILIES, draw_bytes
    from .table import Table
    into = Path(into) if into is not None else Path(__file__).resolve().parents[1] / DATA
    with tempfile.TemporaryDirectory() as tmp:
        if source is None:
            from ..outputs.report import report
            from ..verify.parallel import cores
            source = Path(tmp) / "report"
            report("quick", source, progress=progress, workers=workers or cores(), redraw=True)
        figures = Path(source) / "figures" if (Path(source) / "figures").is_dir() else Path(source)
        entries, files = {}, {}
        for csv_path in sorted(figures.glob("*.csv")):
            csv = csv_path.read_text()
            name = Table.from_csv(csv).meta.get("family")
            if name not in FAMILIES or csv_path.stem != name:
                continue
            png, svg, line = draw_bytes(FAMILIES[name], Table.from_csv(csv))
            if (figures / f"{name}.png").read_bytes() != png or (figures / f"{name}.svg").read_bytes() != svg:
                print(f"ship: {name} is not shipped: drawn again from its CSV it differs from the report's image",
                      file=sys.stderr)
                continue
            entries[name] = {"key": key(name, csv), "line": line, "png": _sha(png), "svg": _sha(svg),
                             "csv": _sha(csv.encode("utf-8"))}
            files.update({f"{name}.png": png, f"{name}.svg.gz": _gz(svg), f"{name}.csv.gz": _gz(csv.encode("utf-8"))})
    import matplotlib
    import numpy
    from matplotlib import ft2font
    for name, data in files.items():
        write_bytes(into / name, data)
    out = {"format": FORMAT, "context": context(), "matplotlib": matplotlib.__version__,
           "freetype": ft2font.__freetype_version__, "numpy": numpy.__version__,
           "made_by": "python -m rue_verify.plots.ship", "figures": entries}
    write_text(into / MANIFEST, json.dumps(out, indent=1, sort_keys=True) + "\n")
    for old in into.iterdir():              # a figure no longer shipped (only the files a build writes)
        if old.name not in files and old.name.endswith((".png", ".svg.gz", ".csv.gz")) \
                and old.name.split(".")[0] in FAMILIES:
            old.unlink()
    _MANIFESTS.pop(str(into), None)
    return out


def check(names=None, where: str | Path | None = None) -> dict[str, str]:
    """Each shipped figure (or `names`) drawn again from its shipped table: name -> 'same' (its key is this
    code's and the drawing gives the shipped bytes), 'stale' (its key is not this code's or context's: it would
    be drawn, not reused) or 'differs' (same key, other bytes: reuse would not be honest)."""
    from .registry import FAMILIES, draw_bytes
    from .table import Table
    d = Path(where) if where is not None else _directory()
    out = {}
    for name, entry in sorted(manifest(d).get("figures", {}).items()):
        if names is not None and name not in names:
            continue
        csv = shipped_table(name, d)
        if entry["key"] != key(name, csv):
            out[name] = "stale"
            continue
        png, svg, line = draw_bytes(FAMILIES[name], Table.from_csv(csv))
        same = (_sha(png), _sha(svg), line) == (entry["png"], entry["svg"], entry["line"])
        out[name] = "same" if same else "differs"
    return out


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m rue_verify.plots.ship", description=(
        "Regenerate the figures shipped with the package (rue_verify/data/figures): run report --quick with every "
        "figure drawn afresh, or take a report's (--from), and ship each figure's table, PNG, SVG and key. --check "
        "redraws the shipped tables instead and compares."))
    ap.add_argument("--from", dest="source", metavar="REPORT_DIR", help="ship this report's figures (no run)")
    ap.add_argument("--out", metavar="DIR", help="write here instead of the package's rue_verify/data/figures")
    ap.add_argument("--workers", type=int, help="processes of the report run (default: every core)")
    ap.add_argument("--check", action="store_true", help="redraw every shipped table and compare with its images")
    a = ap.parse_args(argv)
    if a.check:
        got = check(where=a.out)
        for name, status in got.items():
            print(f"{status:8s} {name}")
        return 0 if got and all(s == "same" for s in got.values()) else 1
    m = build(a.source, a.out, a.workers, progress=True)
    d = Path(a.out) if a.out else _directory()
    size = sum(p.stat().st_size for p in d.iterdir())
    print(f"shipped {len(m['figures'])} figures into {d} ({size / 1e6:.2f} MB), matplotlib {m['matplotlib']}, "
          f"context {m['context'][:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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

    python -m rue_verify.plots.ship_build            # or --from REPORT_DIR: ship a report's figures
    python -m rue_verify.plots.ship_build --check    # redraw every shipped table; its bytes must be the shipped ones

(`ship_build` is apart so that this module, which `registry.save` reads, imports neither the registry nor the
report.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
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


def sha256_hex(data: bytes) -> str:
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
    return sha256_hex(f"{_CONTEXT['static']}\n{rc}".encode())


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
    return sha256_hex(f"{family}\n{context()}\n{_styles(csv)}\n".encode() + csv.encode("utf-8"))


def shipped_directory() -> Path:
    if WHERE is not None:
        return Path(WHERE)
    from importlib import resources
    return Path(str(resources.files("rue_verify").joinpath(DATA)))


def manifest(where: str | Path | None = None) -> dict:
    """The shipped figures' manifest ({} where it is missing, unreadable or of another format); read once per
    directory and process."""
    d = Path(where) if where is not None else shipped_directory()
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
    d = shipped_directory()
    entry = manifest(d).get("figures", {}).get(family)
    if not isinstance(entry, dict) or entry.get("key") != figure_key:
        return None
    try:
        png = (d / f"{family}.png").read_bytes()
        svg = gzip.decompress((d / f"{family}.svg.gz").read_bytes())
    except (OSError, EOFError, ValueError, zlib.error):
        return None
    if sha256_hex(png) != entry.get("png") or sha256_hex(svg) != entry.get("svg") \
            or not isinstance(entry.get("line"), str):
        return None
    return png, svg, entry["line"]


def shipped_table(family: str, where: str | Path | None = None) -> str:
    """The CSV of `family`'s shipped table (KeyError where none is shipped)."""
    d = Path(where) if where is not None else shipped_directory()
    if family not in manifest(d).get("figures", {}):
        raise KeyError(family)
    return gzip.decompress((d / f"{family}.csv.gz").read_bytes()).decode("utf-8")


def forget(where) -> None:
    """Drop the manifest read from `where` (a build rewrote it)."""
    _MANIFESTS.pop(str(where), None)


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)         # no date: the same figure, the same file

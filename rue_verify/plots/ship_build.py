"""Building and checking the figures shipped with the package (`ship`): `build` ships a quick report's figures,
`check` redraws the shipped tables and compares, `python -m rue_verify.plots.ship_build [--from DIR | --check]`.
Apart from `ship` because it draws (the registry) and runs the report, which `ship` must not import."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .ship import (
    DATA,
    FORMAT,
    MANIFEST,
    context,
    forget,
    gzipped,
    key,
    manifest,
    sha256_hex,
    shipped_directory,
    shipped_table,
)


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
            entries[name] = {"key": key(name, csv), "line": line, "png": sha256_hex(png), "svg": sha256_hex(svg),
                             "csv": sha256_hex(csv.encode("utf-8"))}
            files.update({f"{name}.png": png, f"{name}.svg.gz": gzipped(svg),
                          f"{name}.csv.gz": gzipped(csv.encode("utf-8"))})
    import matplotlib
    import numpy
    from matplotlib import ft2font
    for name, data in files.items():
        write_bytes(into / name, data)
    out = {"format": FORMAT, "context": context(), "matplotlib": matplotlib.__version__,
           "freetype": ft2font.__freetype_version__, "numpy": numpy.__version__,
           "made_by": "python -m rue_verify.plots.ship_build", "figures": entries}
    write_text(into / MANIFEST, json.dumps(out, indent=1, sort_keys=True) + "\n")
    for old in into.iterdir():              # a figure no longer shipped (only the files a build writes)
        if old.name not in files and old.name.endswith((".png", ".svg.gz", ".csv.gz")) \
                and old.name.split(".")[0] in FAMILIES:
            old.unlink()
    forget(into)
    return out


def check(names=None, where: str | Path | None = None) -> dict[str, str]:
    """Each shipped figure (or `names`) drawn again from its shipped table: name -> 'same' (its key is this
    code's and the drawing gives the shipped bytes), 'stale' (its key is not this code's or context's: it would
    be drawn, not reused) or 'differs' (same key, other bytes: reuse would not be honest)."""
    from .registry import FAMILIES, draw_bytes
    from .table import Table
    d = Path(where) if where is not None else shipped_directory()
    out = {}
    for name, entry in sorted(manifest(d).get("figures", {}).items()):
        if names is not None and name not in names:
            continue
        csv = shipped_table(name, d)
        if entry["key"] != key(name, csv):
            out[name] = "stale"
            continue
        png, svg, line = draw_bytes(FAMILIES[name], Table.from_csv(csv))
        same = (sha256_hex(png), sha256_hex(svg), line) == (entry["png"], entry["svg"], entry["line"])
        out[name] = "same" if same else "differs"
    return out


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m rue_verify.plots.ship_build", description=(
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
    d = Path(a.out) if a.out else shipped_directory()
    size = sum(p.stat().st_size for p in d.iterdir())
    print(f"shipped {len(m['figures'])} figures into {d} ({size / 1e6:.2f} MB), matplotlib {m['matplotlib']}, "
          f"context {m['context'][:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

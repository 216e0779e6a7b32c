"""A figure's data: a tidy table (one row per drawn point, a column per variable) with the parameters
that produced it, written as CSV beside the figure's PNG and SVG. The first line of the CSV holds the
parameters as JSON behind '# ', so a figure can be redrawn from its file alone."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


@dataclass
class Table:
    """Rows (dicts) and the parameters (`meta`) of one figure: `meta["family"]` names its family."""

    rows: list[dict]
    meta: dict = field(default_factory=dict)

    def where(self, **match: Any) -> list[dict]:
        """The rows whose columns equal `match`."""
        return [r for r in self.rows if all(r.get(k) == v for k, v in match.items())]

    def values(self, column: str, **match: Any) -> list:
        """Distinct values of `column` in row order (among the rows matching `match`)."""
        return list(dict.fromkeys(r[column] for r in self.where(**match) if r.get(column) is not None))

    def to_csv(self) -> str:
        columns = list(dict.fromkeys(k for r in self.rows for k in r))
        buf = io.StringIO()
        buf.write("# " + json.dumps(self.meta, sort_keys=True, default=_plain) + "\n")
        w = csv.DictWriter(buf, columns, lineterminator="\n")
        w.writeheader()
        w.writerows({k: ("" if r.get(k) is None else _plain(r[k])) for k in columns} for r in self.rows)
        return buf.getvalue()

    @classmethod
    def from_csv(cls, text_or_path: str | Path) -> "Table":
        text = Path(text_or_path).read_text() if isinstance(text_or_path, Path) else text_or_path
        head, _, body = text.partition("\n")
        if not head.startswith("# "):
            raise ValueError("a figure table starts with '# ' and its parameters as JSON")
        meta = json.loads(head[2:])
        rows = [{k: _parse(v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(body))]
        return cls(rows, meta)


def _plain(v: Any) -> Any:
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _parse(v: str) -> Any:
    """A CSV cell as written: '' is None, numbers come back as int or float, the rest as text."""
    if v == "":
        return None
    for kind in (int, float):
        try:
            x = kind(v)
            return x if kind is int or math.isfinite(x) or v.lower() in ("inf", "-inf", "nan") else v
        except ValueError:
            continue
    return v


def figure(compute: Callable[..., Table], draw: Callable[..., Any]) -> Callable[..., Any]:
    """A convenience: compute a family's table with the given parameters and draw it (`ax`, an Axes,
    or a Figure for a family of several panels, passes through to the drawing)."""
    def make(*args, ax=None, **kw):
        return draw(compute(*args, **kw), ax=ax)
    make.__name__ = compute.__name__.removesuffix("_table")
    make.__doc__ = compute.__doc__
    return make

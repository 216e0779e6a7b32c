"""A study's results.csv and manifest.json read back with every row checked where it enters: a file of
another study, a row cut short (a run killed mid-write on a system without atomic appends, an edit),
a value that does not parse, or a manifest that is not JSON is one `ParameterError` naming the file
and line, never a traceback in whatever reads the value later."""

from __future__ import annotations

import csv
import io
import json
from typing import Iterable

from ..errors import ParameterError


def checked_rows(text: str, source: str, columns: Iterable[str], param: str, kind: str, *,
                 text_columns: Iterable[str] = (), json_columns: Iterable[str] = (), exact: bool = True) -> tuple:
    """The rows of a results.csv's `text` (from `source`), each checked: the header is `columns`
    (`exact`) or holds them; every row has every column; a JSON column parses as JSON, every other
    column not in `text_columns` as a number. `param` names the parameter the directory came from,
    `kind` the study ("a rate study"), for the error."""
    columns, text_cols, json_cols = tuple(columns), set(text_columns), set(json_columns)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    have = tuple(reader.fieldnames or ())
    if (have != columns) if exact else not set(columns) <= set(have):
        raise ParameterError(param, f"{source}/results.csv is not the results of {kind} of this version (its columns: "
                                    f"{', '.join(have[:6]) or 'none'}{', ...' if len(have) > 6 else ''}); give "
                                    "the directory of one, or rerun it into a new directory")
    rows = []
    for row in reader:
        line = reader.line_num
        if None in row or any(row.get(c) is None for c in columns):
            raise ParameterError(param, f"{source}/results.csv line {line}: the row has "
                                        f"{'more' if None in row else 'fewer'} fields than the header (cut short or "
                                        "edited); remove the line and rerun to recompute it")
        for c in columns:
            v = row[c]
            if c in text_cols:
                continue
            try:
                json.loads(v) if c in json_cols else float(v)
            except ValueError:
                raise ParameterError(param, f"{source}/results.csv line {line}: {c} = {v[:40]!r} is not "
                                            f"{'JSON' if c in json_cols else 'a number'}; remove the line and rerun "
                                            "to recompute it") from None
        rows.append(row)
    return tuple(rows)


def manifest(text: str, source: str, param: str) -> dict:
    """A study's manifest.json as a dict; a ParameterError naming the file if it is not a JSON object."""
    try:
        man = json.loads(text)
    except ValueError as err:
        raise ParameterError(param, f"{source}/manifest.json is not JSON ({err}); restore it or rerun the study into a "
                                    "new directory") from None
    if not isinstance(man, dict):
        raise ParameterError(param, f"{source}/manifest.json is not a JSON object")
    return man


def read_study(directory, shipped, columns: Iterable[str], param: str, kind: str, command: str, *,
               text_columns: Iterable[str] = (), json_columns: Iterable[str] = ()) -> tuple[tuple, str, dict]:
    """(rows, source, manifest) of a study: the one shipped with the package (`directory` None or
    'shipped'; `shipped` the package resource directory holding its results.csv and manifest.json)
    or the one in `directory`, each row checked (`checked_rows`). `command` is what writes one (for the
    error when `directory` holds none)."""
    from pathlib import Path
    if directory in (None, "shipped"):
        text, man, source = shipped.joinpath("results.csv").read_text(), \
            shipped.joinpath("manifest.json").read_text(), "shipped"
    else:
        d = Path(directory)
        if not (d / "results.csv").is_file():
            raise ParameterError(param, f"{d} holds no results.csv of {kind} (write one with '{command} --out {d}')")
        text = (d / "results.csv").read_text()
        man = (d / "manifest.json").read_text() if (d / "manifest.json").is_file() else "{}"
        source = str(d)
    rows = checked_rows(text, source, columns, param, f"{kind} ('{command}')", text_columns=text_columns,
                        json_columns=json_columns)
    return rows, source, manifest(man, source, param)

"""The reproduction's result store: `result_store.ResultStore` with the reproduction's columns."""

from __future__ import annotations

from pathlib import Path

from .. import result_store
from ..result_store import read_rows
from .grid import COLUMNS

__all__ = ["ResultStore", "read_rows"]


class ResultStore(result_store.ResultStore):
    def __init__(self, directory: str | Path, manifest: dict, columns: tuple[str, ...] = COLUMNS):
        super().__init__(directory, manifest, columns)

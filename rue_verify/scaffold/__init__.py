"""A paper file to start from: `new_paper(name)` writes NAME.py, a paper plug-in that runs as it stands, with
one claim of each kind the engine decides (`paper_template.py`, every part to change commented). The command
line's `rue-verify new-paper NAME` calls it."""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

#: what the template calls its paper: every occurrence becomes the name given
PLACEHOLDER = "my-paper"
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


def template() -> str:
    """The template's text, as shipped in the package."""
    return resources.files(__package__).joinpath("paper_template.py").read_text(encoding="utf-8")


def new_paper(name: str, directory: str | os.PathLike = ".", force: bool = False) -> Path:
    """Write `directory/NAME.py` from the template, the paper named `name` throughout; returns its path.
    `name`: a letter, then letters, digits, '-' or '_' (at most 64), or a path ending in NAME.py (its
    directory then `directory`). An existing file is refused unless `force`."""
    given = Path(name)
    if given.suffix == ".py":
        directory, name = given.parent if str(given.parent) != "." else directory, given.stem
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"name: a paper's name is a letter, then letters, digits, '-' or '_' (at most 64), got "
                         f"{name!r}")
    out = Path(directory) / f"{name}.py"
    if out.exists() and not force:
        raise FileExistsError(f"{out} exists: choose another name, or --force to replace it")
    if not out.parent.is_dir():
        raise FileNotFoundError(f"{out.parent}: no such directory")
    text = template().replace(PLACEHOLDER, name)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return out


def next_steps(path: Path) -> list[str]:
    """What to run next on the file written, one command a line."""
    return [f"rue-verify claims --paper {path}", f"rue-verify claims --paper {path} -v",
            f"rue-verify proofs --paper {path}", f"rue-verify report --paper {path} --out {path.stem}-report",
            f"rue-verify erratum --paper {path} --out {path.stem}-erratum"]

"""The documentation builds and runs: the API reference and how-to pages (Sphinx, warnings as
errors), and every notebook in docs/notebooks executed from a clean kernel."""

import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_api_docs_build_without_warnings(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(DOCS / "site"), str(tmp_path / "html")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "html" / "api.html").read_text()
    for name in ("theorem_3_1_bound", "assert_rate_below", "StreamSource", "run_sweep"):
        assert name in page


@pytest.mark.parametrize("path", sorted((DOCS / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_the_notebook_runs(path, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient
    book = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in book.cells if c.cell_type == "code")   # stored without outputs
    monkeypatch.setenv("MPLBACKEND", "Agg")
    NotebookClient(book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert any(o.output_type in ("stream", "display_data") for c in book.cells if c.cell_type == "code"
               for o in c.outputs)


# ---------------------------------------------------------------- the README's and the guides' snippets
PAGES = [DOCS.parent / "README.md", DOCS / "guide.md", DOCS / "reference.md"]


def _blocks(path):
    """(language, text, runs) of each fenced block: `runs` where the line before the fence is
    `<!-- runs -->`."""
    import re
    text = path.read_text()
    import textwrap
    return [(m.group(2), textwrap.dedent(m.group(3)), m.group(1) is not None)
            for m in re.finditer(r"(<!-- runs -->\n)?[ ]*```(\w*)\n(.*?)```", text, re.S)]


def _commands(block):
    """The rue-verify command lines of a shell block, comments cut, heredoc bodies skipped."""
    import shlex
    out, heredoc = [], None
    for line in block.splitlines():
        if heredoc:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        if "<<'" in line:
            heredoc = line.split("<<'")[1].split("'")[0]
            continue
        for part in line.split("&&"):                 # `pip install ... && rue-verify ...`
            words = shlex.split(part, comments=True)
            if words and words[0] == "rue-verify":
                out.append(words[1:])
    return out


def test_every_page_has_snippets_and_no_internal_issue_numbers():
    import re
    for page in PAGES:
        assert _blocks(page), page
        assert not re.search(r"\bissues? \d", page.read_text()), page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_command_line_parses(page):
    """Every `rue-verify` line of every shell block parses with the command line's own parser (a renamed
    flag or command fails here); a planted wrong flag is caught by the same check."""
    from rue_verify.cli.commands import build_parser
    parser = build_parser(full=True)

    def parses(words):
        try:
            _, extra = parser.parse_known_args(words)
        except SystemExit:
            return False
        return not extra or words[0] == "bound"
    lines = [w for lang, text, _ in _blocks(page) if lang == "bash" for w in _commands(text)]
    assert lines
    for words in lines:
        assert parses(words), words
    assert not parses(["claims", "--no-such-flag"])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_snippet_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for lang, text, _ in _blocks(page):
        if lang == "python":
            exec(compile(text, f"{page.name} snippet", "exec"), {"__name__": "snippet"})


def test_the_blocks_marked_to_run_run(tmp_path):
    """The shell blocks marked `<!-- runs -->` run as written in an empty directory (the scaffold's)."""
    import os
    import shutil
    marked = [text for page in PAGES for lang, text, runs in _blocks(page) if runs and lang == "bash"]
    assert marked
    exe = shutil.which("rue-verify")
    env = dict(os.environ)
    if exe is None:                                   # not installed as a script: the module does the same
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "rue-verify").write_text(f"#!/bin/sh\nexec {sys.executable} -m rue_verify.cli \"$@\"\n")
        (tmp_path / "bin" / "rue-verify").chmod(0o755)
        env["PATH"] = f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}"
    for i, text in enumerate(marked):
        d = tmp_path / f"block{i}"
        d.mkdir()
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=d, capture_output=True, text=True,
                              timeout=600, env=env)
        assert done.returncode == 0, (text, done.stderr[-2000:])

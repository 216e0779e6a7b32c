"""A paper as a plug-in of the engine: what a paper brings (its title and citation, the modules that
declare its claims, its proof graph's node table with the nodes its repairs replace and its theorems,
its inputs, its `Mode` settings and their coverage text, and how to evaluate nodes the engine cannot
evaluate alone), declared once as a `Paper`, found by name (the entry-point group `rue_verify.papers`,
or a module) or loaded from a file (`load_paper`). The engine knows no paper: every paper, the first
included, comes in through here.

A file or module that declares claims and no `PAPER` is a paper of its own, named and titled after
the file, whose graph is the nodes its claims declare (`claim(..., node=, uses=)`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from .claims import LOADED, PAPERS, REGISTRY, declarer, declaring, paper_of

__all__ = ["Paper", "PAPERS", "ENTRY_POINTS", "register", "declaring", "declarer", "load_paper", "paper_of"]

#: the entry-point group a package declares its papers under (name -> a `Paper`)
ENTRY_POINTS = "rue_verify.papers"


@dataclass(frozen=True)
class Paper:
    """One paper's plug-in.

    Args:
        name: its short name, the namespace of its claim IDs and what `--paper` takes.
        title: how outputs title it ("Zhu & Qiu (TMLR 2024), RUE").
        short: how a heading names it ("Which statements of Zhu & Qiu (TMLR 2024) hold"; default the title).
        citation: the full reference.
        modules: the modules that declare its claims, imported in this order (the registry's order).
        nodes: its proof graph's node table (`graph.Node`, in order), or "module:attribute" naming it;
            empty: the graph is the nodes its claims declare.
        replaces: each repair node ('repair:ID') -> the node it replaces, where that is not the first
            node its claim checks.
        theorems: the roots `proofs` prints, each with the tree of its proof.
        settings: the `Mode` settings of its claims in each mode ('quick', 'thorough'), read as
            attributes of the mode (`mode.history_n`).
        coverage: what a mode's settings cover, in words (appended to `Mode.coverage`).
        check_inputs: refuses bad inputs (`LedgerInputs`) before any claim runs.
        evaluate: a node's relation at a point, for the nodes the engine cannot evaluate from its
            claim's recomputation (None: let the engine do it).
        inputs_text: a function of the `LedgerInputs` -> where its empirical claims read from, in words
            (the report's head); None where it reads nothing.
        sections: its sections in the order the report's filter lists them (empty: as met).
        statement_tex: a claim's location -> the paper's LaTeX of that statement (the erratum typesets
            it as printed), None where the paper's source is not at hand.
        figures: the report draws the toolkit's figure families for it (they draw Zhu & Qiu's bounds
            and RUE's simulations, so only that paper sets it).
        formula: a repair's `Repair.formula` name -> its terms typeset [(term, LaTeX)], None where it has
            no closed form; None: the paper has no registry of formulas (the outputs show none).
        formula_command: how a reader evaluates a formula by name ("rue-verify bound {name}"), shown
            beside it; empty: nothing is shown.
        formulas: the modules whose functions are its formulas (`proofs --mutants` mutates each one a
            proved statement is built from and checks that the proof no longer reads proved).
        certificates: a function of the run's `Mode` and a list -> an iterable of certificates (dicts of a kind
            `rue_verify.certify` checks) that its own searches record beside what the results carry (the
            exact history search's Farkas certificates), appending to the list {"what", "method", "why"} for
            each decision it has no certificate of; None: the results' certificates alone.
        seconds: each mode's name -> {claim ID: the seconds its check took in a measured run} (`ClaimResult.seconds`),
            so that the ledger's units run longest first and no long claim starts last (`runner.units`); a claim
            not listed counts 0 and keeps its place. Speed only: results do not depend on the order.
    """

    name: str
    title: str
    short: str = ""
    citation: str = ""
    modules: tuple[str, ...] = ()
    nodes: tuple | str = ()
    replaces: Mapping[str, str] = field(default_factory=dict)
    theorems: tuple[str, ...] = ()
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    coverage: Callable[[Any], str] | None = None
    check_inputs: Callable[[Any], None] | None = None
    evaluate: Callable[[str, dict], dict | None] | None = None
    inputs_text: Callable[[Any], str] | None = None
    sections: tuple[str, ...] = ()
    statement_tex: Callable[[str], str | None] | None = None
    figures: bool = False
    formula: Callable[[str], list | None] | None = None
    formula_command: str = ""
    formulas: tuple[str, ...] = ()
    certificates: Callable | None = None
    seconds: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Each field of the type it is read as: a wrong one is a TypeError naming the field (a str for a
        tuple of names is the usual slip: `modules="mine"` would import m, i, n, e)."""
        import re
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z0-9][\w.\-]*", self.name):
            raise TypeError(f"Paper.name must be a non-empty name of letters, digits, '_', '-' or '.', "
                            f"got {self.name!r}")
        for f in ("title", "short", "citation", "formula_command"):
            if not isinstance(getattr(self, f), str):
                raise TypeError(f"Paper.{f} must be a str, got {type(getattr(self, f)).__name__}")
        if not self.title.strip():
            raise TypeError("Paper.title must say what the paper is (an empty title was given)")
        for f in ("modules", "theorems", "sections", "formulas"):
            v = getattr(self, f)
            if not isinstance(v, (tuple, list)) or not all(isinstance(x, str) for x in v):
                raise TypeError(f"Paper.{f} must be a tuple of str (e.g. ({v!r},)), got {v!r}")
        if not isinstance(self.nodes, (str, tuple, list)):
            raise TypeError("Paper.nodes must be a tuple of graph.Node or 'module:attribute', got "
                            f"{type(self.nodes).__name__}")
        if not isinstance(self.replaces, Mapping) or not isinstance(self.settings, Mapping):
            raise TypeError("Paper.replaces and Paper.settings must be mappings (dicts)")
        if not isinstance(self.figures, bool):
            raise TypeError(f"Paper.figures must be True or False, got {self.figures!r}")
        for f in ("coverage", "check_inputs", "evaluate", "inputs_text", "statement_tex", "formula", "certificates"):
            v = getattr(self, f)
            if v is not None and not callable(v):
                raise TypeError(f"Paper.{f} must be a function or None, got {type(v).__name__}")

    def table(self) -> tuple:
        """Its node table (imported where `nodes` names one)."""
        if isinstance(self.nodes, str):
            import importlib
            mod, _, attr = self.nodes.partition(":")
            return tuple(getattr(importlib.import_module(mod), attr))
        return tuple(self.nodes)

    def load(self) -> "Paper":
        """Import its claim modules (each registers its claims under this paper's name) and make it
        the active paper of the registry."""
        from ..store.userfiles import load_module
        register(self)
        with declaring(self.name, "paper"):
            for m in self.modules:
                load_module(m, "paper")
        REGISTRY.activate(self.name)
        return self


def register(paper: Paper) -> Paper:
    """Declare `paper` (its settings become the defaults of modes of its claims); a second paper of
    the same name is refused."""
    old = PAPERS.get(paper.name)
    if old is not None and old is not paper and old != paper:
        raise ValueError(f"a paper named {paper.name!r} is declared already ({old.title}); choose another name")
    PAPERS[paper.name] = paper
    return paper


def load_paper(spec: str) -> Paper:
    """The paper `spec` names, loaded (its claims registered, it the active paper): the name of an
    entry point of the group `rue_verify.papers` or of a paper declared already, a module name, or a
    path to a .py file. A module or file that holds a `PAPER` (a `Paper`) is that paper; one that only
    declares claims is a paper of its own, named after it. A `ParameterError` naming 'paper' when
    nothing can be loaded."""
    if spec in LOADED:
        return PAPERS[LOADED[spec]].load()
    from importlib.metadata import entry_points

    from ..errors import ParameterError
    from ..store.userfiles import load_module
    if spec in PAPERS:
        paper = PAPERS[spec]
    else:
        ep = next((e for e in entry_points(group=ENTRY_POINTS) if e.name == spec), None)
        if ep is not None:
            paper = ep.load()
        else:
            if not spec.endswith(".py") and "." not in spec and "/" not in spec:
                known = sorted({e.name for e in entry_points(group=ENTRY_POINTS)} | set(PAPERS))
                raise ParameterError("paper", f"no paper named {spec!r}; known: {', '.join(known) or 'none'}, "
                                     "or give a .py file or a module that declares one")
            name = Path(spec).stem if spec.endswith(".py") else spec.rsplit(".", 1)[-1]
            before = {k: set(v) for k, v in REGISTRY.spaces.items()}
            with declaring(name, "paper"):
                module = load_module(spec, "paper")
            paper = getattr(module, "PAPER", None)
            if paper is None:
                new = set(REGISTRY.spaces.get(name, ())) - before.get(name, set())
                if not new:
                    raise ParameterError("paper", f"{spec} declares no PAPER and no claim (declare claims with "
                                         "rue_verify.verify.claim, and the paper with rue_verify.verify.Paper)")
                paper = Paper(name, name, modules=())
            elif not isinstance(paper, Paper):
                raise ParameterError("paper", f"{spec}: PAPER is a {type(paper).__name__}, not a "
                                     "rue_verify.verify.Paper")
            elif paper.name != name:        # claims the file declared before its PAPER: into the paper's namespace
                REGISTRY.rename(name, paper.name)
    paper.load()
    from .admission import check
    check(paper, REGISTRY.of(paper.name))     # every name its graph refers to, before anything runs
    LOADED[spec] = paper.name
    return paper

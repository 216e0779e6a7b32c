"""Every figure family, declared once: its name, caption, the claims it bears on, what it needs, a
`compute(inputs)` that returns its tidy table and a `draw(table, ax=None)` that only draws. The
report and the reproduction both draw from here; `save` writes the PNG, the SVG and the table's CSV
side by side (copying the image shipped with the package where the table, the drawing code and matplotlib
are the shipped figure's: `ship`), and `redraw` draws a figure again from its CSV alone (restyling never
simulates).

Adding a figure family is one `Family(...)` in FAMILIES.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..store.files import write_bytes, write_text
from . import cliff as cl
from . import empirical as rep
from . import estimators as es
from . import proofs as pf
from . import rates as rt
from . import theory as th
from .table import Table


@dataclass(frozen=True)
class Scale:
    """How much the figures' own simulations run."""

    name: str
    mc_draws: int        # Theorem 3.1's Monte Carlo
    rue_runs: int        # Theorems 5.1, 5.2 and the tau lemma
    ucbe_runs: int
    full_info_pairs: int


QUICK = Scale("quick", 100_000, 120, 1000, 100_000)
FULL = Scale("full", 1_000_000, 1000, 10_000, 1_000_000)
SCALES = {"quick": QUICK, "full": FULL}


@dataclass(frozen=True)
class Inputs:
    """What a family may compute from: the simulation scale and seed, the reproduction's result rows,
    the ledger's results, the rate study's directory (None: the one shipped), and your own bounds to
    draw in the landscape."""

    scale: Scale = QUICK
    seed: int = 0
    rows: tuple = ()
    ledger: tuple = ()
    rates: str | None = None
    bounds: tuple = ()                   # your bounds for the landscape: (quantity, 'file.py:NAME') pairs
    graph: Any = None                    # the proof graph the ledger run resolved (`ledger.run_ledger(...).graph`)
    results: str | None = None           # the reproduction's result directory the rows came from (None: shipped)

    @property
    def studies(self) -> set[str]:
        return {r["study"] for r in self.rows}


@dataclass(frozen=True)
class Family:
    name: str
    caption: str
    compute: Callable[[Inputs], Table]
    draw: Callable[..., Any]
    claims: tuple[str, ...] = ()         # the claims it bears on
    needs: tuple[str, ...] = ()          # 'ledger', or the reproduction's studies
    inline: bool = False                 # the report shows its SVG inline (its links work there)
    #: families that draw the same cached simulation: the report makes them in one worker process
    #: (`make_group`), so it runs once
    shares: str | None = None

    def available(self, inputs: Inputs, ledger: bool | None = None) -> bool:
        """Whether `inputs` hold what the family needs (`ledger`: count the ledger's results as there
        or not, whatever `inputs.ledger` says)."""
        has_ledger = bool(inputs.ledger) if ledger is None else ledger
        return set(self.needs) <= inputs.studies | ({"ledger"} if has_ledger else set())


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("ledger-overview", "The ledger at a glance: the verdicts of every claim, by place in the paper.",
           lambda i: th.ledger_overview_table(list(i.ledger)), th.draw_ledger_overview, needs=("ledger",)),
    Family("proof-graphs", "The proofs of Theorems 3.1, 5.1 and 5.2 as dependency graphs: the paper's route and the "
                           "repaired one, every node coloured by its computed status and linked to its evidence; "
                           "a solid arrow is a node our check used, a dashed one a node only the paper cites.",
           lambda i: pf.proof_graph_table(list(i.ledger), i.graph), pf.draw_proof_graph,
           claims=("THM-GAP", "THM-FAIL", "THM-REGRET"), needs=("ledger",), inline=True),
    Family("theorem-3-1", "Theorem 3.1: the exact probability that the two best of K Gaussian means are within "
                          "alpha, its bound c_K alpha / sigma0 (not real for K < 36), and a Monte Carlo check.",
           lambda i: th.theorem_3_1_table(draws=i.scale.mc_draws, seed=i.seed), th.draw_theorem_3_1,
           claims=("THM-GAP",)),
    Family("c-K-constant", "c_K and the repaired C_K against the smallest constant that makes Theorem 3.1 true, "
                           "K = 2 ... 10^4.",
           lambda i: th.c_K_constant_table(), th.draw_c_K_constant, claims=("THM-GAP", "LEM-A1")),
    Family("theorem-5-1", "Theorem 5.1's terms and sum against RUE's simulated failure probability.",
           lambda i: th.theorem_5_1_table(runs=i.scale.rue_runs, seed=i.seed), th.draw_theorem_5,
           claims=("THM-FAIL",), shares="theorem-5-runs"),
    Family("theorem-5-2", "Theorem 5.2's terms and sum against RUE's simulated simple regret.",
           lambda i: th.theorem_5_2_table(runs=i.scale.rue_runs, seed=i.seed), th.draw_theorem_5,
           claims=("THM-REGRET",), shares="theorem-5-runs"),
    Family("ucbe-bound", "Section 2: UCB-E's bound against simulated UCB-E.",
           lambda i: th.ucbe_bound_table(runs=i.scale.ucbe_runs, seed=i.seed), th.draw_ucbe_bound,
           claims=("SEC2-UCBE-UPPER",)),
    Family("full-information", "Section 2.1: the full-information error against Feller's lower bound.",
           lambda i: th.full_information_table(runs=i.scale.full_info_pairs, seed=i.seed), th.draw_full_information,
           claims=("SEC2-FULL-E", "SEC2-FELLER", "SEC2-FULL-ALPHA")),
    Family("informative-region", "Where Theorem 5.1 falls below 1, for several K.",
           lambda i: th.informative_region_table(), th.draw_informative_region, claims=("THM-FAIL", "DISC-ORDER")),
    Family("tau-lemma", "Lemma sec:tau on the allocations RUE produces: both sides of the lemma.",
           lambda i: th.tau_lemma_table(runs=i.scale.rue_runs, seed=i.seed), th.draw_tau_lemma,
           claims=("LEM-TAU-LOWER", "LEM-TAU-UPPER")),
    Family("rates", "How fast RUE's Bayesian failure probability and simple regret fall with n, against the paper's "
                    "O~(sqrt(K/n)): measured curves, fitted exponents and local slopes.",
           lambda i: rt.rates_table(i.rates), rt.draw_rates,
           claims=("RATE-FAIL", "RATE-REGRET")),
    Family("efficiency", "How far each algorithm is from the limit: its constant (sqrt(n) e_n, n sr_n) over the best "
                         "any algorithm can reach with budget n, against n, one panel per setting of the rate study.",
           lambda i: rt.efficiency_table(i.rates), rt.draw_efficiency,
           claims=("RATE-FAIL", "RATE-REGRET", "ABS-SOTA")),
    Family("landscape", "The bound landscape: every algorithm's measured truth between the limit (the lowest curve: "
                        "every algorithm with budget n meets it) and the upper bounds (the repaired theorems, the "
                        "peers' own), with the full-information oracle below the limit and local slopes.",
           lambda i: rt.landscape_table(i.rates, i.bounds), rt.draw_landscape,
           claims=("RATE-FAIL", "RATE-REGRET", "ABS-SOTA")),
    Family("explore-cliff", "RUE's exploration constant: its simple regret over the limit's constant against DEG "
                            "(the paper's DEG = 2), with its top-two balanced variant, and the share of runs that "
                            "starve the best arm, at K = 10 and 30, n = 1e4 and 1e5.",
           lambda i: cl.cliff_table(i.rates), cl.draw_cliff, claims=("EXPLORE-CLIFF",)),
    Family("variance-estimators", "RUE's and its top-two variant's simple regret over the limit's constant with each "
                                  "variance estimator (told the variances, the authors' moments, unbiased moments, ML, "
                                  "REML), its part outside near ties, and RUE's end-of-run estimate of sigma0^2 "
                                  "against the truth, at K = 10 and 30, n = 1e4 and 1e5.",
           lambda i: es.estimators_table(i.rates), es.draw_estimators,
           claims=("VAR-EST-COST", "VAR-EST-METHODS", "TOPTWO-REST")),
    Family("section6-estimators", "Section 6's empirical claims judged again with RUE run by each variance estimator "
                                  "(the paper does not say which estimates its experiments use; the shipped rows use "
                                  "the authors' code's): where a verdict moves, it depends on that choice.",
           lambda i: es.section6_estimators_table(i.results), es.draw_section6_estimators,
           claims=("EXP-F-CLAIMS", "EXP-R-CLAIMS", "EXP-K-SCALING", "EXP-TWOSTAGE", "EXP-UCBE-PARAM", "EXP-SE",
                   "CONCL-DIST"), needs=("fixed", "random", "arms", "two-stage")),
    Family("figure3-fixed-H-suboptimal", "Reproduction of Figure 3: fixed means, K = 20 (H over the suboptimal "
                                         "arms, as the authors' code).",
           lambda i: rep.fixed_setups_table(list(i.rows), study="fixed", H_convention="suboptimal"),
           rep.draw_fixed_setups, claims=("EXP-F-CLAIMS", "EXP-SE"), needs=("fixed",)),
    Family("figure3-fixed-H-section2", "Reproduction of Figure 3 with H as Section 2 defines it (the best arm's "
                                       "term included).",
           lambda i: rep.fixed_setups_table(list(i.rows), study="fixed", H_convention="section2"),
           rep.draw_fixed_setups, claims=("EXP-F-CLAIMS",), needs=("fixed",)),
    Family("figure2-random-sd", "Reproduction of Figure 2: random means, N(0.5, 0.1) read as standard deviation 0.1 "
                                "(the reading that matches the paper's median H).",
           lambda i: rep.random_setups_table(list(i.rows), normal_scale="sd"), rep.draw_random_setups,
           claims=("EXP-R-CLAIMS", "EXP-SETUP-R", "CONCL-DIST"), needs=("random",)),
    Family("figure2-random-variance", "Reproduction of Figure 2 with N(0.5, 0.1) read as variance 0.1.",
           lambda i: rep.random_setups_table(list(i.rows), normal_scale="variance"), rep.draw_random_setups,
           claims=("EXP-R-CLAIMS", "EXP-UCBE-PARAM"), needs=("random",)),
    Family("figure5-more-arms", "Reproduction of the appendix's Figure 5: F4 with K = 40 and 80.",
           lambda i: rep.fixed_setups_table(list(i.rows), study="arms"), rep.draw_fixed_setups,
           claims=("EXP-K-SCALING", "EXP-K80"), needs=("arms",)),
    Family("figure4-two-stage", "Reproduction of the appendix's Figure 4: the two-stage algorithm against q.",
           lambda i: rep.two_stage_table(list(i.rows)), rep.draw_two_stage, claims=("EXP-TWOSTAGE",),
           needs=("two-stage",)),
)}


def draw_bytes(family: Family, table: Table) -> tuple[bytes, bytes, str]:
    """Draw `table` (with its family named in its parameters): (PNG bytes, SVG bytes, caption line). The same
    table gives the same bytes."""
    import io

    import matplotlib.pyplot as plt
    fig = family.draw(table)
    try:
        line = next((t.get_text() for t in fig.texts), "")
        out = []
        for ext in ("png", "svg"):
            buf = io.BytesIO()
            # no date, and the SVG's element ids salted by the family's name rather than drawn at random:
            # the same table gives the same bytes, so a regenerated report differs only where its content does
            with plt.rc_context({"svg.hashsalt": family.name}):
                fig.savefig(buf, format=ext, dpi=130, metadata={"Date": None} if ext == "svg" else None)
            out.append(buf.getvalue())
    finally:
        plt.close(fig)
    return out[0], out[1], line


def save(family: Family, table: Table, stem: str | Path, redraw: bool = False) -> tuple[list[str], str]:
    """Write STEM.png, STEM.svg and STEM.csv of `table` (each whole or not at all; the same table gives the same
    bytes); returns the paths and the figure's caption line. The figure is drawn from the table as its CSV
    reads back, so it is a function of the CSV; where the CSV's key (`ship.key`: the table, the family, the
    drawing code and matplotlib) is that of the figure shipped with the package and the shipped images are
    intact, their bytes are copied instead of drawn (`ship`). `redraw` (or RUE_VERIFY_REDRAW=1): draw anyway."""
    from . import ship
    csv = Table(table.rows, {**table.meta, "family": family.name}).to_csv()
    got = None if redraw or ship.forced() else ship.lookup(family.name, ship.key(family.name, csv))
    png, svg, line = got or draw_bytes(family, Table.from_csv(csv))
    paths = [str(write_bytes(f"{stem}.png", png)), str(write_bytes(f"{stem}.svg", svg)),
             str(write_text(f"{stem}.csv", csv))]
    return paths, line


def redraw(csv_path: str | Path, stem: str | Path | None = None) -> list[str]:
    """Draw a figure again from its table alone (its family is named in the table's parameters); always
    drawn, never a shipped image copied."""
    table = Table.from_csv(Path(csv_path))
    family = FAMILIES.get(table.meta.get("family"))
    if family is None:
        raise ValueError(f"redraw: {csv_path} is not the table of a figure family ({', '.join(FAMILIES)})")
    return save(family, table, stem or Path(csv_path).with_suffix(""), redraw=True)[0]


class Failed(str):
    """What a figure family that failed says instead of its caption line: its exception in one line
    (`verify.faults.one_line`). The report shows it and goes on without the figure."""


def make(name: str, inputs: Inputs, directory: str | Path, redraw: bool = False) -> str:
    """Compute, draw and save family `name` into `directory`; its caption line (a module-level
    function, so a worker process can run it), or a `Failed` line where the family raised (a disk that
    is full or read-only still ends the run: the report cannot be written). `redraw`: draw even where the
    shipped figure's table is this one (`save`)."""
    from ..verify.faults import one_line
    fam = FAMILIES[name]
    try:
        return save(fam, fam.compute(inputs), Path(directory) / name, redraw)[1]
    except (KeyboardInterrupt, OSError):
        raise
    except Exception as err:
        import matplotlib.pyplot as plt
        plt.close("all")
        return Failed(f"figure {name} failed: {one_line(err)}")


def make_group(names: tuple[str, ...], inputs: Inputs, directory: str | Path, redraw: bool = False) -> dict[str, str]:
    """`make` for each of `names` in turn, in this process (families that share a cached simulation);
    name -> caption line."""
    return {name: make(name, inputs, directory, redraw) for name in names}


def groups(names: list[str]) -> list[tuple[str, ...]]:
    """The families as units of work: those that share a simulation together (first), every other alone."""
    from ..verify.parallel import grouped
    return grouped(names, lambda name: FAMILIES[name].shares)


def draw_all(inputs: Inputs, directory: str | Path, names=None,
             progress: Callable[[str], None] | None = None, redraw: bool = False) -> dict[str, str]:
    """Compute and save every available family (or `names`) into `directory`, in this process;
    name -> caption line. `progress(name)` is called as each finishes; `redraw` as `make`."""
    out = {}
    for name, fam in FAMILIES.items():
        if (names is not None and name not in names) or not fam.available(inputs):
            continue
        out[name] = make(name, inputs, directory, redraw)
        if progress:
            progress(name)
    return out

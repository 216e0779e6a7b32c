"""Figures. Each family is declared once in `registry.FAMILIES` (name, caption, the claims it bears
on, `compute` -> a tidy `Table`, `draw(table, ax=None)`); the report and the reproduction draw from
there, and every saved figure has its table as CSV beside its PNG and SVG (`registry.redraw` draws it
again from the CSV). Every figure has labelled axes, a legend, intervals wherever there is randomness
(exact binomial for rates) and a caption line naming its parameters and seed; where a bound of the
paper is undefined, the axes say so.

The families' code: the paper's bounds against the exact truth and simulation (`theory`), the
reproduction of Section 6 from its results (`empirical`). `theorem_3_1(...)` and its siblings compute and draw in
one call.
"""

from .common import caption
from .empirical import fixed_setups, random_setups, two_stage
from .registry import FAMILIES, Family, Inputs, draw_all, redraw, save
from .table import Table
from .theory import (
    c_K_constant,
    full_information,
    informative_region,
    ledger_overview,
    tau_lemma,
    theorem_3_1,
    theorem_5_1,
    theorem_5_2,
    ucbe_bound,
)

__all__ = ["FAMILIES", "Family", "Inputs", "Table", "caption", "draw_all", "redraw", "save", "fixed_setups",
           "random_setups", "two_stage", "theorem_3_1", "c_K_constant", "theorem_5_1", "theorem_5_2", "ucbe_bound",
           "full_information", "informative_region", "tau_lemma", "ledger_overview"]

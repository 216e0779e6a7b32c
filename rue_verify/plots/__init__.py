"""Figures, one function per figure family. Each takes its parameters (or result rows) and an
optional matplotlib Axes (or Figure, for multi-panel families) and returns the Figure. Every figure
has labelled axes, a legend, intervals wherever there is randomness (exact binomial for rates) and a
caption line naming its parameters and seed; where a bound of the paper is undefined, the axes say
so.

- The paper's bounds against the exact truth and simulation (`theory`): `theorem_3_1`,
  `c_K_constant`, `theorem_5_1`, `theorem_5_2`, `ucbe_bound`, `full_information`,
  `informative_region`, `tau_lemma`, `ledger_overview`.
- The reproduction of Section 6 (`reproduction`): `fixed_setups`, `random_setups`, `two_stage`.
"""

from .common import caption, save
from .reproduction import fixed_setups, random_setups, two_stage
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

__all__ = ["caption", "save", "fixed_setups", "random_setups", "two_stage", "theorem_3_1", "c_K_constant",
           "theorem_5_1", "theorem_5_2", "ucbe_bound", "full_information", "informative_region", "tau_lemma",
           "ledger_overview"]

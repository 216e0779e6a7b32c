"""The paper's mathematics as code: Zhu & Qiu (TMLR 2024), "UCB Exploration for Fixed-Budget
Bayesian Best Arm Identification" (RUE).

Modules by the paper's topic (grep a label such as `them-R` or `lemma-true` to find a formula)::

  gap        Section 3, Appendix A.1: c_K, Theorem 3.1, e_*(alpha), Lemma A.1, the appendix facts
  estimation Section 4 (`sec:estimation`): the random-effect posterior, Lemma `sec:tau`, Proposition 4.1
  section2   Section 2: UCB-E's bounds, small-gap thresholds, full information
  theorems   Section 5, Appendix A.3-A.5: Theorems 5.1 and 5.2 and their proofs' quantities
  orders     Section 5.1: asymptotic orders derived with sympy
  vacuity    where the theorems' bounds fall below 1
  limit      the limit any algorithm meets (derived here): the finite-n bounds and their constants
  lower      the full-information oracle
  certify    rigorous checks (interval arithmetic, sympy proofs)
  registry   every bound by name, for `rue-verify bound`

Nothing here imports `simulate`.
"""

from ._core import UndefinedError
from .estimation import Posterior, exact_gaussian_posterior, posterior
from .gap import c_K, c_K_is_defined, e_star, e_star_mp, gap_constant_tightest, gap_density, theorem_3_1_bound
from .theorems import theorem_5_1_bound, theorem_5_1_terms, theorem_5_2_bound, theorem_5_2_terms

__all__ = ["UndefinedError", "c_K", "c_K_is_defined", "e_star", "e_star_mp",
           "gap_constant_tightest", "gap_density", "theorem_3_1_bound", "Posterior",
           "posterior", "exact_gaussian_posterior", "theorem_5_1_bound", "theorem_5_1_terms",
           "theorem_5_2_bound", "theorem_5_2_terms"]

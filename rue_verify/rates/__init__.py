"""How fast the truth decays: the Bayesian failure probability and simple regret of an algorithm under
the paper's model (Section 3: means iid N(mu0, sigma0^2), Gaussian rewards), estimated with exact
variance reduction (`truth`), and their exponents in n fitted with intervals and checked for a power
law (`fit`). The ledger's rate claims (RATE-FAIL, RATE-REGRET of CLAIMS-BEYOND.md) read them.
"""

from .fit import Fit, fit_exponent, fit_paired, log_slope
from .truth import Truth, bayes_truth, conditional_failure, conditional_regret, known_mean_posterior

__all__ = ["Fit", "Truth", "bayes_truth", "conditional_failure", "conditional_regret", "fit_exponent", "fit_paired",
           "known_mean_posterior", "log_slope"]

"""Lower bounds that hold for every algorithm under the model of Section 3.

The full-information oracle (label `oracle_bound`): give an algorithm n observations of *every*
arm instead of n in all. Any algorithm with budget n can be run on the oracle's data (its j-th pull
of arm k reads the oracle's j-th observation of arm k), so the oracle's Bayes risk is at most any
algorithm's: its Bayesian failure probability and simple regret are lower bounds on e_n and sr_n.
With a homogeneous prior and equal counts, the oracle's Bayes rule (for both losses) recommends the
largest sample mean.

For K = 2 the oracle's failure probability has a closed form (label `oracle_two_arms`): with
D = mu_1 - mu_2 ~ N(0, 2 s0^2) and noise E ~ N(0, 2 sigma^2 / n), it fails when D and D + E differ
in sign, which has probability arccos(rho) / pi, rho = corr(D, D + E) = sqrt(s0^2 / (s0^2 + sigma^2/n)).
For K arms `rue_verify.rates.truth.oracle_truth` estimates both quantities by simulation with exact
conditioning; the K = 2 closed form tests it (`tests/rates/test_study.py`).

The oracle is not the limit: it sees K n observations. `bounds.limit` derives the bound every
algorithm with budget n meets (the pair argument), and shows the oracle below it: for K = 2 the oracle
at n is that bound at 2n, and for every K its constants are the limit's over sqrt(2) (failure) and over
2 (regret).
"""

from __future__ import annotations

import math


def oracle_two_arms(n: float, sigma0_sq: float, sigma_sq: float) -> float:
    """arccos(rho) / pi: the full-information oracle's failure probability with K = 2 (label
    `oracle_two_arms`), a lower bound on every algorithm's e_n with budget n."""
    for name, v in (("n", n), ("sigma0_sq", sigma0_sq), ("sigma_sq", sigma_sq)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    rho = math.sqrt(sigma0_sq / (sigma0_sq + sigma_sq / n))
    return math.acos(rho) / math.pi

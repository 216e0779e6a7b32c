"""Atsidakou, Katariya, Sanghavi & Kveton (2022), "Bayesian fixed-budget best-arm identification"
(arXiv 2211.08572): Bayesian elimination and a bound on its probability of misidentification.

Bayesian elimination runs sequential halving's schedule (R = ceil(log2 K) stages; stage r pulls each
of its s_r surviving arms n_r = floor(n / (s_r R)) times; the ceil(s_r / 2) arms with the largest
posterior means survive). Their abstract describes the proof: a frequentist elimination argument
with the prior carried through, the bandit instance integrated out at the end.

`elimination_bound` (label `elim_bound`) is that argument written out for the model of Section 3
(mu_k iid N(mu0, s0^2), Gaussian rewards of variance sigma^2, posteriors from each stage's
observations): the best arm leaves in stage r only if at least ceil(s_r / 2) arms have a stage mean
at or above its own, so by Markov's inequality

    Pr(fail | mu) <= sum_r ceil(s_r / 2)^-1 sum_{j != *} Phi_bar(Delta_j sqrt(n_r / (2 sigma^2))),

and integrating over the prior, with Delta_j = mu_* - mu_j,

    e_n <= sum_r ceil(s_r / 2)^-1 K (K - 1) E[1{mu_1 = max} Phi_bar((mu_1 - mu_2) sqrt(n_r / (2 sigma^2)))],

a one-dimensional integral here (the inner one is a bivariate normal probability). With a homogeneous
prior the posterior means of a stage order the arms as their stage means do, so the prior's
parameters other than s0^2 drop out.

Where each detail comes from: the stored copies of the paper hold its abstract only. The schedule is
sequential halving's (Karnin et al. 2013), as the RUE paper's account ("a Bayesian version of the
SH algorithm") and the abstract say; that each stage's posterior uses that stage's observations
follows sequential halving's definition and is the reading `simulate.algorithms.bayes_elim` takes by
default. The bound's closed form and constants in their theorem could not be read; this module
computes the quantity their argument bounds, exactly, and claims nothing about their constants.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .nguyen2024 import phi2

GRID = np.linspace(-9.0, 9.0, 6001)      # standardised values of the best arm's mean


def schedule(K: int, n: int) -> list[tuple[int, int]]:
    """(s_r, n_r) of every stage: survivors and pulls per survivor."""
    if K < 2 or n < 1:
        raise ValueError(f"elimination needs K >= 2 and n >= 1, got K = {K}, n = {n}")
    R = math.ceil(math.log2(K))
    out, s = [], K
    for _ in range(R):
        if s == 1:
            break
        out.append((s, n // (s * R)))
        s = (s + 1) // 2
    return out


def expected_pair_sum(K: int, c: float) -> float:
    """E[sum_{j != *} Phi_bar(c (mu_* - mu_j))] for K iid standard normal means (scale c absorbs
    s0): K (K - 1) int phi(x) Phi(x)^(K-2) Pr(Y < x, Z > c (x - Y)) dx."""
    x = GRID
    a = c / math.sqrt(1.0 + c * c)
    inner = special.ndtr(x) - phi2(x, c * x / math.sqrt(1.0 + c * c), a)
    f = K * (K - 1) * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi) * special.ndtr(x) ** (K - 2) * inner
    return float(np.trapezoid(f, x))


def elimination_bound(K: int, n: int, sigma0_sq: float, sigma_sq: float) -> float:
    """The bound on Bayesian elimination's Bayesian failure probability e_n (label `elim_bound`);
    see the module docstring. Not capped at 1: a value above 1 says the bound is vacuous there."""
    for name, v in (("sigma0_sq", sigma0_sq), ("sigma_sq", sigma_sq)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    total = 0.0
    for s, m in schedule(K, n):
        c = math.sqrt(m * sigma0_sq / (2.0 * sigma_sq))
        total += expected_pair_sum(K, c) / ((s + 1) // 2)
    return total

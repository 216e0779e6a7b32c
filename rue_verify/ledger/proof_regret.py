"""The proof of Theorem 5.2: the step from the failure probability to the simple regret."""

from __future__ import annotations

from bounds import gap
from simulate.stats import binomial_interval, mean_interval

from ..verify import Expect, Mode, claims_in, fmt, from_intervals, reading
from .model_points import POINTS, point_params, sim_summary

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Appendix: the proofs of Theorems 5.1 and 5.2"
claim = claims_in(SECTION)


@claim("PF-REGRET-STEP", "Proof of Theorem 5.2", "sr_n <= e_n E[mu_(1) - mu_(K)], in simulation.")
def check_regret_step(mode: Mode):
    findings = []
    for name in POINTS:
        K, n, s0, s, d = POINTS[name]
        r, info = sim_summary(name, mode)
        rng_ = gap.expected_range(K, s0)
        sr = mean_interval(r.simple_regret, 0.999)
        en = binomial_interval(int(r.errors.sum()), info["runs"], 0.999)
        dom = f"{name} point {point_params(name)}"
        findings.append(from_intervals((sr.low, sr.high), (en.low * rng_, en.high * rng_), dom,
                                       f"sr_n in [{fmt(sr.low)}, {fmt(sr.high)}] vs e_n E[range] in "
                                       f"[{fmt(en.low * rng_)}, {fmt(en.high * rng_)}] (E[range] = {fmt(rng_)} "
                                       "exact)."))
    findings.append(reading("conditional", "the proof",
                            "it bounds E[mu_* - mu_J | J = k] by the unconditional E[mu_(1) - mu_(K)]; true in the "
                            "simulations (errors happen when gaps are small) but not implied in general."))
    return Expect("holds in simulation; the proof's step replaces a conditional expectation by an unconditional one",
                  "conditional" if "refuted" not in [f.verdict for f in findings] and findings[0].verdict == "holds"
                  else "-"), findings

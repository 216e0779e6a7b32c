"""Claims of CLAIMS-BEYOND.md: what a reader asks after the text, starting with the rates. RUE's
Bayesian failure probability and simple regret under the model of Section 3 (means iid N(mu0,
sigma0^2), Gaussian rewards of variance sigma^2, RUE told the variances), measured over n spanning
three decades with the conditional (Rao-Blackwell) estimators of `rue_verify.rates`, and their
exponents in n fitted with intervals on the large-n half."""

from __future__ import annotations

import numpy as np

from ..rates import fit_paired, study
from ..rates.study import CLAIMED_EXPONENT as CLAIMED
from ..rates.study import SETTING
from .core import Mode, claim, from_rate, from_value

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Beyond the text: rates and tightness"

def curves(mode: Mode):
    """The truth at every budget (one set of runs, shared by RATE-FAIL and RATE-REGRET)."""
    return study.curves(mode.name == "thorough", mode.sim_runs, mode.seed)


def _rate(mode: Mode, quantity: str, attr: str):
    rows = curves(mode)
    ns = [r.n for r in rows]
    fit = fit_paired(ns, np.column_stack([getattr(r, attr + "_runs") for r in rows]), tail=0.5)
    lo, hi = fit.interval
    vr = np.median([getattr(r, "vr_" + attr) for r in rows])
    local = ", ".join(f"{m:.3g}: {b:.2f}" for m, b, _ in fit.local)
    detail = (f"measured exponent {fit.exponent:.3f} (95% interval [{lo:.3f}, {hi:.3f}]) on n in "
              f"{fit.n_range[0]}-{fit.n_range[1]}; the paper's rate is n^{CLAIMED}"
              + (f", so the claim's rate is loose by {CLAIMED - fit.exponent:.2f} in the exponent"
                 if hi <= CLAIMED else "") + "; "
              f"{'a power law fits' if fit.power_law else 'a power law does not fit (a log factor or a bend)'} "
              f"(local slopes against the line: chi2/df {fit.chi2_per_df:.2f}); local slopes by mid n: {local}; "
              f"conditional estimator, variance reduced {vr:.1f}x (median) against the plain one; {rows[0].runs} "
              "runs per budget, paired across budgets (jackknife intervals over runs)")
    witness = {"params": dict(SETTING), "quantity": quantity, "exponent_n": round(fit.exponent, 4),
               "interval": [round(lo, 4), round(hi, 4)], "n": list(fit.n_range), "claimed_exponent_n": CLAIMED}
    domain = f"RUE, K = {SETTING['K']}, sigma0^2 = sigma^2 = 1, n in {ns[0]}-{ns[-1]}"
    finding = from_rate(fit.exponent, fit.interval, CLAIMED, domain, detail, witness=witness)
    fits = from_value(float(fit.power_law), "the fitted range", at_least=1, fail="inconclusive",
                      holds=f"the local slopes on the fitted range are consistent with one power (chi2/df "
                            f"{fit.chi2_per_df:.2f})",
                      fails=f"the local slopes on the fitted range reject one power (chi2/df {fit.chi2_per_df:.2f}): "
                            "the exponent summarises a curve that bends (a log factor?)")
    return f"{quantity}: exponent {fit.exponent:.2f} [{lo:.2f}, {hi:.2f}] against the claimed {CLAIMED}", \
        [finding, fits]


@claim("RATE-FAIL", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian failure probability e_n decays like O~(sqrt(K/n)).",
       shares="rate-curves", no_repair="a rate finding: the measured exponent is the answer")
def check_rate_fail(mode: Mode):
    return _rate(mode, "failure probability", "failure")


@claim("RATE-REGRET", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian simple regret sr_n decays like O~(sqrt(K/n)).",
       shares="rate-curves", no_repair="a rate finding: the measured exponent is the answer")
def check_rate_regret(mode: Mode):
    return _rate(mode, "simple regret", "regret")

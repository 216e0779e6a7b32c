"""What a rate study says, as rows: every curve's exponent in n (the large-n half, jackknife interval
over blocks of paired runs) and, across the settings that differ only in K, the exponent in K at each
budget they share (independent curves; a weighted line through (log K, log y) with the normal interval
from the estimates' standard errors)."""

from __future__ import annotations

import numpy as np

from .fit import Fit, fit_exponent
from .results import QUANTITIES, RateResults


def k_family(res: RateResults, setting: str = "base") -> list[str]:
    """The settings that differ from `setting` only in K, ordered by K (at least two, else [])."""
    ss = res.settings()
    if setting not in ss:
        return []
    b = ss[setting]
    same = sorted((s for s in ss.values() if (s.sigma0_sq, s.sigma_sq, s.prior_ratio) ==
                   (b.sigma0_sq, b.sigma_sq, b.prior_ratio)), key=lambda s: s.K)
    return [s.name for s in same] if len({s.K for s in same}) >= 2 else []


def fit_in_K(res: RateResults, algorithm: str, q: str, setting: str = "base") -> list[tuple[int, Fit, list]]:
    """At each budget every setting of `k_family` ran `algorithm` at: (n, the fit of log y on log K,
    the points (K, y, se))."""
    fam = [s for s in k_family(res, setting) if res.has(s, algorithm)]
    if len(fam) < 2:
        return []
    curves = [res.curve(s, algorithm) for s in fam]
    common = sorted(set.intersection(*(set(c.n.tolist()) for c in curves)))
    out = []
    for n in common:
        pts = [(c.setting.K, float(c.mean(q)[c.index(n)]), float(c.se(q)[c.index(n)])) for c in curves]
        if len(pts) >= 3 and all(y > 0 and e > 0 for _, y, e in pts):
            K, y, e = (np.array(v, float) for v in zip(*pts))
            out.append((n, fit_exponent(K, y, e, tail=1.0, known_se=True), pts))
    return out


def exponents(res: RateResults) -> list[dict]:
    """One row per (setting, algorithm, quantity) with its exponent in n, then one per (algorithm,
    quantity) with the exponent in K at the largest shared budget."""
    rows = []
    for name in res.settings():
        for alg in res.algorithms(name):
            c = res.curve(name, alg)
            if c.n.size < 3:
                continue
            for q, text in QUANTITIES.items():
                try:
                    f = c.fit(q)
                except ValueError:          # a zero estimate at some budget: no logarithm
                    continue
                rows.append({"setting": name, "algorithm": alg, "quantity": text, "variable": "n",
                             "exponent": float(f.exponent), "low": float(f.interval[0]), "high": float(f.interval[1]),
                             "range": list(f.n_range), "power_law": f.power_law, "runs": c.runs})
    algs = dict.fromkeys(a for s in k_family(res) for a in res.algorithms(s))
    for alg in algs:
        for q, text in QUANTITIES.items():
            fits = fit_in_K(res, alg, q)
            if fits:
                n, f, pts = fits[-1]
                rows.append({"setting": f"K-family at n={n}", "algorithm": alg, "quantity": text, "variable": "K",
                             "exponent": float(f.exponent), "low": float(f.interval[0]), "high": float(f.interval[1]),
                             "range": [int(pts[0][0]), int(pts[-1][0])], "power_law": f.power_law,
                             "runs": None})
    return rows

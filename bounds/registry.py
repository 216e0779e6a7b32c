"""Every bound and quantity of the paper by name, with its parameters and paper label, so that
`rue-verify bound NAME --PARAM VALUE ...` can evaluate it (with its terms), print its sympy
expression (`--symbolic`) or LaTeX (`--latex`)."""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

import mpmath
import numpy as np
import sympy

from . import estimation, gap, limit, repaired, section2, theorems
from ._core import UndefinedError


@dataclass(frozen=True)
class Entry:
    """One named formula: `fn(**params)` returns a number or a dict of named terms.

    `fn` is the formula guarded at the package's boundary (`raw` is the formula itself): numbers are
    checked against the declared parameters (finite reals; integers where `int_params` says; lists
    only where `list_params` says) and a ValueError names the parameter; a division by zero, an
    overflow or a result that is not a finite real number becomes an UndefinedError that says so.
    sympy symbols and mpmath numbers pass through unchecked (the symbolic and precise paths).
    """

    fn: Callable
    params: tuple[str, ...]
    label: str
    symbolic: bool = True
    list_params: tuple[str, ...] = field(default=())
    int_params: tuple[str, ...] = field(default=("K", "n"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "raw", self.fn)
        object.__setattr__(self, "fn", _guarded(self))


def _check_value(e: Entry, name: str, v: Any) -> None:
    bad = ValueError(f"{name} must be {'a list of finite numbers' if name in e.list_params else 'a finite number'}"
                     f"{' (an integer)' if name in e.int_params else ''}, got {v!r}"[:300])
    if isinstance(v, (bool, str, bytes)) or v is None:
        raise bad
    if isinstance(v, (list, tuple)) and name not in e.list_params:
        raise ValueError(f"{name} takes one number, got the list {v!r}"[:300])
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError):
        raise bad from None
    if (name in e.list_params and (a.ndim != 1 or a.size == 0)) or not np.all(np.isfinite(a)):
        raise bad
    if name in e.int_params and not np.all(a == np.floor(a)):
        raise bad


def _finite(v: Any) -> bool:
    if isinstance(v, dict):
        return all(_finite(x) for x in v.values())
    if hasattr(v, "_fields"):
        return all(_finite(getattr(v, f)) for f in v._fields)
    a = np.asarray(v)
    return a.dtype.kind in "fiub" and bool(np.all(np.isfinite(a)))


def _guarded(e: Entry) -> Callable:
    raw = e.fn

    @functools.wraps(raw)
    def fn(*args: Any, **kwargs: Any) -> Any:
        bound = inspect.signature(raw).bind(*args, **kwargs)
        values = dict(bound.arguments)
        if any(isinstance(v, (sympy.Basic, mpmath.mpf, mpmath.mpc)) for v in values.values()):
            return raw(*args, **kwargs)
        for name in e.params:
            if name in values:
                _check_value(e, name, values[name])
        try:
            with np.errstate(all="ignore"):
                out = raw(*args, **kwargs)
        except (ZeroDivisionError, OverflowError, FloatingPointError) as err:
            raise UndefinedError(f"the formula divides by zero or overflows ({err})", values) from None
        if not _finite(out):
            raise UndefinedError("the value is not a finite real number in double precision here (an overflow, "
                                 "0/0 or a value beyond the formula's range)", values)
        return out
    return fn


SYMBOLS = {
    "K": sympy.Symbol("K", positive=True, integer=True),
    "n": sympy.Symbol("n", positive=True),
    "sigma0_sq": sympy.Symbol("sigma_0^2", positive=True),
    "sigma_sq": sympy.Symbol("sigma^2", positive=True),
    "delta": sympy.Symbol("delta", positive=True),
    "alpha": sympy.Symbol("alpha", positive=True),
    "Delta": sympy.Symbol("Delta", positive=True),
    "Delta_k": sympy.Symbol("Delta_k", positive=True),
    "H": sympy.Symbol("H", positive=True),
    "H_2": sympy.Symbol("H_2", positive=True),
    "p": sympy.Symbol("p", positive=True),
    "a": sympy.Symbol("a", positive=True),
    "T_k": sympy.Symbol("T_k", positive=True),
    "C": sympy.Symbol("C", positive=True),
    "t": sympy.Symbol("t", positive=True),
    "nu_sq": sympy.Symbol("nu^2", positive=True),
    "tau_sq_k": sympy.Symbol("tau_k^2", positive=True),
    "tau_sq_best": sympy.Symbol("tau_{i*}^2", positive=True),
    "x": sympy.Symbol("x", positive=True),
}

REGISTRY: dict[str, Entry] = {
    "c_K": Entry(gap.c_K, ("K",), "Theorem 3.1, `lemma-true`"),
    "theorem_3_1": Entry(gap.theorem_3_1_bound, ("alpha", "K", "sigma0_sq"), "Theorem 3.1, `lemma-true`"),
    "e_star": Entry(gap.e_star, ("alpha", "K", "sigma0_sq"), "Section 3 / proof of Lemma A.1 (exact)", False),
    "gap_constant_tightest": Entry(gap.gap_constant_tightest, ("K",), "sup_alpha e_*(alpha)/alpha (exact)", False),
    "lemma_a1": Entry(gap.lemma_a1_bound, ("alpha", "K", "C"), "Lemma A.1, `lem:bound-D2`"),
    "expected_range": Entry(gap.expected_range, ("K", "sigma0_sq"), "proof of Theorem 5.2 (exact)", False),
    "range_bound": Entry(gap.range_bound, ("K", "sigma0_sq"), "proof of Theorem 5.2"),
    "fact1_tail_bound": Entry(gap.fact1_tail_bound, ("alpha",), "Fact 1 (MGF-inequality)"),
    "mills_lower": Entry(gap.mills_lower, ("t",), "Fact 3"),
    "mills_upper": Entry(gap.mills_upper, ("t",), "Fact 3"),
    "theorem_5_1": Entry(theorems.theorem_5_1_terms, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                         "Theorem 5.1, `them-R`"),
    "theorem_5_2": Entry(theorems.theorem_5_2_terms, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                         "Theorem 5.2, `them-R-Bayes`"),
    "ebar": Entry(theorems.ebar_terms, ("K", "n", "sigma0_sq", "sigma_sq", "delta"), "eq. `decomk-v3`"),
    "outline_gap_terms": Entry(theorems.outline_gap_terms, ("K", "n", "sigma0_sq", "sigma_sq"),
                               "Section 5.2 proof outline"),
    "appendix_gap_terms": Entry(theorems.appendix_gap_terms, ("K", "n", "sigma0_sq", "sigma_sq"), "eq. `prob-dk-v2`"),
    "regret_from_proof": Entry(theorems.regret_bound_from_proof, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                               "proof of Theorem 5.2"),
    "rho": Entry(theorems.rho, ("K", "sigma0_sq", "sigma_sq"), "Theorem 5.1"),
    "eta": Entry(theorems.eta, ("K", "sigma0_sq", "sigma_sq"), "proof of Theorem 5.1"),
    "beta": Entry(theorems.beta, ("K", "sigma0_sq", "sigma_sq"), "Section 5.2, eq. `tilde_c`"),
    "beta_1": Entry(theorems.beta_1, ("K", "sigma0_sq", "sigma_sq"), "proof of Theorem 5.1"),
    "H_b": Entry(theorems.H_b, ("K", "sigma0_sq", "sigma_sq"), "Theorem 5.1"),
    "gamma": Entry(theorems.gamma, ("K", "sigma0_sq", "sigma_sq"), "Theorem 5.1"),
    "m": Entry(theorems.m_exponent, ("K", "sigma0_sq", "sigma_sq"), "Theorem 5.1"),
    "kappa": Entry(theorems.kappa, ("K", "sigma0_sq", "sigma_sq"), "Theorem 5.2"),
    "eta_condition": Entry(theorems.eta_condition, ("K", "sigma0_sq", "sigma_sq"), "eq. `prob-dk`"),
    "delta_threshold": Entry(theorems.delta_threshold, ("K", "sigma0_sq", "sigma_sq"), "Section 5.1"),
    "Tk_upper": Entry(theorems.Tk_upper, ("Delta_k", "K", "n", "sigma0_sq", "sigma_sq"), "eq. `Tk_up1`"),
    "tau_sq_lower": Entry(estimation.tau_sq_lower, ("T_k", "K", "sigma0_sq", "sigma_sq"), "Lemma `sec:tau` (left)"),
    "tau_sq_upper": Entry(estimation.tau_sq_upper, ("T_k", "K", "sigma0_sq", "sigma_sq"), "Lemma `sec:tau` (right)"),
    "var_lemma": Entry(estimation.var_lemma_rhs, ("Delta_k", "tau_sq_k", "tau_sq_best"),
                       "Proposition 4.1, `var-lemma`"),
    "posterior": Entry(estimation.posterior, ("T", "reward_sums", "sigma0_sq", "sigma_sq"),
                       "eqs. `blup`, `MSE`", False, ("T", "reward_sums")),
    "H": Entry(section2.H_complexity, ("means",), "Section 2", False, ("means",)),
    "H_2": Entry(section2.H_2, ("means",), "Section 2", False, ("means",)),
    "ucbe_upper": Entry(section2.ucbe_upper_bound, ("n", "K", "H"), "Section 2 (Audibert et al. 2010)"),
    "ucbe_parameter_limit": Entry(section2.ucbe_parameter_limit, ("n", "K", "H"), "Section 2"),
    "smallgap_upper_threshold": Entry(section2.smallgap_upper_threshold, ("n",), "Section 2"),
    "smallgap_lower_threshold": Entry(section2.smallgap_lower_threshold, ("n",), "Section 2"),
    "ucbe_lower": Entry(section2.ucbe_lower_bound, ("n", "p", "H_2"), "Section 2"),
    "full_info_error": Entry(section2.full_info_error, ("n", "Delta", "sigma_sq"), "eq. `full-e` (exact)", False),
    "feller": Entry(section2.feller_bound, ("n", "Delta", "sigma_sq"), "eq. `full-e-lb`"),
    "feller_small_gap": Entry(section2.feller_small_gap_form, ("n", "alpha", "sigma_sq"), "Section 2.1"),
    "full_alpha_rhs": Entry(section2.full_alpha_rhs, ("n",), "Section 2.1"),
    # repaired statements (bounds/repaired.py; verified by the ledger, shown under each claim's repairs)
    "gap_constant_repaired": Entry(repaired.gap_constant_repaired, ("K",), "Theorem 3.1 repaired (THM-GAP)"),
    "theorem_3_1_repaired": Entry(repaired.theorem_3_1_repaired, ("alpha", "K", "sigma0_sq"),
                                  "Theorem 3.1 repaired (THM-GAP)"),
    "tau_sq_lower_repaired": Entry(repaired.tau_sq_lower_repaired, ("T_k", "K", "sigma0_sq", "sigma_sq"),
                                   "Lemma `sec:tau` (left) repaired (LEM-TAU-LOWER)"),
    "eta_repaired": Entry(repaired.eta_repaired, ("K", "sigma0_sq", "sigma_sq"),
                          "eq. `prob-dk` repaired (PF-ETA-COND)"),
    "eta_condition_repaired": Entry(repaired.eta_condition_repaired, ("K", "sigma0_sq", "sigma_sq"),

                          "eq. `prob-dk` repaired (PF-ETA-COND)"),
    "nu_t_upper_repaired": Entry(repaired.nu_t_upper_repaired, ("sigma0_sq", "nu_sq"),
                                 "proof of Theorem 5.1, before eq. `e31`, repaired (PF-NU-T)"),
    "e3k_bound_repaired": Entry(repaired.e3k_bound_repaired, ("T_k", "x", "nu_sq"), "bound on Pr(not E_3k) repaired "
                                                                                   "(PF-E3K)", int_params=()),
    "e31_bound_repaired": Entry(repaired.e31_bound_repaired, ("x", "sigma0_sq", "nu_sq"),
                                "eq. `e31` repaired (PF-E31)"),
    "not_E_bound_repaired": Entry(repaired.not_E_bound_repaired, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                                  "eq. `decomk-v3` repaired (PF-EBAR-FINAL)"),
    "gap_roots_repaired": Entry(repaired.gap_roots_repaired, ("K", "n", "sigma0_sq", "sigma_sq"),
                                "Theorem 5.1 repaired, its gap terms (THM-FAIL; the shifted Tk_lowv2)"),
    "theorem_5_1_repaired": Entry(repaired.theorem_5_1_repaired_terms, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                                  "Theorem 5.1 repaired (THM-FAIL)"),
    "theorem_5_2_repaired": Entry(repaired.theorem_5_2_repaired, ("K", "n", "sigma0_sq", "sigma_sq", "delta"),
                                  "Theorem 5.2 repaired (THM-REGRET)"),
    "range_second_moment_bound": Entry(repaired.range_second_moment_bound, ("K", "sigma0_sq"),
                                       "proof of Theorem 5.2 repaired"),
    "ucbe_lower_chain_threshold_repaired": Entry(repaired.ucbe_lower_chain_threshold_repaired, ("n", "K", "p"),
                                                 "Section 2 repaired (SEC2-LOWER-CHAIN)"),
    "limit_failure": Entry(limit.failure_lower_bound, ("n", "K", "sigma0_sq", "sigma_sq"),
                           "the limit, every algorithm's e_n at budget n (derived here, `limit_failure`)", False,
                           int_params=("K",)),
    "limit_regret": Entry(limit.regret_lower_bound, ("n", "K", "sigma0_sq", "sigma_sq"),
                          "the limit, every algorithm's sr_n at budget n (derived here, `limit_regret`)", False,
                          int_params=("K",)),
    "limit_constants": Entry(limit.limit_constants, ("K", "sigma0_sq", "sigma_sq"),
                             "the limit's constants of sqrt(n) e_n and n sr_n (derived here)", False),
    "harmonic_log_bound_repaired": Entry(repaired.harmonic_log_bound_repaired, ("K",),
                                         "Section 2 repaired (SEC2-LOWER-H2)", False),
}


def evaluate(name: str, **params: Any) -> Any:
    """Evaluate a registered formula numerically (raises ValueError / UndefinedError)."""
    if name not in REGISTRY:
        raise ValueError(f"unknown bound {name!r}; known: {', '.join(sorted(REGISTRY))}")
    e = REGISTRY[name]
    missing = [p for p in e.params if p not in params]
    if missing:
        raise ValueError(f"{name} needs --{' --'.join(missing)}")
    return e.fn(**{p: params[p] for p in e.params})


def evaluate_record(name: str, **params: Any) -> dict:
    """A registered formula at `params`, as a record: {name, label, params} and its value as
    {"terms", "total"} (a sum of named terms), the fields of a named tuple, {"value"}, or, where the
    formula is undefined there, {"undefined": the reason} (never a crash or a NaN). A ValueError for
    an unknown name or a missing or bad parameter."""
    val = None
    head = {"name": name, "label": REGISTRY[name].label if name in REGISTRY else None, "params": params}
    try:
        val = evaluate(name, **params)
    except UndefinedError as err:
        return {**head, "undefined": err.reason}
    if isinstance(val, dict):
        terms = {k: float(v) for k, v in val.items()}
        return {**head, "terms": terms, "total": float(sum(terms.values()))}
    if hasattr(val, "_fields"):
        return {**head, **{k: _plain(getattr(val, k)) for k in val._fields}}
    return {**head, "value": _plain(val)}


def _plain(v: Any) -> Any:
    """A number or an array as JSON has it (a float, or a list)."""
    if isinstance(v, (str, dict)):
        return v
    a = np.asarray(v, dtype=float)
    return float(a) if a.ndim == 0 else a.tolist()


def symbolic(name: str) -> Any:
    """The sympy expression (or dict of terms) of a registered formula, from the same code."""
    e = REGISTRY[name]
    if not e.symbolic:
        raise ValueError(f"{name} is computed numerically (an integral, a sum over the arms or a search) and has "
                         f"no closed form to print")
    return e.fn(**{p: SYMBOLS[p] for p in e.params})

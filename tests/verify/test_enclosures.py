"""Integrals with rigorous error bounds (`verify.intervals.enclose_integral`, arb integration): a value
within the enclosure is certified, and a floating quadrature off by 1e-9 is caught (the ledger's E[range]
is held to its enclosure in tests/ledger/test_enclosures.py)."""

import math

from rue_verify.verify.intervals import enclose_integral, within


def test_an_enclosure_certifies_a_right_value_and_catches_one_off_by_1e_9():
    enc = enclose_integral(lambda x: (-x * x / 2).exp(), -10, 10, tail=2 * math.exp(-50))   # sqrt(2 pi)
    assert float(enc.rad()) < 1e-12
    exact = math.sqrt(2 * math.pi)
    ok = within(exact, enc, 1e-12, "the Gaussian integral", "x in R")
    assert ok.verdict == "holds" and ok.certified
    off = within(exact + 1e-9, enc, 1e-12, "the Gaussian integral", "x in R")
    assert off.verdict == "refuted" and not off.certified and off.witness["lhs"] > off.witness["rhs"]

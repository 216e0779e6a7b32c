"""Zhu & Qiu's E[range] (Theorem 5.2's Fact) held to its rigorous enclosure (`verify.intervals.enclose_integral`):
a value off by 1e-9 is caught."""


def test_the_ledgers_expected_range_is_held_to_its_enclosure():
    from bounds import gap
    from rue_verify.ledger.section3 import enclosed_ranges
    assert enclosed_ranges((2, 100)).certified
    planted = enclosed_ranges((2, 100), [gap.expected_range(2), gap.expected_range(100) + 1e-9])
    assert planted.verdict == "refuted" and "K = 100" in planted.detail

"""Hypothesis strategies shaped like the paper's domain."""

from hypothesis import strategies as st

K_any = st.integers(min_value=2, max_value=3000)
K_defined = st.integers(min_value=36, max_value=10_000)          # c_K real (ledger: K >= 36)
alpha = st.floats(min_value=1e-4, max_value=5.0)
variance = st.floats(min_value=1e-3, max_value=1e3)
delta = st.floats(min_value=1e-3, max_value=1.0)


@st.composite
def pull_counts(draw, min_pulls: int = 0, max_K: int = 25, max_T: int = 500):
    """A pull-count vector with at least one pulled arm."""
    K = draw(st.integers(2, max_K))
    T = draw(st.lists(st.integers(min_pulls, max_T), min_size=K, max_size=K))
    if sum(T) == 0:
        T[0] = 1
    return T


@st.composite
def history(draw, min_pulls: int = 0):
    """Pull counts and reward sums consistent with them."""
    T = draw(pull_counts(min_pulls))
    means = draw(st.lists(st.floats(-3, 3), min_size=len(T), max_size=len(T)))
    S = [m * t for m, t in zip(means, T)]
    return T, S

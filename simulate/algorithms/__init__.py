"""The algorithms, one module each, and their registry.

`REGISTRY` maps a name to its `spec.Algorithm` entry: the compiled batch entry point, one run
(live or on a reward table), the plain numpy reference, the parameters with defaults and ranges,
and the smallest budget. The runner, the bench and the tests find algorithms here only. Adding an
algorithm means writing its module (ending with `ALGORITHM = Algorithm(...)`) and naming the
module below.
"""

from __future__ import annotations

from . import rue, sequential_halving, successive_rejects, ttts, two_stage, ucbe, uniform
from .spec import Algorithm, Param, Reading

REGISTRY: dict[str, Algorithm] = {m.ALGORITHM.name: m.ALGORITHM for m in (
    rue, ucbe, successive_rejects, sequential_halving, ttts, two_stage, uniform)}


def get(name: str) -> Algorithm:
    """The entry of `name`, or a ValueError that lists the names."""
    if name not in REGISTRY:
        raise ValueError(f"algorithm must be one of {', '.join(REGISTRY)}, got {name!r}")
    return REGISTRY[name]


__all__ = ["REGISTRY", "Algorithm", "Param", "Reading", "get"]

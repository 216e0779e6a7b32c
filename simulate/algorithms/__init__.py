"""The algorithms, one module each, and their registry.

`REGISTRY` maps a name to its `spec.Algorithm` entry: the compiled batch entry point, one run
(live or on a reward table), the plain numpy reference, the parameters with defaults and ranges,
and the smallest budget. The runner, the bench and the tests find algorithms here only. Adding an
algorithm to the package means writing its module (ending with `ALGORITHM = Algorithm(...)`) and
naming the module below; an algorithm outside the package needs neither (`external`).
"""

from __future__ import annotations

import sys

from ..compiling import one_compiler_at_a_time
from . import (
    bayes_elim,
    fixed_share,
    prior_alloc,
    rue,
    rue_heap,
    rue_lazy,
    sequential_halving,
    successive_rejects,
    top_pair,
    ttts,
    two_stage,
    ucbe,
    uniform,
)
from .spec import Algorithm, Param, Reading

REGISTRY: dict[str, Algorithm] = {m.ALGORITHM.name: m.ALGORITHM for m in (
    rue, ucbe, successive_rejects, sequential_halving, ttts, two_stage, uniform, bayes_elim, prior_alloc, top_pair)}
#: a module may declare a second entry (the authors' variant of the prior-informed allocation, RUE's top-two
#: balanced variant)
REGISTRY[prior_alloc.AUTHORS.name] = prior_alloc.AUTHORS
REGISTRY[rue.TOP_TWO.name] = rue.TOP_TWO
REGISTRY[fixed_share.ALGORITHM.name] = fixed_share.ALGORITHM       # added after the paper's peers: their order kept
for _module in (*{sys.modules[a.raw_batch.__module__] for a in REGISTRY.values()}, rue_lazy, rue_heap):
    one_compiler_at_a_time(getattr(_module, "_batch", None))    # processes wanting one kernel at once compile it once
del _module


def get(name: str) -> Algorithm:
    """The entry of `name`: a registry name, an outside algorithm (`module:NAME`, `file.py:NAME`, or
    an entry point of the group `rue_verify.algorithms`; see `external`), or a ValueError that lists
    the names."""
    if name in REGISTRY:
        return REGISTRY[name]
    from .external import load
    alg = load(name) if isinstance(name, str) else None
    if alg is None:
        raise ValueError(f"algorithm must be one of {', '.join(REGISTRY)}, or module:NAME, path/to/file.py:NAME or an "
                         f"installed entry point of the group rue_verify.algorithms; got {name!r}")
    return alg


__all__ = ["REGISTRY", "Algorithm", "Param", "Reading", "get"]

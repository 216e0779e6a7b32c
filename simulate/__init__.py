"""The simulator: environments, algorithms (one registry) and a runner with intervals. `run` calls one
algorithm by name with keyword arguments (`simulate.by_name`)."""

from .by_name import describe, run

__all__ = ["describe", "run"]

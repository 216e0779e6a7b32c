"""The simulator: environments, algorithms (one registry) and a runner with intervals. `run` calls one
algorithm by name with keyword arguments (`simulate.by_name`), loaded on first use, so that importing a
light part (`simulate.stats`, `simulate.seeds`) loads nothing else."""

__all__ = ["describe", "run"]


def __getattr__(name):
    if name in __all__:
        from . import by_name
        return getattr(by_name, name)
    raise AttributeError(f"module 'simulate' has no attribute {name!r}")

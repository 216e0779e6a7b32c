"""The installed package's version, read from its metadata: `pyproject.toml` is the one place it is
written."""

from __future__ import annotations


def package_version() -> str:
    """rue-verify's version as installed ('unknown' when run from a tree that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rue-verify")
    except PackageNotFoundError:
        return "unknown"

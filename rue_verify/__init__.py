"""rue-verify: the claims ledger, the command line and the reports, on top of `bounds` and
`simulate`."""

from simulate.version import package_version

__version__ = package_version()     # pyproject.toml is the one place the version is written

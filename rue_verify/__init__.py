"""rue-verify: the claims ledger, the command line and the reports, on top of `bounds` and
`simulate`."""

__version__ = "0.1.0"

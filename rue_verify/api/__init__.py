"""Every command of `rue-verify` as a function a notebook calls: keyword arguments named as the
command's flags are (`--claim-seconds` is `claim_seconds`, `--id` is `ids`, `--claims` is
`claim_files`), checked here, and an `Output` back: the command's JSON record (`data`), the lines it
prints (`text`), the lines it says on stderr (`notes`) and its exit status. The command line only parses,
calls one of these and prints what it returns.

    >>> from rue_verify import api
    >>> out = api.vacuity(K=100, sigma0_sq=1.0, sigma_sq=0.1, delta=0.01)
    >>> out.data["n_first"] > 1000
    True

Bad input raises `rue_verify.errors.ParameterError` naming the parameter, or a ValueError whose text
says what is wrong; a file that cannot be written, a ParameterError naming where it was to go.
"""

from __future__ import annotations

from .formulas import bound, vacuity
from .ledger import certificates, check_bound, claims, decide, erratum, new_paper, proofs
from .output import Output
from .studies import bench, rates, report, reproduce, simulate, table

#: the command each function is (`rue-verify COMMAND`)
COMMANDS = {"claims": claims, "proofs": proofs, "erratum": erratum, "decide": decide, "check-bound": check_bound,
            "new-paper": new_paper, "bound": bound, "vacuity": vacuity, "simulate": simulate, "bench": bench,
            "table": table, "reproduce": reproduce, "rates": rates, "report": report, "certificates": certificates}

__all__ = ["Output", "COMMANDS", *(f.__name__ for f in COMMANDS.values())]

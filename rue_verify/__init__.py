"""rue-verify: the claims ledger, the command line and the reports, on top of `bounds` and
`simulate`. Grouped by job:

- `verify`: the verification engine, which knows no paper (claims, findings, proofs, the proof graph,
  searches, papers as plug-ins, running a ledger on every core);
- `ledger`: Zhu & Qiu's paper as the first plug-in: its claims, its proof graph and its inputs;
- `reproduction` and `rates`: the studies (Section 6's grid, the rate study), with `studies` (the sweep
  into a result store, summaries, progress);
- `outputs` (the report, the renderer, the erratum, typesetting) and `plots` (the figure families);
- `store`: files written whole, the result store, your own files loaded;
- `cli`: the command line, which only parses and prints;
- your own work: `decide` (steps about RUE's histories), `user_bounds` (your bounds judged as claims),
  `testing` (Hypothesis strategies and assertions that never flake); `errors` is their one error type.
"""

from simulate.version import package_version

__version__ = package_version()     # pyproject.toml is the one place the version is written

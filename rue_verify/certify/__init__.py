"""Certificates a reader can check without the searches that found them (issue 79).

A certificate is one JSON file (UTF-8, sorted keys) in a directory, written by the search that decided a proved
link, and verified here by a small checker that imports none of the searches: no z3, no HiGHS, no
scipy.optimize, no `rue_verify.verify.histories`/`search`/`induction`/`statements` (`tests/certify` enforces it).

Every certificate file holds:

- `kind`: "smt2" (an SMT-LIB 2 problem whose unsatisfiability is the link: re-decided by cvc5), "farkas" (an exact
  history search's tree: every pruned node's Farkas multipliers, checked in exact rationals), "boxes" (an
  interval certificate's box cover, each box's enclosure re-checked with arb) or "sympy" (a step sympy decided
  that z3 does not re-decide: its claim and givens as sympy's srepr, read without `eval`, the toolkit's own
  functions as undefined ones, re-decided by sympy alone by a fixed procedure, `rewrite`);
- `key`: the sha256 of `statement` and `source` (what the link states and the code it is built from), so that a
  changed formula does not match a shipped certificate;
- `statement`: the link's relation as text; `source`: the hash of the code it was built from; `what`: one line
  saying which node and link it certifies;
- the kind's own fields (each module's docstring).

Each checker module (`smt`, `farkas`, `boxes`, `rewrite`) exposes `check(cert: dict) -> tuple[bool, str]`;
`check.py` walks a directory and dispatches on `kind`."""

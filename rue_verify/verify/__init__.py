"""The verification engine, apart from this paper's claims: what a check of any paper's steps needs
and nothing of this one. `histories` decides a step on every history of an algorithm whose choices
are linear in its rewards once its pull sequence is fixed (the algorithm's linear form comes from the
caller, e.g. `simulate.proofs.linear.RUELinear`). It imports no simulator, no bound and no claim."""

"""Simulators and exact forms of RUE that the proofs of Section 5 reason about, apart from the fast
kernels of `simulate.algorithms`: RUE's linear form given its pull sequence (`linear`), which the exact
history search of `rue_verify.verify.histories` walks."""

"""Named random streams: every random quantity of the toolkit comes from one integer seed and a key
that names what it seeds (numpy SeedSequence spawn keys; a text key enters as its CRC-32), so a
stream does not depend on which other streams were drawn, nor in what order."""

from __future__ import annotations

import zlib

import numpy as np


def key_int(k: str | int) -> int:
    """A spawn-key entry: a name's CRC-32, or the integer itself."""
    return zlib.crc32(k.encode()) if isinstance(k, str) else int(k)


def sequence(seed: int, *key: str | int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=tuple(key_int(k) for k in key))


def stream(seed: int, *key: str | int) -> np.random.Generator:
    """The generator named `key` under `seed`."""
    return np.random.default_rng(sequence(seed, *key))


def run_seeds(seed: int, key: str, runs: int) -> np.ndarray:
    """`runs` 64-bit seeds (one per run) named `key` under `seed`."""
    return sequence(seed, key).generate_state(runs, dtype=np.uint64)

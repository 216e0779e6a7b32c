"""Algorithms from outside the package: `module:NAME`, `path/to/file.py:NAME`, or an entry point of
the group `rue_verify.algorithms` that another installed package declares.

NAME is either a full `spec.Algorithm` (compiled kernels, parameters, budget rule: what the
registry's own entries are) or a plain Python function following the protocol

    def my_algorithm(source, K: int, n: int) -> int:
        ...   # source.reward(k): arm k's next reward; source.uniform(): a uniform of the algorithm's own
        return recommended_arm

with optional attributes `min_budget` (an int or a function of K; default K) and `title`. The
function runs at reference speed, one run after another, and gets what the built-in algorithms get:
the runner's seeds, run r's j-th pull of arm k has the same reward as under every built-in algorithm
that draws one reward at a time, given the same reward seeds (the compiled kernels' streams; common
random numbers; not the phase algorithms on Gaussian rewards, `sources.phase_sum`), the same
validation and intervals. The source counts the pulls; a run that pulls an arm that does not exist,
pulls more than n times, returns no arm in range(K), or raises ends the simulation with a
ValueError naming the algorithm, the run and its seeds.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np
from numba import njit

from .sources import live_source, reward
from .spec import Algorithm

GROUP = "rue_verify.algorithms"
_BLOCK = 256


@njit(cache=True)
def _rewards(src, k, m):
    """Arm k's next m rewards of the single run in `src`."""
    out = np.empty(m)
    for j in range(m):
        out[j] = reward(src, 0, k)
    return out


class StreamSource:
    """One live run as a plain algorithm sees it: `reward(k)` reads arm k's stream (the one the
    compiled kernels read for this reward seed), `uniform()` the run's own stream, `argmax(values)`
    breaks ties at random; `pulls` counts what was pulled and the budget is enforced."""

    def __init__(self, mu: np.ndarray, n: int, gaussian: bool, nu, seed: int, reward_seed: int, name: str,
                 run: int):
        self.K = mu.size
        self.n = n
        self.gaussian, self.nu = gaussian, nu
        self._src = live_source(np.ascontiguousarray(mu[None], float), gaussian, nu,
                                np.array([reward_seed], np.uint64), np.array([seed], np.uint64), None)
        self._rng = np.random.default_rng(int(seed))
        self._buf = [np.empty(0)] * self.K
        self._pos = [0] * self.K
        self.pulls = np.zeros(self.K)
        self._where = f"{name}: run {run} (seed {seed}, reward seed {reward_seed})"

    def reward(self, k) -> float:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < self.K:
            raise ProtocolError(f"{self._where} pulled arm {k!r}, which does not exist (arms 0..{self.K - 1})")
        if self.pulls.sum() >= self.n:
            raise ProtocolError(f"{self._where} pulled more than its budget n = {self.n}")
        k = int(k)
        if self._pos[k] == self._buf[k].size:
            self._buf[k] = _rewards(self._src, k, _BLOCK)
            self._pos[k] = 0
        self._pos[k] += 1
        self.pulls[k] += 1
        return float(self._buf[k][self._pos[k] - 1])

    def phase(self, k: int, m: int) -> float:
        """The sum of arm k's next m rewards, drawn one at a time (the built-in phase algorithms draw a
        Gaussian phase's sum at once: `sources.phase_sum`)."""
        return float(sum(self.reward(k) for _ in range(m)))

    def uniform(self) -> float:
        return float(self._rng.random())

    def argmax(self, values) -> int:
        values = np.asarray(values, float)
        best = np.flatnonzero(values == values.max())
        return int(best[min(int(self.uniform() * best.size), best.size - 1)])


class ProtocolError(ValueError):
    """An outside algorithm broke the protocol (see the module docstring)."""


class _Counting:
    """A reference source (`sources.TableSource` or `LiveSource`) that counts pulls."""

    def __init__(self, source, K: int):
        self._s = source
        self.pulls = np.zeros(K)

    def reward(self, k):
        self.pulls[int(k)] += 1
        return self._s.reward(int(k))

    def phase(self, k, m):
        return float(sum(self.reward(k) for _ in range(m)))

    def uniform(self):
        return self._s.uniform()

    def argmax(self, values):
        return self._s.argmax(np.asarray(values, float))


def _recommendation(arm, K: int, where: str) -> int:
    if isinstance(arm, bool) or not isinstance(arm, (int, np.integer)) or not 0 <= arm < K:
        raise ProtocolError(f"{where} returned {arm!r}, not a recommended arm in 0..{K - 1}")
    return int(arm)


def from_function(fn, name: str) -> Algorithm:
    """The registry entry of a plain Python algorithm `fn(source, K, n) -> arm` named `name`."""
    if not callable(fn):
        raise ValueError(f"algorithm {name}: {fn!r} is neither a function nor an Algorithm")
    try:
        inspect.signature(fn).bind(None, 2, 2)
    except TypeError:
        raise ValueError(f"algorithm {name}: {getattr(fn, '__name__', fn)} must take (source, K, n)") from None
    need = getattr(fn, "min_budget", None)

    def min_budget(K, params):
        return int(need(K) if callable(need) else need) if need is not None else K

    def one(mu, n, gaussian, nu, seed, reward_seed, run):
        src = StreamSource(np.asarray(mu, float), n, gaussian, nu, int(seed), int(reward_seed), name, run)
        try:
            arm = fn(src, mu.size, n)
        except ProtocolError:
            raise
        except Exception as err:  # noqa: BLE001 -- the user's code: say where it failed
            raise ValueError(f"{src._where} raised {type(err).__name__}: {err}") from err
        return _recommendation(arm, mu.size, src._where), src.pulls

    def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0):
        means = np.asarray(means, float)
        rec = np.empty(means.shape[0], np.int64)
        pulls = np.empty(means.shape)
        for r in range(means.shape[0]):
            rec[r], pulls[r] = one(means[r], n, gaussian, nu, seeds[r], reward_seeds[r], r)
        return rec, pulls

    def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0):
        if table is None:
            return one(np.asarray(mu, float), n, gaussian, nu, seed, reward_seed, 0)
        from .sources import TableSource
        return reference(TableSource(table, ties), len(mu), n, gaussian, nu)

    def reference(source, K, n, gaussian=False, nu=0.0):
        counting = _Counting(source, K)
        return _recommendation(fn(counting, K, n), K, f"{name}: a reference run"), counting.pulls

    doc = (inspect.getdoc(fn) or "").split("\n\n")[0].replace("\n", " ")
    return Algorithm(name=name, title=getattr(fn, "title", doc or f"{name} (from outside the package)"), batch=batch,
                     run=run, reference=reference, min_budget=min_budget,
                     budget_rule=getattr(fn, "budget_rule", "its own minimum budget" if need else "one pull per arm"),
                     cost=1.0, one_nu="")       # it sees rewards only: any noise, one sd or one per arm


def _object(spec: str):
    where, _, attr = spec.rpartition(":")
    if where.endswith(".py") or "/" in where or where.startswith("."):
        path = Path(where).expanduser()
        if not path.is_file():
            raise ValueError(f"algorithm {spec}: no file {path}")
        mod_name = f"rue_verify_external_{abs(hash(str(path.resolve())))}"
        if mod_name not in sys.modules:
            loader = importlib.util.spec_from_file_location(mod_name, path)
            module = importlib.util.module_from_spec(loader)
            sys.modules[mod_name] = module
            try:
                loader.loader.exec_module(module)
            except Exception as err:  # noqa: BLE001
                del sys.modules[mod_name]
                raise ValueError(f"algorithm {spec}: importing {path} raised {type(err).__name__}: {err}") from None
        module = sys.modules[mod_name]
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as err:
            raise ValueError(f"algorithm {spec}: cannot import module {where} ({err})") from None
    if not hasattr(module, attr):
        raise ValueError(f"algorithm {spec}: {where} defines no {attr}")
    return getattr(module, attr)


def _entry_point(name: str):
    from importlib.metadata import entry_points
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            return ep.load()
    return None


@functools.lru_cache(maxsize=None)
def load(spec: str) -> Algorithm | None:
    """The entry of an outside algorithm (`module:NAME`, `file.py:NAME` or an entry-point name), None
    if `spec` is none of these; a ValueError if it names something that is not an algorithm."""
    if ":" in spec:
        obj = _object(spec)
    else:
        obj = _entry_point(spec)
        if obj is None:
            return None
    if isinstance(obj, Algorithm):
        if obj.name != spec:                     # the name must find it again (Dask workers, worker processes)
            from dataclasses import replace
            obj = replace(obj, name=spec)
        return obj
    return from_function(obj, spec)

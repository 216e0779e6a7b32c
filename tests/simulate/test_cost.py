"""simulate.cost: a request's size, memory and measured duration before it starts. A request whose
arrays would not fit is refused before any work; a very long one says how long it will take, then
runs with Ctrl-C stopping it at once (the kernel runs in a helper thread, so the interrupt is not
held until a chunk of hours ends)."""

import signal
import subprocess
import sys
import time

import pytest

from simulate import cost
from simulate.algorithms import get
from simulate.environments import Environment
from simulate.runner import pilot_rate, simulate


def test_the_estimate_is_the_arm_rounds_at_the_measured_rate():
    items = [("uniform", get("uniform").resolve({}), 20, 10 ** 6, 4000), ("rue", get("rue").resolve({}), 20, 10 ** 6,
                                                                          4000)]
    def bernoulli(*a):
        return pilot_rate(*a, gaussian=False)
    c = cost.estimate(items, bernoulli, pilot_above=0)
    assert c.arm_rounds == 2 * 4000 * 10 ** 6 * 20
    rates = dict(c.rates)
    assert set(rates) == {"uniform", "rue"} and all(r > 0 for r in rates.values())
    assert c.seconds == pytest.approx(4000 * 10 ** 6 * 20 * (1 / rates["uniform"] + 1 / rates["rue"]))
    assert "arm-rounds" in c.sentence() and cost.duration(c.seconds) in c.sentence()
    assert cost.estimate(items[:1], pilot_rate, pilot_above=1e99).seconds is None         # small: no pilot


def test_a_gaussian_phase_algorithms_estimate_counts_its_draws_not_its_rounds():
    """On Gaussian rewards uniform allocation draws one sum per arm (`Algorithm.arm_rounds`), so 4000
    runs at n = 1e9 take well under a minute; on Bernoulli rewards it draws every reward, 8e13 of them,
    which no host does in ten minutes. Each estimate is the request's arm-rounds at the rate it shows (the
    pilot's, converted to this n; scaled by n as before this, the Gaussian one announced hours)."""
    uniform = get("uniform")
    n = 10 ** 9
    items = [("uniform", uniform.resolve({}), 20, n, 4000)]
    est = {}
    for gaussian in (True, False):
        est[gaussian] = cost.estimate(items, lambda *a, g=gaussian: pilot_rate(*a, gaussian=g), pilot_above=0,
                                      work=lambda name, K, n, g=gaussian: get(name).arm_rounds(n, K, g))
        shown = dict(est[gaussian].rates)["uniform"]             # arm-rounds per second at this n
        assert est[gaussian].seconds == pytest.approx(4000 * n * 20 / shown)
    assert est[True].arm_rounds == est[False].arm_rounds == 4000 * n * 20     # the request's size either way
    assert est[True].seconds < 60 < 600 < est[False].seconds


def test_durations_read_in_the_unit_that_fits():
    assert cost.duration(30) == "30 s" and cost.duration(600) == "10.0 minutes"
    assert cost.duration(5 * 3600) == "5.0 hours" and cost.duration(3 * 86400) == "3.0 days"


def test_runs_that_do_not_fit_in_memory_are_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(cost, "available_memory", lambda: 2.0 ** 30)       # a machine with 1 GiB free
    env = Environment("F1", 20)
    announced = []
    with pytest.raises(ValueError, match=r"runs: 2000000 runs on K = 20 arms need about 1\.3 GiB .* 1\.0 GiB"):
        simulate(env, ["uniform"], 100, 2 * 10 ** 6, progress=False, announce=announced.append)
    assert not announced
    simulate(env, ["uniform"], 100, 1000, progress=False)                   # a small request still runs


def test_a_very_long_request_says_how_long_and_ctrl_c_stops_it_at_once():
    p = subprocess.Popen([sys.executable, "-m", "rue_verify.cli", "simulate", "--budget", "1000000000", "--runs",
                          "10000", "--algorithms", "uniform,rue", "-q"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()
    assert first.startswith("rue-verify: this request is 4e+14 arm-rounds") and " days" in first, first
    time.sleep(2)                                                             # inside a kernel of hours
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    rest, _ = p.communicate(timeout=60)[1], None
    assert p.returncode == 130 and time.time() - t0 < 30
    assert rest.strip() == "interrupted; nothing was written"

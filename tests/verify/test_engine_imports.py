"""The engine package loads nothing of this paper: no claim module, no bound, no simulator."""

import subprocess
import sys


def test_importing_the_engine_loads_no_paper_and_no_simulator():
    code = ("import sys, rue_verify.verify.histories\n"
            "print(sorted(k for k in sys.modules if k.split('.')[0] in ('bounds', 'simulate') "
            "or k.startswith('rue_verify.ledger')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    # rue_verify's __init__ reads the version from simulate.version (one place for it): no simulator
    assert out.stdout.strip() == "['simulate', 'simulate.version']"

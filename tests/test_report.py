"""rue_verify.report: the report writes every file it promises, and a real browser (headless
Chromium, Debian's package) loads the page with every image and no error. CI installs chromium
(.ci/run); elsewhere the browser test is skipped when it is missing."""

import json
import os
import re
import shutil
import subprocess

import pytest

from rue_verify.plots.registry import FAMILIES, Scale
from rue_verify.report import report

TINY = Scale("test", mc_draws=2000, rue_runs=6, ucbe_runs=40, full_info_pairs=2000)
CLAIMS = ["SEC2-THR-0223", "THM-GAP", "LEM-TAU-LOWER", "EXP-K80", "DISC-MK"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return out, report(TINY, out, claims=CLAIMS, progress=False)


def test_the_report_writes_every_file_it_promises(built):
    out, res = built
    assert (out / "index.html").exists() and (out / "report.md").exists()
    assert res["figures"] and all((out / f).stat().st_size > 1000 for f in res["figures"])
    names = {f.split("/")[1].rsplit(".", 1)[0] for f in res["figures"]}
    assert {"ledger-overview", "theorem-3-1", "c-K-constant", "theorem-5-1", "theorem-5-2", "ucbe-bound",
            "full-information", "informative-region", "tau-lemma"} <= names <= set(FAMILIES)
    assert {t.split("/")[1][:-4] for t in res["tables"]} == names        # each figure's data beside it
    assert all((out / t).read_text().startswith("# {") for t in res["tables"])
    done = json.loads((out / "COMPLETE.json").read_text())        # written last: the run was not cut short
    assert done["claims"] == len(CLAIMS) and sorted(done["figures"]) == sorted(names)
    page = (out / "index.html").read_text()
    assert page.index("The claims ledger") < page.index("Figures") < page.index("Evidence, claim by claim")
    for cid in CLAIMS:                              # a row per claim, linked to its evidence
        anchor = "claim-" + cid
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page
    md = (out / "report.md").read_text()
    assert all(f"figures/{n}.png" in md for n in names)


def test_a_real_browser_loads_every_image_without_error(built):
    browser = shutil.which("chromium")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI (.ci/run installs Debian's chromium package)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    out, res = built
    url = (out / "index.html").resolve().as_uri()
    r = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                        "--enable-logging=stderr", "--v=0", "--dump-dom", url], capture_output=True, text=True,
                       timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    status = re.search(r'id="load-status" data-loaded="(-?\d+)" data-broken="(-?\d+)"', r.stdout)
    assert status, r.stdout[-1000:]
    assert int(status.group(2)) == 0 and int(status.group(1)) == len(res["figures"]) // 2
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, console


def test_a_reproduction_gets_its_figures_and_its_claims_judged(tmp_path):
    from rue_verify.report import write_reproduction
    from rue_verify.reproduction import reproduce
    res = write_reproduction(reproduce("quick", tmp_path, studies=["two-stage"], progress=False))
    assert sorted(res["figures"]) == ["figure4-two-stage.csv", "figure4-two-stage.png", "figure4-two-stage.svg"]
    summary = (tmp_path / "summary.md").read_text()
    assert "## The empirical claims on these results" in summary and "EXP-TWOSTAGE" in summary
    assert str(tmp_path) in summary                      # the findings name the results they used
    # a claim whose study did not run is not judged, and the summary says why
    assert summary.count("EXP-F-CLAIMS") == 1 and "EXP-F-CLAIMS (these results hold no rows of the fixed" in summary

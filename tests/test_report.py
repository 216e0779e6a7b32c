"""rue_verify.outputs.report: the report writes every file it promises, and a real browser (headless
Chromium, Debian's package) loads the page with every image and no error. CI installs chromium
(.ci/run); elsewhere the browser test is skipped when it is missing."""

import html
import json
import os
import re
import shutil
import subprocess

import pytest

from rue_verify.outputs.report import report
from rue_verify.plots.registry import FAMILIES, Scale

# one worker builds the module's fixture once (xdist would otherwise build it in each worker)
pytestmark = pytest.mark.xdist_group("tiny_report")

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
    assert page.index('id="filters"') < page.index("The claims ledger") < page.index("Evidence and figures")
    from rue_verify.ledger import REGISTRY
    from rue_verify.outputs.paper_latex import statement_tex
    for cid in CLAIMS:        # each statement beside its verdict, in a filterable row: the paper's own LaTeX
        c = REGISTRY[cid]     # where it labels the statement
        tex = statement_tex(c.location)
        want = (f'<td><div class="paper-tex" title="{html.escape(c.statement)}">{html.escape(tex)}</div></td>'
                if tex else f'<td>{html.escape(c.statement)}</td>')
        assert want in page, cid
    for n in names - {"ledger-overview"}:          # each figure once, inside the evidence of a claim it bears on
        shown = '<div class="inline-svg"><svg' if FAMILIES[n].inline else f'<img src="figures/{n}.png"'
        assert page.count(shown) == 1
        claims = [c for c in CLAIMS if c in FAMILIES[n].claims]
        if claims:
            section = page[page.index(f'id="claim-{claims[0]}"'):]
            assert section.index(f'id="fig-{n}"') < section.index("</section>")
    # the proof graphs' nodes link to evidence that is on the page (only the claims this report ran)
    links = set(re.findall(r'xlink:href="#(claim-[^"]+)"', page))
    assert links and all(f'id="{a}"' in page for a in links)
    for cid in CLAIMS:                              # a row per claim, linked to its evidence
        anchor = "claim-" + cid
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page
    md = (out / "report.md").read_text()
    assert all(f"figures/{n}.png" in md for n in names)


def dump_dom(url: str):
    """The page at `url` after headless Chromium ran its scripts (stdout: the DOM; stderr: the log)."""
    browser = shutil.which("chromium")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI (.ci/run installs Debian's chromium package)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    r = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                        "--enable-logging=stderr", "--v=0", "--dump-dom", url], capture_output=True, text=True,
                       timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    return r


def test_a_real_browser_loads_every_image_without_error(built):
    out, res = built
    r = dump_dom((out / "index.html").resolve().as_uri())
    status = re.search(r'id="load-status" data-loaded="(-?\d+)" data-broken="(-?\d+)"', r.stdout)
    assert status, r.stdout[-1000:]
    images = [f for f in res["figures"] if f.endswith(".png") and not FAMILIES[f[8:-4]].inline]
    assert int(status.group(2)) == 0 and int(status.group(1)) == len(images)
    assert r.stdout.count('<div class="inline-svg"><svg') == 1      # the proof graphs, inline with their links
    console = [line for line in r.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, console


def test_the_formulas_are_typeset_offline_in_a_real_browser(built):
    """The vendored KaTeX renders every formula of the page (the paper's typeset statements and the
    repairs' formulas from sympy), from files beside it: rendered ones counted, none in error, and as
    many display formulas as the page holds."""
    out, _ = built
    page = (out / "index.html").read_text()
    assert "https://" not in page.split("<body>")[0]                # nothing fetched from the network
    assert (out / "katex" / "katex.min.js").exists() and (out / "katex" / "LICENSE").exists()
    r = dump_dom((out / "index.html").resolve().as_uri())
    status = re.search(r'id="math-status" data-rendered="(-?\d+)" data-errors="(-?\w+)"', r.stdout)
    assert status and status.group(2) == "0", status and status.group(0)
    displays = page.count('<div class="math">') + page.count('class="paper-tex"')
    assert displays >= 3 and int(status.group(1)) >= displays     # THM-GAP: the paper's statement and its repair
    assert r.stdout.count('class="katex-display"') >= page.count('<div class="math">')


def test_a_reproduction_gets_its_figures_and_its_claims_judged(tmp_path):
    from rue_verify.studies.summary import reproduce
    res = reproduce("quick", tmp_path, studies=["two-stage"], progress=False)
    assert sorted(res["figures"]) == ["figure4-two-stage.csv", "figure4-two-stage.png", "figure4-two-stage.svg"]
    summary = (tmp_path / "summary.md").read_text()
    assert "## The empirical claims on these results" in summary and "EXP-TWOSTAGE" in summary
    assert str(tmp_path) in summary                      # the findings name the results they used
    # a claim whose study did not run is not judged, and the summary says why
    assert summary.count("EXP-F-CLAIMS") == 1 and "EXP-F-CLAIMS (these results hold no rows of the fixed" in summary


def test_the_filters_work_in_a_real_browser(built):
    """A link that carries a verdict filter (index.html#verdict=V) shows the claims of that verdict
    only, in the table and in the evidence; the count says how many."""
    out, _ = built
    page = (out / "index.html").read_text()
    verdicts = re.findall(r'<tr data-verdict="([^"]+)"', page)
    chosen = verdicts[0]
    r = dump_dom((out / "index.html").resolve().as_uri() + "#verdict=" + chosen)
    rows = re.findall(r'<tr data-verdict="([^"]+)"[^>]*?( hidden(?:="")?)?>', r.stdout)
    assert len(rows) == len(verdicts) and rows
    assert all((v == chosen) == (not hidden) for v, hidden in rows), rows
    assert f'{verdicts.count(chosen)} shown' in r.stdout


def test_your_bounds_are_judged_and_your_sections_have_headings(tmp_path):
    """report --bounds judges each bound as check-bound does, and the page and report.md show its
    verdict under a heading of its own ('Your bounds'), as your claims get 'Your claims'."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "mybound.py").write_text("import math\n\ndef tiny(K, n, sigma0_sq, sigma_sq):\n"
                                     "    return 0.001 * math.sqrt(K / n)\n")
    out = tmp_path / "report"
    report(TINY, out, claims=["DISC-MK"], progress=False, your_bounds=(("failure", f"{mine / 'mybound.py'}:tiny"),))
    md = (out / "report.md").read_text()
    assert "## Your bounds" in md and "BOUND:mybound:tiny) | **refuted**" in md
    assert md.index("## Your bounds") > md.index("## The claims ledger")
    page = (out / "index.html").read_text()
    assert 'data-section="Your bounds"' in page and "BOUND:mybound:tiny" in page


def test_each_proved_links_certificate_is_written_beside_the_page_and_cvc5_re_decides_one(built):
    """The proofs section names, per node, the SMT-LIB certificate of each link z3 decided; every file it names is
    in certificates/ under its key, nothing else is, and cvc5 re-decides one of them."""
    from rue_verify.certify import smt
    out, _ = built
    named = set(re.findall(r"certificates/([0-9a-f]{64})\.json", (out / "report.md").read_text()))
    files = {p.stem for p in (out / "certificates").glob("*.json")} if (out / "certificates").exists() else set()
    assert named == files and files                 # LEM-TAU-LOWER's repaired derivation has z3 links
    page = (out / "index.html").read_text()
    assert all(f'<a href="certificates/{k}.json">' in page for k in files)       # the page links each file
    for key in files:
        cert = json.loads((out / "certificates" / f"{key}.json").read_text())
        assert cert["key"] == key == smt.key(cert["statement"], cert["source"])
    cert = json.loads((out / "certificates" / f"{sorted(files)[0]}.json").read_text())
    ok, detail = smt.check(cert)
    assert ok, detail


def test_the_measured_seconds_name_real_figure_families_and_order_the_longest_first():
    """The report's pool takes its longest tasks first (`_figure_seconds`, `runner.unit_seconds`): the shipped table
    names only real families and times some of them."""
    from rue_verify.outputs.report import _figure_seconds
    took = _figure_seconds()
    assert took and set(took) <= set(FAMILIES) and max(took.values()) > 0

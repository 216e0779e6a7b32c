"""rue_verify.outputs.render: the text, Markdown and HTML views of the ledger say the same things: every
claim's verdict and summary, every finding (with its qualifiers and witness) and every repair with its
own evidence appear in each."""

import html
import json

import pytest

from rue_verify.ledger import Mode, run_ledger
from rue_verify.outputs import render
from rue_verify.outputs.render import PALETTE
from rue_verify.verify import SEVERITY

IDS = ["THM-GAP", "LEM-TAU-LOWER", "EXP-K80", "DISC-MK", "PF-NU-T"]      # refuted with repairs, holds, reading


@pytest.fixture(scope="module")
def results():
    return run_ledger(Mode(seed=3), IDS)


def pieces(results):
    """Every string a full rendering must carry."""
    out = []
    for r in results:
        out += [r.id, r.verdict, r.statement]
        for f in r.findings + [g for x in r.repairs for g in x.findings]:
            out += [render.tag(f), f.domain, f.detail] + ([json.dumps(f.witness)] if f.witness else [])
        out += [x.statement for x in r.repairs]
    return out


def test_every_view_carries_every_finding_witness_and_repair(results):
    assert any(r.repairs for r in results) and any(f.witness for r in results for f in r.findings)
    text = "\n".join(render.text(results, verbose=True, width=10 ** 6))
    md = render.markdown(results, "t", "i")
    page = html.unescape(render.html_table(results) + render.html_evidence(results))
    for p in pieces(results):
        assert p in md, p
        if p.startswith("{"):                            # a witness: indented in HTML, one line elsewhere
            assert json.loads(p) in [json.loads(w) for w in _pre_blocks(page)], p
        else:
            assert p in page, p
        if p not in (r.statement for r in results):      # the text view does not repeat statements
            assert p in text, p
    for r in results:                                    # where a slow ledger spends its time
        assert f"{r.id} " in text and f"({r.seconds:.1f} s, {r.mode} mode)" in text
    assert "s, quick mode)" not in "\n".join(render.text(results, verbose=False, width=10 ** 6))


def _pre_blocks(page):
    return [b.split("</pre>")[0] for b in page.split("<pre>")[1:]]


def test_summaries_and_verdicts_in_each_table(results):
    md = "\n".join(render.markdown_table(results))
    page = html.unescape(render.html_table(results))
    for r in results:
        assert r.summary.replace("|", "/") in md and r.summary in page
        assert f"**{r.verdict}**" in md and PALETTE[r.verdict] in page


def test_one_palette_covers_every_verdict():
    assert set(PALETTE) == set(SEVERITY)

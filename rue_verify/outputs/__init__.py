"""What a run is shown as: the report (`report`: the HTML page and its Markdown), the one renderer of
claims and findings (`render`), the LaTeX erratum (`erratum`), formulas typeset from the checked
expressions (`typeset`), the paper's own LaTeX of its statements (`paper_latex`) and how to cite
(`citation`). The figures are `rue_verify.plots`."""

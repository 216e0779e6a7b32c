"""Writes the notebooks in docs/notebooks (outputs stripped; the test suite executes them). Run from
the repository root: python3 docs/notebooks/make_notebooks.py"""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def nb(path, cells):
    book = new_notebook(cells=[new_markdown_cell(c) if kind == "md" else new_code_cell(c) for kind, c in cells],
                        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(book, path)


nb("docs/notebooks/01-check-a-constant.ipynb", [
    ("md", "# Check a constant of the paper numerically\n\nTheorem 3.1 (`lemma-true`) says the top two of K "
           "prior draws N(mu0, sigma0^2) are within alpha with probability at most c_K alpha / sigma0. Here: the "
           "exact probability, the bound, how loose it is, the smallest valid constant, and a Monte Carlo check "
           "with an exact interval. Every number is computed; change K and alpha freely."),
    ("code", "import numpy as np\n\nimport bounds\nfrom rue_verify import testing\n\nsigma0_sq = 1.0\n"
             "for K in (40, 100, 1000):\n    for alpha in (0.01, 0.1, 0.5):\n"
             "        exact = bounds.e_star(alpha, K, sigma0_sq)\n"
             "        bound = bounds.theorem_3_1_bound(alpha, K, sigma0_sq)\n"
             "        print(f'K={K:5d} alpha={alpha:<5} e*={exact:.4g} bound={bound:.4g} ratio={bound / exact:.3g}')"),
    ("md", "Where the mathematics is undefined the toolkit says so instead of returning NaN:"),
    ("code", "try:\n    bounds.c_K(10)\nexcept bounds.UndefinedError as err:\n    print('undefined:', err)"),
    ("md", "The smallest constant C with e*(alpha) <= C alpha / sigma0 for every alpha, against the paper's c_K:"),
    ("code", "for K in (40, 100, 1000):\n"
             "    print(K, round(bounds.gap_constant_tightest(K), 4), round(bounds.c_K(K), 4))"),
    ("md", "A Monte Carlo check of the bound at one point, with an exact binomial interval at level 1 - 1e-6 "
           "(fixed seed, so it cannot flake):"),
    ("code", "rng = np.random.default_rng(1)\nK, alpha, R = 100, 0.05, 20_000\n"
             "mu = np.sort(rng.normal(0, 1, (R, K)), axis=1)\nhits = int(np.sum(mu[:, -1] - mu[:, -2] <= alpha))\n"
             "ci = testing.assert_rate_below(hits, R, bounds.theorem_3_1_bound(alpha, K, 1.0))\n"
             "print(f'{hits}/{R}: interval [{ci.low:.4f}, {ci.high:.4f}], exact {bounds.e_star(alpha, K, 1.0):.4f}')"),
])

nb("docs/notebooks/02-bound-versus-simulation.ipynb", [
    ("md", "# A bound against simulation, for your parameters\n\nTheorem 5.1 bounds RUE's Bayesian failure "
           "probability. The figure family computes a tidy table (the bound's terms and RUE simulated under the "
           "paper's model, with intervals) and draws it. Small settings here so that the notebook runs in "
           "seconds; raise `runs` for a real study."),
    ("code", "%matplotlib inline\nfrom rue_verify.plots import theory\n\n"
             "table = theory.theorem_5_1_table(settings=((50, 1.0, 0.5, 0.1),), runs=40, seed=1)\n"
             "print(table.to_csv().splitlines()[0])\nfig = theory.draw_theorem_5(table)"),
    ("md", "The same for the simple regret (Theorem 5.2):"),
    ("code", "table = theory.theorem_5_2_table(settings=((50, 1.0, 0.5, 0.1),), runs=40, seed=1)\n"
             "fig = theory.draw_theorem_5(table)"),
])

nb("docs/notebooks/03-property-tests-for-your-algorithm.ipynb", [
    ("md", "# Property-based tests for your own algorithm\n\nAn algorithm written outside the package is a "
           "function `(source, K, n) -> arm`. It runs beside the paper's algorithms on the same reward streams, "
           "and `rue_verify.testing` gives Hypothesis strategies and assertions for its tests."),
    ("code", "import pathlib\nimport sys\nimport tempfile\n\nhere = pathlib.Path(tempfile.mkdtemp())\n"
             "(here / 'my_algorithm.py').write_text('''\nimport numpy as np\n\n"
             "def explore_then_commit(source, K, n):\n"
             "    \"\"\"Half the budget round robin, the rest on the two leaders.\"\"\"\n"
             "    sums, counts = np.zeros(K), np.zeros(K)\n    for t in range(n):\n"
             "        k = t % K if t < n // 2 else int(np.argsort(-sums / np.maximum(counts, 1))[t % 2])\n"
             "        sums[k] += source.reward(k)\n        counts[k] += 1\n"
             "    return source.argmax(sums / np.maximum(counts, 1))\n''')\nsys.path.insert(0, str(here))"),
    ("md", "Run it beside RUE and uniform allocation with common random numbers:"),
    ("code", "from simulate.environments import Environment\nfrom simulate.runner import simulate\n\n"
             "algorithms = ['rue', 'uniform', 'my_algorithm:explore_then_commit']\n"
             "res = simulate(Environment('F2', 20), algorithms, 'H', runs=100, seed=0, crn=True, progress=False)\n"
             "for r in res.results:\n"
             "    print(f'{r.algorithm:35s} {r.error_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]')"),
    ("md", "Property tests: it spends exactly its budget on any instance, and its failure rate is not "
           "significantly above uniform allocation's measured rate (exact intervals, fixed seeds)."),
    ("code", "from hypothesis import given, settings\n\nfrom rue_verify import testing\n\n\n"
             "@settings(max_examples=10, deadline=None)\n"
             "@given(mu=testing.bandit_instances(max_K=6), seed=testing.seeds)\n"
             "def test_spends_its_budget(mu, seed):\n"
             "    testing.assert_spends_budget('my_algorithm:explore_then_commit', mu, n=8 * mu.size, seed=seed)\n\n\n"
             "test_spends_its_budget()\n"
             "uniform_rate = res.results[1].ci_high\n"
             "testing.assert_simulated_rate_below('my_algorithm:explore_then_commit', Environment('F2', 20), 'H',\n"
             "                                    bound=uniform_rate, runs=200, seed=3)\n"
             "print('both properties hold')"),
])

nb("docs/notebooks/04-check-your-own-bound.ipynb", [
    ("md", "# Check your own bound\n\nA bound on an algorithm's Bayesian failure probability (or simple regret) "
           "under the paper's model is a plain function `(K, n, sigma0_sq, sigma_sq) -> float` in a file of your "
           "own. `check_bound` judges it with the ledger's machinery: against the rate study's measured truth, "
           "for tightness and its exponent in n, and by an adversarial Monte Carlo search. Two bounds here: a "
           "deliberately wrong one and a correct but loose one."),
    ("code", "from pathlib import Path\n\n"
             "Path('mybounds.py').write_text(\n"
             "    'import math\\n\\n\\n'\n"
             "    'def too_small(K, n, sigma0_sq, sigma_sq):\\n'\n"
             "    '    return 0.01 * math.sqrt(K / n)\\n\\n\\n'\n"
             "    'def loose(K, n, sigma0_sq, sigma_sq):\\n'\n"
             "    '    return min(1.0, 3 * math.sqrt(K * math.log(n) / n))\\n'\n"
             ")"),
    ("md", "The wrong bound is refuted; its witnesses name K, n, sigma0_sq and sigma_sq and recompute:"),
    ("code", "from rue_verify.ledger import Mode\nfrom rue_verify.user_bounds import check_bound, recompute\n\n"
             "small = Mode('notebook', search_points=6, search_runs=100, confirm_runs=1000)\n"
             "wrong = check_bound('mybounds.py:too_small', 'failure', 'rue', mode=small)\nprint(wrong.verdict)\n"
             "for f in wrong.findings:\n    if f.verdict == 'refuted' and f.kind == 'computed':\n"
             "        w = f.witness\n        at = {k: w['params'][k] for k in ('K', 'n', 'sigma0_sq', 'sigma_sq')}\n"
             "        print(f.detail[:160])\n"
             "        print('  at', at, w['lhs'], '>', w['rhs'], '; again:', recompute(w))"),
    ("md", "The loose bound holds, with how loose it is and how fast it falls with n against the truth:"),
    ("code", "loose = check_bound('mybounds.py:loose', 'failure', 'rue', mode=small)\nprint(loose.verdict)\n"
             "for f in loose.findings:\n    print(f'{f.verdict:>9} {f.kind:>10}  {f.detail[:100]}')"),
])

"""The verification engine, apart from any paper's claims: what a check of a paper's statements and
proof steps needs, and nothing of one paper.

- `findings`: a check's finding (verdict, domain, evidence, how a pass was decided) and the
  constructors that compute its verdict from numbers;
- `proofs`: proofs as steps, each checked, argued or resting on another node;
- `derivation`: proofs as derivations, a chain from a statement's computed side to the other, every link
  justified (decided, a cited schema instantiated, a node it rests on, an earlier fact, a rule on sums);
  `schemas`: classical results as relation schemas;
- `code_mutants`: the proofs mutation-tested against the formulas they are built from;
- `papers`: a paper as a plug-in (`Paper`: its claim modules, node table, settings and inputs), loaded
  by name, module or file (`load_paper`); the engine reaches every paper through it;
- `claims`: claims and repairs declared once, in one registry namespaced by paper, with the `Mode` a
  run works in;
- `runner`: running a ledger (one process or several) and collecting its results and graph;
- `graph`: a proof graph resolved from a node table and the results;
- `witnesses`: witnesses computed again (searches register how to replay theirs);
- `search`, `montecarlo`: deterministic and adversarial Monte Carlo searches of a parameter space;
- `intervals`: a closed-form inequality proved on a whole box by arb interval arithmetic;
- `histories`: a step decided on every history of an algorithm that is linear in its rewards once
  its pull sequence is fixed (the algorithm's linear form comes from the caller);
- `induction`: a step about an algorithm's histories proved for every budget by induction over its
  states, each case decided by the SMT solver z3 (the algorithm's abstract states come from the caller).

Importing it loads no paper's claim, no bound and no simulator (`tests/verify/test_engine_imports.py`). Declare
your own claims with the names below (`from rue_verify.verify import claim, from_value, witness`).
"""

from .claims import (
    REGISTRY,
    Claim,
    ClaimResult,
    Expect,
    LedgerInputs,
    Mode,
    NoRepair,
    Repair,
    auto_summary,
    claim,
    claims_in,
    repair,
    run_claim,
)
from .derivation import (
    Cite,
    CountTimesMax,
    Cup,
    Decide,
    Derivation,
    Ex,
    Fact,
    Found,
    Mean,
    Monotone,
    Normal,
    Pr,
    Rule,
    Schema,
    Statement,
    Telescope,
    Termwise,
    UnionBound,
    cup,
    derive,
    event,
    from_derivation,
    link,
    restate,
    rests,
)
from .findings import (
    DECIDED,
    KINDS,
    METHODS,
    SEVERITY,
    Finding,
    about,
    corroborating,
    fmt,
    from_certificate,
    from_classes,
    from_count,
    from_exact,
    from_exhaustive,
    from_intervals,
    from_majority,
    from_margin,
    from_parts,
    from_rate,
    from_tightness,
    from_value,
    overall,
    reading,
    shorten,
    weakest,
    witness,
)
from .graph import count_at
from .lemmas import (
    Gaussian,
    bounded,
    concave,
    convex,
    dominated,
    gaussian_tail,
    held,
    integrable,
    nonnegative,
    sample_mean,
    union_bound,
)
from .papers import Paper, load_paper
from .proofs import Argued, Cites, Rests, Sampled, from_proof, proof_mutants, proof_status, settle_proof, solved
from .statements import Condition, Holds, on_box, rel

__all__ = [
    'count_at',
    'REGISTRY', 'Claim', 'ClaimResult', 'Expect', 'LedgerInputs', 'Mode', 'NoRepair', 'Repair',
    'auto_summary', 'claim', 'claims_in', 'repair', 'run_claim', 'DECIDED', 'KINDS', 'METHODS', 'SEVERITY',
    'Finding', 'about', 'corroborating', 'fmt', 'from_certificate', 'from_classes', 'from_count', 'from_exact',
    'from_exhaustive', 'from_intervals', 'from_majority', 'from_margin', 'from_parts', 'from_rate',
    'from_tightness', 'from_value', 'overall', 'reading', 'shorten', 'weakest', 'witness', 'Argued', 'Cites', 'Rests',
    'Sampled', 'from_proof', 'proof_mutants', 'proof_status', 'settle_proof', 'solved', 'Condition', 'Holds',
    'bounded', 'concave', 'convex', 'dominated', 'held', 'integrable', 'nonnegative', 'rel', 'Gaussian',
    'gaussian_tail', 'sample_mean', 'union_bound', 'on_box', 'Paper', 'load_paper',
    'Cite', 'CountTimesMax', 'Cup', 'Decide', 'Derivation', 'Ex', 'Fact', 'Found', 'Mean', 'Monotone', 'Normal', 'Pr',
    'Rule', 'Schema', 'Statement', 'Telescope', 'Termwise', 'UnionBound', 'cup', 'derive', 'event', 'from_derivation',
    'link', 'restate', 'rests',
]

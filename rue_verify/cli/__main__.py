"""`python3 -m rue_verify.cli ARGS`: the same as `rue-verify ARGS`."""

from . import main

raise SystemExit(main())

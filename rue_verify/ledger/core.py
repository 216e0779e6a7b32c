"""The names a claims file declares its claims with, where the README of earlier versions pointed:
they live in the verification engine now (`rue_verify.verify`), and this module keeps them
importable from here, unchanged."""

from ..verify import *  # noqa: F401,F403

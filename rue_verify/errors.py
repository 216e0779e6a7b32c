"""The error a library function raises for bad input to one named parameter, so that each caller can
say it in its own terms (the command line names the flag, a Python caller the argument)."""

from __future__ import annotations


class ParameterError(ValueError):
    """Bad input for the parameter `param` (named as the Python API names it: 'results', 'rates');
    `reason` says what is wrong. Its text is 'param: reason'."""

    def __init__(self, param: str, reason: str):
        super().__init__(f"{param}: {reason}")
        self.param, self.reason = param, reason

    def __reduce__(self):
        # rebuilt from both fields: the default (the class and its one message) cannot be unpickled, and a
        # worker process's error then broke the whole pool instead of reaching the caller
        return (type(self), (self.param, self.reason))

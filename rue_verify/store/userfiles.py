"""Your own files, loaded as the toolkit's extension points load them: a path to a `.py` file or an
importable module name, imported without writing `__pycache__` beside your file; a file's directory
goes on the import path, as for a script, so it can import its neighbours; any error while importing
it becomes one `ParameterError` naming the parameter and the file."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from ..errors import ParameterError


def load_module(where: str, param: str) -> ModuleType:
    """The module `where` names: a path ending in .py, or a module name. `param` names the parameter
    (or flag) it came from, for the error."""
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise ParameterError(param, f"no file {where}")
            here = str(path.resolve().parent)       # as Python runs a script: its directory is importable, so
            if here not in sys.path:                # the file can import the modules beside it (kept, for
                sys.path.insert(0, here)            # imports its functions make when they run)
            spec = importlib.util.spec_from_file_location(f"rue_verify_user_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)
            before, sys.dont_write_bytecode = sys.dont_write_bytecode, True     # no __pycache__ beside it
            try:
                spec.loader.exec_module(module)
            finally:
                sys.dont_write_bytecode = before
            return module
        return importlib.import_module(where)
    except ParameterError:
        raise
    except KeyboardInterrupt:
        raise
    except SystemExit as err:            # a file that ends the interpreter as it is imported ends nothing here
        raise ParameterError(param, f"importing {where} failed: it calls sys.exit({err.code!r}) at import (a file "
                                    "the toolkit loads declares things; guard a script's code with "
                                    "if __name__ == '__main__':)") from None
    except BaseException as err:         # your file: any error while importing it is reported, in one line
        from ..verify.faults import one_line
        raise ParameterError(param, f"importing {where} failed: {one_line(err, ours=False)}") from None

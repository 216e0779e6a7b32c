"""Sphinx configuration of rue-verify's API documentation (built by the test suite with -W)."""

project = "rue-verify"
author = "the rue-verify developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "none"          # signatures show the parameters; the docstrings say their types
napoleon_google_docstring = True
napoleon_numpy_docstring = False
default_role = "code"               # `name` in a docstring is code, as the docstrings write it
html_theme = "alabaster"
exclude_patterns = ["_build"]
suppress_warnings = ["autodoc.import_object"]

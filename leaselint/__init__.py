"""leaselint: find and fix unsafe lease releases in Python code."""

# The version's one source: pyproject.toml reads it; tests check that CHANGELOG.md, the README's
# install lines and action.yml name this one.
__version__ = "0.1.0"

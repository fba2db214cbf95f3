"""leaselint: find and fix unsafe lease releases in Python code."""

__version__ = "0.1.0"

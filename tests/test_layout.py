"""The package's modules import each other one way: the settings and the file walk share their path
rules through leaselint/paths.py, and neither imports the other at import time."""

from __future__ import annotations

import subprocess
import sys


def _loaded_after(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(m for m in sys.modules if m.startswith('leaselint'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_settings_and_discover_do_not_import_each_other():
    assert "leaselint.discover" not in _loaded_after("leaselint.settings")
    assert "leaselint.settings" not in _loaded_after("leaselint.discover")
    assert "leaselint.paths" in _loaded_after("leaselint.settings") & _loaded_after("leaselint.discover")

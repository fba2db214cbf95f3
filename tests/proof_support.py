"""What the store proof tests share: fixing a copy with the real CLI, importing it, reading its warnings."""

from __future__ import annotations

import importlib.util
import itertools
import logging
import subprocess
import sys
from pathlib import Path

_module_numbers = itertools.count()


def run_cli(path: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "leaselint", *flags, str(path)],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_module(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def fix_copy(tmp_path: Path, source: str, *flags: str, clean: bool = True) -> Path:
    """A copy of `source` fixed by the CLI with `flags` (default `--fix`).

    With `clean`, asserts that the run fixed something, left nothing, and that a second run with every
    fix enabled finds nothing and writes nothing.
    """
    flags = flags or ("--fix",)
    path = write_module(tmp_path, "fixed", source)
    result = run_cli(path, *flags)
    assert "fixed," in result.stdout, result.stdout + result.stderr
    assert path.read_text(encoding="utf-8") != source
    if clean:
        assert result.returncode == 0, f"leaselint {' '.join(flags)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
        assert "fixed, 0 remaining)" in result.stdout, result.stdout
        assert_idempotent(path)
    return path


def assert_idempotent(path: Path) -> None:
    """A second run with every fix enabled finds nothing and writes nothing."""
    before = path.read_bytes()
    again = run_cli(path, "--fix", "--unsafe-fixes")
    assert again.returncode == 0, f"second run exited {again.returncode}:\n{again.stdout}{again.stderr}"
    assert again.stdout.strip() == "All checks passed!", again.stdout
    assert again.stderr == ""
    assert path.read_bytes() == before


def load(path: Path):
    """Import a module from its path under a name no other test uses."""
    name = f"leaselint_store_proof_{path.stem}_{next(_module_numbers)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lost_lease_warnings(caplog, module) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == module.__name__ and r.levelno >= logging.WARNING]


def assert_reported_lost(caplog, module, key: str) -> None:
    """Exactly one warning from the module, and it names the key."""
    records = lost_lease_warnings(caplog, module)
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].levelno == logging.WARNING
    assert key in records[0].getMessage()

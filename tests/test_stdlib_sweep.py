"""The running interpreter's standard library, linted: no internal error, LL000 only where Python
itself cannot parse (or libcst cannot, named), and every finding printed so a false positive shows.

Every file goes through the command's own path (read, prefilter, lint). libcst is slow on 2 cores,
so the full check (no prefilter, with --fix --unsafe-fixes in memory) runs on the files whose bytes
mention lease or lock words, and on every file Python cannot parse.
"""

from __future__ import annotations

import ast
import os
import sysconfig
import time
import warnings

import pytest

from leaselint.runner import lint_paths
from leaselint.settings import Settings

STDLIB = sysconfig.get_paths()["stdlib"]
# Lease and lock words (`release` alone would pick a third of the library).
LEASE_WORDS = (b"setnx", b"redis", b"nx=", b" lease", b"_lease", b".acquire(", b"delete(")
# Valid Python that libcst 1.x cannot parse: a parenthesised annotated name (`(x): int`).
LIBCST_CANNOT_PARSE = {"test/test_grammar.py", "test/typinganndata/ann_module.py"}


def stdlib_files() -> list[str]:
    found = []
    for folder, dirs, names in os.walk(STDLIB):
        dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
        found += [os.path.join(folder, name) for name in sorted(names) if name.endswith(".py")]
    return found


def python_parses(data: bytes) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data)
    except (SyntaxError, ValueError):
        return False
    return True


@pytest.fixture(scope="module")
def sweep():
    files = stdlib_files()
    assert len(files) > 500, STDLIB
    started = time.monotonic()
    walked = list(lint_paths(files, Settings(), jobs=2))
    data = {}
    for path in files:
        with open(path, "rb") as handle:
            data[path] = handle.read()
    unparsable = {path for path in files if not python_parses(data[path])}
    chosen = sorted({p for p in files if any(w in data[p] for w in LEASE_WORDS)} | unparsable)
    checked = list(lint_paths(chosen, Settings(fix=True, unsafe_fixes=True), jobs=2, prefilter=False))
    return files, walked, chosen, checked, unparsable, time.monotonic() - started


def _relative(path: str) -> str:
    return os.path.relpath(path, STDLIB).replace(os.sep, "/")


def test_stdlib_sweep(sweep, record_property, capsys):
    files, walked, chosen, checked, unparsable, seconds = sweep
    errors = [(r.path, e) for r, _ in walked + checked for e in r.internal_errors]
    findings = sorted(
        (_relative(r.path), d.start.line, d.start.column + 1, d.code, d.message)
        for r, _ in checked + walked
        for d in r.diagnostics
    )
    report = [f"stdlib sweep of {STDLIB}: {len(files)} files read, {len(chosen)} fully checked, {seconds:.0f} s"]
    report += [f"  {path}:{line}:{column}: {code} {message}" for path, line, column, code, message in sorted(set(findings))]
    with capsys.disabled():
        print("\n" + "\n".join(report))
    record_property("stdlib_findings", len(set(findings)))

    assert errors == []
    ll000 = {path for path, _, _, code, _ in findings if code == "LL000"}
    assert ll000 - LIBCST_CANNOT_PARSE == {_relative(p) for p in unparsable}
    for path, _, _, code, message in findings:
        if code == "LL000" and path in LIBCST_CANNOT_PARSE:
            assert message.startswith("cannot parse: libcst does not handle this code, which Python accepts")
    # The standard library holds no lease: any other finding is a false positive to look at.
    assert [f for f in set(findings) if f[3] != "LL000"] == []

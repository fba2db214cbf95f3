"""scripts/fix_coverage.py: the share of LL001/LL004 findings with a safe, unsafe or no fix, and why."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fix_coverage.py"
spec = importlib.util.spec_from_file_location("fix_coverage", SCRIPT)
fix_coverage = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fix_coverage)


def test_reason_is_made_general():
    message = "`delete` releases lease `k` (no automatic fix: line 18 reads `self.key` back)"
    assert fix_coverage.reason(message) == "line N reads `…` back"
    assert fix_coverage.reason("`delete` releases lease `k` without checking the holder") is None


def test_table_counts_each_kind_and_reason():
    findings = [
        ("LL001", "safe", "a"),
        ("LL001", "unsafe", "b"),
        ("LL001", None, "c (no automatic fix: line 3 writes the key again)"),
        ("LL001", None, "d (no automatic fix: line 9 writes the key again)"),
        ("LL004", None, "e"),
        ("LL002", None, "f (no automatic fix: not counted)"),
    ]
    lines = fix_coverage.table(findings, "sample")
    assert "| LL001 | 4 | 1 (25%) | 1 (25%) | 2 (50%) |" in lines
    assert "| LL004 | 1 | 0 (0%) | 0 (0%) | 1 (100%) |" in lines
    assert "- 2 × line N writes the key again" in lines
    assert "- 1 × (the message names what to use instead)" in lines
    assert not any("not counted" in line for line in lines)


def test_every_finding_without_a_fix_says_why():
    """On the rule cases and the fix corpus, an LL001/LL004 finding with no fix gives its reason, or is
    a lock object's key deleted by hand (the message names `lock.release()` instead)."""
    cases, corpus = fix_coverage._local_findings()
    assert cases and corpus
    silent = [
        message
        for _, applicability, message in cases + corpus
        if applicability is None and fix_coverage.reason(message) is None and "lock.release()" not in message
    ]
    assert silent == []

"""Every VALID and INVALID case written in the rule modules, run as a test."""

from __future__ import annotations

import re
import textwrap

import pytest

from leaselint.diagnostics import Applicability
from leaselint.report.rule_docs import documentation
from leaselint.rules import ALL_RULES, RULES_BY_CODE
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
import cases

SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety")


def _params(kind: str):
    for rule in ALL_RULES:
        for name, case in cases.numbered(rule, kind):
            yield pytest.param(rule, case, id=f"{rule.code}-{kind.lower()}-{name}")


def _lint(rule, code: str, **options):
    settings = Settings(select=frozenset({rule.code}), **options)
    return lint_text(SourceText(textwrap.dedent(code)), "case.py", settings)


@pytest.mark.parametrize(("rule", "case"), list(_params("VALID")))
def test_valid_case(rule, case):
    result = _lint(rule, case.code)
    assert [(d.code, d.start.line, d.message) for d in result.diagnostics] == []
    assert result.internal_errors == []


NO_RULE = "# no rule reports this"


@pytest.mark.parametrize(
    ("rule", "case"), [p for p in _params("VALID") if NO_RULE in p.values[1].code]
)
def test_valid_case_marked_for_every_rule(rule, case):
    """A VALID case marked so holds no finding of any rule, not only of its own."""
    result = lint_text(SourceText(textwrap.dedent(case.code)), "case.py", Settings())
    assert [(d.code, d.start.line) for d in result.diagnostics] == []
    assert result.internal_errors == []


@pytest.mark.parametrize(("rule", "case"), list(_params("INVALID")))
def test_invalid_case(rule, case):
    result = _lint(rule, case.code)
    assert result.internal_errors == []
    found = [(d.code, d.start.line) for d in result.diagnostics]
    assert found == [(rule.code, case.line)]
    diagnostic = result.diagnostics[0]
    if case.column is not None:
        assert diagnostic.start.column + 1 == case.column
    if case.message_contains is not None:
        assert case.message_contains in diagnostic.message

    fixed = _lint(rule, case.code, fix=True, unsafe_fixes=True)
    assert fixed.internal_errors == []
    if case.fixed is None:
        assert fixed.fixed_text is None
        return
    expected = textwrap.dedent(case.fixed)
    assert fixed.fixed_text == expected
    assert diagnostic.fix is not None
    if case.applicability is not None:
        assert diagnostic.fix.applicability is case.applicability
    # The fixed text is clean and fixing it again changes nothing.
    again = _lint(rule, expected, fix=True, unsafe_fixes=True)
    assert again.diagnostics == []
    assert again.fixed_text is None


def test_inserted_warning_lines_fit_the_default_line_length():
    """The warning calls fixes insert are wrapped to 88 characters; only a line that opens the call
    after code already too long for it stays longer."""
    long = []
    for rule in ALL_RULES:
        for name, case in cases.numbered(rule, "INVALID"):
            if case.fixed is None:
                continue
            before = set(textwrap.dedent(case.code).splitlines())
            result = _lint(rule, case.code, fix=True, unsafe_fixes=True)
            assert result.internal_errors == [] and result.fixed_text is not None
            for line in result.fixed_text.splitlines():
                inserted = line not in before and ("lease %s" in line or "lease lost" in line or ".warning(" in line)
                if inserted and len(line) > 88 and not line.endswith(".warning("):
                    long.append(f"{rule.code} {name}: {line.strip()}")
    assert long == []


NO_FIX = " (no automatic fix: "


def test_messages_are_one_sentence_with_the_advice_in_the_docs():
    """A message says what is wrong and why in one sentence; a missing fix adds its reason as one
    clause. What to do instead is in the rule's documentation ("Without an automatic fix")."""
    long = []
    for rule in ALL_RULES:
        if rule.code == "LL000":
            continue  # Python's own words for a syntax error
        for name, case in cases.numbered(rule, "INVALID"):
            for d in _lint(rule, case.code).diagnostics:
                head, _, reason = d.message.partition(NO_FIX)
                bare = re.sub(r"`[^`]*`", "`x`", reason)
                if len(d.message) > 300 or len(reason) > 120 or ": " in bare or "; " in bare or ". " in d.message:
                    long.append(f"{rule.code} {name}: {d.message}")
    assert long == []


def test_the_advice_left_out_of_messages_is_in_the_docs():
    for rule in ALL_RULES:
        if rule.code in ("LL001", "LL002", "LL003", "LL004", "LL005", "LL008", "LL009", "LL010"):
            assert "## Without an automatic fix" in documentation(rule), rule.code
    release, renewal = (" ".join(documentation(RULES_BY_CODE[code]).split()) for code in ("LL001", "LL010"))
    assert "With django-redis, `cache.lock(key, timeout=...)` releases with a token check" in release
    assert "compare-and-touch: read the stored token first" in renewal


def test_safe_fix_alone_matches_unsafe_run_when_safe():
    """A safe case's fixed text is written by plain --fix too."""
    for rule in ALL_RULES:
        for case in cases.invalid(rule):
            if case.fixed is not None and case.applicability is Applicability.SAFE:
                result = _lint(rule, case.code, fix=True)
                assert result.fixed_text == textwrap.dedent(case.fixed), case.code


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda rule: rule.code)
def test_rule_documentation(rule):
    doc = textwrap.dedent(rule.__class__.__doc__ or "")
    for section in SECTIONS:
        assert section in doc, f"{rule.code} lacks {section}"
    assert cases.invalid(rule), f"{rule.code} has no invalid cases"


def test_rule_codes_are_unique_and_named():
    codes = [rule.code for rule in ALL_RULES]
    assert codes == sorted(set(codes))
    assert all(rule.name and rule.name == rule.name.lower() for rule in ALL_RULES)


def test_registry_codes_match_the_rule_modules():
    from leaselint.rules import CODES

    assert tuple(rule.code for rule in ALL_RULES) == CODES


CACHE_LEASE = """\
{imports}

def sync(account):
    key = f"sync:{{account}}"
    if not cache.add(key, "1", 30):
        return
    try:
        pull(account)
    finally:
        cache.delete(key)
"""


@pytest.mark.parametrize(
    ("imports", "hint"),
    [
        ("from django.core.cache import cache\n", True),
        # A cache known by its name alone, in a module that is no Django code.
        ("from app.storage import cache\n", False),
    ],
)
def test_the_django_redis_lock_is_named_only_where_django_is_imported(imports, hint):
    code = CACHE_LEASE.format(imports=imports)
    result = lint_text(SourceText(code), "case.py", Settings(select=frozenset({"LL001"})))
    (finding,) = result.diagnostics
    assert "the cache API has no compare-and-delete" in finding.message
    assert ("django-redis's `cache.lock()` has one" in finding.message) is hint


SWALLOWED = """\
from contextlib import suppress

from fleet.locking import LockNotOwned, fleet_lock


def drain(node, lock):
    try:
        evacuate(node)
    finally:
        try:
            lock.release()
        except LockNotOwned:
            pass
        with suppress(LockNotOwned):
            fleet_lock.release(
                node,
            )
"""


def test_a_swallowed_lost_lease_points_at_the_release_it_drops():
    result = lint_text(SourceText(SWALLOWED), "case.py", Settings(select=frozenset({"LL006"})))
    found = [(d.start.line, [(r.start.line, r.end.line, r.message) for r in d.related]) for d in result.diagnostics]
    assert found == [
        (12, [(11, 11, "the release whose lost lease it drops")]),
        (14, [(15, 17, "the release whose lost lease it drops")]),
    ]

"""The prefilter never drops a file that has a finding."""

from __future__ import annotations

import textwrap

import pytest

from leaselint.prefilter import may_hold_findings, words
from leaselint.rules import ALL_RULES
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText

CASES = [
    pytest.param(textwrap.dedent(case.code), id=f"{rule.code}-{kind}-{number}")
    for rule in ALL_RULES
    for kind in ("VALID", "INVALID")
    for number, case in enumerate(getattr(rule, kind))
]


@pytest.mark.parametrize("code", CASES)
def test_every_rule_case_with_a_finding_passes_the_prefilter(code):
    findings = lint_text(SourceText(code), "case.py", Settings()).diagnostics
    lease_findings = [d for d in findings if d.code != "LL000"]
    if lease_findings:
        assert may_hold_findings(code.encode(), noqa_rule=True), [(d.code, d.start.line) for d in lease_findings]


@pytest.mark.parametrize(
    "code",
    [
        "import os\n\nprint(os.getcwd())\n",
        "items = set()\nitems.add(1)\n",
        "import threading\n\nguard = threading.Lock()\n",
        "def add(a, b):\n    return a + b\n",
    ],
)
def test_lease_free_code_is_dropped(code):
    assert not may_hold_findings(code.encode())


@pytest.mark.parametrize(
    "code",
    [
        "cache.add(key, value, 30)\ncache.delete(key)\n",
        "lock = r.lock('x')\n",
        "from pymemcache.client.base import Client\nmc = Client(('h', 1))\nmc.add('k', 'v')\n",
        "r.set(k, v, nx=True, ex=3)\n",
    ],
)
def test_common_words_go_to_the_second_stage(code):
    assert may_hold_findings(code.encode())


def test_words_come_from_the_store_table():
    decisive, common = words()
    assert b"setnx" in decisive and b"put_if_not_exists" in decisive and b"LockNotOwnedError" in decisive
    assert b".add(" in common and b"Lock(" in common

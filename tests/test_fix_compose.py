"""Fixes of several rules on one lease compose into one coherent edit."""

from __future__ import annotations

import textwrap

from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText

CONSTANT_TOKEN = textwrap.dedent(
    """\
    import redis

    r = redis.Redis()


    def run(job):
        if r.set(f"lock:{job}", "1", nx=True, ex=30):
            try:
                work(job)
            finally:
                r.delete(f"lock:{job}")
    """
)

ONE_TOKEN_ONE_RELEASE = textwrap.dedent(
    """\
    import logging
    import secrets

    import redis

    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )

    r = redis.Redis()


    def run(job):
        token = secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"lock:{job}",
                    )
    """
)


def _lint(text: str, **options):
    return lint_text(SourceText(text), "jobs.py", Settings(select=frozenset({"LL001", "LL002"}), **options))


def test_both_rules_report_the_lease():
    found = [(d.code, d.start.line, d.start.column + 1) for d in _lint(CONSTANT_TOKEN).diagnostics]
    assert found == [("LL002", 7, 29), ("LL001", 11, 13)]


def test_ll001_and_ll002_fixes_make_one_token_and_one_checked_release():
    result = _lint(CONSTANT_TOKEN, fix=True, unsafe_fixes=True)
    assert result.internal_errors == []
    assert result.fixed_text == ONE_TOKEN_ONE_RELEASE
    assert result.diagnostics == []


def test_safe_fix_alone_gives_the_same_text():
    """LL002's fix is safe here (one function), and it carries LL001's release with it."""
    result = _lint(CONSTANT_TOKEN, fix=True)
    assert result.fixed_text == ONE_TOKEN_ONE_RELEASE


CHECKED_CONSTANT = textwrap.dedent(
    """\
    import redis

    r = redis.Redis(decode_responses=True)


    def run(job):
        key = f"lock:{job}"
        if r.set(key, "1", nx=True, ex=30):
            try:
                work(job)
            finally:
                if r.get(key) == "1":
                    r.delete(key)
    """
)


def test_ll002_and_ll004_replace_the_guard_that_compared_the_old_constant():
    """The client-side check compared the constant the claim no longer stores: it goes whole."""
    result = lint_text(
        SourceText(CHECKED_CONSTANT), "jobs.py", Settings(select=frozenset({"LL002", "LL004"}), fix=True)
    )
    assert result.internal_errors == []
    assert result.diagnostics == []
    fixed = result.fixed_text
    assert '    token = secrets.token_hex(16)\n    if r.set(key, token, nx=True, ex=30):\n' in fixed
    assert "r.get(key)" not in fixed
    assert "            if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):\n" in fixed

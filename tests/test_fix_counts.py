"""The counts a run prints add up when one fix settles another finding (chained fixes).

LL002's fix stores a fresh token, which makes LL001's release fix safe: `--fix` fixes both though
only LL002's own fix is safe. Before a run, "N fixable" is what `--fix` then fixes; after it,
found = fixed + remaining, and --show-fixes lists as many as the summary says were fixed.
"""

from __future__ import annotations

import json
import os

import pytest
import yaml
from click.testing import CliRunner

from leaselint.cli import main

# Five findings: a constant token with a blind delete (LL002 safe, LL001 unsafe: both fixed by
# --fix), a fresh token with a blind delete (LL001 safe), and a lock class whose token must travel
# between methods (LL002 and LL001, both unsafe).
FIVE = '''import secrets

import redis

r = redis.Redis()


def run(job):
    if r.set(f"lock:{job}", "1", nx=True, ex=30):
        try:
            work(job)
        finally:
            r.delete(f"lock:{job}")


def report(day):
    token = secrets.token_hex(16)
    if r.set(f"report:{day}", token, nx=True, ex=30):
        try:
            build(day)
        finally:
            r.delete(f"report:{day}")


class JobLease:
    def __init__(self, client, name, ttl_ms):
        self.client = client
        self.key = f"lease:{name}"
        self.ttl_ms = ttl_ms

    def acquire(self):
        return bool(self.client.set(self.key, "1", nx=True, px=self.ttl_ms))

    def release(self):
        self.client.delete(self.key)
'''

BLIND = "without checking the holder: after its deadline it frees another worker's claim"
CONSTANT = (
    "comes from a constant: every claim attempt stores the same value, so a stale release matches a later claim"
)
FOUND = [
    f'a.py:9:29: LL002 [*] The holder token of lease `f"lock:{{job}}"` {CONSTANT}',
    f'a.py:13:13: LL001 `delete` releases lease `f"lock:{{job}}"` {BLIND}',
    f'a.py:22:13: LL001 [*] `delete` releases lease `f"report:{{day}}"` {BLIND}',
    f"a.py:32:47: LL002 The holder token of lease `self.key` {CONSTANT}",
    f"a.py:35:9: LL001 `delete` releases lease `self.key` {BLIND}",
]
# What --fix leaves: the lock class, moved down by the lines the fixes add.
LEFT = [
    f"a.py:47:47: LL002 The holder token of lease `self.key` {CONSTANT}",
    f"a.py:50:9: LL001 `delete` releases lease `self.key` {BLIND}",
]
HIDDEN = "2 hidden fixes can be enabled with `--unsafe-fixes`"
SHOW_FIXES = ["Fixed 3 errors:", "- a.py:", "    2 × LL001 (blind-release)", "    1 × LL002 (fixed-token)", ""]


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(FIVE)
    return tmp_path


def lines(*args: str) -> list[str]:
    return run_cli("--output-format", "concise", *args, "a.py").stdout.splitlines()


def test_fixable_before_a_run_counts_the_fixes_a_fix_makes_safe(cwd):
    expected = [*FOUND, "Found 5 errors.", f"[*] 3 fixable with the `--fix` option ({HIDDEN})."]
    assert lines() == expected
    # Again from the cache: the same counts.
    assert lines() == expected


def test_fixable_with_unsafe_fixes_counts_every_fix(cwd):
    assert lines("--unsafe-fixes")[-2:] == ["Found 5 errors.", "[*] 5 fixable with `--fix --unsafe-fixes`."]


def test_statistics_count_what_fix_fixes_per_rule(cwd):
    assert lines("--statistics") == [
        "3\tLL001\tblind-release\t(2 fixable)",
        "2\tLL002\tfixed-token\t(1 fixable)",
        "Found 5 errors.",
        f"[*] 3 fixable with the `--fix` option ({HIDDEN}).",
    ]
    as_json = run_cli("--statistics", "--output-format", "json", "a.py").stdout
    assert json.loads(as_json) == [
        {"code": "LL001", "name": "blind-release", "count": 3, "fixable": 2},
        {"code": "LL002", "name": "fixed-token", "count": 2, "fixable": 1},
    ]


def test_fix_show_fixes_counts_add_up(cwd):
    assert lines("--fix", "--show-fixes") == [
        *LEFT,
        *SHOW_FIXES,
        "Found 5 errors (3 fixed, 2 remaining).",
        f"No fixes available ({HIDDEN}).",
    ]
    # What is left is what the summary said: the unsafe fixes, and nothing for --fix.
    assert lines() == [*LEFT, "Found 2 errors.", f"No fixes available ({HIDDEN})."]
    assert lines("--fix", "--unsafe-fixes") == ["Found 2 errors (2 fixed, 0 remaining)."]


def test_fix_statistics_counts_what_was_fixed(cwd):
    assert lines("--fix", "--statistics") == [
        "1\tLL001\tblind-release",
        "1\tLL002\tfixed-token",
        "Found 5 errors (3 fixed, 2 remaining).",
        f"No fixes available ({HIDDEN}).",
    ]


def test_fix_unsafe_fixes_counts_add_up(cwd):
    assert lines("--fix", "--unsafe-fixes", "--show-fixes") == [
        "Fixed 5 errors:",
        "- a.py:",
        "    3 × LL001 (blind-release)",
        "    2 × LL002 (fixed-token)",
        "",
        "Found 5 errors (5 fixed, 0 remaining).",
    ]


def test_pre_commit_fix_hook_counts_add_up(cwd):
    hooks = yaml.safe_load(open(os.path.join(os.path.dirname(__file__), "..", ".pre-commit-hooks.yaml")))
    entry = next(hook["entry"] for hook in hooks if hook["id"] == "leaselint-fix").split()
    assert entry[0] == "leaselint"
    result = run_cli(*entry[1:], "a.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == ["Found 5 errors (3 fixed, 2 remaining).", f"No fixes available ({HIDDEN})."]


def test_failed_write_keeps_the_counts_of_the_text_as_read(cwd):
    os.chmod(cwd / "a.py", 0o444)
    result = run_cli("--fix", "--output-format", "concise", "a.py")
    assert result.stdout.splitlines() == [
        *FOUND,
        "Found 5 errors.",
        f"[*] 3 fixable with the `--fix` option ({HIDDEN}).",
    ]
    assert (cwd / "a.py").read_text() == FIVE


def test_chain_alone_is_all_fixable(cwd):
    (cwd / "a.py").write_text(FIVE.split("\n\ndef report")[0] + "\n")
    assert lines() == [FOUND[0], FOUND[1], "Found 2 errors.", "[*] 2 fixable with the `--fix` option."]
    assert lines("--fix") == ["Found 2 errors (2 fixed, 0 remaining)."]

"""Hash-field leases on a real Redis: a claim of a field (`hsetnx`) released by `hdel`.

A field has no lifetime of its own in `hsetnx`, so a stale claim ends by a reaper or an expiry of the
whole hash; the test does that by hand, then worker B claims the field. Unfixed, A's late `hdel` frees
B's claim; fixed (LL001's Lua compare-and-delete of the field, and LL002's fresh token for the
class that stored a constant), A's release leaves B's claim and logs the loss. A release in time
deletes the field as before and answers the same.
"""

from __future__ import annotations

import textwrap

from leaselint.rules import RULES_BY_CODE
from proof_support import fix_copy, load, lost_lease_warnings, write_module
import cases

FUNCTION = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL001"]) if 'r.hdel("import:lock", path)' in c.code))
CLASS = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL001"]) if "class TaskLock" in c.code and "hsetnx" in c.code))
HASH = "import:lock"


def _modules(tmp_path, source, redis_url):
    import redis

    original = load(write_module(tmp_path, "original", source))
    fixed_path = fix_copy(tmp_path, source, "--fix", "--unsafe-fixes", clean=False)
    text = fixed_path.read_text(encoding="utf-8")
    assert "hdel" in text and "LEASE_HDEL_SCRIPT" in text
    fixed = load(fixed_path)
    for module in (original, fixed):
        module.r = redis.Redis.from_url(redis_url)
    return original, fixed


def _import_run(module, redis_client, takeover: bool):
    """import_file() whose parse step sees the claim reaped and, with `takeover`, B claim the field."""
    seen = {}

    def parse(path):
        seen["a"] = redis_client.hget(HASH, path)
        if takeover:
            redis_client.hdel(HASH, path)  # a reaper ends A's stale claim
            assert redis_client.hsetnx(HASH, path, "b-token") == 1

    answer = module.import_file("feed.csv", parse)
    left = redis_client.hget(HASH, "feed.csv")
    redis_client.flushall()
    return answer, seen["a"] is not None, left


def test_function_release_in_time_is_the_same(tmp_path, redis_client, redis_url, caplog):
    original, fixed = _modules(tmp_path, FUNCTION, redis_url)
    assert _import_run(original, redis_client, False) == (True, True, None)
    assert _import_run(fixed, redis_client, False) == (True, True, None)
    assert lost_lease_warnings(caplog, fixed) == []
    # Held by another: both refuse and leave its field alone.
    for module in (original, fixed):
        redis_client.hset(HASH, "feed.csv", "other")
        assert module.import_file("feed.csv", lambda path: None) is False
        assert redis_client.hget(HASH, "feed.csv") == b"other"
        redis_client.flushall()


def test_function_late_release_frees_b_only_unfixed(tmp_path, redis_client, redis_url, caplog):
    original, fixed = _modules(tmp_path, FUNCTION, redis_url)
    assert _import_run(original, redis_client, True) == (True, True, None)  # B's claim freed
    assert lost_lease_warnings(caplog, original) == []
    assert _import_run(fixed, redis_client, True) == (True, True, b"b-token")  # B's claim kept
    assert [r.args[0] for r in lost_lease_warnings(caplog, fixed)] == [HASH]


def test_class_lock_enters_and_exits_as_before_and_keeps_b(tmp_path, redis_client, redis_url, caplog):
    original, fixed = _modules(tmp_path, CLASS, redis_url)
    for module in (original, fixed):
        with module.TaskLock("report") as held:
            stored = redis_client.hget("worker:locks", "lock.report")
            assert stored is not None
            try:
                with module.TaskLock("report"):
                    raise AssertionError("a second holder got in")
            except RuntimeError as error:
                assert "lock.report is running" in str(error)
            assert redis_client.hget("worker:locks", "lock.report") == stored  # the refused one left it
        assert held is not None
        assert redis_client.hget("worker:locks", "lock.report") is None
        # A stale claim reaped, B claims, then A exits.
        lock = module.TaskLock("report")
        lock.__enter__()
        redis_client.hdel("worker:locks", "lock.report")
        redis_client.hsetnx("worker:locks", "lock.report", "b-token")
        lock.__exit__(None, None, None)
        left = redis_client.hget("worker:locks", "lock.report")
        assert left == (None if module is original else b"b-token")
        redis_client.flushall()
    assert [r.args[0] for r in lost_lease_warnings(caplog, fixed)] == ["worker:locks"]

"""LL010's fix on a real Redis: a renewal by the holder extends as before; a renewal after the lease
expired and another worker claimed the key leaves that worker's claim alone and reports the loss."""

from __future__ import annotations

import asyncio
import textwrap

from leaselint.rules import RULES_BY_CODE
from proof_support import fix_copy, load, lost_lease_warnings, run_cli, write_module
import cases

LOOP = textwrap.dedent(
    """\
    import secrets

    import redis

    r = redis.Redis()


    def rebuild(shard, steps):
        key = f"index:{shard}:lock"
        token = secrets.token_hex(16)
        if not r.set(key, token, nx=True, ex=60):
            return False
        try:
            for step in steps:
                step()
                r.expire(key, 60)
        finally:
            r.eval(RELEASE, 1, key, token)
        return True


    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """
)

# The rule's own case of a lock class whose extend() answers the renewal.
CLASS = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL010"]) if "class RedisLease" in c.code))

ASYNC = textwrap.dedent(
    """\
    import secrets

    import redis.asyncio as redis

    r = redis.Redis()


    async def sync_feed(feed, batches):
        key = f"feed:{feed}:lock"
        token = secrets.token_hex(16)
        if not await r.set(key, token, nx=True, px=20000):
            return False
        try:
            for batch in batches:
                await batch()
                await r.pexpire(key, 20000)
        finally:
            await r.eval(RELEASE, 1, key, token)
        return True


    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """
)


def _modules(tmp_path, source):
    """The module, and the module after LL010's fix (which a second LL010 run leaves as it is)."""
    original = load(write_module(tmp_path, "original", source))
    path = fix_copy(tmp_path, source, "--fix", "--unsafe-fixes", "--select", "LL010", clean=False)
    again = run_cli(path, "--select", "LL010")
    assert again.returncode == 0 and again.stdout.strip() == "All checks passed!", again.stdout
    return original, load(path)


def _loop_run(module, redis_client, url, takeover: bool):
    """rebuild() with two steps; with `takeover`, the lease expires in the first step and B claims."""
    import redis

    module.r = redis.Redis.from_url(url)
    key = "index:7:lock"
    seen = {}

    def first():
        redis_client.expire(key, 5)  # most of the lifetime has gone by
        if takeover:
            redis_client.delete(key)
            redis_client.set(key, "b-token", nx=True, ex=100)

    def second():
        seen["ttl"] = redis_client.ttl(key)

    answer = module.rebuild(7, [first, second])
    left = redis_client.get(key), redis_client.ttl(key)
    redis_client.flushall()
    return answer, seen["ttl"], left


def test_loop_renewal_extends_its_own_lease_and_leaves_another_claim_alone(tmp_path, redis_client, redis_url, caplog):
    original, fixed = _modules(tmp_path, LOOP)
    # Held all along: both extend the lease back to 60 s after the first step, then release it.
    assert _loop_run(original, redis_client, redis_url, False) == (True, 60, (None, -2))
    assert _loop_run(fixed, redis_client, redis_url, False) == (True, 60, (None, -2))
    assert lost_lease_warnings(caplog, fixed) == []
    # B claimed the key for 100 s: the original cuts B's lifetime to 60 s; the fixed one leaves it
    # and logs the lost lease. Neither releases B's claim.
    answer, ttl, (value, _) = _loop_run(original, redis_client, redis_url, True)
    assert (answer, ttl, value) == (True, 60, b"b-token")
    answer, ttl, (value, _) = _loop_run(fixed, redis_client, redis_url, True)
    assert (answer, value) == (True, b"b-token") and ttl > 60
    # Renewed after each of the two steps, lost at both.
    assert [r.args[0] for r in lost_lease_warnings(caplog, fixed)] == ["index:7:lock", "index:7:lock"]


def test_method_renewal_answers_as_before_and_false_once_the_lease_is_lost(tmp_path, redis_client):
    original, fixed = _modules(tmp_path, CLASS)
    for module in (original, fixed):
        lease = module.RedisLease(redis_client, "report", ttl=30)
        assert lease.extend() is False  # not held: nothing to extend
        assert lease.acquire() is True
        redis_client.pexpire("lease:report", 1000)
        assert lease.extend() is True
        assert 29000 < redis_client.pttl("lease:report") <= 30000
        # A second acquire fails and keeps the held token: extend still works.
        assert lease.acquire() is False
        assert lease.extend() is True
        # The lease expires and B claims the key for 100 s.
        redis_client.delete("lease:report")
        redis_client.set("lease:report", "b", nx=True, ex=100)
        answer = lease.extend()
        if module is original:
            assert answer is True and redis_client.pttl("lease:report") <= 30000  # B's lifetime cut
        else:
            assert answer is False and redis_client.pttl("lease:report") > 90000  # B's left alone
        assert redis_client.get("lease:report") == b"b"
        redis_client.flushall()


def test_async_renewal_on_an_asyncio_client(tmp_path, redis_client, redis_url, caplog):
    original, fixed = _modules(tmp_path, ASYNC)

    async def run(module, takeover):
        import redis.asyncio

        module.r = redis.asyncio.Redis.from_url(redis_url)
        key = "feed:9:lock"

        async def batch():
            redis_client.pexpire(key, 1000)
            if takeover:
                redis_client.delete(key)
                redis_client.set(key, "b", nx=True, ex=100)

        try:
            answer = await module.sync_feed(9, [batch])
            ttl = redis_client.pttl(key)
            value = redis_client.get(key)
        finally:
            await module.r.aclose()
        redis_client.flushall()
        return answer, value, ttl

    assert asyncio.run(run(original, False)) == (True, None, -2)
    assert asyncio.run(run(fixed, False)) == (True, None, -2)
    answer, value, ttl = asyncio.run(run(original, True))
    assert (answer, value) == (True, b"b") and ttl <= 20000
    answer, value, ttl = asyncio.run(run(fixed, True))
    assert (answer, value) == (True, b"b") and ttl > 90000
    assert [r.args[0] for r in lost_lease_warnings(caplog, fixed)] == ["feed:9:lock"]

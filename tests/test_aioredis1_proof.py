"""The fixes of aioredis 1.x script leases (keys and arguments in lists), before and after, on a real
Redis. aioredis 1.x itself does not install on today's Pythons: its API is stood in by a thin adapter
over redis.asyncio that sends the same commands (`eval`/`evalsha(script, keys=[...], args=[...])`)."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import types

import pytest
import redis
import redis.asyncio

from proof_support import assert_reported_lost, fix_copy, load, lost_lease_warnings, write_module
from leaselint.rules import RULES_BY_CODE
import cases


class Aioredis1:
    """aioredis 1.x's calls these cases make, as that client sends them."""

    SET_IF_NOT_EXIST = "SET_IF_NOT_EXIST"

    def __init__(self, client) -> None:
        self.client = client

    async def eval(self, script, keys=(), args=()):
        return await self.client.eval(script, len(keys), *keys, *args)

    async def evalsha(self, digest, keys=(), args=()):
        return await self.client.evalsha(digest, len(keys), *keys, *args)

    async def script_load(self, script):
        return await self.client.script_load(script)

    async def set(self, key, value, *, expire=0, pexpire=0, exist=None):
        # aioredis 1.x answers True for OK and False when NX found the key.
        return bool(
            await self.client.set(key, value, ex=expire or None, px=pexpire or None, nx=exist == self.SET_IF_NOT_EXIST)
        )


def _case(code: str, name: str) -> str:
    found = dict(cases.numbered(RULES_BY_CODE[code], "INVALID"))[name]
    return textwrap.dedent(found.code)


@pytest.fixture
def aioredis_module(monkeypatch):
    module = types.ModuleType("aioredis")
    module.Redis = Aioredis1
    monkeypatch.setitem(sys.modules, "aioredis", module)


def _both(tmp_path, source: str, *flags: str):
    original = load(write_module(tmp_path, "original", source))
    fixed = load(fix_copy(tmp_path, source, *flags))
    return original, fixed


def test_a_dropped_release_answer_is_reported_after_the_fix(tmp_path, redis_url, aioredis_module, caplog):
    """LL006: the lease expired mid-job and another worker claimed it. Both versions leave that claim
    alone and answer True; only the fixed one says the lease was lost."""
    source = _case("LL006", "listed_script_arguments-0")
    original, fixed = _both(tmp_path, source)
    direct = redis.Redis.from_url(redis_url)

    async def run(module, job):
        client = redis.asyncio.Redis.from_url(redis_url)
        pool = Aioredis1(client)

        async def work(name):
            direct.delete(f"job:{name}")  # the lease's deadline passes
            direct.set(f"job:{name}", "other-worker")

        module.work = work
        try:
            return await module.run(pool, job)
        finally:
            await client.aclose()

    for module, job in ((original, "a"), (fixed, "b")):
        assert asyncio.run(run(module, job)) is True
        assert direct.get(f"job:{job}") == b"other-worker"
    assert lost_lease_warnings(caplog, original) == []
    assert_reported_lost(caplog, fixed, "job:b")
    # A lease released in time: nothing to report, the key is gone.
    caplog.clear()

    async def quiet(module, job):
        client = redis.asyncio.Redis.from_url(redis_url)

        async def work(name):
            return None

        module.work = work
        try:
            return await module.run(Aioredis1(client), job)
        finally:
            await client.aclose()

    assert asyncio.run(quiet(fixed, "c")) is True
    assert direct.exists("job:c") == 0
    assert lost_lease_warnings(caplog, fixed) == []


def test_a_token_made_once_per_instance_no_longer_frees_a_later_holder(tmp_path, redis_url, aioredis_module):
    """LL002: two mutexes storing the same owner (an object id met again in another process). The
    first one's lease expires and the second claims; the first's release freed the second's claim,
    and after the fix it does not."""
    source = _case("LL002", "redis_scripts-0")
    original, fixed = _both(tmp_path, source, "--fix", "--unsafe-fixes")
    direct = redis.Redis.from_url(redis_url)

    async def overlap(module, name):
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            first, second = module.Mutex(Aioredis1(client), name), module.Mutex(Aioredis1(client), name)
            second.owner = first.owner  # the same value, as the claim stores it
            assert await first.acquire()
            assert not await second.acquire()  # held: refused as before
            direct.delete(f"mutex:{name}")  # the first lease's deadline passes
            assert await second.acquire()
            lost = None
            try:
                await first.release()
            except RuntimeError:
                lost = True
            return lost, direct.exists(f"mutex:{name}")
        finally:
            await client.aclose()

    assert asyncio.run(overlap(original, "a")) == (None, 0)  # the second holder's claim was freed
    assert asyncio.run(overlap(fixed, "b")) == (True, 1)  # kept, and the first learns it lost

    async def in_time(module, name):
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            mutex = module.Mutex(Aioredis1(client), name)
            assert await mutex.acquire()
            await mutex.release()
            return direct.exists(f"mutex:{name}")
        finally:
            await client.aclose()

    assert asyncio.run(in_time(original, "c")) == 0
    assert asyncio.run(in_time(fixed, "d")) == 0

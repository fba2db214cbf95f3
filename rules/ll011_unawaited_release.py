from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rule import Context, Invalid, Rule, Valid
from leaselint.model.classify import HANDED
from leaselint.rewrite import NoFix


class UnawaitedRelease(Rule):
    """
    ## What it does
    Reports the release of a lease on an asyncio client that is called and
    never awaited: `client.delete(key)`, a compare-and-delete `eval(...)`, or
    `lock.release()` of a `redis.asyncio` lock, written as a statement without
    `await`. The client is an asyncio one when it is made by `redis.asyncio`,
    `valkey.asyncio`, aioredis, coredis or aiomcache, or when the lease's claim
    on it is awaited.

    ## Why is this bad?
    An asyncio client's method only builds a coroutine; nothing is sent until
    it is awaited. The statement throws the coroutine away:

    1. Worker A claims the key and does its job.
    2. A "releases" it: the coroutine is dropped, the key stays. Python only
       warns `coroutine ... was never awaited`, at garbage collection.
    3. Every other worker finds the key held until its deadline passes, and a
       key claimed without one is held for ever.

    ## Example
    ```python
    async def nightly(job):
        if await r.set(key, token, nx=True, ex=60):
            try:
                await work(job)
            finally:
                r.delete(key)
    ```

    ## Use instead
    ```python
            finally:
                await r.delete(key)
    ```

    ## Fix safety
    The fix writes `await` before the call, in an `async def`: that is what the
    code meant, and it is safe. In a plain function (an `atexit` hook, a
    synchronous callback) `await` cannot be written, and there is no fix: run
    the release on the event loop. A release handed on (`return client.delete(key)`,
    `asyncio.create_task(...)`, `gather(...)`) or queued on a pipeline is not
    reported.
    """

    code = "LL011"
    name = "unawaited-release"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL011/
        # Awaited.
        Valid(
            """\
            import redis.asyncio as redis

            r = redis.Redis()


            async def nightly(job, token):
                if await r.set(f"lock:{job}", token, nx=True, ex=60):
                    try:
                        await work(job)
                    finally:
                        await r.delete(f"lock:{job}")
        """
        ),
        # asyncio's own lock: its release() is a plain call.
        Valid(
            """\
            import asyncio


            class Cache:
                def __init__(self):
                    self._lock = asyncio.Lock()

                async def refill(self):
                    await self._lock.acquire()
                    try:
                        await self._load()
                    finally:
                        self._lock.release()
        """
        ),
    ]
    INVALID = [  # more in tests/cases/LL011/
        Invalid(
            """\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def nightly(job):
                key = f"lock:{job}"
                token = secrets.token_hex(16)
                if not await r.set(key, token, nx=True, ex=60):
                    return False
                try:
                    await work(job)
                finally:
                    r.delete(key)
                return True
        """,
            line=16,
            column=9,
            fixed="""\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def nightly(job):
                key = f"lock:{job}"
                token = secrets.token_hex(16)
                if not await r.set(key, token, nx=True, ex=60):
                    return False
                try:
                    await work(job)
                finally:
                    await r.delete(key)
                return True
        """,
            applicability=Applicability.SAFE,
            message_contains='`delete` on an asyncio client is never awaited',
        ),
        Invalid(
            """\
            from redis import asyncio as aioredis

            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

            client = aioredis.from_url("redis://localhost")


            async def sync_feed(feed, token):
                key = f"feed:{feed}"
                if await client.set(key, token, nx=True, px=30000):
                    try:
                        await pull(feed)
                    finally:
                        client.eval(UNLOCK, 1, key, token)
        """,
            line=14,
            column=13,
            fixed="""\
            from redis import asyncio as aioredis

            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

            client = aioredis.from_url("redis://localhost")


            async def sync_feed(feed, token):
                key = f"feed:{feed}"
                if await client.set(key, token, nx=True, px=30000):
                    try:
                        await pull(feed)
                    finally:
                        await client.eval(UNLOCK, 1, key, token)
        """,
            applicability=Applicability.SAFE,
            message_contains='`eval` on an asyncio client is never awaited',
        ),
    ]

    def check(self, context: Context) -> Iterator[Diagnostic]:
        model = context.model
        seen: set[int] = set()
        candidates = [r for lease in model.leases for r in lease.releases]
        candidates += [r for r in model.releases if r.checked and r.spec.self_evident]
        for release in candidates:
            if id(release) in seen:
                continue
            seen.add(id(release))
            if release.awaited or release.usage not in ("statement", "inline") or release.in_pipeline:
                continue
            if not release.coroutine or release.via is not None or release.no_fix == HANDED:
                continue  # a runner's call, or one through a bound name: its awaiting is not the call's own
            message = (
                f"`{release.method}` on an asyncio client is never awaited: the coroutine is dropped and "
                f"lease `{model.key_text(release)}` is never released"
            )
            yield self._finding(context, release.call, release.scope, message)
        for call, scope, lock in model.unawaited_lock_releases:
            key = model.key_text(lock) if lock.key is not None else "the lock"
            message = (
                f"`release()` of an asyncio lock is never awaited: the coroutine is dropped and lock `{key}` "
                "is never released"
            )
            yield self._finding(context, call, scope, message)

    def _finding(self, context: Context, call, scope, message: str) -> Diagnostic:
        try:
            fix = context.fixer.await_call(call, scope)
        except NoFix as why:
            fix = None
            message += f" (no automatic fix: {why})"
        return self.at_node(context, call, message, fix)


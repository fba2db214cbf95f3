"""LL011 cases: asyncio clients."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A synchronous client in async code.
    Valid(
        """\
        import redis

        r = redis.Redis()


        async def nightly(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=60):
                try:
                    await work(job)
                finally:
                    r.delete(f"lock:{job}")
    """
    ),
    # Handed on: scheduled as a task, returned, gathered.
    Valid(
        """\
        import asyncio

        from redis.asyncio import Redis

        r = Redis()


        async def claim(key, token):
            return await r.set(key, token, nx=True, ex=30)


        async def release_later(key):
            asyncio.create_task(r.delete(key))


        def release(key):
            return r.delete(key)


        async def release_all(keys):
            await asyncio.gather(*[r.delete(key) for key in keys])
    """
    ),
    # Queued on an asyncio pipeline: the pipeline's execute() is what is awaited.
    Valid(
        """\
        from redis.asyncio import Redis

        r = Redis()


        async def nightly(job, token):
            key = f"lock:{job}"
            if await r.set(key, token, nx=True, ex=60):
                await work(job)
                pipe = r.pipeline()
                pipe.delete(key)
                pipe.incr("runs")
                await pipe.execute()
    """
    ),
    # A cache entry nobody claimed: no lease.
    Valid(
        """\
        from redis.asyncio import Redis

        r = Redis()


        async def forget(user_id):
            r.delete(f"profile:{user_id}")
    """
    ),
    # A sync twin of an asyncio store class: its `self._client()` is its own, sync client.
    Valid(
        """\
        import redis
        import redis.asyncio as aioredis


        class AsyncStore:
            def __init__(self, url):
                self.url = url

            async def _client(self):
                return aioredis.from_url(self.url)

            async def claim(self, key, token):
                client = await self._client()
                return await client.set(f"job:{key}", token, nx=True, ex=60)

            async def release_job(self, key):
                client = await self._client()
                await client.delete(f"job:{key}")


        class SyncStore:
            def __init__(self, url):
                self.url = url

            def _client(self):
                return redis.from_url(self.url)

            def claim(self, key, token):
                client = self._client()
                return client.set(f"job:{key}", token, nx=True, ex=60)

            def release_job(self, key):
                client = self._client()
                client.delete(f"job:{key}")
    """
    ),
    # A release through a name bound to the method, awaited: the coroutine is awaited.
    Valid(
        """\
        import redis.asyncio as redis


        class Gate:
            def __init__(self, url, name):
                self.client = redis.from_url(url)
                self.key = f"gate:{name}"

            async def take(self, token):
                return await self.client.set(self.key, token, nx=True, ex=30)

            async def give_back(self):
                drop = self.client.delete
                await drop(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from redis.asyncio import Redis

        redis = Redis()


        async def build_report(day):
            lock = redis.lock(f"report:{day}", timeout=300)
            if not await lock.acquire(blocking=False):
                return None
            try:
                return await render(day)
            finally:
                lock.release()
    """,
        line=13,
        column=9,
        fixed="""\
        from redis.asyncio import Redis

        redis = Redis()


        async def build_report(day):
            lock = redis.lock(f"report:{day}", timeout=300)
            if not await lock.acquire(blocking=False):
                return None
            try:
                return await render(day)
            finally:
                await lock.release()
    """,
        applicability=Applicability.SAFE,
        message_contains='`release()` of an asyncio lock is never awaited',
    ),
    Invalid(
        """\
        import atexit
        import secrets

        from redis.asyncio import Redis

        r = Redis()
        KEY = "lock:importer"
        TOKEN = secrets.token_hex(16)


        async def start():
            return await r.set(KEY, TOKEN, nx=True, ex=600)


        def stop():
            r.delete(KEY)


        atexit.register(stop)
    """,
        line=16,
        column=5,
        message_contains='(no automatic fix: the function is not async, so it cannot await the release)',
    ),
    Invalid(
        """\
        from redis.asyncio import Redis
        from redis.asyncio.lock import Lock

        r = Redis()


        async def run(job):
            lock = Lock(r, f"job:{job}", timeout=30)
            if not await lock.acquire(blocking=False):
                return False
            try:
                await handle(job)
            finally:
                lock.release()
            return True
    """,
        line=14,
        column=9,
        fixed="""\
        from redis.asyncio import Redis
        from redis.asyncio.lock import Lock

        r = Redis()


        async def run(job):
            lock = Lock(r, f"job:{job}", timeout=30)
            if not await lock.acquire(blocking=False):
                return False
            try:
                await handle(job)
            finally:
                await lock.release()
            return True
    """,
        applicability=Applicability.SAFE,
        message_contains='`release()` of an asyncio lock is never awaited',
    ),
]

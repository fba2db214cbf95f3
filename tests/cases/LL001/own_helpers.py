"""LL001 cases: leases made through the module's own helpers, bound methods and runners."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A value that cannot be read back is cleared before the claim: no claim wrote it, so no holder
    # loses it (through the module's own client wrapper, or the client itself).
    Valid(
        """\
        # no rule reports this
        import json

        import redis


        class Store:
            def __init__(self):
                self.r = redis.Redis()

            def put_new(self, key, value, ttl):
                done = self.r.set(key, value, nx=True, ex=ttl)
                return bool(done)

            def read(self, key):
                return self.r.get(key)

            def delete(self, key):
                return self.r.delete(key)


        def begin(store: Store, key, record):
            raw = store.read(key)
            if raw is not None:
                try:
                    json.loads(raw)
                except json.JSONDecodeError:
                    store.delete(key)
            return store.put_new(key, json.dumps(record), 60)


        def begin_direct(client: redis.Redis, key, record):
            raw = client.get(key)
            try:
                json.loads(raw or b"{}")
            except (ValueError, TypeError):
                client.delete(key)
            return client.set(key, json.dumps(record), nx=True, ex=60)
    """
    ),
    # The helper's release compares the holder in one server step: no blind release through it.
    Valid(
        """\
        import redis.asyncio as redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self, url):
                self.client = redis.from_url(url)

            async def put_new(self, key, value, ttl):
                done = await self.client.set(key, value, ex=ttl, nx=True)
                return done is not None

            async def drop_mine(self, key, value):
                return await self.client.eval(UNLOCK, 1, key, value)

            async def hold(self, job, token):
                return await self.put_new(f"hold:{job}", token, 45)

            async def release_hold(self, job, token):
                if not await self.drop_mine(f"hold:{job}", token):
                    raise RuntimeError(f"hold on {job} was lost")
    """
    ),
    # A helper that deletes what it is handed, called with a cache key nobody claimed.
    Valid(
        """\
        from django.core.cache import cache


        def forget(key):
            cache.delete(key)


        def refresh_profile(user_id):
            forget(f"profile:{user_id}")
            return load_profile(user_id)
    """
    ),
    # Two methods each hand a function of their own to an executor: a record made by one and dropped
    # by the other are two lives, whatever the module calls.
    Valid(
        """\
        from concurrent.futures import ThreadPoolExecutor

        from pymemcache.client.base import Client


        class Rooms:
            def __init__(self):
                self.mc = Client(("127.0.0.1", 11211))
                self.pool = ThreadPoolExecutor(2)

            def open_room(self, room):
                key = f"room:{room}"

                def _open():
                    if not self.mc.add(key, {}, noreply=False):
                        raise KeyError(room)

                return self.pool.submit(_open)

            def drop_room(self, room):
                key = f"room:{room}"

                def _drop():
                    self.mc.delete(key, noreply=False)

                return self.pool.submit(_drop)
    """
    ),
    # A subclass's own release, token-checked, is what `self.release(...)` calls: not the base's.
    Valid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Jobs:
            def __init__(self):
                self.client = redis.Redis()

            def release(self, key, token):
                audit(key)
                self.client.delete(key)


        class SafeJobs(Jobs):
            def release(self, key, token):
                audit(key)
                if not self.client.eval(UNLOCK, 1, key, token):
                    raise RuntimeError(f"{key} was lost")

            def work(self, job):
                key = f"job:{job}"
                token = secrets.token_hex(16)
                if not self.client.set(key, token, nx=True, ex=60):
                    return
                try:
                    run(job)
                finally:
                    self.release(key, token)
    """
    ),
    # A `partial` with a keyword, called with more arguments by place, and a runner handed the same:
    # no call can be written in that order, so none is read (and nothing fails).
    Valid(
        """\
        import asyncio
        from functools import partial

        import redis

        r = redis.Redis()


        async def mark(key, token):
            put = partial(r.set, nx=True)
            put(key, token)
            await asyncio.to_thread(partial(r.set, ex=30), key, token)
            r.delete(key)
    """
    ),
]

INVALID = [
    # Static helpers of a utility class, called on the class: the caller's key is what they claim and
    # delete.
    Invalid(
        """\
        import redis

        _conn = redis.Redis()


        class KeyGuard:
            @staticmethod
            def occupy(key, seconds=60):
                return _conn.set(key, "x", nx=True, ex=seconds)

            @staticmethod
            def vacate(key):
                _conn.delete(key)


        def publish(post_id):
            key = f"publishing:{post_id}"
            if not KeyGuard.occupy(key):
                return False
            try:
                push(post_id)
            finally:
                KeyGuard.vacate(key)
            return True
    """,
        line=23,
        column=9,
        fixed=None,
        message_contains="the release is made inside `KeyGuard.vacate` (line 13)",
    ),
    # The claim goes through the class's own put-if-absent helper, whose answer it returns tested;
    # the release deletes the key through the client.
    Invalid(
        """\
        import redis.asyncio as redis


        class Store:
            def __init__(self, url):
                self.client = redis.from_url(url)

            async def put_new(self, key, value, ttl=None):
                done = await self.client.set(key, value, ex=ttl, nx=True)
                return done is not None

            async def hold(self, job, token):
                return await self.put_new(f"hold:{job}", token, ttl=45)

            async def release_hold(self, job):
                await self.client.delete(f"hold:{job}")
    """,
        line=16,
        column=15,
        fixed=None,
        message_contains="no automatic fix: the claim is made inside `Store.put_new` (line 9)",
    ),
    # The key is handed to the function that runs the job, which deletes it blindly: reported at
    # that delete, with the call that hands the key beside it.
    Invalid(
        """\
        from django.core.cache import cache


        def build(build_id, guard):
            run(build_id)
            if guard:
                cache.delete(guard)


        def start(build_id, org):
            guard = f"org-guard:{org}"
            if cache.add(guard, f"build-{build_id}", timeout=3600):
                build(build_id, guard)
    """,
        line=7,
        column=9,
        fixed=None,
    ),
    # The same through a queue: `enqueue(function, *arguments)` calls the function with them.
    Invalid(
        """\
        from django.core.cache import cache


        def build(build_id, guard):
            run(build_id)
            cache.delete(guard)


        def start(queue, build_id, org):
            guard = f"org-guard:{org}"
            if cache.add(guard, f"build-{build_id}", timeout=3600):
                queue.enqueue(build, build_id, guard, job_timeout=600)
    """,
        line=6,
        column=5,
        fixed=None,
    ),
    # A sync client's methods run in a thread by `asyncio.to_thread`.
    Invalid(
        """\
        import asyncio
        import secrets

        import redis

        r = redis.Redis()


        async def sync_feeds(feed):
            token = secrets.token_hex(16)
            if not await asyncio.to_thread(r.set, f"feeds:{feed}", token, nx=True, ex=120):
                return
            try:
                await pull(feed)
            finally:
                await asyncio.to_thread(r.delete, f"feeds:{feed}")
    """,
        line=16,
        column=15,
        fixed=None,
        message_contains="no automatic fix: the store method is called through a name bound to it or a runner",
    ),
    # Methods bound to a name first: `claim = self.mc.add`, `drop = partial(self.mc.delete, key)`.
    Invalid(
        """\
        import secrets
        from functools import partial

        from pymemcache.client.base import Client


        class Guard:
            def __init__(self, key):
                self.mc = Client(("127.0.0.1", 11211))
                self.key = key

            def take(self):
                claim = self.mc.add
                self.token = secrets.token_hex(16)
                return claim(self.key, self.token, expire=60, noreply=False)

            def give_back(self):
                drop = partial(self.mc.delete, self.key)
                drop(noreply=False)
    """,
        line=19,
        column=9,
        fixed=None,
    ),
    # A client wrapper whose object is the client (`self.execute("set", ...)` of aioredis 1.x's raw
    # command), held in a module global that a lock class claims and releases through.
    Invalid(
        """\
        import asyncio
        import pickle

        import aioredis


        class Cache:
            def __init__(self, uri):
                self.uri = uri
                self.pool = None

            async def execute(self, *args):
                if self.pool is None:
                    self.pool = await aioredis.create_redis_pool(self.uri)
                return await self.pool.execute(*args)

            async def add(self, key, value, ttl=60):
                return await self.execute("set", key, pickle.dumps(value), "ex", ttl, "nx")

            async def drop(self, key):
                return await self.execute("del", key)


        cache = Cache("redis://127.0.0.1")


        class Gate:
            def __init__(self, name):
                self.key = f"gate:{name}"

            async def __aenter__(self):
                while not await cache.add(self.key, 1, ttl=30):
                    await asyncio.sleep(0.5)
                return self

            async def __aexit__(self, *exc):
                await cache.drop(self.key)
    """,
        line=37,
        column=15,
        fixed=None,
    ),
    # A lock class made of two mixins of the module: the claim in one, the release in the other.
    Invalid(
        """\
        import secrets

        import redis


        class TakeMixin:
            def acquire(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.key, self.token, nx=True, ex=30)


        class GiveMixin:
            def release(self):
                self.client.delete(self.key)


        class ReportLock(TakeMixin, GiveMixin):
            def __init__(self, name):
                self.client = redis.Redis()
                self.key = f"report:{name}"
    """,
        line=14,
        column=9,
    ),
]

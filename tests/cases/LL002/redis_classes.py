"""LL002 cases: Redis-family clients in classes."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A settings field with no default: what callers fill in is not known here.
    Valid(
        """\
        import dataclasses
        import secrets

        import redis


        @dataclasses.dataclass
        class WorkerSettings:
            worker_id: str
            prefix: str = "lease:"


        class JobLease:
            def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                self.client = client
                self.settings = settings
                self.key = settings.prefix + job
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, ex=30):
                    self.token = token
                    return True
                return False

            def owner(self):
                return self.settings.worker_id
    """
    ),
    # Each use makes its own object (`with Mutex(key):`): a token made in `__init__` is one per lease.
    Valid(
        """\
        import secrets

        from django.core.cache import cache


        class Mutex:
            def __init__(self, key, ttl=600):
                self.key = key
                self.ttl = ttl
                self.token = secrets.token_hex(16)

            def __enter__(self):
                if not cache.add(self.key, self.token, timeout=self.ttl):
                    raise RuntimeError(f"{self.key} is held")
                return self

            def __exit__(self, *exc):
                if cache.get(self.key) == self.token:
                    cache.delete(self.key)


        def guarded(key):
            def wrap(func):
                def run(*args, **kwargs):
                    with Mutex(key):
                        return func(*args, **kwargs)
                return run
            return wrap
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis


        class PreviewLock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"preview:{name}"

            def acquire(self):
                return bool(self.client.set(self.key, "1", nx=True, ex=60))

            def release(self):
                if self.client.get(self.key) == b"1":
                    self.client.delete(self.key)
                    return True
                return False
    """,
        line=10,
        column=47,
        fixed="""\
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class PreviewLock:
            _lease_token = None

            def __init__(self, client, name):
                self.client = client
                self.key = f"preview:{name}"

            def acquire(self):
                token = secrets.token_hex(16)
                claimed = bool(self.client.set(self.key, token, nx=True, ex=60))
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if self._lease_token is not None and self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                    return True
                return False
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import os
        import threading

        import redis


        class Lock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"
                self.owner = f"{os.getpid()}-{threading.get_ident()}"

            def acquire(self):
                return self.client.set(self.key, self.owner, nx=True, ex=30)

            def release(self):
                self.client.delete(self.key)
    """,
        line=14,
        column=42,
        fixed="""\
        import logging
        import os
        import secrets
        import threading

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Lock:
            _lease_token = None

            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"
                self.owner = f"{os.getpid()}-{threading.get_ident()}"

            def acquire(self):
                token = f"{self.owner}:{secrets.token_hex(8)}"
                claimed = self.client.set(self.key, token, nx=True, ex=30)
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
    # A settings object's field whose default is the host and pid (behind an environment setting).
    Invalid(
        """\
        import dataclasses
        import os
        import socket

        import redis


        @dataclasses.dataclass
        class WorkerSettings:
            lease_seconds: int = 30
            worker_id: str = dataclasses.field(
                default_factory=lambda: os.environ.get("WORKER_ID") or f"{socket.gethostname()}:{os.getpid()}"
            )


        class JobLease:
            def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                self.client = client
                self.settings = settings
                self.key = f"lease:{job}"

            def acquire(self):
                return self.client.set(self.key, self.settings.worker_id, nx=True, ex=self.settings.lease_seconds)

            def release(self):
                self.client.delete(self.key)
    """,
        line=23,
        column=42,
        fixed="""\
        import dataclasses
        import logging
        import os
        import secrets
        import socket

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        @dataclasses.dataclass
        class WorkerSettings:
            lease_seconds: int = 30
            worker_id: str = dataclasses.field(
                default_factory=lambda: os.environ.get("WORKER_ID") or f"{socket.gethostname()}:{os.getpid()}"
            )


        class JobLease:
            _lease_token = None

            def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                self.client = client
                self.settings = settings
                self.key = f"lease:{job}"

            def acquire(self):
                token = f"{self.settings.worker_id}:{secrets.token_hex(8)}"
                claimed = self.client.set(self.key, token, nx=True, ex=self.settings.lease_seconds)
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
    # The value a client wrapper stores is its parameter encoded (`pickle.dumps(value)`): the
    # caller's constant.
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
        line=32,
        column=45,
        fixed=None,
    ),
]

"""LL002 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
    # aioredis 1.x: the script's keys and arguments in lists; the token is made once per instance.
    Invalid(
        """\
        import aioredis

        CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Mutex:
            def __init__(self, pool: aioredis.Redis, name):
                self.pool = pool
                self.name = f"mutex:{name}"
                self.owner = str(id(self))

            async def acquire(self):
                return await self.pool.eval(CLAIM, keys=[self.name], args=[self.owner, 10000])

            async def release(self):
                if not await self.pool.eval(UNLOCK, keys=[self.name], args=[self.owner]):
                    raise RuntimeError("the mutex was lost")
    """,
        line=14,
        column=68,
        fixed="""\
        import secrets

        import aioredis

        CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Mutex:
            _lease_token = None

            def __init__(self, pool: aioredis.Redis, name):
                self.pool = pool
                self.name = f"mutex:{name}"
                self.owner = str(id(self))

            async def acquire(self):
                token = f"{self.owner}:{secrets.token_hex(8)}"
                claimed = await self.pool.eval(CLAIM, keys=[self.name], args=[token, 10000])
                if claimed:
                    self._lease_token = token
                return claimed

            async def release(self):
                if not (await self.pool.eval(UNLOCK, keys=[self.name], args=[self._lease_token]) if self._lease_token is not None else 0):
                    raise RuntimeError("the mutex was lost")
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            owner = socket.gethostname()
            if not r.set(f"lock:{job}", owner, nx=True, px=10_000):
                return
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", owner)
    """,
        line=11,
        column=33,
        fixed="""\
        import secrets
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            owner = f"{socket.gethostname()}:{secrets.token_hex(8)}"
            if not r.set(f"lock:{job}", owner, nx=True, px=10_000):
                return
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", owner)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import logging
        import os
        import socket

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            owner = f"{socket.gethostname()}:{os.getpid()}"
            if r.set(f"lock:{job}", owner, nx=True, ex=30):
                log.info("%s runs %s", owner, job)
                try:
                    work(job)
                finally:
                    if not r.eval(RELEASE, 1, f"lock:{job}", owner):
                        log.warning("lost lock:%s", job)
    """,
        line=14,
        column=29,
        fixed="""\
        import logging
        import os
        import secrets
        import socket

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job):
            owner = f"{socket.gethostname()}:{os.getpid()}"
            token = f"{owner}:{secrets.token_hex(8)}"
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                log.info("%s runs %s", owner, job)
                try:
                    work(job)
                finally:
                    if not r.eval(RELEASE, 1, f"lock:{job}", token):
                        log.warning("lost lock:%s", job)
    """,
        applicability=Applicability.SAFE,
    ),
    # A Lua claim that stores a literal of its own script: reported at the call that runs it.
    Invalid(
        """\
        import redis

        r = redis.Redis()
        CLAIM = r.register_script(
            "local ok = redis.call('set', KEYS[1], 'BUSY', 'NX', 'EX', ARGV[1]) "
            "if ok then redis.call('del', KEYS[2]) end return ok"
        )
        FREE = r.register_script(
            "if redis.call('get', KEYS[1]) == 'BUSY' then redis.call('del', KEYS[1]) end "
            "redis.call('lpush', KEYS[2], 1)"
        )


        def compute(name):
            if not CLAIM(keys=[f"calc:{name}", f"calc:{name}:done"], args=[60]):
                return None
            try:
                return crunch(name)
            finally:
                FREE(keys=[f"calc:{name}", f"calc:{name}:done"])
    """,
        line=15,
        column=12,
        message_contains="(no automatic fix: the script stores a value written in it",
    ),
]

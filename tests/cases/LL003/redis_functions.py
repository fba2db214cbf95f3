"""LL003 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import time

        import redis

        r = redis.Redis()


        def remember(job):
            r.set(f"last-run:{job}", time.time(), nx=True)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def run(job):
            key = f"lock:{job}"
            if not r.set(key, uuid.uuid1().hex, nx=True, px=5000):
                return
            try:
                work(job)
            finally:
                r.delete(key)
    """,
        line=10,
        column=23,
        fixed="""\
        import logging
        import secrets
        import uuid

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(job):
            key = f"lock:{job}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, px=5000):
                return
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        from datetime import datetime

        import redis

        r = redis.Redis()


        def run(job):
            stamp = datetime.now().isoformat()
            if r.setnx(f"lock:{job}", stamp):
                work(job)
                r.delete(f"lock:{job}")
    """,
        line=10,
        column=31,
        fixed="""\
        import logging
        import secrets
        from datetime import datetime

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(job):
            stamp = secrets.token_hex(16)
            if r.setnx(f"lock:{job}", stamp):
                work(job)
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", stamp):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"lock:{job}",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import random

        import redis.asyncio as redis

        r = redis.Redis()


        async def run(job):
            token = random.getrandbits(64)
            if await r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    await work(job)
                finally:
                    await r.delete(f"lock:{job}")
    """,
        line=10,
        column=35,
        fixed="""\
        import logging
        import random
        import secrets

        import redis.asyncio as redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        async def run(job):
            token = secrets.token_hex(16)
            if await r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    await work(job)
                finally:
                    if not await r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis


        class Lock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"
                self.attempt = 0

            def acquire(self):
                self.attempt += 1
                return self.client.set(self.key, self.attempt, nx=True, ex=30)

            def release(self):
                self.client.delete(self.key)
    """,
        line=12,
        column=42,
        fixed="""\
        import logging
        import secrets

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
                self.attempt = 0

            def acquire(self):
                self.attempt += 1
                token = secrets.token_hex(16)
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
]

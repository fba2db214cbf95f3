from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.model.values import GUESSABLE
from leaselint.rule import Context, Invalid, Rule, Valid, weak_token_findings


class GuessableToken(Rule):
    """
    ## What it does
    Reports a lease whose holder token is fresh but predictable: `time.time()`,
    `time.time_ns()`, `time.monotonic()`, `datetime.now()`/`utcnow()`,
    `uuid.uuid1()` (the host and the time), the `random` module, or a counter
    (`itertools.count`, `+= 1`). Values derived only from `secrets`,
    `uuid.uuid4()`, `os.urandom` or `random.SystemRandom` are not reported.

    ## Why is this bad?
    Another worker can produce the same token. Two workers that start in the
    same clock tick, or two processes whose counters both start at 1, store
    equal tokens:

    1. Worker A claims `lock:job` with token `1` (its first claim).
    2. A stalls past the deadline; the claim expires.
    3. Worker B, also on its first claim, stores token `1`.
    4. A's release compares `1`, finds it, and deletes B's claim.
    5. Worker C claims `lock:job` and runs beside B.

    `random` is seeded predictably and its state can be recovered from its
    outputs; `uuid1` is the host's address and the time.

    ## Example
    ```python
    def run(job):
        token = str(time.time())
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            ...
    ```

    ## Use instead
    ```python
    def run(job):
        token = secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            ...
    ```

    ## Fix safety
    As for LL002: the value becomes `secrets.token_hex(16)` made at the claim
    and every release in reach checks it; **safe** within one function,
    **unsafe** when the token must travel to another method. No fix where the
    value is a time that other code reads back and parses or orders (an
    expiry stamp that contenders compare with the clock).
    """

    code = "LL003"
    name = "guessable-token"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            import secrets
            import time

            import redis

            r = redis.Redis()


            def run(job):
                token = f"{time.time()}-{secrets.token_hex(8)}"
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    r.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import random

            import redis

            r = redis.Redis()


            def run(job):
                token = random.SystemRandom().getrandbits(128)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    r.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import time

            import redis

            r = redis.Redis()


            def remember(job):
                r.set(f"last-run:{job}", time.time(), nx=True)
        """
        ),
        # An optional token filled in with a fresh one.
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def claim(name, token=None):
                token = token or secrets.token_hex(16)
                if r.set(f"lock:{name}", token, nx=True, ex=30):
                    return token
                return None


            def release_lock(name, token):
                if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                    raise RuntimeError("lost")
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import uuid

            import redis


            class Lock:
                def __init__(self, client, name, timeout=30):
                    self.client = client
                    self.name = f"lock:{name}"
                    self.timeout = timeout
                    self.token = None

                def acquire(self):
                    token = uuid.uuid1().hex
                    if self._do_acquire(token):
                        self.token = token
                        return True
                    return False

                def _do_acquire(self, token):
                    return bool(self.client.set(self.name, token, nx=True, ex=self.timeout))

                def release(self):
                    if self.token is None:
                        return False
                    self.client.eval(RELEASE, 1, self.name, self.token)
                    self.token = None
                    return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            line=14,
            column=17,
            fixed="""\
            import secrets
            import uuid

            import redis


            class Lock:
                def __init__(self, client, name, timeout=30):
                    self.client = client
                    self.name = f"lock:{name}"
                    self.timeout = timeout
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self._do_acquire(token):
                        self.token = token
                        return True
                    return False

                def _do_acquire(self, token):
                    return bool(self.client.set(self.name, token, nx=True, ex=self.timeout))

                def release(self):
                    if self.token is None:
                        return False
                    self.client.eval(RELEASE, 1, self.name, self.token)
                    self.token = None
                    return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import time

            import redis


            class Refresh:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"refresh:{name}"

                @property
                def stamp(self):
                    return str(time.time())

                def run(self):
                    value = self.stamp
                    if self.client.set(self.key, value, nx=True, px=10_000):
                        try:
                            refresh()
                        finally:
                            self.client.eval(RELEASE, 1, self.key, value)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            line=17,
            column=38,
            fixed="""\
            import secrets
            import time

            import redis


            class Refresh:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"refresh:{name}"

                @property
                def stamp(self):
                    return str(time.time())

                def run(self):
                    value = secrets.token_hex(16)
                    if self.client.set(self.key, value, nx=True, px=10_000):
                        try:
                            refresh()
                        finally:
                            self.client.eval(RELEASE, 1, self.key, value)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import time

            import redis

            r = redis.Redis()


            def rotate(name):
                key = f"rotate:{name}"
                stamp = int(time.time() * 1000)
                if not r.set(key, stamp, nx=True, px=60_000):
                    return False
                try:
                    work(name)
                finally:
                    r.eval(RELEASE, 1, key, stamp)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            line=11,
            column=23,
            fixed="""\
            import secrets
            import time

            import redis

            r = redis.Redis()


            def rotate(name):
                key = f"rotate:{name}"
                stamp = secrets.token_hex(16)
                if not r.set(key, stamp, nx=True, px=60_000):
                    return False
                try:
                    work(name)
                finally:
                    r.eval(RELEASE, 1, key, stamp)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import time

            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                token = str(time.time())
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.eval(RELEASE, 1, f"lock:{job}", token)
        """,
            line=11,
            column=29,
            fixed="""\
            import secrets
            import time

            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.eval(RELEASE, 1, f"lock:{job}", token)
        """,
            applicability=Applicability.SAFE,
        ),
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
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
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
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
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
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
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
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        # An optional token the lock fills in itself when the caller passes none; the release script
        # is registered once on the class (`kind = type(self)`).
        Invalid(
            """\
            import time
            import uuid

            import redis


            class RenewableLock:
                unlock_script = None
                UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

                def __init__(self, client: redis.Redis, name, ttl=10.0):
                    self.client = client
                    self.name = name
                    self.ttl = ttl
                    self.held = None
                    kind = type(self)
                    if kind.unlock_script is None:
                        kind.unlock_script = client.register_script(kind.UNLOCK)

                def acquire(self, token=None, wait=5.0):
                    if token is None:
                        token = str(uuid.uuid1())
                    give_up = time.monotonic() + wait
                    while not self._try(token):
                        if time.monotonic() > give_up:
                            return False
                        time.sleep(0.1)
                    self.held = token
                    return True

                def _try(self, token):
                    return bool(self.client.set(self.name, token, nx=True, px=int(self.ttl * 1000)))

                def release(self):
                    token, self.held = self.held, None
                    if not self.unlock_script(keys=[self.name], args=[token]):
                        raise RuntimeError(f"lock {self.name} was lost")
        """,
            line=22,
            column=25,
            fixed="""\
            import secrets
            import time
            import uuid

            import redis


            class RenewableLock:
                unlock_script = None
                UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

                def __init__(self, client: redis.Redis, name, ttl=10.0):
                    self.client = client
                    self.name = name
                    self.ttl = ttl
                    self.held = None
                    kind = type(self)
                    if kind.unlock_script is None:
                        kind.unlock_script = client.register_script(kind.UNLOCK)

                def acquire(self, token=None, wait=5.0):
                    if token is None:
                        token = str(secrets.token_hex(16))
                    give_up = time.monotonic() + wait
                    while not self._try(token):
                        if time.monotonic() > give_up:
                            return False
                        time.sleep(0.1)
                    self.held = token
                    return True

                def _try(self, token):
                    return bool(self.client.set(self.name, token, nx=True, px=int(self.ttl * 1000)))

                def release(self):
                    token, self.held = self.held, None
                    if not self.unlock_script(keys=[self.name], args=[token]):
                        raise RuntimeError(f"lock {self.name} was lost")
        """,
            applicability=Applicability.UNSAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        yield from weak_token_findings(
            self, context, GUESSABLE, "another worker can produce the same value and release this claim"
        )



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
    (`itertools.count`, `+= 1`, the store's own `incr`: the next holder's is
    the last plus one). Values derived only from `secrets`,
    `uuid.uuid4()`, `os.urandom` or `random.SystemRandom` are not reported.
    The token a caller gives a lock object (`lock.acquire(token=...)`,
    python-redis-lock's `id=`), a lease helper of another module of the run,
    or a lock API leaselint cannot read (the same holder given to its
    `acquire` and its `release`) is checked the same way, with no fix.

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

    ## Without an automatic fix

    The reasons and what to do instead are those of LL001:
    `leaselint --explain LL001`. A lock API that takes the holder from its
    caller: pass it `secrets.token_hex(16)`, made for each attempt.
    """

    code = "LL003"
    name = "guessable-token"
    fix_availability = "sometimes"

    VALID = [  # more in tests/cases/LL003/
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
    ]
    INVALID = [  # more in tests/cases/LL003/
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
            line=21,
            column=48,
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
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        yield from weak_token_findings(
            self, context, GUESSABLE, "another worker can produce the same value and release this claim"
        )



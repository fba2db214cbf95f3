"""LL003 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
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
        line=32,
        column=48,
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

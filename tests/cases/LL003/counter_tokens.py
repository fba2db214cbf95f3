"""LL003 cases: a holder token taken from a counter the store increments (`INCR`): each attempt
gets a new number, but the next one is the last plus one."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The counter is a fencing number handed to the writer; the claim stores a random token.
    Valid(
        """\
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class FencedLock:
        def __init__(self, client: redis.Redis, name, ttl=15):
            self.client = client
            self.key = f"lock:{name}"
            self.fence_key = f"fence:{name}"
            self.ttl = ttl
            self.token = None

        def acquire(self):
            token = uuid.uuid4().hex
            if not self.client.set(self.key, token, nx=True, ex=self.ttl):
                return None
            self.token = token
            return int(self.client.incr(self.fence_key))

        def release(self):
            if not self.client.eval(UNLOCK, 1, self.key, self.token):
                raise RuntimeError("lock lost")
"""
    ),
]

INVALID = [
    # The counter's next value is the stored token.
    Invalid(
        """\
    import time

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class FencedLock:
        def __init__(self, client: redis.Redis, name, ttl=15):
            self.client = client
            self.key = f"lock:{name}"
            self.fence_key = f"fence:{name}"
            self.ttl = ttl
            self.token = None

        def acquire(self, timeout=5.0):
            deadline = time.time() + timeout
            while time.time() < deadline:
                token = int(self.client.incr(self.fence_key))
                if self.client.set(self.key, token, nx=True, ex=self.ttl):
                    self.token = token
                    return token
                time.sleep(0.05)
            return None

        def release(self):
            if not self.client.eval(UNLOCK, 1, self.key, str(self.token)):
                raise RuntimeError("lock lost")
""",
        line=20,
        message_contains="a counter the store increments",
        fixed="""\
    import secrets
    import time

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class FencedLock:
        _lease_token = None

        def __init__(self, client: redis.Redis, name, ttl=15):
            self.client = client
            self.key = f"lock:{name}"
            self.fence_key = f"fence:{name}"
            self.ttl = ttl
            self.token = None

        def acquire(self, timeout=5.0):
            deadline = time.time() + timeout
            while time.time() < deadline:
                token = int(self.client.incr(self.fence_key))
                lease_token = secrets.token_hex(16)
                if self.client.set(self.key, lease_token, nx=True, ex=self.ttl):
                    self._lease_token = lease_token
                    self.token = token
                    return token
                time.sleep(0.05)
            return None

        def release(self):
            if not (self.client.eval(UNLOCK, 1, self.key, self._lease_token) if self._lease_token is not None else 0):
                raise RuntimeError("lock lost")
""",
    ),
]

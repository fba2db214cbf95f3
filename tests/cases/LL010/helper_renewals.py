"""LL010 cases: the lease's deadline moved through the project's own helper (`apply_expiry(client,
key, ms)`, which calls `client.pexpire(key, ms)`), from a method named for renewing, with no
check of the holder."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The helper sets the lifetime of a cache entry nobody claims.
    Valid(
        """\
    import redis


    def apply_expiry(client, key, seconds):
        if seconds is not None:
            client.expire(key, seconds)


    class Reports:
        def __init__(self, client: redis.Redis):
            self.client = client

        def refresh(self, name, body):
            key = f"report:{name}"
            self.client.set(key, body)
            apply_expiry(self.client, key, 600)
"""
    ),
    # The claim gets its first lifetime from the helper right after it (LL005's, not a renewal).
    Valid(
        """\
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    def apply_expiry(client, key, seconds):
        client.expire(key, seconds)


    class Job:
        def __init__(self, client: redis.Redis, name):
            self.client = client
            self.key = f"job-lock:{name}"
            self.token = uuid.uuid4().hex

        def claim(self):
            if self.client.setnx(self.key, self.token):
                apply_expiry(self.client, self.key, 30)
                return True
            return False

        def release(self):
            if not self.client.eval(UNLOCK, 1, self.key, self.token):
                raise RuntimeError("lost")
"""
    ),
]

INVALID = [
    # A job's claim renewed through a helper that only moves the deadline.
    Invalid(
        """\
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    def apply_expiry(client, key, expiry_ms):
        if expiry_ms is None:
            return False
        return bool(client.pexpire(key, expiry_ms))


    class Job:
        def __init__(self, client: redis.Redis, name, ttl_ms=30000):
            self.client = client
            self.key = f"job-lock:{name}"
            self.ttl_ms = ttl_ms
            self.token = uuid.uuid4().hex

        def claim(self):
            return self.client.set(self.key, self.token, nx=True, px=self.ttl_ms)

        def extend_expiry(self):
            return apply_expiry(self.client, self.key, self.ttl_ms)

        def release(self):
            if not self.client.eval(UNLOCK, 1, self.key, self.token):
                raise RuntimeError("lost")
""",
        line=11,
        message_contains="renews lease `self.key` without checking the holder",
    ),
]

"""LL006 cases: a release's answer thrown away as the last operand of `and`/`or`."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The answer is what the statement hands back.
    Valid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    r = redis.Redis()


    class Hold:
        def __init__(self, name):
            self.name = f"hold:{name}"
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return bool(r.set(self.name, self.token, nx=True, ex=30))

        def release(self):
            answer = r.eval(RELEASE, 1, self.name, self.token)
            return bool(answer)

        def close(self):
            return self.token is not None and self.release()
"""
    ),
    # Only the first operand's answer is tested; the release's is used by the assignment.
    Valid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    r = redis.Redis()


    class Hold:
        def __init__(self, name):
            self.name = f"hold:{name}"
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return bool(r.set(self.name, self.token, nx=True, ex=30))

        def release(self):
            answer = r.eval(RELEASE, 1, self.name, self.token)
            return bool(answer)

        def close(self):
            ok = self.token and self.release()
        return ok
"""
    ),
]

INVALID = [
    Invalid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    r = redis.Redis()


    class Hold:
        def __init__(self, name):
            self.name = f"hold:{name}"
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return bool(r.set(self.name, self.token, nx=True, ex=30))

        def release(self):
            answer = r.eval(RELEASE, 1, self.name, self.token)
            return bool(answer)

        def close(self):
            self.token and self.name and self.release()
""",
        line=23,
        column=38,
        fixed=None,
    ),
    Invalid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    r = redis.Redis()


    class Hold:
        def __init__(self, name):
            self.name = f"hold:{name}"
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return bool(r.set(self.name, self.token, nx=True, ex=30))

        def release(self):
            answer = r.eval(RELEASE, 1, self.name, self.token)
            return bool(answer)

        def close(self):
            self.token is None or self.release()
""",
        line=23,
        column=31,
        fixed=None,
    ),
]

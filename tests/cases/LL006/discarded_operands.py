"""LL006 cases: a release's answer thrown away as the last operand of `and`/`or`."""

from leaselint.rule import Invalid, Valid

_CLASS = """\
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
            STATEMENT
"""

VALID = [
    # The answer is what the statement hands back.
    Valid(_CLASS.replace("STATEMENT", "return self.token is not None and self.release()")),
    # Only the first operand's answer is tested; the release's is used by the assignment.
    Valid(_CLASS.replace("STATEMENT", "ok = self.token and self.release()\n        return ok")),
]

INVALID = [
    Invalid(
        _CLASS.replace("STATEMENT", "self.token and self.name and self.release()"),
        line=23,
        column=38,
        fixed=None,
    ),
    Invalid(
        _CLASS.replace("STATEMENT", "self.token is None or self.release()"),
        line=23,
        column=31,
        fixed=None,
    ),
]

"""LL004 cases: the client-side compare made by another method of the class (`if self.owns():
self.r.delete(self.key)`, where `owns()` reads the key and compares it with the token)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this: the release compares and deletes in one server step
        import uuid

        import redis

        DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Leader:
            def __init__(self, name):
                self.r = redis.Redis()
                self.key = f"leader:{name}"
                self.token = None

            def elect(self):
                token = uuid.uuid4().hex
                if self.r.set(self.key, token, nx=True, px=10000):
                    self.token = token
                    return True
                return False

            def owns(self):
                return self.r.get(self.key) == self.token.encode()

            def resign(self):
                if self.owns() and not self.r.eval(DROP, 1, self.key, self.token):
                    raise LeadershipLost(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis


        class Leader:
            def __init__(self, name):
                self.r = redis.Redis()
                self.key = f"leader:{name}"
                self.token = None

            def elect(self):
                token = uuid.uuid4().hex
                if self.r.set(self.key, token, nx=True, px=10000):
                    self.token = token
                    return True
                return False

            def owns(self):
                return self.r.get(self.key) == self.token.encode()

            def resign(self):
                if self.owns():
                    self.r.delete(self.key)
    """,
        line=24,
        column=13,
        message_contains="compared by another method, `owns()`",
    ),
]

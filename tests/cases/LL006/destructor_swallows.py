"""LL006 cases: a destructor that swallows the error of releasing a lock its class acquired."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The class never acquires the lock it is handed: the destructor's release is cleanup.
    Valid(
        """\
    import redis
    from redis.exceptions import LockError

    r = redis.Redis()


    class Holder:
        def __init__(self, lock):
            self.lock = lock

        def __del__(self):
            try:
                self.lock.release()
            except LockError:
                pass
"""
    ),
    # The destructor calls the class's own release, which raises for a lock never taken too: cleanup.
    Valid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    r = redis.Redis()


    class LockError(Exception):
        pass


    class JobLock:
        def __init__(self, name):
            self.key = f"job-lock:{name}"
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return bool(r.set(self.key, self.token, nx=True, ex=30))

        def release(self):
            if not r.eval(UNLOCK, 1, self.key, self.token):
                raise LockError("not held")

        def __enter__(self):
            if not self.acquire():
                raise LockError("busy")
            return self

        def __exit__(self, *exc):
            self.release()

        def __del__(self):
            try:
                self.release()
            except LockError:
                pass
"""
    ),
]

INVALID = [
    # The leader acquired its lock at start: a lost lease raises LockNotOwnedError, swallowed here (no fix in a destructor).
    Invalid(
        """\
    import redis
    from redis.exceptions import LockError

    r = redis.Redis()


    class Leader:
        def __init__(self):
            self.lock = r.lock("leader", timeout=30)
            self.leading = self.lock.acquire(blocking=False)

        def __del__(self):
            try:
                self.lock.release()
            except LockError:
                pass
""",
        line=15,
        column=16,
        fixed=None,
    ),
]

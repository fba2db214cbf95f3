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

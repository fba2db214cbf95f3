"""LL001 cases: a claim whose answer nobody reads is a lease in a class named for a lock with a lock's methods, whatever its key is called."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Not a lock class (no lock's name, no lock's methods): a cache write and its delete.
    Valid(
        """\
    import redis

    store = redis.Redis()


    class SessionStore:
        def __init__(self, session):
            self.slot = f"sessions/{session}"

        def save(self):
            store.set(self.slot, "busy", nx=True, ex=120)

        def drop(self):
            store.delete(self.slot)
"""
    ),
]

INVALID = [
    # The mutex's claim is never asked, and its key names no lock: the class does.
    Invalid(
        """\
    import redis

    store = redis.Redis()


    class ReportMutex:
        def __init__(self, report):
            self.slot = f"reports/{report}"

        def acquire(self):
            store.set(self.slot, "busy", nx=True, ex=120)

        def release(self):
            store.delete(self.slot)
""",
        line=14,
        column=9,
        fixed=None,
    ),
]

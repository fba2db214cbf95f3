"""LL008 cases: a lock's entry that ignores what acquire answers, where acquire answers what another of its methods said."""

from leaselint.rule import Invalid, Valid

VALID = [
    # No deadline by default (wait=None): acquire waits until it holds the lease.
    Valid(
        """\
    import secrets
    import time

    import redis

    store = redis.Redis()


    class BuildLock:
        def __init__(self, target):
            self.key = f"build-lock/{target}"
            self.token = None

        def _attempt(self):
            token = secrets.token_hex(16)
            if store.set(self.key, token, nx=True, ex=60):
                self.token = token
                return True
            return False

        def acquire(self, wait=None):
            deadline = time.monotonic() + wait
            while True:
                if self._attempt():
                    return True
                if wait is not None:
                    if time.monotonic() >= deadline:
                        return False
                time.sleep(0.1)

        def __enter__(self):
            self.acquire()
            return self
"""
    ),
    # Only a caller that asks not to block (blocking=False) gets False.
    Valid(
        """\
    import secrets

    import redis

    store = redis.Redis()


    class BuildLock:
        def __init__(self, target):
            self.key = f"build-lock/{target}"
            self.token = None

        def _attempt(self):
            token = secrets.token_hex(16)
            if store.set(self.key, token, nx=True, ex=60):
                self.token = token
                return True
            return False

        def acquire(self, blocking=True):
            while not self._attempt():
                if not blocking:
                    return False
            return True

        def __enter__(self):
            self.acquire()
            return self
"""
    ),
]

INVALID = [
    # acquire gives up after its default wait of 5 s: __enter__ runs the body anyway.
    Invalid(
        """\
    import secrets
    import time

    import redis

    store = redis.Redis()


    class BuildLock:
        def __init__(self, target):
            self.key = f"build-lock/{target}"
            self.token = None

        def _attempt(self):
            token = secrets.token_hex(16)
            if store.set(self.key, token, nx=True, ex=60):
                self.token = token
                return True
            return False

        def acquire(self, wait=5.0):
            deadline = time.monotonic() + wait
            while True:
                if self._attempt():
                    return True
                if wait is not None:
                    if time.monotonic() >= deadline:
                        return False
                time.sleep(0.1)

        def __enter__(self):
            self.acquire()
            return self
""",
        line=32,
        column=9,
        fixed=None,
    ),
]

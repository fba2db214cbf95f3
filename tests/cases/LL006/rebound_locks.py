"""LL006 cases: a lock object held in a name bound to None too (first, or in an `except`)."""

from leaselint.rule import Invalid, Valid

VALID = []

INVALID = [
    # `lock = None`, then the lock made in a `try` whose `except` sets it back to None: its release's error swallowed.
    Invalid(
        """\
        from django.core.cache import cache


        def rebuild_view(name):
            lock = None
            acquired = False
            try:
                lock = cache.lock(f"rebuild:{name}", timeout=600)
            except Exception:
                lock = None
            try:
                if lock is not None:
                    acquired = lock.acquire(blocking=True, blocking_timeout=5)
                refresh(name)
            finally:
                if acquired and lock is not None:
                    try:
                        lock.release()
                    except Exception:
                        pass
    """,
        line=19,
        column=20,
        fixed="""\
        import logging

        from django.core.cache import cache


        def rebuild_view(name):
            lock = None
            acquired = False
            try:
                lock = cache.lock(f"rebuild:{name}", timeout=600)
            except Exception:
                lock = None
            try:
                if lock is not None:
                    acquired = lock.acquire(blocking=True, blocking_timeout=5)
                refresh(name)
            finally:
                if acquired and lock is not None:
                    try:
                        lock.release()
                    except Exception as exc:
                        logging.getLogger(__name__).warning(
                            "lease lost before release: %s", exc
                        )
    """,
    ),
    # An object of the module's own lock class, bound to None first: its release's answer dropped in a `finally`.
    Invalid(
        """\
        import time
        import uuid
        from contextlib import contextmanager

        from django.core.cache import cache


        class RedisLock:
            def __init__(self, name, ttl=60):
                self.name = name
                self.ttl = ttl
                self.token = None

            def acquire(self, wait=0.001):
                token = uuid.uuid4().hex
                until = time.time() + wait
                while not cache.set(self.name, token, timeout=self.ttl, nx=True):
                    if time.time() >= until:
                        return False
                    time.sleep(0.01)
                self.token = token
                return True

            def release(self):
                if not self.token:
                    return False
                held = cache.get(self.name)
                if held != self.token:
                    return False
                return cache.delete(self.name)


        @contextmanager
        def service_lock(key, ttl):
            lock = None
            try:
                lock = RedisLock(key, ttl)
                if not lock.acquire(0.1):
                    raise RuntimeError("locked")
                yield lock
            finally:
                if lock is not None:
                    lock.release()
    """,
        line=43,
        column=13,
        fixed=None,
    ),
]

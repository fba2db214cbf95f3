"""LL006 cases: a broad except around the release of a lock object made by a helper of the module, or by a named cache."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The helper hands back a thread lock: no lease.
    Valid(
        """\
    import threading

    LOCKS = {}


    def take(name):
        lock = LOCKS.setdefault(name, threading.Lock())
        if lock.acquire(blocking=False):
            return lock
        return None


    def run(name, work):
        lock = take(name)
        if lock is None:
            return
        try:
            work()
        finally:
            try:
                lock.release()
            except Exception:
                pass
"""
    ),
]

INVALID = [
    # take() hands back the redis-py lock it made.
    Invalid(
        """\
    import redis

    r = redis.Redis()


    def take(name):
        lock = r.lock(f"jobs:{name}", timeout=120)
        if lock.acquire(blocking=False):
            return lock
        return None


    def run(name, work):
        lock = take(name)
        if lock is None:
            return
        try:
            work()
        finally:
            try:
                lock.release()
            except Exception:
                pass
""",
        line=22,
        column=16,
        fixed="""\
    import logging

    import redis

    r = redis.Redis()


    def take(name):
        lock = r.lock(f"jobs:{name}", timeout=120)
        if lock.acquire(blocking=False):
            return lock
        return None


    def run(name, work):
        lock = take(name)
        if lock is None:
            return
        try:
            work()
        finally:
            try:
                lock.release()
            except Exception as exc:
                logging.getLogger(__name__).warning("lease lost before release: %s", exc)
""",
    ),
    # django-redis's lock of a named cache.
    Invalid(
        """\
    from django.core.cache import caches


    def refresh(feed):
        lock = caches["locks"].lock(f"feed:{feed}", timeout=300)
        if not lock.acquire(blocking=False):
            return
        try:
            pass
        finally:
            try:
                lock.release()
            except Exception:
                pass
""",
        line=13,
        column=16,
        fixed="""\
    import logging

    from django.core.cache import caches


    def refresh(feed):
        lock = caches["locks"].lock(f"feed:{feed}", timeout=300)
        if not lock.acquire(blocking=False):
            return
        try:
            pass
        finally:
            try:
                lock.release()
            except Exception as exc:
                logging.getLogger(__name__).warning("lease lost before release: %s", exc)
""",
    ),
]

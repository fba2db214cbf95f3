"""LL006 cases: an error of a lost lease caught and logged only at debug level."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Logged as a warning.
    Valid(
        """\
    import logging

    import redis
    from redis.exceptions import LockNotOwnedError

    log = logging.getLogger(__name__)
    r = redis.Redis()


    def rebuild(index):
        lock = r.lock(f"rebuild:{index}", timeout=60)
        if not lock.acquire(blocking=False):
            return
        try:
            pass
        finally:
            try:
                lock.release()
            except LockNotOwnedError:
                log.warning("rebuild lock already gone")
"""
    ),
]

INVALID = [
    # A debug line: production never sees it; the fix raises it to a warning.
    Invalid(
        """\
    import logging

    import redis
    from redis.exceptions import LockNotOwnedError

    log = logging.getLogger(__name__)
    r = redis.Redis()


    def rebuild(index):
        lock = r.lock(f"rebuild:{index}", timeout=60)
        if not lock.acquire(blocking=False):
            return
        try:
            pass
        finally:
            try:
                lock.release()
            except LockNotOwnedError:
                log.debug("rebuild lock already gone")
""",
        line=19,
        message_contains="logged only at debug level",
        column=16,
        fixed="""\
    import logging

    import redis
    from redis.exceptions import LockNotOwnedError

    log = logging.getLogger(__name__)
    r = redis.Redis()


    def rebuild(index):
        lock = r.lock(f"rebuild:{index}", timeout=60)
        if not lock.acquire(blocking=False):
            return
        try:
            pass
        finally:
            try:
                lock.release()
            except LockNotOwnedError:
                log.warning("rebuild lock already gone")
""",
    ),
]

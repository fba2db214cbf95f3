"""LL008 cases: a lock object bound more than once (`lock = None`, then `lock = r.lock(...)` in the `try`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()


        def run(job):
            lock = None
            try:
                lock = r.lock(f"lock:{job}", timeout=30)
                if not lock.acquire(blocking=False):
                    lock = None
                    return
                work(job)
            finally:
                if lock is not None and lock.owned():
                    lock.release()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            lock = None
            try:
                lock = r.lock(f"lock:{job}", timeout=30)
                lock.acquire(blocking=False)
                work(job)
            finally:
                if lock is not None and lock.owned():
                    lock.release()
    """,
        line=10,
        column=9,
        fixed=None,
    ),
]

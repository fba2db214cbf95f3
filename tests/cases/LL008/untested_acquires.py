"""LL008 cases: a lock object's acquire that gives up instead of waiting, its answer never read."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The answer kept in an attribute is tested before the work.
    Valid(
        """\
    import redis

    r = redis.Redis()


    class Beat:
        def __init__(self):
            self.lock = r.lock("beat", timeout=30)
            self.have_lock = self.lock.acquire(blocking=False)

        def tick(self):
            if not self.have_lock:
                return 5
            return 1

        def close(self):
            self.lock.release()
"""
    ),
    # acquire() waits until it holds the lock.
    Valid(
        """\
    import redis

    r = redis.Redis()


    class Beat:
        def __init__(self):
            self.lock = r.lock("beat", timeout=30)
            self.lock.acquire()

        def tick(self):
            return 5

        def close(self):
            self.lock.release()
"""
    ),
    # A test that tries a held lock: it checks the library's answer, not a job's.
    Valid(
        """\
    import redis

    r = redis.Redis()


    def test_second_holder_is_refused():
        first = r.lock("report", timeout=30)
        assert first.acquire(blocking=False)
        second = r.lock("report", timeout=30)
        second.acquire(blocking=False)
        first.release()
"""
    ),
]

INVALID = [
    # blocking=False, the answer thrown away.
    Invalid(
        """\
    import redis

    r = redis.Redis()


    class Beat:
        def __init__(self):
            self.lock = r.lock("beat", timeout=30)
            self.lock.acquire(blocking=False)

        def tick(self):
            return 5

        def close(self):
            self.lock.release()
""",
        line=9,
        column=9,
        fixed=None,
    ),
    # The answer kept in an attribute that nothing reads.
    Invalid(
        """\
    import redis

    r = redis.Redis()


    class Beat:
        def __init__(self):
            self.lock = r.lock("beat", timeout=30)
            self.have_lock = self.lock.acquire(blocking=False)

        def tick(self):
            return 5

        def close(self):
            self.lock.release()
""",
        line=9,
        column=26,
        fixed=None,
    ),
    # The lock gives up after blocking_timeout; the answer's name is never read.
    Invalid(
        """\
    import redis

    r = redis.Redis()


    def nightly():
        lock = r.lock("nightly-report", timeout=600, blocking_timeout=5)
        got = lock.acquire()
        try:
            return 1
        finally:
            lock.release()
""",
        line=8,
        column=11,
        fixed=None,
    ),
]

"""LL005 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            with r.lock(f"lock:{job}", timeout=30, blocking_timeout=5):
                work(job)
    """
    ),
    Valid(
        """\
        import threading

        lock = threading.Lock()


        def run():
            with lock:
                work()
    """
    ),
    # django-redis's cache takes its lifetime as `timeout=`, which redis-py's `set` does not: a
    # client known only by its name is then a Django cache.
    Valid(
        """\
        def run(cache, job, token):
            if cache.set(f"lock:{job}", token, timeout=30, nx=True):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """
    ),
    # The transaction's own expire is one step with its write.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def lead(group, token):
            key = f"leader:{group}"
            with r.pipeline() as pipe:
                pipe.watch(key)
                if pipe.exists(key):
                    return False
                pipe.multi()
                pipe.set(key, token)
                pipe.expire(key, 15)
                pipe.execute()
                return True


        def resign(group):
            r.delete(f"leader:{group}")
    """
    ),
    # WATCH, a read that fills in a default, MULTI, a write: the write happens either way, no claim.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def touch(name):
            key = f"visits:{name}"
            with r.pipeline() as pipe:
                pipe.watch(key)
                seen = pipe.get(key)
                if seen is None:
                    seen = b"0"
                pipe.multi()
                pipe.set(key, "fresh")
                pipe.execute()


        def forget(name):
            r.delete(f"visits:{name}")
    """
    ),
    # A facade whose caller passes the lifetime; the project's own lock class; a lock made only
    # to ask whether the name is held.
    Valid(
        """\
        class Cache:
            def __init__(self, client):
                self.client = client

            def lock(self, *args, **kwargs):
                return self.client.lock(*args, **kwargs)

            def custom_lock(self, name):
                return self.client.lock(name, lock_class=RenewingLock)

            def is_busy(self, job):
                return self.client.lock(f"lock:{job}").locked()

            def is_held(self, job):
                lock = self.client.lock(f"lock:{job}")
                return lock.locked()
    """
    ),
    # A lock a test builds only to watch a call fail, or never uses: it holds nothing.
    Valid(
        """\
        import pytest
        import redis_lock


        def test_bad_timeout(conn):
            lock = redis_lock.Lock(conn, "report")
            with pytest.raises(redis_lock.InvalidTimeout):
                lock.acquire(timeout=-1)


        def test_needs_a_client():
            lock = redis_lock.Lock(object(), "report", strict=False)


        def test_refuses_a_negative_timeout(conn):
            lock = redis_lock.Lock(conn, "report")
            pytest.raises(ValueError, lock.acquire, timeout=-1)
    """
    ),
    # A test of the lock itself: its lock objects are the test's own.
    Valid(
        """\
        import redis
        import pytest


        @pytest.fixture
        def conn():
            return redis.Redis()


        def test_second_acquire_waits(conn):
            first = conn.lock("report")
            second = conn.lock("report")
            assert first.acquire(blocking=False)
            assert not second.acquire(blocking=False)
            first.release()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if r.setnx(key, token):
                r.expire(key, 30)
                try:
                    work(job)
                finally:
                    r.delete(key)
    """,
        line=8,
        column=8,
        fixed="""\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if r.set(key, token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    r.delete(key)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            acquired = r.set(key, token, nx=True)
            r.pexpire(key, 1500)
            if acquired:
                work(job)
                r.delete(key)
    """,
        line=8,
        column=16,
        fixed="""\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            acquired = r.set(key, token, nx=True, px=1500)
            if acquired:
                work(job)
                r.delete(key)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True):
                work(job)
                r.delete(f"lock:{job}")
    """,
        line=7,
        column=8,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            with r.lock(f"lock:{job}", blocking_timeout=5):
                work(job)
    """,
        line=7,
        column=10,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import redis_lock
        from redis import Redis

        conn = Redis()


        def run(job):
            with redis_lock.Lock(conn, f"lock:{job}"):
                work(job)
    """,
        line=8,
        column=10,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        from redis import Redis
        from redis.lock import Lock

        conn = Redis()


        def run(job):
            lock = Lock(conn, f"lock:{job}", timeout=None)
            if lock.acquire(blocking=False):
                try:
                    work(job)
                finally:
                    lock.release()
    """,
        line=8,
        column=12,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()


        def lead(group):
            key = f"leader:{group}"
            me = socket.gethostname()
            with r.pipeline() as pipe:
                pipe.watch(key)
                holder = pipe.get(key)
                if holder not in (None, me.encode()):
                    return False
                pipe.multi()
                pipe.set(key, me)
                pipe.execute()
                return True


        def resign(group):
            r.delete(f"leader:{group}")
    """,
        line=17,
        column=9,
    ),
    Invalid(
        """\
        import time

        import redis

        r = redis.Redis()


        class DocumentLock:
            def __init__(self, doc_id, user):
                self.holder_key = f"doc:{doc_id}:lock:holder"
                self.since_key = f"doc:{doc_id}:lock:since"
                self.user = user

            def acquire(self):
                return r.msetnx({self.holder_key: self.user, self.since_key: time.time()})

            def release(self):
                r.delete(self.holder_key)
                r.delete(self.since_key)
    """,
        line=15,
        column=16,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
]

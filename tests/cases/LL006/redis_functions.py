"""LL006 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import logging

        import redis
        from redis.exceptions import LockNotOwnedError

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job):
            lock = r.lock(f"lock:{job}", timeout=30)
            if lock.acquire(blocking=False):
                try:
                    work(job)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError:
                        log.warning("lost lock:%s", job)
    """
    ),
    Valid(
        """\
        import redis
        from redis.exceptions import WatchError

        r = redis.Redis()


        def bump(key):
            with r.pipeline() as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        pipe.multi()
                        pipe.incr(key)
                        pipe.execute()
                        break
                    except WatchError:
                        continue
    """
    ),
    # A test that expects the release to fail, or does not care that it does.
    Valid(
        """\
        from contextlib import suppress

        import pytest
        import redis
        from pottery import Redlock, ReleaseUnlockedLock

        r = redis.Redis()


        def test_delex_refuses_a_list():
            r.lpush("nk", "x")
            with pytest.raises(redis.ResponseError):
                r.delex("nk", ifeq=b"x")


        def test_release_twice():
            lock = Redlock(key="printer", masters={r})
            lock.acquire()
            lock.release()
            with suppress(ReleaseUnlockedLock):
                lock.release()
    """
    ),
    # A destructor releases whether or not the lock was held: cleanup.
    Valid(
        """\
        from redis.exceptions import LockError


        class Job:
            def __init__(self, r):
                self.lock = r.lock("job", timeout=30)

            def __del__(self):
                try:
                    self.lock.release()
                except LockError:
                    pass
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import logging

        import redis
        from redis.exceptions import LockError

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def publish(job):
            lock = r.lock(f"publish:{job}", timeout=60)
            if not lock.acquire(blocking=False):
                return
            try:
                send(job)
            finally:
                try:
                    lock.release()
                except LockError as exc:
                    log.debug("publish lock already gone: %s", exc)
    """,
        line=19,
        column=16,
        fixed="""\
        import logging

        import redis
        from redis.exceptions import LockError

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def publish(job):
            lock = r.lock(f"publish:{job}", timeout=60)
            if not lock.acquire(blocking=False):
                return
            try:
                send(job)
            finally:
                try:
                    lock.release()
                except LockError as exc:
                    log.warning("publish lock already gone: %s", exc)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def refresh(feed):
            lock = r.lock(f"refresh:{feed}", timeout=60)
            if not lock.acquire(blocking=False):
                return
            try:
                fetch(feed)
            finally:
                try:
                    lock.release()
                except Exception:
                    pass
    """,
        line=15,
        column=16,
        fixed="""\
        import logging

        import redis

        r = redis.Redis()


        def refresh(feed):
            lock = r.lock(f"refresh:{feed}", timeout=60)
            if not lock.acquire(blocking=False):
                return
            try:
                fetch(feed)
            finally:
                try:
                    lock.release()
                except Exception as exc:
                    logging.getLogger(__name__).warning("lease lost before release: %s", exc)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis
        from redis.exceptions import LockNotOwnedError

        r = redis.Redis()


        def run(job):
            lock = r.lock(f"lock:{job}", timeout=30)
            if lock.acquire(blocking=False):
                try:
                    work(job)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError:
                        pass
    """,
        line=15,
        column=20,
        fixed="""\
        import logging

        import redis
        from redis.exceptions import LockNotOwnedError

        r = redis.Redis()


        def run(job):
            lock = r.lock(f"lock:{job}", timeout=30)
            if lock.acquire(blocking=False):
                try:
                    work(job)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError as exc:
                        logging.getLogger(__name__).warning(
                            "lease lost before release: %s", exc
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis
        from redis.exceptions import LockError

        r = redis.Redis()


        def run_all(jobs):
            for job in jobs:
                lock = r.lock(f"lock:{job}", timeout=30)
                if not lock.acquire(blocking=False):
                    continue
                work(job)
                try:
                    lock.release()
                except LockError as error:
                    continue
    """,
        line=15,
        column=16,
        fixed="""\
        import logging

        import redis
        from redis.exceptions import LockError

        r = redis.Redis()


        def run_all(jobs):
            for job in jobs:
                lock = r.lock(f"lock:{job}", timeout=30)
                if not lock.acquire(blocking=False):
                    continue
                work(job)
                try:
                    lock.release()
                except LockError as error:
                    logging.getLogger(__name__).warning("lease lost before release: %s", error)
                    continue
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import contextlib

        import redis
        from redis.exceptions import LockError

        r = redis.Redis()


        def run(job):
            with contextlib.suppress(LockError), r.lock(f"lock:{job}", timeout=30):
                work(job)
    """,
        line=10,
        column=10,
        message_contains='`contextlib.suppress(LockError)` hides a lost lease',
    ),
    Invalid(
        """\
        import logging

        import redis.asyncio as redis

        logger = logging.getLogger("jobs")
        r = redis.Redis()


        async def release(key, token):
            await r.execute_command("DELIFEQ", key, token)
    """,
        line=10,
        column=11,
        fixed="""\
        import logging

        import redis.asyncio as redis

        logger = logging.getLogger("jobs")
        r = redis.Redis()


        async def release(key, token):
            if not await r.execute_command("DELIFEQ", key, token):
                logger.warning(
                    "lease %s expired before release; another worker may hold it", key
                )
    """,
        applicability=Applicability.SAFE,
    ),
]

from __future__ import annotations

from typing import Iterator

import libcst as cst

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.model.traverse import nodes
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class SwallowedLostRelease(Rule):
    """
    ## What it does
    Reports a token-checked release whose outcome is thrown away: the result
    of a compare-and-delete script, `DELIFEQ` or `delex` used as a bare
    statement; `except LockNotOwnedError: pass` (or `LockError`, `...`,
    `continue`) around `lock.release()`; `contextlib.suppress(LockError)`
    around a lock's block or release. A handler that only returns, or logs at
    debug level, drops the error as well; so does `except Exception: pass`
    (or a bare `except:`) around the release of a lock object the module
    makes. The same goes for an `if` that tests the release's answer for a lost
    lease (`if not release(keys=[k], args=[t]):`) and then only passes,
    returns or logs at debug level; and a `self.release()` thrown away (in
    `__exit__`, say) where the class's `release` returns that answer; and an
    answer given a name that nothing reads (`status = release(...)`). Logging at info level or above, counting,
    re-raising, returning the result (`return False` hands the signal to the
    caller), or any use of it is handling.

    ## Why is this bad?
    A release that deleted nothing is the only evidence that the lease was
    lost: its lifetime ran out while the job ran, and another worker may have
    run the same job at the same time. Dropping it hides the overlap, and the
    lifetime that is too short stays too short.

    1. Worker A's job outlives its lease; worker B claims and runs the job too.
    2. A's release compares its token, finds B's, and deletes nothing.
    3. The result (0, or `LockNotOwnedError`) is discarded: nobody learns that
       the job ran twice.

    ## Example
    ```python
    try:
        lock.release()
    except LockNotOwnedError:
        pass
    ```

    ## Use instead
    ```python
    try:
        lock.release()
    except LockNotOwnedError as exc:
        logger.warning("lease lost before release: %s", exc)
    ```

    ## Fix safety
    **Safe**: the result is checked and a warning naming the key is logged
    (the module's logger is reused when it has one); for a swallowed lock
    error, the error is bound and logged. Every fix leaselint writes handles
    the outcome already, so its own output never triggers this rule. A log at
    debug level becomes a warning with the same message; before a `return` or
    `continue` the warning is added and the handler still leaves (the same in
    an `if` that tests the release's answer and does nothing); a bare
    `except:` logs with `exc_info=True`. A `suppress(LockError)` has no
    automatic fix: replace it with a handler.
    """

    code = "LL006"
    name = "swallowed-lost-release"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            import redis
            from redis.exceptions import LockNotOwnedError


            class JobLock:
                def __init__(self, client, name):
                    self.lock = client.lock(f"job:{name}", timeout=30)

                def acquire(self):
                    return self.lock.acquire(blocking=False)

                def release(self):
                    try:
                        self.lock.release()
                    except LockNotOwnedError:
                        return False
                    return True
        """
        ),
        Valid(
            """\
            # no rule reports this
            import threading


            def with_connection(pool, fn):
                conn = pool.get()
                try:
                    return fn(conn)
                finally:
                    try:
                        pool.release(conn)
                    except Exception:
                        pass


            def guarded(fn):
                lock = threading.Lock()
                lock.acquire()
                try:
                    return fn()
                finally:
                    try:
                        lock.release()
                    except Exception:
                        pass
        """
        ),
        Valid(
            """\
            import logging

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            unlock = r.register_script(UNLOCK)


            def run(job, token):
                key = f"lock:{job}"
                if not r.set(key, token, nx=True, ex=60):
                    return False
                try:
                    work(job)
                finally:
                    if not unlock(keys=[key], args=[token]):
                        log.warning("lock %s was lost before release", key)
                return True
        """
        ),
        # A stale-lock takeover: the filter deletes the record only once its lifetime has passed, in
        # one server step (a range on the lifetime is no holder check, and no blind release either).
        Valid(
            """\
            # no rule reports this
            import datetime
            import time

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().app.locks


            def acquire():
                while True:
                    now = datetime.datetime.now(datetime.timezone.utc)
                    try:
                        locks.insert_one({"_id": "migrate", "expires_at": now + datetime.timedelta(minutes=10)})
                        return
                    except DuplicateKeyError:
                        locks.delete_one({"_id": "migrate", "expires_at": {"$lt": now}})
                    time.sleep(1)
        """
        ),
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

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def release(key, token):
                return r.eval(RELEASE, 1, key, token)
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
        Valid(
            """\
            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def release(job, token):
                table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
        """
        ),
        Valid(
            """\
            import pymongo

            sessions = pymongo.MongoClient().app.sessions


            def logout(session_id, user_id):
                sessions.delete_one({"_id": session_id, "user": user_id})

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
        # A lost lease logged as a warning; a debug log beside an answer handed back to the caller.
        Valid(
            """\
            import logging
            import secrets

            import redis

            logger = logging.getLogger(__name__)
            r = redis.Redis()
            UNLOCK = r.register_script(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            )


            def sync(account):
                key = f"sync:{account}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, px=30000):
                    return False
                try:
                    pull(account)
                finally:
                    if not UNLOCK(keys=[key], args=[token]):
                        logger.warning("sync lock for %s was gone", account)
                return True


            def export(account):
                key = f"export:{account}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, px=30000):
                    return False
                try:
                    push(account)
                finally:
                    released = UNLOCK(keys=[key], args=[token])
                    if not released:
                        logger.debug("export lock for %s was gone", account)
                return bool(released)
        """
        ),
        # The class's release logs a lost lease itself before it hands the answer back.
        Valid(
            """\
            import logging
            import secrets

            import redis

            log = logging.getLogger(__name__)
            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class ExportLock:
                def __init__(self, client: redis.Redis, name):
                    self.client = client
                    self.key = f"export:{name}"
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, ex=60):
                        self.token = token
                        return True
                    return False

                def release(self):
                    ok = self.client.eval(UNLOCK, 1, self.key, self.token)
                    if not ok:
                        log.warning("export lock %s was lost", self.key)
                    return ok

                def __enter__(self):
                    if not self.acquire():
                        raise RuntimeError("busy")
                    return self

                def __exit__(self, *exc):
                    self.release()
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def nightly():
                lock = r.lock("nightly", timeout=600)
                if not lock.acquire(blocking=False):
                    return
                try:
                    run_all()
                finally:
                    try:
                        lock.release()
                    except:
                        pass
        """,
            line=15,
            column=9,
            fixed="""\
            import logging

            import redis

            r = redis.Redis()


            def nightly():
                lock = r.lock("nightly", timeout=600)
                if not lock.acquire(blocking=False):
                    return
                try:
                    run_all()
                finally:
                    try:
                        lock.release()
                    except:
                        logging.getLogger(__name__).warning("lease lost before release", exc_info=True)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis
            from redis.exceptions import LockNotOwnedError

            r = redis.Redis()


            def sync(account):
                lock = r.lock(f"sync:{account}", timeout=30)
                if not lock.acquire(blocking=False):
                    return
                try:
                    pull(account)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError:
                        return
        """,
            line=16,
            column=16,
            fixed="""\
            import logging

            import redis
            from redis.exceptions import LockNotOwnedError

            r = redis.Redis()


            def sync(account):
                lock = r.lock(f"sync:{account}", timeout=30)
                if not lock.acquire(blocking=False):
                    return
                try:
                    pull(account)
                finally:
                    try:
                        lock.release()
                    except LockNotOwnedError as exc:
                        logging.getLogger(__name__).warning("lease lost before release: %s", exc)
                        return
        """,
            applicability=Applicability.SAFE,
        ),
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

            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                key = f"lock:{job}"
                unlock = r.script_load(UNLOCK)
                if r.set(key, token, nx=True, ex=60):
                    try:
                        work(job)
                    finally:
                        r.evalsha(unlock, 1, key, token)
        """,
            line=14,
            column=13,
            fixed="""\
            import logging

            import redis

            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                key = f"lock:{job}"
                unlock = r.script_load(UNLOCK)
                if r.set(key, token, nx=True, ex=60):
                    try:
                        work(job)
                    finally:
                        if not r.evalsha(unlock, 1, key, token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import redis

            UNLOCK = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) end return 0"
            )


            class ReportLock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"report:{name}"
                    self.token = None
                    self._unlock = client.register_script(UNLOCK)

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, px=30_000):
                        self.token = token
                        return True
                    return False

                def release(self):
                    self._unlock(keys=[self.key], args=[self.token])
        """,
            line=26,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            UNLOCK = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) end return 0"
            )


            class ReportLock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"report:{name}"
                    self.token = None
                    self._unlock = client.register_script(UNLOCK)

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, px=30_000):
                        self.token = token
                        return True
                    return False

                def release(self):
                    if not self._unlock(keys=[self.key], args=[self.token]):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                key = f"lock:{job}"
                if r.set(key, token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.eval(RELEASE, 1, key, token)
        """,
            line=13,
            column=13,
            fixed="""\
            import logging

            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                key = f"lock:{job}"
                if r.set(key, token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        if not r.eval(RELEASE, 1, key, token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
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
                    logger.warning("lease %s expired before release; another worker may hold it", key)
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
                            logging.getLogger(__name__).warning("lease lost before release: %s", exc)
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
            import pymongo

            locks = pymongo.MongoClient().app.locks


            def run(job, token):
                locks.insert_one({"_id": job, "owner": token})
                try:
                    work(job)
                finally:
                    locks.delete_one({"_id": job, "owner": token})
        """,
            line=11,
            column=9,
            fixed="""\
            import logging

            import pymongo

            locks = pymongo.MongoClient().app.locks


            def run(job, token):
                locks.insert_one({"_id": job, "owner": token})
                try:
                    work(job)
                finally:
                    if locks.delete_one({"_id": job, "owner": token}).deleted_count == 0:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", job)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import etcd3

            etcd = etcd3.client()


            def release(key, token):
                etcd.transaction(
                    compare=[etcd.transactions.value(key) == token],
                    success=[etcd.transactions.delete(key)],
                    failure=[],
                )
        """,
            line=7,
            column=5,
            fixed="""\
            import logging

            import etcd3

            etcd = etcd3.client()


            def release(key, token):
                if not etcd.transaction(
                    compare=[etcd.transactions.value(key) == token],
                    success=[etcd.transactions.delete(key)],
                    failure=[],
                )[0]:
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        # An `if` that tests the release's answer for a lost lease and does nothing with it.
        Invalid(
            """\
            import logging
            import secrets

            import redis

            logger = logging.getLogger("sync")
            r = redis.Redis()
            UNLOCK = r.register_script(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            )


            def sync(account):
                key = f"sync:{account}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, px=30000):
                    return False
                try:
                    pull(account)
                finally:
                    if not UNLOCK(keys=[key], args=[token]):
                        logger.debug("sync lock for %s was gone", account)
                return True
        """,
            line=21,
            column=16,
            fixed="""\
            import logging
            import secrets

            import redis

            logger = logging.getLogger("sync")
            r = redis.Redis()
            UNLOCK = r.register_script(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            )


            def sync(account):
                key = f"sync:{account}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, px=30000):
                    return False
                try:
                    pull(account)
                finally:
                    if not UNLOCK(keys=[key], args=[token]):
                        logger.warning("sync lock for %s was gone", account)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import uuid

            from redis.asyncio import Redis

            redis = Redis()
            RELEASE = '''
            if redis.call("get", KEYS[1]) == ARGV[1] then
                return redis.call("del", KEYS[1])
            end
            return 0
            '''


            async def refresh(feed):
                token = uuid.uuid4().hex
                if not await redis.set("feed:" + feed, token, nx=True, ex=60):
                    return
                try:
                    await fetch(feed)
                finally:
                    released = await redis.eval(RELEASE, 1, "feed:" + feed, token)
                    if not released:
                        pass
        """,
            line=21,
            column=26,
            fixed="""\
            import logging
            import uuid

            from redis.asyncio import Redis

            redis = Redis()
            RELEASE = '''
            if redis.call("get", KEYS[1]) == ARGV[1] then
                return redis.call("del", KEYS[1])
            end
            return 0
            '''


            async def refresh(feed):
                token = uuid.uuid4().hex
                if not await redis.set("feed:" + feed, token, nx=True, ex=60):
                    return
                try:
                    await fetch(feed)
                finally:
                    released = await redis.eval(RELEASE, 1, "feed:" + feed, token)
                    if not released:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "feed:" + feed)
        """,
            applicability=Applicability.SAFE,
        ),
        # The class's own release returns the checked answer; its `__exit__` throws it away.
        Invalid(
            """\
            import secrets

            import redis

            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class ReportLock:
                def __init__(self, client: redis.Redis, name):
                    self.client = client
                    self.key = f"report:{name}"
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, ex=60):
                        self.token = token
                        return True
                    return False

                def release(self):
                    return bool(self.client.eval(UNLOCK, 1, self.key, self.token))

                def __enter__(self):
                    if not self.acquire():
                        raise RuntimeError("busy")
                    return self

                def __exit__(self, *exc):
                    self.release()
        """,
            line=30,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class ReportLock:
                def __init__(self, client: redis.Redis, name):
                    self.client = client
                    self.key = f"report:{name}"
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, ex=60):
                        self.token = token
                        return True
                    return False

                def release(self):
                    return bool(self.client.eval(UNLOCK, 1, self.key, self.token))

                def __enter__(self):
                    if not self.acquire():
                        raise RuntimeError("busy")
                    return self

                def __exit__(self, *exc):
                    if not self.release():
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.SAFE,
        ),
        # The answer is given a name nothing reads.
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()
            UNLOCK = r.register_script(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            )


            def rebuild(index):
                key = f"rebuild:{index}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=120):
                    return False
                try:
                    build(index)
                finally:
                    released = UNLOCK(keys=[key], args=[token])
                return True
        """,
            line=19,
            column=20,
            fixed="""\
            import logging
            import secrets

            import redis

            r = redis.Redis()
            UNLOCK = r.register_script(
                "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
            )


            def rebuild(index):
                key = f"rebuild:{index}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=120):
                    return False
                try:
                    build(index)
                finally:
                    released = UNLOCK(keys=[key], args=[token])
                    if not released:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import base64
            import secrets

            import etcd3gw

            client = etcd3gw.client(host="127.0.0.1", port=2379)


            def lock_release_train(version, ship):
                key = base64.b64encode(f"/locks/release/{version}".encode()).decode()
                token = base64.b64encode(secrets.token_bytes(16)).decode()
                claimed = client.transaction(
                    {
                        "compare": [{"key": key, "result": "EQUAL", "target": "VERSION", "version": 0}],
                        "success": [{"request_put": {"key": key, "value": token}}],
                        "failure": [],
                    }
                )
                if not claimed.get("succeeded", False):
                    return False
                try:
                    ship(version)
                finally:
                    client.transaction(
                        {
                            "compare": [{"key": key, "result": "EQUAL", "target": "VALUE", "value": token}],
                            "success": [{"request_delete_range": {"key": key}}],
                        }
                    )
                return True
        """,
            line=24,
            column=9,
            fixed="""\
            import base64
            import logging
            import secrets

            import etcd3gw

            client = etcd3gw.client(host="127.0.0.1", port=2379)


            def lock_release_train(version, ship):
                key = base64.b64encode(f"/locks/release/{version}".encode()).decode()
                token = base64.b64encode(secrets.token_bytes(16)).decode()
                claimed = client.transaction(
                    {
                        "compare": [{"key": key, "result": "EQUAL", "target": "VERSION", "version": 0}],
                        "success": [{"request_put": {"key": key, "value": token}}],
                        "failure": [],
                    }
                )
                if not claimed.get("succeeded", False):
                    return False
                try:
                    ship(version)
                finally:
                    if not client.transaction(
                        {
                            "compare": [{"key": key, "result": "EQUAL", "target": "VALUE", "value": token}],
                            "success": [{"request_delete_range": {"key": key}}],
                        }
                    ).get("succeeded", False):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets
            from datetime import timedelta

            from django.db import IntegrityError, models
            from django.utils import timezone


            class JobLock(models.Model):
                name = models.CharField(max_length=200, unique=True)
                owner = models.CharField(max_length=64)
                expires_at = models.DateTimeField()


            def run_exclusive(name, job):
                token = secrets.token_hex(16)
                try:
                    JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + timedelta(minutes=5))
                except IntegrityError:
                    return False
                try:
                    job()
                finally:
                    JobLock.objects.filter(name=name, owner=token).delete()
                return True
        """,
            line=23,
            column=9,
            fixed="""\
            import logging
            import secrets
            from datetime import timedelta

            from django.db import IntegrityError, models
            from django.utils import timezone


            class JobLock(models.Model):
                name = models.CharField(max_length=200, unique=True)
                owner = models.CharField(max_length=64)
                expires_at = models.DateTimeField()


            def run_exclusive(name, job):
                token = secrets.token_hex(16)
                try:
                    JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + timedelta(minutes=5))
                except IntegrityError:
                    return False
                try:
                    job()
                finally:
                    if JobLock.objects.filter(name=name, owner=token).delete()[0] == 0:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", name)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import datetime
            import secrets

            import pymongo


            class ExportMutex:
                STALE_AFTER = 600

                def __init__(self, name):
                    self.name = name
                    self.locks = pymongo.MongoClient().app.export_locks
                    self.token = None

                def acquire(self):
                    now = datetime.datetime.now(datetime.timezone.utc)
                    stale = now - datetime.timedelta(seconds=self.STALE_AFTER)
                    self.locks.delete_many({"_id": self.name, "taken_at": {"$lte": stale}})
                    token = secrets.token_hex(16)
                    try:
                        self.locks.update_one(
                            {"_id": self.name, "owner": None}, {"$set": {"owner": token, "taken_at": now}}, upsert=True
                        )
                    except pymongo.errors.DuplicateKeyError:
                        return False
                    self.token = token
                    return True

                def release(self):
                    self.locks.delete_one({"_id": self.name, "owner": self.token})
        """,
            line=30,
            column=9,
            fixed="""\
            import datetime
            import logging
            import secrets

            import pymongo


            class ExportMutex:
                STALE_AFTER = 600

                def __init__(self, name):
                    self.name = name
                    self.locks = pymongo.MongoClient().app.export_locks
                    self.token = None

                def acquire(self):
                    now = datetime.datetime.now(datetime.timezone.utc)
                    stale = now - datetime.timedelta(seconds=self.STALE_AFTER)
                    self.locks.delete_many({"_id": self.name, "taken_at": {"$lte": stale}})
                    token = secrets.token_hex(16)
                    try:
                        self.locks.update_one(
                            {"_id": self.name, "owner": None}, {"$set": {"owner": token, "taken_at": now}}, upsert=True
                        )
                    except pymongo.errors.DuplicateKeyError:
                        return False
                    self.token = token
                    return True

                def release(self):
                    if self.locks.delete_one({"_id": self.name, "owner": self.token}).deleted_count == 0:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.name)
        """,
            applicability=Applicability.SAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        leased = {id(release) for lease in context.model.leases for release in lease.releases}
        for release in context.model.releases:
            if not release.checked or release.in_pipeline or not release.spec.lost_when:
                continue
            if release.usage == "expression" and release.dropped is None and release.unread is None:
                continue
            # The project's own checked release (`release_lock(...)` of another module) hands its
            # answer back to be used; a test that calls it is no lease.
            evident = not release.scope.is_test if release.via is not None else release.spec.self_evident
            if not (evident or id(release) in leased):
                continue
            what = f"token-checked release of `{key_text(release)}`"
            if release.unread is not None:
                try:
                    fix = context.fixer.log_unread_release(release)
                except NoFix:
                    fix = None
                message = f"The result of the {what} is kept in `{release.unread}`, which nothing reads: a lost lease goes unnoticed"
                yield self.at_event(release, message, fix)
                continue
            if release.dropped is not None:
                try:
                    fix = context.fixer.log_dropped_release(release)
                except NoFix:
                    fix = None
                if _logs_debug(release.dropped):
                    message = f"The {what} reports a lost lease only at debug level: production never sees it"
                else:
                    message = f"The {what} reports a lost lease to a branch that does nothing: it goes unnoticed"
                yield self.at_event(release, message, fix)
                continue
            try:
                fix = context.fixer.log_lost_release(release)
            except NoFix:
                fix = None
            if release.via:
                what += f" by {release.via}, which returns it,"
            yield self.at_event(release, f"The result of the {what} is thrown away: a lost lease goes unnoticed", fix)
        for node in context.model.swallowed:
            if isinstance(node, cst.ExceptHandler):
                try:
                    fix = context.fixer.log_swallowed_error(node)
                except NoFix:
                    fix = None
                caught = f"`{code_of(node.type)}`" if node.type is not None else "A bare `except:`"
                yield self.at_node(
                    context,
                    node.type or node,
                    f"{caught} from a lock release is swallowed: a lost lease goes unnoticed",
                    fix,
                )
            else:
                yield self.at_node(
                    context,
                    node,
                    f"`{code_of(node.item)}` hides a lost lease: log the lock error instead",  # type: ignore[attr-defined]
                )


def _logs_debug(node: cst.If) -> bool:
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "debug"
        for n in nodes(node.body, trivia=False)
    )

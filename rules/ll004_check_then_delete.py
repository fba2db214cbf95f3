from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class CheckThenDelete(Rule):
    """
    ## What it does
    Reports a lease release that reads the key, compares the value in the
    client, and deletes in a second step: `if r.get(k) == token: r.delete(k)`,
    through a variable, with `.decode()`, with an early return
    (`if r.get(k) != token: return`), or `GETDEL` followed by a compare.

    A `WATCH`/`MULTI`/`EXEC` transaction that queues the delete after
    `multi()` is correct and not reported. A `watch()` without `multi()` before
    the delete is reported: after `watch()` a redis-py pipeline runs commands
    at once, so nothing protects the delete.

    ## Why is this bad?
    The compare and the delete are two round trips; the lease can change hands
    between them:

    1. Worker A reads `lock:job`: it holds A's token.
    2. A pauses; the deadline passes; worker B claims `lock:job`.
    3. A deletes `lock:job`: it frees **B's** claim.
    4. Worker C claims `lock:job` and runs beside B.

    The gap is narrower than a blind delete's, not closed. `GETDEL` then
    compare deletes first and looks second: it always deletes.

    ## Example
    ```python
    if r.get(key) == token:
        r.delete(key)
    ```

    ## Use instead
    ```python
    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
        logger.warning("lease %s expired before release; another worker may hold it", key)
    ```

    ## Fix safety
    The fix is the compare-and-delete of LL001, done in one server step, with
    a lost lease logged. It uses the token the client-side check compared
    with, so it is **safe**; an `if` that only guarded the delete is replaced
    whole. Where the check's token cannot be told (a `GETDEL` whose value is
    compared), there is no automatic fix; nor where the check orders the
    stored value (`now < expires_at`, a clock check): that value is a time,
    not a token, and comparing it with `now` in the server would never match.
    In a `transaction(callback, key)` callback the fix queues the delete after
    `pipe.multi()`: the WATCH that `transaction` set then fails the EXEC when
    the key changed since the compare, and the callback runs again (**safe**).
    """

    code = "LL004"
    name = "check-then-delete"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.multi()
                        pipe.delete(key)

                r.transaction(unlock, key)
        """
        ),
        Valid(
            """\
            import redis
            from redis.exceptions import WatchError

            r = redis.Redis()


            def release(key, token):
                with r.pipeline() as pipe:
                    while True:
                        try:
                            pipe.watch(key)
                            if pipe.get(key) == token:
                                pipe.multi()
                                pipe.delete(key)
                                pipe.execute()
                                return True
                            pipe.unwatch()
                            return False
                        except WatchError:
                            continue


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def still_mine(key, token):
                return r.get(key) == token


            def acquire(key, token):
                if r.set(key, token, nx=True, ex=30):
                    r.delete(key)
        """
        ),
        Valid(
            """\
            import secrets

            from diskcache import FanoutCache

            cache = FanoutCache("/tmp/export-locks", shards=8)


            class ExportLock:
                def __init__(self, name):
                    self.key = f"export-lock:{name}"
                    self.token = secrets.token_hex(16)

                def __enter__(self):
                    if not cache.add(self.key, self.token, expire=300):
                        raise RuntimeError("export already running")
                    return self

                def __exit__(self, *exc):
                    with cache.transact():
                        if cache.get(self.key) == self.token:
                            cache.delete(self.key)
        """
        ),
        Valid(
            """\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/x")


            def run(key, job):
                token = secrets.token_hex(16)
                if not cache.add(key + ":lock", token, expire=60):
                    return
                try:
                    job()
                    while True:
                        if cache.get(key + ":lock") != token:
                            print("lost")
                        with cache.transact():
                            if cache.get(key + ":lock") == token:
                                cache.touch(key + ":lock", 60)
                        break
                finally:
                    with cache.transact():
                        if cache.get(key + ":lock") == token:
                            cache.delete(key + ":lock")
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.delete(key)

                r.transaction(unlock, key)
        """,
            line=13,
            column=13,
            fixed="""\
            import redis

            r = redis.Redis(decode_responses=True)


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                def unlock(pipe):
                    if pipe.get(key) == token:
                        pipe.multi()
                        pipe.delete(key)

                r.transaction(unlock, key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import time

            import redis

            r = redis.Redis()


            def run(name):
                key = f"lock:{name}"
                now = time.time()
                if not r.set(key, now + 30, nx=True, ex=30):
                    return False
                work()
                expires_at = r.get(key)
                if expires_at is not None and now < expires_at:
                    r.delete(key)
                return True
        """,
            line=16,
            column=9,
            message_contains="(no automatic fix: the release is guarded by ordering the stored value",
        ),
        Invalid(
            """\
            import logging

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job, token):
                key = f"lock:{job}"
                if not r.set(key, token, nx=True, px=30_000):
                    return
                try:
                    work(job)
                finally:
                    if r.get(key) == token:
                        r.delete(key)
        """,
            line=17,
            column=13,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job, token):
                key = f"lock:{job}"
                if not r.set(key, token, nx=True, px=30_000):
                    return
                try:
                    work(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        log.warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.token = None

                def acquire(self, token):
                    self.token = token
                    return self.client.set(self.key, token, nx=True, ex=30)

                def release(self):
                    current = self.client.get(self.key)
                    if current is None or current.decode() != self.token:
                        return False
                    self.client.delete(self.key)
                    return True
        """,
            line=18,
            column=9,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.token = None

                def acquire(self, token):
                    self.token = token
                    return self.client.set(self.key, token, nx=True, ex=30)

                def release(self):
                    current = self.client.get(self.key)
                    if current is None or current.decode() != self.token:
                        return False
                    if not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self.token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
                    return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    if pipe.get(key) == token:
                        pipe.delete(key)
                    pipe.unwatch()
        """,
            line=14,
            column=13,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    if not pipe.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                    pipe.unwatch()
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key, token):
                return r.set(key, token, nx=True, ex=30)


            def release(key, token):
                old = r.getdel(key)
                if old != token:
                    raise RuntimeError("lost the lease")
        """,
            line=11,
            column=11,
            message_contains="compare and delete in one server step (LL001's compare-and-delete))",
        ),
        # A compare through a decoder is a client-side check too; the server would see other bytes.
        Invalid(
            """\
            import os
            import pickle
            import socket

            import redis


            class HostLock:
                def __init__(self, client: redis.Redis, name):
                    self.client = client
                    self.name = f"host-lock:{name}"

                def acquire(self, owner=None):
                    owner = owner or self.default_owner()
                    return bool(self.client.set(self.name, pickle.dumps(owner), nx=True, ex=60))

                def release(self, owner=None):
                    owner = owner or self.default_owner()
                    stored = self.client.get(self.name)
                    if stored is not None and pickle.loads(stored) == owner:
                        self.client.delete(self.name)
                        return True
                    return False

                @staticmethod
                def default_owner():
                    return f"{socket.gethostname()}:{os.getpid()}"
        """,
            line=21,
            column=13,
            message_contains='(no automatic fix: the stored value is compared after `pickle.loads(...)`',
        ),
        # The claim is made by a function inside the method (retried), on another object's client.
        Invalid(
            """\
            class LeaseHandle:
                def __init__(self, owner, name, ttl):
                    self.owner = owner
                    self.name = name
                    self.ttl = ttl

                def acquire(self, attempts=3):
                    def attempt():
                        return self.owner.backend.add(self.name, self.owner.member, self.ttl)

                    for _ in range(attempts):
                        if attempt():
                            return True
                    return False

                def release(self):
                    if self.owner.backend.get(self.name) == self.owner.member:
                        self.owner.backend.delete(self.name)
                        return True
                    return False
        """,
            line=18,
            column=13,
        ),
        Invalid(
            """\
            import secrets

            from diskcache import FanoutCache

            cache = FanoutCache("/tmp/export-locks", shards=8)


            class ExportLock:
                def __init__(self, name):
                    self.key = f"export-lock:{name}"
                    self.token = secrets.token_hex(16)

                def __enter__(self):
                    if not cache.add(self.key, self.token, expire=300):
                        raise RuntimeError("export already running")
                    return self

                def __exit__(self, *exc):
                    if cache.get(self.key) == self.token:
                        cache.delete(self.key)
        """,
            line=20,
            column=13,
            fixed="""\
            import logging
            import secrets

            from diskcache import FanoutCache

            cache = FanoutCache("/tmp/export-locks", shards=8)


            class ExportLock:
                def __init__(self, name):
                    self.key = f"export-lock:{name}"
                    self.token = secrets.token_hex(16)

                def __enter__(self):
                    token = secrets.token_hex(16)
                    if not cache.add(self.key, token, expire=300):
                        raise RuntimeError("export already running")
                    self.token = token
                    return self

                def __exit__(self, *exc):
                    if self.token is not None:
                        with cache.transact():
                            if cache.get(self.key) != self.token or not cache.delete(self.key):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def rebuild(index, run):
                key = "lock:rebuild:" + index
                token = secrets.token_hex(16)
                if not mc.add(key, token, 600):
                    return
                try:
                    run(index)
                finally:
                    if mc.get(key) == token:
                        mc.delete(key)
        """,
            line=17,
            column=13,
            fixed="""\
            import logging
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def rebuild(index, run):
                key = "lock:rebuild:" + index
                token = secrets.token_hex(16)
                if not mc.add(key, token, 600):
                    return
                try:
                    run(index)
                finally:
                    stored, cas_id = mc.gets(key)
                    if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.delete(key, cas=cas_id):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def book(show, seat, pay):
                token = secrets.token_hex(16)
                if not r.hsetnx(f"seats:{show}", seat, token):
                    return False
                try:
                    pay(show, seat)
                finally:
                    if r.hget(f"seats:{show}", seat) == token.encode():
                        r.hdel(f"seats:{show}", seat)
                return True
        """,
            line=16,
            column=13,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_HDEL_SCRIPT = (
                "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
            )

            r = redis.Redis()


            def book(show, seat, pay):
                token = secrets.token_hex(16)
                if not r.hsetnx(f"seats:{show}", seat, token):
                    return False
                try:
                    pay(show, seat)
                finally:
                    if not r.eval(LEASE_HDEL_SCRIPT, 1, f"seats:{show}", seat, token.encode()):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"seats:{show}")
                return True
        """,
            applicability=Applicability.SAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        for lease in context.model.leases:
            for release in lease.releases:
                check = release.check
                if check is None or release.deliberate:
                    continue
                if check.read is release:
                    message = (
                        f"Lease `{key_text(release)}` is deleted by `getdel` before its value is compared: "
                        "it frees whoever holds the lease"
                    )
                else:
                    message = (
                        f"Lease `{key_text(release)}` is compared in the client (`{check.read.method}` then "
                        f"compare) and released by `{release.method}` in a second step: it can change hands in between"
                    )
                try:
                    if check.read is release or check.token is None:
                        raise NoFix("compare and delete in one server step (LL001's compare-and-delete)")
                    fix = context.fixer.checked_release(lease, release)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(release, message, fix)

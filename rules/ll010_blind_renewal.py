from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class BlindRenewal(Rule):
    """
    ## What it does
    Reports a renewal of a held lease that does not check the holder:
    `expire`, `pexpire`, `expireat` or `pexpireat` of the lease's key on a
    Redis client, or `touch` on a Django cache or a memcached client, made
    while the lease is held: in a loop after the claim, in a function nested
    in the claim's (a heartbeat thread), in another method of the lock's
    class, or in a module function named for renewing (`extend`, `renew`,
    `refresh`, `heartbeat`, `keep_alive`). A write of the key with a lifetime
    (`set(key, token, ex=30)`) in such a place renews it too, and also takes
    over a key another worker claimed. The deadline that a claim without one
    gets from a second call right after it is LL005's; a function named for
    ending (`finish_job`, `release`) that lets the key run out is a release,
    not a renewal. Renewals in tests are not reported.

    ## Why is this bad?
    The renewal extends whoever holds the key now:

    1. Worker A claims `lock:job` for 30 s and starts a heartbeat that runs
       `expire("lock:job", 30)` every 10 s.
    2. A stalls for 40 s (a GC pause, a slow disk): the lease expires, and
       worker B claims `lock:job`.
    3. A's heartbeat wakes up and extends `lock:job`: B's claim, not A's.
       `expire` answers True, so A carries on as if it still held the lease,
       and A and B now do the job at the same time.

    ## Example
    ```python
    def heartbeat(key, stop):
        while not stop.wait(10):
            r.expire(key, 30)
    ```

    ## Use instead
    ```python
    EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"

    def heartbeat(key, token, stop):
        while not stop.wait(10):
            if not r.eval(EXTEND, 1, key, token, 30):
                log.warning("lease %s lost", key)
                break
    ```
    redis-py's `Lock.extend()` and `Lock.reacquire()` already check the token.

    ## Fix safety
    On a Redis client the fix runs a Lua script that compares the stored
    value with the holder's token and extends only then, with the same
    command and lifetime. The token is the one the claim stored: a name the
    renewal sees, or the object's attribute (then the renewal runs only while
    the object holds one). Where the renewal's answer was thrown away, a
    lost lease is logged as a warning; where it was used, it is kept a bool
    (`bool(...)`: the script answers 1 or 0). **Safe** with a lifetime
    written as a number; **unsafe** when it is held in a name, which may be a
    `timedelta` that `expire` takes and a script argument does not. There is
    no fix when the claim stores no fresh token (LL002, LL003: fix those
    first), when the renewal passes `nx`/`xx`/`gt`/`lt`, and for Django's
    cache and memcached, which cannot compare and extend in one step (the
    message says what to do instead).
    """

    code = "LL010"
    name = "blind-renewal"
    fix_availability = "sometimes"

    VALID = [
        # The deadline of a claim that has none, set right after it, is LL005's.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def nightly(job, token):
                if r.setnx(f"nightly:{job}", token):
                    r.expire(f"nightly:{job}", 300)
                    try:
                        run(job)
                    finally:
                        r.delete(f"nightly:{job}")
        """
        ),
        # redis-py's lock object extends with a token check.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def report(day):
                lock = r.lock(f"report:{day}", timeout=30)
                if not lock.acquire(blocking=False):
                    return
                try:
                    for part in parts(day):
                        part.render()
                        lock.extend(30, replace_ttl=True)
                finally:
                    lock.release()
        """
        ),
        # A token-checked extend in one server step.
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()
            EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


            def crawl(site):
                key = f"crawl:{site}:lock"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return
                try:
                    for page in pages(site):
                        fetch(page)
                        if not r.eval(EXTEND, 1, key, token, 30):
                            raise RuntimeError("lease lost")
                finally:
                    r.eval(RELEASE, 1, key, token)
        """
        ),
        # A counter's window: incr then expire is a rate limit, not a lease.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def allow(user):
                key = f"rate:{user}"
                for _ in range(3):
                    count = r.incr(key)
                    r.expire(key, 60)
                    if count <= 100:
                        return True
                return False
        """
        ),
        # A cache entry's lifetime, in a function that has nothing to do with the lease.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def lock_report(name, token):
                if r.set(f"lock:{name}", token, nx=True, ex=30):
                    try:
                        build(name)
                    finally:
                        r.eval(RELEASE, 1, f"lock:{name}", token)


            def remember(name, value):
                r.set(f"cache:{name}", value)
                r.expire(f"cache:{name}", 600)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """
        ),
        # A test of the store: it renews its own key.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def test_expire_extends_a_held_key():
                assert r.set("lock:t", "me", nx=True, ex=5)
                for _ in range(2):
                    assert r.expire("lock:t", 30)
                r.delete("lock:t")
        """
        ),
        # A job's end that lets its marker run out instead of deleting it is a release, not a renewal.
        Valid(
            """\
            class Worker:
                def __init__(self, redis):
                    self.redis = redis

                def start_job(self, job_id, token):
                    return self.redis.set(f"in-progress:{job_id}", token, nx=True, px=60000)

                def finish_job(self, job_id, keep_ms):
                    if keep_ms is None:
                        self.redis.delete(f"in-progress:{job_id}")
                    else:
                        self.redis.pexpire(f"in-progress:{job_id}", keep_ms)
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
        # A heartbeat thread nested in the claim's function: the token is a name it sees.
        Invalid(
            """\
            import secrets
            import threading

            import redis

            r = redis.Redis()


            def run_export(job):
                key = f"lock:export:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return False
                done = threading.Event()

                def beat():
                    while not done.wait(10):
                        r.expire(key, 30)

                threading.Thread(target=beat, daemon=True).start()
                try:
                    export(job)
                finally:
                    done.set()
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=18,
            column=13,
            fixed="""\
            import logging
            import secrets
            import threading

            import redis

            LEASE_EXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
            )

            r = redis.Redis()


            def run_export(job):
                key = f"lock:export:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return False
                done = threading.Event()

                def beat():
                    while not done.wait(10):
                        if not r.eval(LEASE_EXPIRE_SCRIPT, 1, key, token, 30):
                            logging.getLogger(__name__).warning("lease %s expired before renewal; another worker may hold it", key)

                threading.Thread(target=beat, daemon=True).start()
                try:
                    export(job)
                finally:
                    done.set()
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='`expire` renews lease `key`',
        ),
        # A lock class whose extend() answers the renewal: the token the object keeps once a claim succeeded.
        Invalid(
            """\
            import uuid


            class RedisLease:
                def __init__(self, client, name, ttl=30):
                    self.client = client
                    self.name = f"lease:{name}"
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = uuid.uuid4().hex
                    if self.client.set(self.name, token, nx=True, ex=self.ttl):
                        self.token = token
                        return True
                    return False

                def extend(self):
                    return self.client.pexpire(self.name, self.ttl * 1000)

                def release(self):
                    self.client.delete(self.name)
                    self.token = None
        """,
            line=19,
            column=16,
            fixed="""\
            import uuid

            LEASE_PEXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
            )


            class RedisLease:
                def __init__(self, client, name, ttl=30):
                    self.client = client
                    self.name = f"lease:{name}"
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = uuid.uuid4().hex
                    if self.client.set(self.name, token, nx=True, ex=self.ttl):
                        self.token = token
                        return True
                    return False

                def extend(self):
                    return bool(self.token is not None and self.client.eval(LEASE_PEXPIRE_SCRIPT, 1, self.name, self.token, self.ttl * 1000))

                def release(self):
                    self.client.delete(self.name)
                    self.token = None
        """,
            applicability=Applicability.UNSAFE,
            message_contains='`pexpire` renews lease `self.name`',
        ),
        # Renewed between the steps of a long job, in the claim's own function.
        Invalid(
            """\
            import secrets

            from redis import Redis

            r = Redis()


            def rebuild_index(shard, steps):
                key = f"index:{shard}:lock"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=60):
                    return
                try:
                    for step in steps:
                        step()
                        r.expire(key, 60)
                finally:
                    r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=16,
            column=13,
            fixed="""\
            import logging
            import secrets

            from redis import Redis

            LEASE_EXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
            )

            r = Redis()


            def rebuild_index(shard, steps):
                key = f"index:{shard}:lock"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=60):
                    return
                try:
                    for step in steps:
                        step()
                        if not r.eval(LEASE_EXPIRE_SCRIPT, 1, key, token, 60):
                            logging.getLogger(__name__).warning("lease %s expired before renewal; another worker may hold it", key)
                finally:
                    r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='`expire` renews lease `key`',
        ),
        # On an asyncio client, between the batches of a long job.
        Invalid(
            """\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def sync_feed(feed, batches):
                key = f"feed:{feed}:lock"
                token = secrets.token_hex(16)
                if not await r.set(key, token, nx=True, px=20000):
                    return
                try:
                    for batch in batches:
                        await save(batch)
                        await r.pexpire(key, 20000)
                finally:
                    await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=16,
            column=19,
            fixed="""\
            import logging
            import secrets

            import redis.asyncio as redis

            LEASE_PEXPIRE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
            )

            r = redis.Redis()


            async def sync_feed(feed, batches):
                key = f"feed:{feed}:lock"
                token = secrets.token_hex(16)
                if not await r.set(key, token, nx=True, px=20000):
                    return
                try:
                    for batch in batches:
                        await save(batch)
                        if not await r.eval(LEASE_PEXPIRE_SCRIPT, 1, key, token, 20000):
                            logging.getLogger(__name__).warning("lease %s expired before renewal; another worker may hold it", key)
                finally:
                    await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='`pexpire` renews lease `key`',
        ),
        # Module functions around one key: the renewal is not handed the token.
        Invalid(
            """\
            import uuid

            import redis

            conn = redis.Redis()


            def acquire_lock(name, ttl=30):
                token = str(uuid.uuid4())
                if conn.set(f"lock:{name}", token, nx=True, ex=ttl):
                    return token
                return None


            def renew_lock(name, ttl=30):
                conn.expire(f"lock:{name}", ttl)


            def release_lock(name):
                conn.delete(f"lock:{name}")
        """,
            line=16,
            column=5,
            message_contains='no automatic fix: the renewal cannot tell the token this holder stored (a name it sees, or an attribute set only once a claim succeeded)',
        ),
        # Django's cache: touch extends whoever holds the key, and the API cannot compare first.
        Invalid(
            """\
            import uuid

            from django.core.cache import cache


            class CacheLease:
                def __init__(self, name, timeout=60):
                    self.key = f"lease:{name}"
                    self.timeout = timeout

                def acquire(self):
                    return cache.add(self.key, uuid.uuid4().hex, self.timeout)

                def heartbeat(self):
                    cache.touch(self.key, self.timeout)

                def release(self):
                    cache.delete(self.key)
        """,
            line=15,
            column=9,
            message_contains='no automatic fix: the cache API has no compare-and-touch',
        ),
        # pymemcache: touch has no compare.
        Invalid(
            """\
            import secrets

            from pymemcache.client.base import Client

            mc = Client(("localhost", 11211), default_noreply=False)


            def crunch(batch):
                key = f"batch:{batch}:lock"
                token = secrets.token_hex(16)
                if not mc.add(key, token, expire=30):
                    return
                try:
                    for part in parts(batch):
                        part.run()
                        mc.touch(key, 30)
                finally:
                    mc.delete(key)
        """,
            line=16,
            column=13,
            message_contains='no automatic fix: memcached has no compare-and-touch in one command',
        ),
        # The object's token is replaced before a claim that may fail: a failed second acquire() would
        # leave a token the store never held, so no fix compares with it.
        Invalid(
            """\
            import secrets


            class Holder:
                def __init__(self, client, name):
                    self.client = client
                    self.name = name
                    self.token = None

                def acquire(self):
                    self.token = secrets.token_hex(16)
                    return bool(self.client.set(self.name, self.token, nx=True, ex=30))

                def renew(self):
                    self.client.expire(self.name, 30)

                def release(self):
                    self.client.delete(self.name)
        """,
            line=15,
            column=9,
            message_contains='no automatic fix: the renewal cannot tell the token this holder stored (a name it sees, or an attribute set only once a claim succeeded)',
        ),
        # A sustaining thread writes the key again with a lifetime: it also takes over another's claim.
        Invalid(
            """\
            import secrets
            import threading
            import time

            import redis

            r = redis.Redis()
            held = {}


            def claim(resource):
                token = secrets.token_hex(16)
                if r.set(f"res:{resource}:lock", token, nx=True, ex=60):
                    held[resource] = token
                    return token
                return None


            def sustain():
                while True:
                    for resource, token in list(held.items()):
                        r.set(f"res:{resource}:lock", token, ex=60)
                    time.sleep(1)


            def release_resource(resource):
                token = held.pop(resource)
                r.eval(RELEASE, 1, f"res:{resource}:lock", token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=22,
            column=13,
            message_contains='no automatic fix: the renewal writes the key again, which also takes over a key another worker claimed since',
        ),
        # A scheduler's heartbeat renews every held lock on a pipeline.
        Invalid(
            """\
            import redis


            class Scheduler:
                def __init__(self, connection, name, interval=30):
                    self.connection = connection
                    self.name = name
                    self.interval = interval
                    self.held = []

                def acquire_locks(self, queues):
                    for queue in queues:
                        if self.connection.set(f"scheduler-lock:{queue}", self.name, nx=True, ex=self.interval + 60):
                            self.held.append(queue)

                def heartbeat(self):
                    with self.connection.pipeline() as pipe:
                        for queue in self.held:
                            pipe.expire(f"scheduler-lock:{queue}", self.interval + 60)
                        pipe.execute()

                def release_locks(self):
                    for queue in self.held:
                        self.connection.delete(f"scheduler-lock:{queue}")
        """,
            line=19,
            column=17,
            message_contains='no automatic fix: the renewal is queued on a pipeline, whose execute() answers it',
        ),
        # A lock class over a cache client it is handed: the claim in a retried inner function, the
        # heartbeat in another method.
        Invalid(
            """\
            class CacheLock:
                def __init__(self, client, name, owner, timeout=30):
                    self.client = client
                    self.name = name
                    self.owner = owner
                    self.timeout = timeout

                def acquire(self, attempts=3):
                    def _try():
                        return self.client.add(self.name, self.owner, self.timeout)

                    return any(_try() for _ in range(attempts))

                def heartbeat(self):
                    return bool(self.client.touch(self.name, self.timeout))

                def release(self):
                    if self.client.get(self.name) == self.owner:
                        self.client.delete(self.name)
        """,
            line=15,
            column=21,
            message_contains='no automatic fix: the cache API has no compare-and-touch',
        ),
        Invalid(
            """\
            import secrets
            import threading

            import etcd

            client = etcd.Client(host="127.0.0.1", port=2379)


            def run_with_lock(name, job, ttl=10):
                key = f"/locks/{name}"
                token = secrets.token_hex(16)
                try:
                    client.write(key, token, prevExist=False, ttl=ttl)
                except etcd.EtcdAlreadyExist:
                    return False
                stop = threading.Event()

                def heartbeat():
                    while not stop.wait(ttl / 3):
                        client.refresh(key, ttl)

                threading.Thread(target=heartbeat, daemon=True).start()
                try:
                    job()
                finally:
                    stop.set()
                    try:
                        client.delete(key, prevValue=token)
                    except etcd.EtcdCompareFailed:
                        log_lost(key)
                return True
        """,
            line=20,
            column=13,
            message_contains="ses EtcdCompareFailed when another worker's value is stored)",
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        for lease in context.model.leases:
            for renewal in lease.renewals:
                message = (
                    f"`{renewal.method}` renews lease `{key_text(renewal)}` without checking the holder: "
                    "after its deadline it extends another worker's claim, and this holder never learns it lost the lease"
                )
                try:
                    fix = context.fixer.checked_renewal(lease, renewal)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(renewal, message, fix)

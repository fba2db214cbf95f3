from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.model.values import FIXED
from leaselint.rule import Context, Invalid, Rule, Valid, weak_token_findings


class FixedToken(Rule):
    """
    ## What it does
    Reports a lease whose stored holder value is the same for more than one
    claim attempt: a literal (`"1"`, `True`, `"locked"`), the host name
    (`socket.gethostname()`, `platform.node()`, `os.uname().nodename`,
    `os.environ["HOSTNAME"]`), the process or thread id, the user name, the
    job or lock name itself, a module-level value (even a random one: it is
    made once per process), a value made once per instance in `__init__`,
    Celery's `app.oid` (one value per worker process), or a setting of one of
    the module's classes whose default is any of these (`config.worker_id`
    where `worker_id: str = field(default_factory=lambda: f"{host}:{pid}")`).
    Compositions are as good as their best part: `f"{host}:{pid}"` is fixed,
    `f"{host}-{uuid4()}"` is not; a setting with a fallback
    (`os.environ.get("WORKER_ID") or f"{host}:{pid}"`) is as weak as the
    fallback.

    The finding points at the expression that makes the value and names its
    origin. Only leases (claimed and released in the module) are checked.

    ## Why is this bad?
    The holder token is how a release tells "my claim" from "somebody else's
    claim". A fixed token cannot tell two attempts of the same worker apart:

    1. Worker A (host `web-1`, pid 42) claims `lock:job` storing `web-1:42`.
    2. A stalls past the deadline; the claim expires.
    3. A, in another thread, claims `lock:job` again for the next run: `web-1:42`.
    4. The first attempt's release compares `web-1:42`, finds it, and deletes
       the second attempt's claim.
    5. Worker B claims `lock:job`: the second attempt and B run at once.

    A token must be fresh for every claim attempt and unguessable, and kept
    with the claim itself.

    ## Example
    ```python
    OWNER = f"{socket.gethostname()}:{os.getpid()}"

    def run(job):
        if r.set(f"lock:{job}", OWNER, nx=True, ex=30):
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", OWNER)
    ```

    ## Use instead
    ```python
    def run(job):
        token = secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            try:
                work(job)
            finally:
                r.eval(RELEASE, 1, f"lock:{job}", token)
    ```

    ## Fix safety
    The fix makes `secrets.token_hex(16)` at the claim, stores it, and hands
    it to every release of the lease: a checked release gets the new token, a
    blind release becomes the token-checked release of LL001 (the two fixes
    compose into one edit). When the old value was a local used only by the
    lease, that assignment becomes fresh; when it is also used for something
    else (logged as the worker's name), it is kept and the token is added
    beside it. The fix is **safe** when the claim and its releases are in one
    function, and **unsafe** when the token must travel to another method (it
    becomes an attribute on `self`, set only once the claim succeeded). A
    value that reads as an identity (an owner, a host name) is kept in front:
    `f"{owner}:{secrets.token_hex(8)}"`. When the stored value is read back and
    parsed or compared elsewhere, there is no fix. A claim function and a
    release function get LL001's fix for them (the claim returns the token,
    the release takes it, the callers pass it). When the release is in
    another method or a nested function, or the store has no
    compare-and-delete (the Django cache), there is no automatic fix.

    ## References
    - Martin Kleppmann, "How to do distributed locking"
    """

    code = "LL002"
    name = "fixed-token"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import uuid

            import redis

            r = redis.Redis()


            def run(job):
                token = f"{socket.gethostname()}-{uuid.uuid4()}"
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    r.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def mark_seen(event_id):
                return r.set(f"seen:{event_id}", "1", nx=True, ex=86400)
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    r.delete(f"lock:{job}")
        """
        ),
        # A settings field with no default: what callers fill in is not known here.
        Valid(
            """\
            import dataclasses
            import secrets

            import redis


            @dataclasses.dataclass
            class WorkerSettings:
                worker_id: str
                prefix: str = "lease:"


            class JobLease:
                def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                    self.client = client
                    self.settings = settings
                    self.key = settings.prefix + job
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.client.set(self.key, token, nx=True, ex=30):
                        self.token = token
                        return True
                    return False

                def owner(self):
                    return self.settings.worker_id
        """
        ),
        Valid(
            """\
            import base64
            import uuid

            import etcd3gw


            def _b64(data):
                return base64.b64encode(data).decode()


            class GatewayLock:
                def __init__(self, name, ttl=30):
                    self.client = etcd3gw.client(host="127.0.0.1", port=2379)
                    self.key = _b64(b"/locks/" + name.encode())
                    self.token = None
                    self.ttl = ttl

                def acquire(self):
                    token = _b64(uuid.uuid4().bytes)
                    lease = self.client.lease(self.ttl)
                    txn = {
                        "compare": [{"key": self.key, "result": "EQUAL", "target": "CREATE", "create_revision": 0}],
                        "success": [{"request_put": {"key": self.key, "value": token, "lease": lease.id}}],
                        "failure": [],
                    }
                    if self.client.transaction(txn).get("succeeded", False):
                        self.token = token
                        return True
                    return False

                def release(self):
                    txn = {
                        "compare": [{"key": self.key, "result": "EQUAL", "target": "VALUE", "value": self.token}],
                        "success": [{"request_delete_range": {"key": self.key}}],
                    }
                    return self.client.transaction(txn).get("succeeded", False)
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import json
            import os
            import socket

            import redis

            r = redis.Redis()


            def rebuild(index):
                key = f"rebuild:{index}"
                holder = json.dumps({"host": socket.gethostname(), "pid": os.getpid()})
                if not r.set(key, holder, nx=True, ex=300):
                    return False
                try:
                    build(index)
                finally:
                    r.delete(key)
                return True
        """,
            line=13,
            column=23,
            fixed="""\
            import json
            import logging
            import os
            import secrets
            import socket

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def rebuild(index):
                key = f"rebuild:{index}"
                holder = secrets.token_hex(16)
                if not r.set(key, holder, nx=True, ex=300):
                    return False
                try:
                    build(index)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, holder):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"


            def compact(shard):
                key = f"compact:{shard}"
                if not r.eval(CLAIM, 1, key, "busy", 60_000):
                    return False
                try:
                    run_compaction(shard)
                finally:
                    r.delete(key)
                return True
        """,
            line=9,
            column=34,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"


            def compact(shard):
                key = f"compact:{shard}"
                token = secrets.token_hex(16)
                if not r.eval(CLAIM, 1, key, token, 60_000):
                    return False
                try:
                    run_compaction(shard)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import os
            import socket

            import redis

            r = redis.Redis()


            def worker_id():
                return f"{socket.gethostname()}:{os.getpid()}"


            def publish(feed):
                key = f"publish:{feed}"
                if not r.set(key, worker_id(), nx=True, ex=120):
                    return False
                try:
                    send(feed)
                finally:
                    r.delete(key)
                return True
        """,
            line=15,
            column=23,
            fixed="""\
            import logging
            import os
            import secrets
            import socket

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def worker_id():
                return f"{socket.gethostname()}:{os.getpid()}"


            def publish(feed):
                key = f"publish:{feed}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=120):
                    return False
                try:
                    send(feed)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis


            class PreviewLock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"preview:{name}"

                def acquire(self):
                    return bool(self.client.set(self.key, "1", nx=True, ex=60))

                def release(self):
                    if self.client.get(self.key) == b"1":
                        self.client.delete(self.key)
                        return True
                    return False
        """,
            line=10,
            column=47,
            fixed="""\
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class PreviewLock:
                _lease_token = None

                def __init__(self, client, name):
                    self.client = client
                    self.key = f"preview:{name}"

                def acquire(self):
                    token = secrets.token_hex(16)
                    claimed = bool(self.client.set(self.key, token, nx=True, ex=60))
                    if claimed:
                        self._lease_token = token
                    return claimed

                def release(self):
                    if self._lease_token is not None and self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                        return True
                    return False
        """,
            applicability=Applicability.UNSAFE,
        ),
        # The only delete runs after the claim failed: the fix has no release to hand a token to (a
        # compare with this attempt's token could never match there).
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key):
                if r.set(key, "1", nx=True, ex=30):
                    return True
                else:
                    r.delete(key)
                return False
        """,
            line=7,
            column=19,
            message_contains="no automatic fix: no release in reach holds the lease: the delete runs after the claim failed",
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job):
                if r.set(f"lock:{job}", "1", nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")
        """,
            line=7,
            column=29,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import socket

            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                owner = socket.gethostname()
                if not r.set(f"lock:{job}", owner, nx=True, px=10_000):
                    return
                try:
                    work(job)
                finally:
                    r.eval(RELEASE, 1, f"lock:{job}", owner)
        """,
            line=11,
            column=33,
            fixed="""\
            import secrets
            import socket

            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                owner = secrets.token_hex(16)
                if not r.set(f"lock:{job}", owner, nx=True, px=10_000):
                    return
                try:
                    work(job)
                finally:
                    r.eval(RELEASE, 1, f"lock:{job}", owner)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import logging
            import os
            import socket

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                owner = f"{socket.gethostname()}:{os.getpid()}"
                if r.set(f"lock:{job}", owner, nx=True, ex=30):
                    log.info("%s runs %s", owner, job)
                    try:
                        work(job)
                    finally:
                        if not r.eval(RELEASE, 1, f"lock:{job}", owner):
                            log.warning("lost lock:%s", job)
        """,
            line=14,
            column=29,
            fixed="""\
            import logging
            import os
            import secrets
            import socket

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            def run(job):
                owner = f"{socket.gethostname()}:{os.getpid()}"
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    log.info("%s runs %s", owner, job)
                    try:
                        work(job)
                    finally:
                        if not r.eval(RELEASE, 1, f"lock:{job}", token):
                            log.warning("lost lock:%s", job)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import uuid

            import redis

            r = redis.Redis()
            WORKER_ID = uuid.uuid4().hex


            def run(job):
                key = f"lock:{job}"
                if not r.set(key, WORKER_ID, nx=True, ex=60):
                    return
                try:
                    work(job)
                finally:
                    r.delete(key)
        """,
            line=11,
            column=23,
            fixed="""\
            import logging
            import secrets
            import uuid

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()
            WORKER_ID = uuid.uuid4().hex


            def run(job):
                key = f"lock:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=60):
                    return
                try:
                    work(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import os
            import threading

            import redis


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.owner = f"{os.getpid()}-{threading.get_ident()}"

                def acquire(self):
                    return self.client.set(self.key, self.owner, nx=True, ex=30)

                def release(self):
                    self.client.delete(self.key)
        """,
            line=14,
            column=42,
            fixed="""\
            import logging
            import os
            import secrets
            import threading

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.owner = f"{os.getpid()}-{threading.get_ident()}"

                def acquire(self):
                    token = secrets.token_hex(16)
                    claimed = self.client.set(self.key, token, nx=True, ex=30)
                    if claimed:
                        self.owner = token
                    return claimed

                def release(self):
                    if self.owner is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self.owner):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(name):
                return r.set(f"lock:{name}", name, nx=True, ex=30)


            def release(name):
                r.delete(f"lock:{name}")
        """,
            line=7,
            column=34,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def acquire(name):
                token = f"{name}:{secrets.token_hex(8)}"
                return token if r.set(f"lock:{name}", token, nx=True, ex=30) else None


            def release(name, token):
                if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{name}", token):
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{name}")
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            from celery import shared_task
            from django.core.cache import cache

            LOCK_EXPIRE = 60 * 10


            @shared_task(bind=True)
            def import_feed(self, feed_url):
                lock_id = f"import-feed-lock-{feed_url}"
                if cache.add(lock_id, self.app.oid, LOCK_EXPIRE):
                    try:
                        return do_import(feed_url)
                    finally:
                        cache.delete(lock_id)
        """,
            line=10,
            column=27,
            message_contains='the cache API has no compare-and-delete',
        ),
        Invalid(
            """\
            from contextlib import contextmanager

            from django.core.cache import cache


            @contextmanager
            def memcache_lock(lock_id, oid):
                status = cache.add(lock_id, oid, 600)
                try:
                    yield status
                finally:
                    if status:
                        cache.delete(lock_id)


            def import_feed(task, feed_url):
                with memcache_lock(f"feed-{feed_url}", task.app.oid) as acquired:
                    if acquired:
                        do_import(feed_url)
        """,
            line=17,
            column=44,
            message_contains='the cache API has no compare-and-delete',
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def enqueue(user):
                key = f"sync:{user}"
                pipe = r.pipeline()
                pipe.watch(key)
                if pipe.exists(key):
                    pipe.reset()
                    return False
                pipe.multi()
                pipe.set(key, "queued", ex=600)
                pipe.rpush("sync-queue", user)
                pipe.execute()
                return True


            def done(user):
                r.delete(f"sync:{user}")
        """,
            line=14,
            column=19,
            message_contains="(no automatic fix: the claim is a WATCH/MULTI transaction",
        ),
        # A settings object's field whose default is the host and pid (behind an environment setting).
        Invalid(
            """\
            import dataclasses
            import os
            import socket

            import redis


            @dataclasses.dataclass
            class WorkerSettings:
                lease_seconds: int = 30
                worker_id: str = dataclasses.field(
                    default_factory=lambda: os.environ.get("WORKER_ID") or f"{socket.gethostname()}:{os.getpid()}"
                )


            class JobLease:
                def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                    self.client = client
                    self.settings = settings
                    self.key = f"lease:{job}"

                def acquire(self):
                    return self.client.set(self.key, self.settings.worker_id, nx=True, ex=self.settings.lease_seconds)

                def release(self):
                    self.client.delete(self.key)
        """,
            line=23,
            column=42,
            fixed="""\
            import dataclasses
            import logging
            import os
            import secrets
            import socket

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            @dataclasses.dataclass
            class WorkerSettings:
                lease_seconds: int = 30
                worker_id: str = dataclasses.field(
                    default_factory=lambda: os.environ.get("WORKER_ID") or f"{socket.gethostname()}:{os.getpid()}"
                )


            class JobLease:
                _lease_token = None

                def __init__(self, client: redis.Redis, settings: WorkerSettings, job):
                    self.client = client
                    self.settings = settings
                    self.key = f"lease:{job}"

                def acquire(self):
                    token = f"{self.settings.worker_id}:{secrets.token_hex(8)}"
                    claimed = self.client.set(self.key, token, nx=True, ex=self.settings.lease_seconds)
                    if claimed:
                        self._lease_token = token
                    return claimed

                def release(self):
                    if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        # A Lua claim that stores a literal of its own script: reported at the script.
        Invalid(
            """\
            import redis

            r = redis.Redis()
            CLAIM = r.register_script(
                "local ok = redis.call('set', KEYS[1], 'BUSY', 'NX', 'EX', ARGV[1]) "
                "if ok then redis.call('del', KEYS[2]) end return ok"
            )
            FREE = r.register_script(
                "if redis.call('get', KEYS[1]) == 'BUSY' then redis.call('del', KEYS[1]) end "
                "redis.call('lpush', KEYS[2], 1)"
            )


            def compute(name):
                if not CLAIM(keys=[f"calc:{name}", f"calc:{name}:done"], args=[60]):
                    return None
                try:
                    return crunch(name)
                finally:
                    FREE(keys=[f"calc:{name}", f"calc:{name}:done"])
        """,
            line=5,
            column=5,
            message_contains="(no automatic fix: the script stores a value written in it",
        ),
        Invalid(
            """\
            from diskcache import FanoutCache

            cache = FanoutCache("/tmp/sync-locks", shards=4)


            def sync(account, push):
                key = "sync-lock:" + account
                if cache.add(key, True, expire=120):
                    try:
                        push(account)
                    finally:
                        cache.delete(key)
        """,
            line=8,
            column=23,
            fixed="""\
            import logging
            import secrets

            from diskcache import FanoutCache

            cache = FanoutCache("/tmp/sync-locks", shards=4)


            def sync(account, push):
                key = "sync-lock:" + account
                token = secrets.token_hex(16)
                if cache.add(key, token, expire=120):
                    try:
                        push(account)
                    finally:
                        with cache.transact():
                            if cache.get(key) != token or not cache.delete(key):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient, GlideClientConfiguration, NodeAddress

            config = GlideClientConfiguration([NodeAddress("localhost", 6379)])


            async def nightly(job):
                client = await GlideClient.create(config)
                claimed = await client.set(
                    "nightly-lock",
                    "locked",
                    conditional_set=ConditionalChange.ONLY_IF_DOES_NOT_EXIST,
                    expiry=ExpirySet(ExpiryType.SEC, 60),
                )
                if not claimed:
                    return
                try:
                    await job()
                finally:
                    await client.delete(["nightly-lock"])
        """,
            line=10,
            column=9,
            message_contains='ipt` with `invoke_script(script, keys=[key], args=[token])`)',
        ),
        Invalid(
            """\
            import base64
            import uuid

            import etcd3gw


            def _b64(data):
                return base64.b64encode(data).decode()


            class GatewayLock:
                def __init__(self, name, ttl=30):
                    self.client = etcd3gw.client(host="127.0.0.1", port=2379)
                    self.key = _b64(b"/locks/" + name.encode())
                    self.token = _b64(uuid.uuid4().bytes)
                    self.ttl = ttl

                def acquire(self):
                    lease = self.client.lease(self.ttl)
                    txn = {
                        "compare": [{"key": self.key, "result": "EQUAL", "target": "CREATE", "create_revision": 0}],
                        "success": [{"request_put": {"key": self.key, "value": self.token, "lease": lease.id}}],
                        "failure": [],
                    }
                    return self.client.transaction(txn).get("succeeded", False)

                def release(self):
                    txn = {
                        "compare": [{"key": self.key, "result": "EQUAL", "target": "VALUE", "value": self.token}],
                        "success": [{"request_delete_range": {"key": self.key}}],
                    }
                    return self.client.transaction(txn).get("succeeded", False)
        """,
            line=22,
            column=68,
            message_contains='can follow it (assign it, return it, or test it in an `if`))',
        ),
        Invalid(
            """\
            import socket
            from datetime import timedelta

            from django.db import IntegrityError, models
            from django.utils import timezone


            class TaskLease(models.Model):
                task_name = models.CharField(max_length=100, unique=True)
                holder = models.CharField(max_length=100)
                locked_until = models.DateTimeField()


            def claim(task_name):
                try:
                    TaskLease.objects.create(
                        task_name=task_name, holder=socket.gethostname(), locked_until=timezone.now() + timedelta(minutes=10)
                    )
                except IntegrityError:
                    return False
                return True


            def release(task_name):
                TaskLease.objects.filter(task_name=task_name, holder=socket.gethostname()).delete()
        """,
            line=17,
            column=41,
            message_contains='er function: return the token from the claim and pass it on)',
        ),
        Invalid(
            """\
            import uuid

            from etcd3 import Client

            client = Client(host="127.0.0.1", port=2379)


            class BuildLock:
                def __init__(self, name, ttl=30):
                    self.key = f"/locks/build/{name}"
                    self.token = uuid.uuid4().hex
                    self.ttl = ttl

                def acquire(self):
                    lease = client.Lease(self.ttl)
                    lease.grant()
                    txn = client.Txn()
                    txn.If(txn.key(self.key).version == 0)
                    txn.Then(txn.put(self.key, self.token, lease=lease.ID))
                    return txn.commit().succeeded

                def release(self):
                    client.delete_range(self.key)
        """,
            line=19,
            column=36,
            message_contains='can follow it (assign it, return it, or test it in an `if`))',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        yield from weak_token_findings(
            self,
            context,
            FIXED,
            "every claim attempt stores the same value, so a stale release matches a later claim",
        )



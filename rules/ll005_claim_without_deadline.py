from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid

NO_LIFETIME = "no automatic fix: choosing a lifetime is a decision; pick one longer than the job and renew it"


class ClaimWithoutDeadline(Rule):
    """
    ## What it does
    Reports a lease that can outlive a crashed holder: `setnx` with no expiry,
    `set(k, v, nx=True)` without `ex`/`px`/`exat`/`pxat`, Django's
    `cache.add(k, v, None)`, `r.lock(name)` or `redis.lock.Lock(...)` without
    `timeout`, `redis_lock.Lock(conn, name)` without `expire`; and a claim whose
    lifetime is set by a separate `expire`/`pexpire` after the create.

    Flask-Caching's Redis backend implements `add` as `SETNX` followed by a
    separate `EXPIRE` itself: a crash between the two leaves a key without a
    lifetime, whatever the caller passes. Prefer a client that claims with
    `SET ... NX PX` in one command.

    DynamoDB: a claim whose condition only requires the key absent
    (`attribute_not_exists(pk)`) never ends, because TTL deletes expired
    items lazily, up to days later; the condition must also admit an expired
    claim. MongoDB: a claim document without an expiry field.

    A lock object made inside a test (a test function, fixture or test class,
    or anywhere in a test module: a file under a folder named `test`, `tests`,
    `testing`, `test_*` or `*_tests` below the configuration's folder, or
    named `test_*.py`, `*_test.py`, `conftest.py` or `tests.py`) is the test's
    own and is not reported.

    Lease keys only: a counter or marker set with `incr` or `set(nx=True)`
    and never released is not a lease.

    ## Why is this bad?
    A lease without a deadline is held forever by a holder that died:

    1. Worker A runs `setnx("lock:job", token)`.
    2. A is killed (deploy, OOM) before `expire("lock:job", 30)` or before
       its release.
    3. `lock:job` never expires: every later worker is refused, forever,
       until somebody deletes the key by hand.

    ## Example
    ```python
    if r.setnx(key, token):
        r.expire(key, 30)
    ```

    ## Use instead
    ```python
    if r.set(key, token, nx=True, ex=30):
        ...
    ```

    ## Fix safety
    For the two-step form the fix claims with one `set(k, v, nx=True, ex=ttl)`
    (`px=` for `pexpire`) with the lifetime the code already chose, and
    removes the `expire` call: **safe** when the lifetime is a positive number
    written in place. A lifetime held in a name or an attribute makes it
    **unsafe**: SET refuses a lifetime of 0 or less, which EXPIRE accepted (it
    deleted the key). Where the code reads `setnx`'s answer other than in an
    `if` or `while`, the fix wraps the claim in `bool(...)`: `setnx` answers
    False where `set(nx=True)` answers None, and callers keep reading False.
    When no lifetime exists anywhere there is no automatic fix: choosing a
    lifetime is a decision.
    """

    code = "LL005"
    name = "claim-without-deadline"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            import redis

            r = redis.Redis()


            def hit(client_ip):
                count = r.incr(f"rate:{client_ip}")
                r.expire(f"rate:{client_ip}", 60)
                return count
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def mark(event_id):
                return r.setnx(f"seen:{event_id}", 1)
        """
        ),
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
            from django.core.cache import cache


            def run(job, token):
                if cache.add(f"lock:{job}", token):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
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
        Valid(
            """\
            from coredis import Redis
            from coredis.recipes.locks import LuaLock

            client = Redis()


            async def run(job):
                async with LuaLock(client, f"lock:{job}", timeout=30):
                    await work(job)

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
        Valid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def import_feed(feed, load):
                key = f"lock:import:{feed}"
                token = secrets.token_hex(16)
                if not mc.add(key, token, time=300):
                    return
                try:
                    load(feed)
                finally:
                    stored, cas_id = mc.gets(key)
                    if stored == token:
                        mc.delete(key, cas=cas_id)
        """
        ),
        Valid(
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
        """
        ),
    ]
    INVALID = [
        Invalid(
            """\
            import redis

            r = redis.Redis()
            CLAIM = "if redis.call('setnx', KEYS[1], ARGV[1]) == 1 then return 1 end return 0"


            def migrate(name, token):
                key = f"migrate:{name}"
                if r.eval(CLAIM, 1, key, token) == 1:
                    apply_migration(name)
                    r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        """,
            line=9,
            column=8,
            message_contains='(no automatic fix: choosing a lifetime is a decision',
        ),
        # A lock handed back to the caller is held there: still one without a lifetime.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def job_lock(job):
                lock = r.lock(f"lock:{job}")
                return lock
        """,
            line=7,
            message_contains="has no timeout",
        ),
        # aioredis 1.x: its `set` takes `expire=` and `exist=`, not `nx=`/`ex=`, so no fix is written.
        Invalid(
            """\
            import aioredis


            async def job(name):
                redis = await aioredis.create_redis_pool("redis://localhost")
                if not await redis.setnx(f"lock:{name}", "1"):
                    return
                await redis.expire(f"lock:{name}", 30)
                try:
                    await work(name)
                finally:
                    await redis.delete(f"lock:{name}")
        """,
            line=6,
            column=18,
            message_contains="(no automatic fix: the client comes from aioredis 1.x (`create_redis_pool`)",
        ),
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


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class PollLock:
                def __init__(self, client, name, ttl):
                    self.client = client
                    self.key = f"poll:{name}"
                    self.ttl = ttl

                def acquire(self, token):
                    claimed = self.client.setnx(self.key, token)
                    if claimed:
                        self.client.expire(self.key, self.ttl)
                    return claimed

                def release(self, token):
                    self.client.eval(RELEASE, 1, self.key, token)
        """,
            line=14,
            column=19,
            fixed="""\
            import redis


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


            class PollLock:
                def __init__(self, client, name, ttl):
                    self.client = client
                    self.key = f"poll:{name}"
                    self.ttl = ttl

                def acquire(self, token):
                    claimed = bool(self.client.set(self.key, token, nx=True, ex=self.ttl))
                    return claimed

                def release(self, token):
                    self.client.eval(RELEASE, 1, self.key, token)
        """,
            applicability=Applicability.UNSAFE,
            message_contains="a second call (`expire`)",
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
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            from django.core.cache import cache


            def run(job, token):
                if cache.add(f"lock:{job}", token, None):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
        """,
            line=5,
            column=8,
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
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
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
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
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
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
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import boto3

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token):
                table.put_item(Item={"pk": job, "owner": token}, ConditionExpression="attribute_not_exists(pk)")
                work(job)
                table.delete_item(Key={"pk": job}, ConditionExpression="#o = :t", ExpressionAttributeNames={"#o": "owner"}, ExpressionAttributeValues={":t": token})
        """,
            line=7,
            column=5,
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            from coredis import Redis
            from coredis.recipes.locks import LuaLock

            client = Redis()


            async def run(job):
                async with LuaLock(client, f"lock:{job}"):
                    await work(job)

        """,
            line=8,
            column=16,
            message_contains='choosing a lifetime is a decision; pick one longer than the job and renew it)',
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
        # The `if` that only set the lifetime goes with it.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name, token, ttl=30):
                ok = r.setnx(f"lock:{name}", token)
                if ok:
                    r.expire(f"lock:{name}", 30)
                return ok


            def release_lock(name, token):
                r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token)
        """,
            line=7,
            column=10,
            fixed="""\
            import redis

            r = redis.Redis()


            def acquire_lock(name, token, ttl=30):
                ok = bool(r.set(f"lock:{name}", token, nx=True, ex=30))
                return ok


            def release_lock(name, token):
                r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token)
        """,
            applicability=Applicability.SAFE,
        ),
        # The `if` that set the lifetime goes, inside a loop whose body keeps its `break`.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name, token):
                ok = r.setnx(f"lock:{name}", token)
                while True:
                    if ok:
                        r.expire(f"lock:{name}", 30)
                    break
                return ok


            def release_lock(name, token):
                if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                    raise RuntimeError("lost")
        """,
            line=7,
            column=10,
            fixed="""\
            import redis

            r = redis.Redis()


            def acquire_lock(name, token):
                ok = bool(r.set(f"lock:{name}", token, nx=True, ex=30))
                while True:
                    break
                return ok


            def release_lock(name, token):
                if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                    raise RuntimeError("lost")
        """,
            applicability=Applicability.SAFE,
        ),
        # An expiry under a condition of its own (`if renew:`): merged, every claim would get it.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name, token, renew):
                ok = r.setnx(f"lock:{name}", token)
                if ok:
                    if renew:
                        r.expire(f"lock:{name}", 30)
                return ok


            def release_lock(name, token):
                if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                    raise RuntimeError("lost")
        """,
            line=7,
            column=10,
            message_contains="(no automatic fix: the expiry runs only under a condition of its own",
        ),
        Invalid(
            """\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/import-locks")


            def import_feed(feed, load):
                key = f"lock:import:{feed}"
                token = secrets.token_hex(16)
                if not cache.add(key, token):
                    return
                try:
                    load(feed)
                finally:
                    with cache.transact():
                        if cache.get(key) == token:
                            cache.delete(key)
        """,
            line=11,
            column=12,
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import os

            import etcd

            client = etcd.Client(host=os.environ["ETCD_HOST"], port=2379)


            def lock_migration(version, token):
                try:
                    client.write(f"/locks/migrate/{version}", token, prevExist=False)
                except etcd.EtcdAlreadyExist:
                    return False
                return True


            def unlock_migration(version, token):
                try:
                    client.delete(f"/locks/migrate/{version}", prevValue=token)
                except etcd.EtcdCompareFailed:
                    raise RuntimeError("migration lock lost")
        """,
            line=10,
            column=9,
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def sync_mailbox(box, fetch):
                token = secrets.token_hex(16)
                if not r.hsetnx("mailbox:locks", box, token):
                    return
                try:
                    fetch(box)
                finally:
                    if not r.eval(
                        "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end",
                        1,
                        "mailbox:locks",
                        box,
                        token,
                    ):
                        report_lost(box)
        """,
            line=10,
            column=12,
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import boto3

            table = boto3.resource("dynamodb").Table("jobs")


            def claim_job(job_id, worker):
                try:
                    table.update_item(
                        Key={"job_id": job_id},
                        UpdateExpression="SET #owner = :w",
                        ConditionExpression="attribute_not_exists(#owner)",
                        ExpressionAttributeNames={"#owner": "owner"},
                        ExpressionAttributeValues={":w": worker},
                    )
                except table.meta.client.exceptions.ConditionalCheckFailedException:
                    return False
                return True


            def finish_job(job_id, worker):
                table.delete_item(
                    Key={"job_id": job_id},
                    ConditionExpression="#owner = :w",
                    ExpressionAttributeNames={"#owner": "owner"},
                    ExpressionAttributeValues={":w": worker},
                )
        """,
            line=8,
            column=9,
            message_contains='me is a decision; pick one longer than the job and renew it)',
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
            line=12,
            column=15,
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import secrets

            from django.db import IntegrityError, models


            class ImportLock(models.Model):
                name = models.CharField(max_length=100, unique=True)
                owner = models.CharField(max_length=64)


            def import_feed(name, load):
                token = secrets.token_hex(16)
                try:
                    ImportLock.objects.create(name=name, owner=token)
                except IntegrityError:
                    return
                try:
                    load(name)
                finally:
                    if not ImportLock.objects.filter(name=name, owner=token).delete()[0]:
                        report_lost(name)
        """,
            line=14,
            column=9,
            message_contains='me is a decision; pick one longer than the job and renew it)',
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
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
        Invalid(
            """\
            import uuid

            from etcd3 import Client

            client = Client(host="127.0.0.1", port=2379)


            def with_lock(name, job):
                key = f"/locks/{name}"
                token = uuid.uuid4().hex
                txn = client.Txn()
                txn.If(txn.key(key).create == 0)
                txn.Then(txn.put(key, token))
                if not txn.commit().succeeded:
                    return False
                try:
                    job()
                finally:
                    txn = client.Txn()
                    txn.If(txn.key(key).value == token)
                    txn.Then(txn.delete(key))
                    txn.commit()
                return True
        """,
            line=13,
            column=5,
            message_contains='me is a decision; pick one longer than the job and renew it)',
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        reported: set[int] = set()
        for lease in context.model.leases:
            for claim in lease.claims:
                if claim.has_lifetime or id(claim.call) in reported:
                    continue
                reported.add(id(claim.call))  # one report for a call that claims several keys (`msetnx`)
                later = [e for e in lease.expiries if e.scope is claim.scope and claim.start <= e.start]
                key = key_text(claim)
                if later:
                    expire = later[0]
                    message = (
                        f"Lease `{key}` gets its lifetime from a second call (`{expire.method}`): "
                        "a crash between the two leaves a claim that never expires"
                    )
                    try:
                        fix = context.fixer.merge_lifetime(claim, expire)
                    except NoFix as why:
                        fix = None
                        message += f" (no automatic fix: {why})"
                    yield self.at_event(claim, message, fix)
                else:
                    why = claim.spec.no_lifetime or claim.store.no_lifetime or "a crashed holder keeps it forever"
                    yield self.at_event(claim, f"Lease `{key}` is claimed without a lifetime: {why} ({NO_LIFETIME})")
        for lock in context.model.locks:
            # A test's lock object is the test's own (a test of the lock library, or of the code that
            # takes it), held for the test alone: no lease another worker waits on.
            if not lock.has_lifetime and not lock.scope.is_test:
                name = key_text(lock) if lock.key is not None else "the lock"
                yield self.at_node(
                    context,
                    lock.call,
                    f"Lock `{name}` has no timeout: a crashed holder keeps it forever ({NO_LIFETIME})",
                )



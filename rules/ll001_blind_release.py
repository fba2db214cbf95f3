from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class BlindRelease(Rule):
    """
    ## What it does
    Reports a lease released by an operation that does not check who holds it:
    `delete`, `unlink`, `getdel`, `execute_command("DEL", ...)`, a `delete`
    queued on a pipeline, `delete(*keys)` of a comprehension, or a Lua script
    that deletes without comparing an argument (run by `eval`, `evalsha` or a
    `register_script` object), on a key the same client claimed with a
    conditional create (`set(key, value, nx=True, ...)`, `setnx`,
    `SET ... NX`, a Lua script's `set KEYS[1] ARGV[1] NX`, or a WATCH/MULTI
    transaction that tests the watched key absent, `if pipe.exists(key)` or
    `get` compared with None, then writes it after `multi()`: such a claim
    has no automatic fix); in a lock class (named for a lock, mutex, lease or
    semaphore, with acquire/release or `__enter__`/`__exit__`), `add(key,
    value, ttl)` on a client the module never shows, such as one handed in
    or made by `self.client_fn()`, is a cache's conditional create (no fix:
    its API is not known).

    Only leases are reported: a key that is both claimed and released in the
    module, directly or through a function of another module of the run that
    claims or releases on a key made of its parameters
    (`release_lock(key)` after `from .locks import release_lock`): such a
    finding is reported at the call, names the function and its line, and
    has no automatic fix (the delete to fix is inside that function). Not leases, and not reported: a cache entry (`set(k, v, ex=60)`
    then `delete(k)`); an idempotency marker (claimed, never released); an NX
    write whose answer is never read, unless its key names a lock (`lock`,
    `lease`, `mutex`, ...): that is a cache write; a key that is also counted
    (`incr`: a rate limit); a store API wrapper that hands its caller's key on
    (`def delete(self, key): self._cache.delete(key)`); and two functions that
    only share a parameter name, unless the releasing one is named for it
    (`release_lock(key)`). A delete meant to break a lock whoever holds it is
    taken as deliberate: in a function named for it (a name with `break`,
    `reset`, `force` or `stale`, one that starts with `admin`, or exactly
    `clear` or `clear_all`; `clear_lock` is a release like any other) or
    under `if force:`.

    A delete in the branch where the claim failed (`if not r.set(...):
    r.delete(key)`) is reported too: the key is another worker's claim; and
    so is a plain delete of the key a lock object stands on (`lock =
    r.lock(key, timeout=30)` ... `r.delete(key)`), which bypasses the
    lock's own token check.
    A release after a client-side compare is LL004; one queued after
    `multi()` in a WATCH/MULTI/EXEC transaction is correct.

    ## Why is this bad?
    A lease has a deadline so that a crashed holder cannot block the job
    forever. A holder that is merely slow outlives it:

    1. Worker A claims `lock:job` for 30 s and starts the job.
    2. A pauses (garbage collection, a slow query) for 40 s; the claim expires.
    3. Worker B claims `lock:job` and starts the job.
    4. A finishes and runs `delete("lock:job")`: it deletes **B's** claim.
    5. Worker C claims `lock:job`: B and C now run the job at once.

    The release must delete the key only if it still holds the token this
    holder stored, and compare and delete in one server-side step.

    A token-checked release makes the *release* safe; it does not stop A and
    B from overlapping in step 3. By the time a release is refused, the
    overlap has happened. Two remedies address the overlap itself: renew the
    claim while the holder is healthy (a token-checked extend), or accept the
    overlap and put the real guard where the job's effects become durable (an
    idempotent write, a fencing number checked by the store that keeps the
    results). A longer lifetime is not a remedy: it only makes the gap rarer.

    ## Example
    ```python
    def run(job):
        if r.set(f"lock:{job}", "1", nx=True, ex=30):
            try:
                work(job)
            finally:
                r.delete(f"lock:{job}")
    ```

    ## Use instead
    ```python
    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )

    def run(job):
        token = secrets.token_hex(16)
        if r.set(f"lock:{job}", token, nx=True, ex=30):
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                    logging.getLogger(__name__).warning("lease %s was lost ...", f"lock:{job}")
    ```
    On Redis 8.4 and later `DELEX key IFEQ token`, and on Valkey 9 and later
    `DELIFEQ key token`, do the same in one command (the `release` setting).

    ## Fix safety
    The fix replaces the release with the compare-and-delete script, awaited
    for asyncio clients, and logs a warning when nothing was deleted (the
    lease was lost: another worker may have run the job). It adds the module
    constant and imports it needs once, and reuses the module's logger.

    It is **safe** when the claim already stores a token that is in reach at
    the release (a local of the same function, or an attribute of `self` set
    at the claim). It is **unsafe** when the claim stores something else (a
    constant, a host name) or its token is out of reach: the fix then makes
    `token = secrets.token_hex(16)` at the claim, stores it, and carries it to
    the release as a local or as an attribute on `self`. An object keeps the
    token only once its claim succeeded, starts with `None` (a class
    attribute), and a release holding none deletes nothing and answers 0 as a
    delete of a missing key does; a readable identity the claim stored stays
    in front of the fresh token. When another method reads the stored value
    back and parses or compares it, there is no fix. It is also unsafe in
    a pipeline, whose result arrives in `execute()`.

    A claim function and a release function (`acquire_lock(name)`,
    `release_lock(name)`) get an **unsafe** fix: the claim returns its fresh
    token (None when it failed), the release takes it as a new last
    parameter `token` and deletes nothing without one, and every caller in
    the file binds the claim's answer (`token = acquire_lock(name)`) and
    passes it (`release_lock(name, token=token)`). Callers in other files must
    pass it too: without it their call raises TypeError rather than
    release blindly. When a caller cannot be rewritten (it passes the answer
    on, or releases without a claim call beside it), there is no fix and the
    message names the line. A claim in another method or a nested function,
    or a release that deletes other keys too, gets no automatic fix and the
    message says why. A delete after a failed claim is
    removed (**safe**: the key was never this worker's), unless it follows the
    claim's early exit (`if r.set(...): return`) or the function reads the key's
    remaining lifetime (`r.ttl(key) == -1`: a recovery of a claim left without
    one, which goes once the claim sets its lifetime, LL005). No fix is written
    when the key is written again after the claim (the token it would compare
    with is gone), when a name the fix calls (`secrets`, `logging`) is bound to
    something else, or for an aioredis 1.x client, whose API differs.

    ## References
    - Redis, "Distributed Locks with Redis": https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
    - Martin Kleppmann, "How to do distributed locking" (fencing tokens)
    """

    code = "LL001"
    name = "blind-release"
    fix_availability = "sometimes"

    VALID = [
        Valid(
            """\
            # no rule reports this
            import redis

            r = redis.Redis()


            def forget(user_ids):
                keys = [f"profile:{uid}" for uid in user_ids]
                r.delete(*keys)
        """
        ),
        Valid(
            """\
            # no rule reports this
            import redis

            r = redis.Redis()
            REFRESH = "return redis.call('set', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])"
            FILL = "redis.call('set', KEYS[1], ARGV[1]) return redis.call('expire', KEYS[1], 60)"


            def touch(session, data):
                r.eval(REFRESH, 1, f"session:{session}", data, 60_000)


            def fill(name, value):
                r.eval(FILL, 1, f"cache:{name}", value)
                r.delete(f"cache:{name}")
        """
        ),
        Valid(
            """\
            # no rule reports this
            import redis

            r = redis.Redis()
            HIT = "local n = redis.call('incr', KEYS[1]) redis.call('expire', KEYS[1], ARGV[1]) return n"
            hit = r.register_script(HIT)


            def allowed(user):
                return hit(keys=[f"rate:{user}"], args=[60]) <= 100


            def lookup(ids):
                return fetch(keys=[f"item:{i}" for i in ids])
        """
        ),
        # A store facade that namespaces its caller's key: not a lease of its own (nor a claim without
        # a deadline: no rule reports it).
        Valid(
            """\
            # no rule reports this
            class TenantCache:
                def __init__(self, client):
                    self._client = client

                def delete(self, tenant_id, key):
                    self._client.delete(f"{tenant_id}:{key}")

                def set_if_absent(self, tenant_id, key, value):
                    return bool(self._client.setnx(f"{tenant_id}:{key}", value))
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def cached_profile(uid):
                r.set(f"profile:{uid}", load(uid), ex=60)
                r.delete(f"profile:{uid}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def handle_once(event_id):
                if not r.set(f"seen:{event_id}", 1, nx=True, ex=86400):
                    return
                process(event_id)
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job):
                if r.set(f"lock:{job}", "1", nx=True, ex=30):
                    work(job)
                    r.delete(f"result:{job}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()
            other = redis.Redis(db=2)


            def run(job):
                if r.set(f"lock:{job}", "1", nx=True, ex=30):
                    work(job)
                    other.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import logging
            import secrets

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()
            RELEASE = '''
            if redis.call("get", KEYS[1]) == ARGV[1] then
                return redis.call("del", KEYS[1])
            end
            return 0
            '''


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        if not r.eval(RELEASE, 1, f"lock:{job}", token):
                            log.warning("lost lock:%s", job)
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job):
                with r.lock(f"lock:{job}", timeout=30):
                    work(job)
        """
        ),
        Valid(
            """\
            import secrets

            import valkey

            v = valkey.Valkey()


            def run(job):
                token = secrets.token_hex(16)
                if v.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        if not v.execute_command("DELIFEQ", f"lock:{job}", token):
                            raise RuntimeError("lease lost")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job, key):
                if r.set(key, "1", nx=True, ex=30):
                    work(job)
                key = "other"
                r.delete(key)
        """
        ),
        Valid(
            """\
            import redis


            class Lock:
                def __init__(self, client, name):
                    self.client = client
                    self.key = f"lock:{name}"

                def acquire(self, token):
                    return self.client.set(self.key, token, nx=True, ex=30)

                def force_release(self):
                    # Break the lock whoever holds it (an admin action).
                    self.client.delete(self.key)
        """
        ),
        Valid(
            """\
            from django.core.cache import cache


            def forget(user_id):
                cache.delete(f"profile:{user_id}")
        """
        ),
        Valid(
            """\
            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token):
                table.put_item(Item={"pk": job, "owner": token}, ConditionExpression=Attr("pk").not_exists())
                work(job)
                table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
        """
        ),
        Valid(
            """\
            import pymongo

            locks = pymongo.MongoClient().app.locks


            def run(job, token):
                locks.insert_one({"_id": job, "owner": token})
                work(job)
                locks.delete_one({"_id": job, "owner": token})
        """
        ),
        Valid(
            """\
            from pymemcache.client.base import Client


            class MemcachedBackend:
                # A cache backend: it hands the caller's key on; the caller decides what is a lease.

                def __init__(self, servers):
                    self._cache = Client(servers)

                def add(self, key, value, timeout):
                    key = self.make_key(key)
                    return self._cache.add(key, value, timeout, noreply=False)

                def delete(self, key):
                    key = self.make_key(key)
                    return bool(self._cache.delete(key))
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            class Lock:
                def __init__(self, name):
                    self.key = f"lock:{name}"

                def acquire(self, token):
                    return r.set(self.key, token, nx=True, ex=30)

                def release(self, force=False):
                    if force:
                        r.delete(self.key)
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def cache_user(user_id, data):
                r.set(f"user:{user_id}", data, nx=True, ex=300)


            def invalidate_user(user_id):
                r.delete(f"user:{user_id}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def hit(client_ip):
                key = f"rate:{client_ip}"
                if r.set(key, 0, nx=True, ex=60):
                    pass
                return r.incr(key)


            def reset(client_ip):
                r.delete(f"rate:{client_ip}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(key, token):
                return r.set(key, token, nx=True, ex=30)


            def cache_delete(key):
                r.delete(key)
        """
        ),
        Valid(
            """\
            from myproject.cache import mc


            def run(job):
                lock_key = "lock:%s" % job
                if not mc.add(lock_key, "1", 60):
                    return False
                try:
                    work(job)
                finally:
                    mc.delete(lock_key)

        """
        ),
        # Two tests that use one key are two worlds: neither releases the other's claim.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def test_report_runs_once():
                if r.set("lock:report", "t1", nx=True, ex=10):
                    run_report()


            def test_cleanup_frees_the_key():
                r.delete("lock:report")
        """
        ),
        # Outside tests too, two functions that only share a key (no call between them, no release
        # in the name, no lock in the key) are not one lease's life.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def start_export(job):
                if r.set(f"export:{job}", "running", nx=True, ex=600):
                    enqueue(job)


            def drop_cached(job):
                r.delete(f"export:{job}")
        """
        ),
        # A MongoDB record written and removed: no duplicate key caught, no lifetime or owner, no lock.
        Valid(
            """\
            from pymongo import MongoClient

            staging = MongoClient().app.staging


            def publish_record(doc_id, body):
                staging.insert_one({"_id": doc_id, "body": body})
                copy_to_live(doc_id)
                staging.delete_one({"_id": doc_id})
        """
        ),
        # A cache's own tests assert what `add` answers: they test the store, not a lease.
        Valid(
            """\
            from django.core.cache import cache
            from django.test import SimpleTestCase


            class BaseCacheTests(SimpleTestCase):
                def test_add_refuses_a_held_key(self):
                    self.assertIs(cache.add("addkey1", "value"), True)
                    self.assertIs(cache.add("addkey1", "newvalue"), False)
                    cache.delete("addkey1")
        """
        ),
        # A Lua compare-and-delete that reads its key and token through Lua locals is checked.
        Valid(
            """\
            # no rule reports this
            import logging
            import secrets

            import redis

            r = redis.Redis()
            RELEASE = \"\"\"
            local key = KEYS[1]
            local token = ARGV[1]
            if redis.call('get', key) == token then
                return redis.call('del', key)
            end
            return 0
            \"\"\"


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job)
                    finally:
                        if not r.eval(RELEASE, 1, f"lock:{job}", token):
                            logging.getLogger(__name__).warning("lease of %s lost", job)
        """
        ),
        # A deliberate reset: a function named for it deletes the lock on purpose.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)


            def reset_lock(job):
                r.delete(f"lock:{job}")
        """
        ),
        # A storage API whose methods pass their caller's key on (through a key builder): the lease,
        # if any, is the caller's.
        Valid(
            """\
            import redis


            class ResultStore:
                def __init__(self, url):
                    self.conn = redis.Redis.from_url(url)

                def result_key(self, key):
                    return f"results:{key}"

                def put_if_empty(self, key, value, ttl=None):
                    return self.conn.set(self.result_key(key), value, nx=True, ex=ttl)

                def delete_data(self, key):
                    return self.conn.delete(self.result_key(key))
        """
        ),
        # A client made by another family's module (cachelib) is that family's, whatever its name: its
        # calls are not redis-py's, and no redis-py fix (`eval`) is written for it.
        Valid(
            """\
            # no rule reports this
            import secrets

            from cachelib import RedisCache

            cache = RedisCache()


            def run(job):
                token = secrets.token_hex(16)
                if cache.set(f"lock:{job}", token, nx=True):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
        """
        ),
        # WATCH, read, MULTI, write: an update of a value read (a counter), a token-checked renewal, and
        # a token-checked release are no claims.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def bump(name):
                key = f"count:{name}"
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    old = pipe.get(key)
                    if old is None:
                        old = 0
                    pipe.multi()
                    pipe.set(key, int(old) + 1)
                    pipe.execute()


            def renew(name, token):
                key = f"lock:{name}"
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    if pipe.get(key) != token:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.set(key, token, ex=30)
                    pipe.execute()
                    return True


            def reset(name):
                r.delete(f"count:{name}")
                r.delete(f"lock:{name}")
        """
        ),
        # `add` of two values outside a lock class, and a one-value `add` in one: no claims.
        Valid(
            """\
            class RequestLog:
                # No lock: `add` of two values on a plain collection object.

                def __init__(self, store):
                    self.store = store
                    self.key = "requests"

                def record(self, who, when):
                    self.store.add(who, when)

                def forget(self):
                    self.store.delete(self.key)


            class LockRegistry:
                # Named for locks, but its `add` takes one value: a set of names.

                def __init__(self):
                    self.names = set()

                def acquire(self, name):
                    self.names.add(name)

                def release(self, name):
                    self.names.discard(name)
        """
        ),
        # A name bound to two keys in turn: which one a read sees is not told, and nothing pairs.
        Valid(
            """\
            import redis

            r = redis.Redis()

            name = "report:a"
            r.set(name, "busy", nx=True, ex=300)
            name = "report:b"
            r.set(name, "busy", nx=True, ex=300)
            r.delete("report:a")
        """
        ),
        Valid(
            """\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/report-locks")


            def build_report(name, render):
                key = f"report-lock:{name}"
                token = secrets.token_hex(16)
                if not cache.add(key, token, expire=120):
                    return False
                try:
                    render(name)
                finally:
                    with cache.transact():
                        if cache.get(key) == token:
                            cache.delete(key)
                return True
        """
        ),
        Valid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def rotate(account, rotate_keys):
                key = f"lock:rotate:{account}"
                token = secrets.token_hex(16)
                if mc.add(key, token, time=60):
                    try:
                        rotate_keys(account)
                    finally:
                        stored, cas_id = mc.gets(key)
                        if stored == token:
                            mc.delete(key, cas=cas_id)
        """
        ),
        Valid(
            """\
            from diskcache import Cache

            cache = Cache("/tmp/memo")


            def cached_price(sku, fetch):
                # memoisation: an entry added once, dropped when the price changes
                cache.add(f"price:{sku}", fetch(sku), expire=300)
                return cache.get(f"price:{sku}")


            def price_changed(sku):
                cache.delete(f"price:{sku}")
        """
        ),
        Valid(
            """\
            import secrets

            import etcd

            client = etcd.Client(host="127.0.0.1", port=2379)


            def run_backup(name, backup):
                key = f"/locks/backup/{name}"
                token = secrets.token_hex(16)
                try:
                    client.write(key, token, prevExist=False, ttl=60)
                except etcd.EtcdAlreadyExist:
                    return False
                try:
                    backup(name)
                finally:
                    try:
                        client.delete(key, prevValue=token)
                    except etcd.EtcdCompareFailed:
                        log_lost(key)
                return True
        """
        ),
        Valid(
            """\
            import uuid

            from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient, Script

            RELEASE = Script("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end")


            class TaskGuard:
                def __init__(self, client: GlideClient, name):
                    self.client = client
                    self.key = f"task-lock:{name}"

                async def run(self, task):
                    token = uuid.uuid4().hex
                    held = await self.client.set(
                        self.key, token, ConditionalChange.ONLY_IF_DOES_NOT_EXIST, ExpirySet(ExpiryType.MILLSEC, 30_000)
                    )
                    if held is None:
                        return False
                    try:
                        await task()
                    finally:
                        if not await self.client.invoke_script(RELEASE, keys=[self.key], args=[token]):
                            report_lost(self.key)
                    return True
        """
        ),
        Valid(
            """\
            from glide import ExpirySet, ExpiryType, GlideClient


            async def remember_session(client: GlideClient, sid, data):
                await client.set(f"session:{sid}", data, expiry=ExpirySet(ExpiryType.SEC, 3600))


            async def logout(client: GlideClient, sid):
                await client.delete([f"session:{sid}"])
        """
        ),
        Valid(
            """\
            import secrets

            from app.storage import Store


            def export(store: Store, name, write):
                key = f"export-lock:{name}"
                token = secrets.token_hex(16)
                if not store.add(key, token, expire=600):
                    return False
                try:
                    write(name)
                finally:
                    store.delete(key)
                return True
        """
        ),
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()
            RELEASE_FIELD = (
                "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
            )


            def import_file(path, parse):
                token = secrets.token_hex(16)
                if not r.hsetnx("import:lock", path, token):
                    return False
                r.hpexpire("import:lock", 300_000, path)
                try:
                    parse(path)
                finally:
                    if not r.eval(RELEASE_FIELD, 1, "import:lock", path, token):
                        report_lost(path)
                return True
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def first_seen(event_id, now):
                # a field written once, never released: a record, not a lease
                r.hsetnx(f"event:{event_id}", "first_seen", now)
                r.hincrby(f"event:{event_id}", "count", 1)


            def forget(event_id):
                r.delete(f"event:{event_id}")
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def reserve_username(name, user_id):
                # a registry entry; dropping it on rollback is no lease release
                return r.hsetnx("usernames", name, user_id)


            def cancel(name):
                r.hdel("usernames", name)
        """
        ),
        Valid(
            """\
            import secrets

            from app.registry import Registry


            def registry():
                return Registry.default()


            def run_nightly(job):
                store = registry()
                token = secrets.token_hex(16)
                if store.add(f"lock:{job}", token, expire=900):
                    try:
                        job()
                    finally:
                        store.delete(f"lock:{job}")
        """
        ),
        Valid(
            """\
            import secrets
            import time

            import boto3

            ddb = boto3.client("dynamodb")


            def run_partition(partition, process, lease_s=60):
                owner = secrets.token_hex(16)
                now = int(time.time())
                try:
                    ddb.update_item(
                        TableName="leases",
                        Key={"pk": {"S": partition}},
                        UpdateExpression="SET lease_owner = :o, lease_until = :u",
                        ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                        ExpressionAttributeValues={
                            ":o": {"S": owner},
                            ":u": {"N": str(now + lease_s)},
                            ":now": {"N": str(now)},
                        },
                    )
                except ddb.exceptions.ConditionalCheckFailedException:
                    return False
                try:
                    process(partition)
                finally:
                    ddb.delete_item(
                        TableName="leases",
                        Key={"pk": {"S": partition}},
                        ConditionExpression="lease_owner = :o",
                        ExpressionAttributeValues={":o": {"S": owner}},
                    )
                return True
        """
        ),
        Valid(
            """\
            import boto3

            table = boto3.resource("dynamodb").Table("counters")


            def bump(name, expected):
                # optimistic concurrency on a version: no lease
                table.update_item(
                    Key={"name": name},
                    UpdateExpression="SET version = :next",
                    ConditionExpression="version = :expected",
                    ExpressionAttributeValues={":next": expected + 1, ":expected": expected},
                )


            def drop(name):
                table.delete_item(Key={"name": name})
        """
        ),
        Valid(
            """\
            from pymongo import MongoClient

            orders = MongoClient().shop.orders


            def place(order_id, items):
                orders.insert({"_id": order_id, "items": items, "state": "new"})


            def cancel(order_id):
                orders.remove({"_id": order_id})
        """
        ),
        Valid(
            """\
            from django.db import models


            class Order(models.Model):
                name = models.CharField(max_length=200, unique=True)
                owner = models.CharField(max_length=64)


            def place(name, customer):
                Order.objects.create(name=name, owner=customer)


            def cancel(name):
                Order.objects.filter(name=name).delete()
        """
        ),
        Valid(
            """\
            import secrets
            from datetime import timedelta

            from django.db import IntegrityError, models
            from django.utils import timezone


            class JobLock(models.Model):
                name = models.CharField(max_length=200, unique=True)
                owner = models.CharField(max_length=64)
                expires_at = models.DateTimeField()


            def run_exclusive(name, job, ttl=timedelta(minutes=5)):
                token = secrets.token_hex(16)
                # an expired row is taken over on purpose
                JobLock.objects.filter(name=name, expires_at__lt=timezone.now()).delete()
                try:
                    JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
                except IntegrityError:
                    return False
                try:
                    job()
                finally:
                    deleted, _ = JobLock.objects.filter(name=name, owner=token).delete()
                    if not deleted:
                        log_lost(name)
                return True
        """
        ),
        Valid(
            """\
            import secrets

            import coredis
            from coredis.tokens import PureToken

            client = coredis.Redis(host="localhost", port=6379)
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


            async def rebuild(index, run):
                key = f"lock:rebuild:{index}"
                token = secrets.token_hex(16)
                if not await client.set(key, token, condition=PureToken.NX, px=60_000):
                    return False
                try:
                    await run(index)
                finally:
                    if not await client.eval(RELEASE, keys=[key], args=[token]):
                        report_lost(key)
                return True
        """
        ),
        Valid(
            """\
            from pymongo import MongoClient

            sessions = MongoClient().web.sessions


            def save(session_id, data):
                # an upsert of a record: nothing is claimed
                sessions.update_one({"_id": session_id}, {"$set": {"data": data}}, upsert=True)


            def drop(session_id):
                sessions.delete_one({"_id": session_id})
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def seed_defaults(settings):
                # defaults written once; nothing holds them
                r.msetnx({"settings:theme": settings["theme"], "settings:lang": settings["lang"]})


            def reset():
                r.delete("settings:theme", "settings:lang")
        """
        ),
        Valid(
            """\
            import uuid

            from etcd3 import Client

            client = Client(host="127.0.0.1", port=2379)


            def with_lock(name, job, ttl=30):
                key = f"/locks/{name}"
                token = uuid.uuid4().hex
                lease = client.Lease(ttl)
                lease.grant()
                if not client.Txn().If(client.Txn.key(key).version == 0).Then(client.Txn.put(key, token, lease=lease.ID)).commit().succeeded:
                    return False
                try:
                    job()
                finally:
                    txn = client.Txn()
                    txn.If(txn.key(key).value == token)
                    txn.Then(txn.delete(key))
                    if not txn.commit().succeeded:
                        report_lost(key)
                return True
        """
        ),
        Valid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if mc.add(key, token, 30):
                    try:
                        job()
                    finally:
                        stored, cas = mc.gets(key)
                        if stored == token:
                            mc.delete(key, cas)
        """
        ),
        Valid(
            """\
            import secrets


            class Registry:
                def __init__(self):
                    self.names = set()


            class JobLock:
                def __init__(self, name):
                    self.registry = Registry()
                    self.key = f"lock:{name}"

                def run(self, job):
                    token = secrets.token_hex(16)
                    if self.registry.names.add((self.key, token)):
                        try:
                            job()
                        finally:
                            self.registry.names.discard((self.key, token))
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

                def attempt():
                    return r.set(key, token, nx=True, ex=30)

                if not retry(attempt, times=3):
                    return False
                try:
                    work(job)
                finally:
                    r.delete(key)
                return True
        """,
            line=17,
            column=9,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def run(job, token):
                key = f"lock:{job}"

                def attempt():
                    return r.set(key, token, nx=True, ex=30)

                if not retry(attempt, times=3):
                    return False
                try:
                    work(job)
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

            r = redis.Redis()


            def run(job):
                key = f"lock:{job}"

                def attempt():
                    return r.set(key, "1", nx=True, ex=30)

                if not retry(attempt, times=3):
                    return False
                try:
                    work(job)
                finally:
                    r.delete(key)
                return True
        """,
            line=17,
            column=9,
            message_contains='(no automatic fix: the claim in the nested function stores no token the release can see',
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run_batch(names, token):
                claimed = []
                for name in names:
                    if r.set(f"lock:{name}", token, nx=True, ex=60):
                        claimed.append(name)
                try:
                    process(claimed)
                finally:
                    keys = [f"lock:{name}" for name in claimed]
                    if keys:
                        r.delete(*keys)
        """,
            line=16,
            column=13,
            message_contains='(no automatic fix: the call deletes other keys too',
        ),
        Invalid(
            """\
            import redis


            class Leader:
                CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])"

                def __init__(self, client, group, me):
                    self.client = client
                    self.key = f"leader:{group}"
                    self.me = me
                    self._claim = client.register_script(self.CLAIM)

                def lead(self, token):
                    if not self._claim(keys=[self.key], args=[token, 15]):
                        return False
                    try:
                        serve(self.me)
                    finally:
                        self.client.delete(self.key)
                    return True
        """,
            line=19,
            column=13,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class Leader:
                CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])"

                def __init__(self, client, group, me):
                    self.client = client
                    self.key = f"leader:{group}"
                    self.me = me
                    self._claim = client.register_script(self.CLAIM)

                def lead(self, token):
                    if not self._claim(keys=[self.key], args=[token, 15]):
                        return False
                    try:
                        serve(self.me)
                    finally:
                        if not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
                    return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == 'LOCKED' then return redis.call('del', KEYS[1]) end return 0"
            unlock = r.register_script(UNLOCK)


            def run(job):
                key = f"lock:{job}"
                if not r.set(key, "LOCKED", nx=True, ex=60):
                    return False
                try:
                    work(job)
                finally:
                    unlock(keys=[key])
                return True
        """,
            line=15,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()
            UNLOCK = "if redis.call('get', KEYS[1]) == 'LOCKED' then return redis.call('del', KEYS[1]) end return 0"
            unlock = r.register_script(UNLOCK)


            def run(job):
                key = f"lock:{job}"
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=60):
                    return False
                try:
                    work(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            from pymemcache.client.base import Client


            class CacheLock:
                def __init__(self, name):
                    self.client = Client(("127.0.0.1", 11211), default_noreply=False)
                    self.key = f"lock:{name}"

                def acquire(self):
                    return self.client.add(self.key, "1", expire=30)

                def release(self):
                    self.client.delete(self.key)
        """,
            line=13,
            column=9,
            fixed="""\
            import logging
            import secrets

            from pymemcache.client.base import Client


            class CacheLock:
                _lease_token = None

                def __init__(self, name):
                    self.client = Client(("127.0.0.1", 11211), default_noreply=False)
                    self.key = f"lock:{name}"

                def acquire(self):
                    token = secrets.token_hex(16)
                    claimed = self.client.add(self.key, token, expire=30)
                    if claimed:
                        self._lease_token = token
                    return claimed

                def release(self):
                    if self._lease_token is not None:
                        stored, cas_id = self.client.gets(self.key)
                        if stored not in (self._lease_token, self._lease_token.encode() if isinstance(self._lease_token, str) else self._lease_token) or not self.client.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name):
                return r.set(f"take:{name}", "1", nx=True, ex=60)


            def release_lock(name):
                r.delete(f"take:{name}")


            def rebuild(name):
                if not acquire_lock(name):
                    return False
                try:
                    work(name)
                finally:
                    release_lock(name)
                return True
        """,
            line=11,
            column=5,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def acquire_lock(name):
                token = secrets.token_hex(16)
                return token if r.set(f"take:{name}", token, nx=True, ex=60) else None


            def release_lock(name, token):
                if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"take:{name}", token):
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"take:{name}")


            def rebuild(name):
                token = acquire_lock(name)
                if not token:
                    return False
                try:
                    work(name)
                finally:
                    release_lock(name, token=token)
                return True
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name):
                return r.set(f"take:{name}", "1", nx=True, ex=60)


            def release_lock(name):
                r.delete(f"take:{name}")


            def try_lock(name):
                return acquire_lock(name)


            def rebuild(name):
                ok = try_lock(name)
                release_lock(name)
                return ok
        """,
            line=11,
            column=5,
            message_contains="the call of `release_lock` at line 20 has no single call of `acquire_lock` beside it",
        ),
        Invalid(
            """\
            import secrets


            class Sweeper:
                def __init__(self, connection):
                    self.connection = connection
                    self.holding = False

                def start(self):
                    self.token = secrets.token_hex(16)
                    self.holding = self.connection.set("sweeper:lock", self.token, ex=60, nx=True)
                    return self.holding

                def stop(self):
                    if self.holding:
                        self.connection.delete("sweeper:lock")
                        self.holding = False
        """,
            line=16,
            column=13,
            fixed="""\
            import logging
            import secrets

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class Sweeper:
                _lease_token = None

                def __init__(self, connection):
                    self.connection = connection
                    self.holding = False

                def start(self):
                    self.token = secrets.token_hex(16)
                    self.holding = self.connection.set("sweeper:lock", self.token, ex=60, nx=True)
                    if self.holding:
                        self._lease_token = self.token
                    return self.holding

                def stop(self):
                    if self.holding:
                        if self._lease_token is not None and not self.connection.eval(LEASE_RELEASE_SCRIPT, 1, "sweeper:lock", self._lease_token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "sweeper:lock")
                        self.holding = False
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import time

            import redis


            class StampLock:
                def __init__(self, client, name, timeout=10):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.timeout = timeout
                    self.until = 0.0

                def acquire(self):
                    until = time.time() + self.timeout
                    if self.client.setnx(self.key, until):
                        self.until = until
                        return True
                    seen = self.client.get(self.key)
                    if seen is not None and float(seen) < time.time():
                        previous = self.client.getset(self.key, until)
                        if previous is not None and float(previous) < time.time():
                            self.until = until
                            return True
                    return False

                def release(self):
                    if time.time() < self.until:
                        self.client.delete(self.key)
        """,
            line=28,
            column=13,
            message_contains="(no automatic fix: line 18 reads the stored value back and parses it with float()",
        ),
        Invalid(
            """\
            import redis


            class NamedLock:
                def __init__(self, client, name, owner):
                    self.client = client
                    self.key = f"lock:{name}"
                    self.owner = owner

                def acquire(self):
                    return bool(self.client.set(self.key, self.owner, nx=True, ex=60))

                def mine(self):
                    return self.client.get(self.key) == self.owner

                def release(self):
                    self.client.delete(self.key)
        """,
            line=17,
            column=9,
            message_contains="(no automatic fix: line 14 reads the stored value back and compares it",
        ),
        # A MongoDB finding speaks of MongoDB: no other store's command in its message.
        Invalid(
            """\
            import secrets

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().app.locks


            def run(job):
                token = secrets.token_hex(16)
                try:
                    locks.insert_one({"_id": job, "owner": token, "expires_at": deadline()})
                except DuplicateKeyError:
                    return False
                work(job)
                held = locks.find_one_and_delete({"_id": job})
                return held is not None
        """,
            line=16,
            message_contains="(no automatic fix: the code uses the value the release returned)",
        ),
        # django-redis's cache object: a Django cache, whatever its methods look like; no redis-py fix.
        Invalid(
            """\
            import secrets

            from django.core.cache import cache


            def run(job):
                token = secrets.token_hex(16)
                if cache.set(f"lock:{job}", token, timeout=30, nx=True):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
        """,
            line=12,
            message_contains="the cache API has no compare-and-delete",
        ),
        # A test that claims and releases in itself holds a lease like any other code.
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def test_report_runs_once():
                token = secrets.token_hex(16)
                if r.set("lock:report", token, nx=True, ex=10):
                    try:
                        run_report()
                    finally:
                        r.delete("lock:report")
        """,
            line=14,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def test_report_runs_once():
                token = secrets.token_hex(16)
                if r.set("lock:report", token, nx=True, ex=10):
                    try:
                        run_report()
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, "lock:report", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "lock:report")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import logging
            import secrets

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if not r.set(f"lock:{job}", token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    r.delete(f"lock:{job}")
        """,
            line=17,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if not r.set(f"lock:{job}", token, nx=True, ex=30):
                    return
                try:
                    work(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                        log.warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis


            class JobLock:
                def __init__(self, client: redis.Redis, name: str):
                    self.redis = client
                    self.key = "lock:%s" % name

                def acquire(self):
                    return self.redis.set(self.key, "1", nx=True, ex=10)

                def release(self):
                    self.redis.delete(self.key)
        """,
            line=13,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class JobLock:
                _lease_token = None

                def __init__(self, client: redis.Redis, name: str):
                    self.redis = client
                    self.key = "lock:%s" % name

                def acquire(self):
                    token = secrets.token_hex(16)
                    claimed = self.redis.set(self.key, token, nx=True, ex=10)
                    if claimed:
                        self._lease_token = token
                    return claimed

                def release(self):
                    if self._lease_token is not None and not self.redis.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import secrets

            import redis


            class JobLock:
                def __init__(self, client, name):
                    self.client = client
                    self.name = name

                def __enter__(self):
                    self.token = secrets.token_hex(16)
                    if not self.client.set(f"lock:{self.name}", self.token, nx=True, px=5000):
                        raise RuntimeError("busy")
                    return self

                def __exit__(self, *exc):
                    self.client.delete("lock:{}".format(self.name))
        """,
            line=18,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class JobLock:
                _lease_token = None

                def __init__(self, client, name):
                    self.client = client
                    self.name = name

                def __enter__(self):
                    self.token = secrets.token_hex(16)
                    if not self.client.set(f"lock:{self.name}", self.token, nx=True, px=5000):
                        raise RuntimeError("busy")
                    self._lease_token = self.token
                    return self

                def __exit__(self, *exc):
                    if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, "lock:{}".format(self.name), self._lease_token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "lock:{}".format(self.name))
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis.asyncio as aioredis

            r = aioredis.Redis()


            async def refresh(feed):
                key = f"refresh:{feed}"
                if not await r.set(key, "busy", nx=True, px=30_000):
                    return
                try:
                    await fetch(feed)
                finally:
                    await r.delete(key)
        """,
            line=13,
            column=15,
            fixed="""\
            import logging
            import secrets

            import redis.asyncio as aioredis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = aioredis.Redis()


            async def refresh(feed):
                key = f"refresh:{feed}"
                token = secrets.token_hex(16)
                if not await r.set(key, token, nx=True, px=30_000):
                    return
                try:
                    await fetch(feed)
                finally:
                    if not await r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire_lock(name):
                return r.set("%s_lock" % name, "1", nx=True, ex=60)


            def release_lock(name):
                r.delete(f"{name}_lock")
        """,
            line=11,
            column=5,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def acquire_lock(name):
                token = secrets.token_hex(16)
                return token if r.set("%s_lock" % name, token, nx=True, ex=60) else None


            def release_lock(name, token):
                if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"{name}_lock", token):
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"{name}_lock")
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def settle(account, token):
                key = "settle:" + account
                if r.execute_command("SET", key, token, "NX", "PX", 10_000):
                    try:
                        post(account)
                    finally:
                        pipe = r.pipeline()
                        pipe.delete(key)
                        pipe.incr("settled")
                        pipe.execute()
        """,
            line=13,
            column=13,
            fixed="""\
            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def settle(account, token):
                key = "settle:" + account
                if r.execute_command("SET", key, token, "NX", "PX", 10_000):
                    try:
                        post(account)
                    finally:
                        pipe = r.pipeline()
                        pipe.eval(LEASE_RELEASE_SCRIPT, 1, key, token)
                        pipe.incr("settled")
                        pipe.execute()
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def job(name):
                key = f"lock:{name}"
                while not r.setnx(key, "locked"):
                    sleep(0.1)
                try:
                    work()
                finally:
                    return r.unlink(key)
        """,
            line=13,
            column=16,
            fixed="""\
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def job(name):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                while not r.setnx(key, token):
                    sleep(0.1)
                try:
                    work()
                finally:
                    return r.eval(LEASE_RELEASE_SCRIPT, 1, key, token)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            def run(client, job):
                token = make_token()
                if client.set(f"lock:{job}", token, nx=True, ex=30):
                    try: work()
                    finally: client.delete(f"lock:{job}")
        """,
            line=5,
            column=18,
            fixed="""\
            import logging

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            def run(client, job):
                token = make_token()
                if client.set(f"lock:{job}", token, nx=True, ex=30):
                    try: work()
                    finally: client.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token) or logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            "Task bookkeeping."
            from redis import Redis

            client = Redis()


            class Task:
                def _lock_key(self, task_id):
                    return f"task:{task_id}:lock"

                def start(self, task_id):
                    return client.set(self._lock_key(task_id), "1", nx=True, ex=300)

                def finish(self, task_id):
                    client.delete(self._lock_key(task_id), f"task:{task_id}:progress")
        """,
            line=15,
            column=9,
            message_contains='the call deletes other keys too',
        ),
        Invalid(
            """\
            import aioredis


            async def run(job):
                redis = await aioredis.create_redis_pool("redis://localhost")
                key = f"lock:{job}"
                if await redis.set(key, "1", expire=30, exist=redis.SET_IF_NOT_EXIST):
                    try:
                        await work()
                    finally:
                        await redis.delete(key)
        """,
            line=11,
            column=19,
            fixed="""\
            import logging
            import secrets

            import aioredis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            async def run(job):
                redis = await aioredis.create_redis_pool("redis://localhost")
                key = f"lock:{job}"
                token = secrets.token_hex(16)
                if await redis.set(key, token, expire=30, exist=redis.SET_IF_NOT_EXIST):
                    try:
                        await work()
                    finally:
                        if not await redis.eval(LEASE_RELEASE_SCRIPT, keys=[key], args=[token]):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            from django.core.cache import cache


            def run(job, token):
                if cache.add(f"lock:{job}", token, 60):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
        """,
            line=9,
            column=13,
            message_contains='the cache API has no compare-and-delete',
        ),
        Invalid(
            """\
            from flask_caching import Cache

            cache = Cache()


            def run(job, token):
                if cache.add(f"lock:{job}", token, timeout=60):
                    try:
                        work(job)
                    finally:
                        cache.delete(f"lock:{job}")
        """,
            line=11,
            column=13,
            message_contains='the cache API has no compare-and-delete',
        ),
        Invalid(
            """\
            import secrets

            from pymemcache.client.base import Client

            mc = Client(("localhost", 11211), default_noreply=False)


            def run(job):
                token = secrets.token_hex(16)
                if mc.add(f"lock:{job}", token, expire=30):
                    try:
                        work(job)
                    finally:
                        mc.delete(f"lock:{job}")
        """,
            line=14,
            column=13,
            fixed="""\
            import logging
            import secrets

            from pymemcache.client.base import Client

            mc = Client(("localhost", 11211), default_noreply=False)


            def run(job):
                token = secrets.token_hex(16)
                if mc.add(f"lock:{job}", token, expire=30):
                    try:
                        work(job)
                    finally:
                        stored, cas_id = mc.gets(f"lock:{job}")
                        if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.cas(f"lock:{job}", b"", cas_id, expire=-1, noreply=False):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import memcache

            mc = memcache.Client(["127.0.0.1:11211"], cache_cas=True)


            def run(job, token):
                if mc.add(f"lock:{job}", token, time=30):
                    try:
                        work(job)
                    finally:
                        mc.delete(f"lock:{job}")
        """,
            line=11,
            column=13,
            fixed="""\
            import logging

            import memcache

            mc = memcache.Client(["127.0.0.1:11211"], cache_cas=True)


            def run(job, token):
                if mc.add(f"lock:{job}", token, time=30):
                    try:
                        work(job)
                    finally:
                        stored = mc.gets(f"lock:{job}")
                        if stored != token or not mc.cas(f"lock:{job}", "", time=-1):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import memcache

            mc = memcache.Client(["127.0.0.1:11211"])


            def run(job, token):
                if mc.add(f"lock:{job}", token, time=30):
                    try:
                        work(job)
                    finally:
                        mc.delete(f"lock:{job}")
        """,
            line=11,
            column=13,
            message_contains="python-memcached's cas() is a plain set unless the client is made with cache_cas=True)",
        ),
        Invalid(
            """\
            import aiomcache

            mc = aiomcache.Client("127.0.0.1", 11211)


            async def run(job, token):
                key = f"lock:{job}".encode()
                if await mc.add(key, token, exptime=30):
                    try:
                        await work(job)
                    finally:
                        await mc.delete(key)
        """,
            line=12,
            column=19,
            fixed="""\
            import logging

            import aiomcache

            mc = aiomcache.Client("127.0.0.1", 11211)


            async def run(job, token):
                key = f"lock:{job}".encode()
                if await mc.add(key, token, exptime=30):
                    try:
                        await work(job)
                    finally:
                        stored, cas_id = await mc.gets(key)
                        # exptime=2592001 is an absolute time in the past: the item expires at once
                        if stored not in (token, token.encode() if isinstance(token, str) else token) or not await mc.cas(key, b"", cas_id, exptime=2592001):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import boto3

            dynamodb = boto3.client("dynamodb")


            def run(job, token, now):
                try:
                    dynamodb.put_item(
                        TableName="locks",
                        Item={"pk": {"S": job}, "owner": {"S": token}, "expires_at": {"N": str(now + 30)}},
                        ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
                        ExpressionAttributeValues={":now": {"N": str(now)}},
                    )
                except dynamodb.exceptions.ConditionalCheckFailedException:
                    return
                work(job)
                dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}})
        """,
            line=17,
            column=5,
            fixed="""\
            import logging

            import boto3

            dynamodb = boto3.client("dynamodb")


            def run(job, token, now):
                try:
                    dynamodb.put_item(
                        TableName="locks",
                        Item={"pk": {"S": job}, "owner": {"S": token}, "expires_at": {"N": str(now + 30)}},
                        ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
                        ExpressionAttributeValues={":now": {"N": str(now)}},
                    )
                except dynamodb.exceptions.ConditionalCheckFailedException:
                    return
                work(job)
                try:
                    dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}}, ConditionExpression="#owner = :token", ExpressionAttributeNames={"#owner": "owner"}, ExpressionAttributeValues={":token": {"S": token}})
                except dynamodb.exceptions.ConditionalCheckFailedException:
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", job)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token, now):
                table.put_item(
                    Item={"pk": job, "owner": token, "expires_at": now + 30},
                    ConditionExpression=Attr("pk").not_exists() | Attr("expires_at").lt(now),
                )
                work(job)
                table.delete_item(Key={"pk": job})
        """,
            line=13,
            column=5,
            fixed="""\
            import logging

            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token, now):
                table.put_item(
                    Item={"pk": job, "owner": token, "expires_at": now + 30},
                    ConditionExpression=Attr("pk").not_exists() | Attr("expires_at").lt(now),
                )
                work(job)
                try:
                    table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
                except table.meta.client.exceptions.ConditionalCheckFailedException:
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", job)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            from pymongo import MongoClient

            locks = MongoClient().app.locks


            def run(job, token, now):
                locks.insert_one({"_id": job, "owner": token, "expires_at": now})
                try:
                    work(job)
                finally:
                    locks.delete_one({"_id": job})
        """,
            line=11,
            column=9,
            fixed="""\
            import logging

            from pymongo import MongoClient

            locks = MongoClient().app.locks


            def run(job, token, now):
                locks.insert_one({"_id": job, "owner": token, "expires_at": now})
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


            def run(job, token, lease):
                key = f"/locks/{job}"
                ok, _ = etcd.transaction(
                    compare=[etcd.transactions.create(key) == 0],
                    success=[etcd.transactions.put(key, token, lease)],
                    failure=[],
                )
                if ok:
                    work(job)
                    etcd.delete(key)
        """,
            line=15,
            column=9,
            fixed="""\
            import logging

            import etcd3

            etcd = etcd3.client()


            def run(job, token, lease):
                key = f"/locks/{job}"
                ok, _ = etcd.transaction(
                    compare=[etcd.transactions.create(key) == 0],
                    success=[etcd.transactions.put(key, token, lease)],
                    failure=[],
                )
                if ok:
                    work(job)
                    if not etcd.transaction(compare=[etcd.transactions.value(key) == token], success=[etcd.transactions.delete(key)], failure=[])[0]:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token):
                key = f"lock:{job}"
                if not r.set(key, token, nx=True, ex=30):
                    r.delete(key)
                    return False
                work(job)
                return True
        """,
            line=9,
            column=9,
            fixed="""\
            import redis

            r = redis.Redis()


            def run(job, token):
                key = f"lock:{job}"
                if not r.set(key, token, nx=True, ex=30):
                    return False
                work(job)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            def acquire_lock(conn, lockname, identifier):
                if conn.setnx("lock:" + lockname, identifier):
                    conn.expire("lock:" + lockname, 10)
                    return identifier
                return False


            def release_lock(conn, lockname):
                lockname = "lock:" + lockname
                conn.delete(lockname)
        """,
            line=10,
            column=5,
            fixed="""\
            import logging

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            def acquire_lock(conn, lockname, identifier):
                if conn.setnx("lock:" + lockname, identifier):
                    conn.expire("lock:" + lockname, 10)
                    return identifier
                return None


            def release_lock(conn, lockname, token):
                lockname = "lock:" + lockname
                if token is not None and not conn.eval(LEASE_RELEASE_SCRIPT, 1, lockname, token):
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", lockname)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == '1' then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    return r.eval(RELEASE, 1, f"lock:{job}")
        """,
            line=10,
            column=16,
            fixed="""\
            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == '1' then return redis.call('del', KEYS[1]) end return 0"


            def run(job, token):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    work(job)
                    return r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token, now):
                table.put_item(
                    Item={"lock_id": job, "owner": token, "expires_at": now + 30},
                    ConditionExpression=Attr("lock_id").not_exists() | Attr("expires_at").lt(now),
                )
                work(job)
                table.delete_item(Key={"lock_id": job}, ConditionExpression=Attr("lock_id").eq(job))
        """,
            line=13,
            column=5,
            fixed="""\
            import logging

            import boto3
            from boto3.dynamodb.conditions import Attr

            table = boto3.resource("dynamodb").Table("locks")


            def run(job, token, now):
                table.put_item(
                    Item={"lock_id": job, "owner": token, "expires_at": now + 30},
                    ConditionExpression=Attr("lock_id").not_exists() | Attr("expires_at").lt(now),
                )
                work(job)
                try:
                    table.delete_item(Key={"lock_id": job}, ConditionExpression=Attr("owner").eq(token))
                except table.meta.client.exceptions.ConditionalCheckFailedException:
                    logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", job)
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job):
                lock = r.lock(f"lock:{job}", timeout=30)
                if lock.acquire(blocking=False):
                    try:
                        work(job)
                    finally:
                        r.delete(f"lock:{job}")
        """,
            line=12,
            column=13,
            message_contains='`delete` deletes the key of lock `f"lock',
        ),
        # After `if <claim>: return`, the code runs only when the claim failed: the key is another
        # worker's, and a compare with this attempt's token could never match.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key):
                if r.set(key, "1", nx=True, ex=30):
                    return True
                r.delete(key)
                return False
        """,
            line=9,
            column=5,
            message_contains="runs after the claim failed: the key is another worker's claim, and this frees it "
            "(no automatic fix: the delete follows the claim's early exit",
        ),
        # A stale-claim recovery: the delete clears a key left without a lifetime (SETNX then EXPIRE).
        # Removing it would leave such a key for ever; it goes once the claim sets its lifetime.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key):
                if r.setnx(key, "1"):
                    r.expire(key, 30)
                    return True
                else:
                    if r.ttl(key) == -1:
                        r.delete(key)
                return False
        """,
            line=12,
            column=13,
            message_contains="(no automatic fix: the delete clears a claim left without a lifetime",
        ),
        # The key is written again after the claim: a checked release would compare with "busy" and
        # never free the key (which has lost its lifetime too).
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def build_thumbnail(name):
                if r.set(name, "lock", nx=True, px=35000):
                    r.set(name, "busy")
                    try:
                        render(name)
                    finally:
                        r.delete(name)
        """,
            line=12,
            column=13,
            message_contains="(no automatic fix: line 8 writes the key again after the claim",
        ),
        # The same fresh token written again (a renewal with XX) keeps the release's compare true.
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def run(job):
                token = secrets.token_hex(16)
                if r.set(f"lock:{job}", token, nx=True, px=30000):
                    try:
                        step(job)
                        r.set(f"lock:{job}", token, xx=True, px=30000)
                        step(job)
                    finally:
                        r.delete(f"lock:{job}")
        """,
            line=16,
            column=13,
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
                if r.set(f"lock:{job}", token, nx=True, px=30000):
                    try:
                        step(job)
                        r.set(f"lock:{job}", token, xx=True, px=30000)
                        step(job)
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        # Not after a failed claim: an earlier `if` whose body ends in a loop (no early exit); an
        # early exit on the name before the claim binds it; a claim again between the exit and the release.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(key, token, verbose):
                if verbose:
                    for line in ("start", key):
                        print(line)
                if not r.set(key, token, nx=True, ex=30):
                    return
                try:
                    work()
                finally:
                    r.delete(key)
        """,
            line=15,
            column=9,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def run(key, token, verbose):
                if verbose:
                    for line in ("start", key):
                        print(line)
                if not r.set(key, token, nx=True, ex=30):
                    return
                try:
                    work()
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            message_contains="releases lease `key` without checking the holder",
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def sync(key, token):
                done = already_synced(key)
                if done:
                    return
                done = r.set(key, token, nx=True, ex=30)
                if not done:
                    return
                try:
                    work(key)
                finally:
                    r.delete(key)
        """,
            line=16,
            column=9,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def sync(key, token):
                done = already_synced(key)
                if done:
                    return
                done = r.set(key, token, nx=True, ex=30)
                if not done:
                    return
                try:
                    work(key)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
        """,
            message_contains="releases lease `key` without checking the holder",
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import time

            import redis

            r = redis.Redis()


            def run_once(key, token):
                if r.set(key, token, nx=True, ex=30):
                    return "queued"
                for _ in range(3):
                    time.sleep(1)
                    if r.set(key, token, nx=True, ex=30):
                        try:
                            return work(key)
                        finally:
                            r.delete(key)
                return None
        """,
            line=17,
            column=17,
            fixed="""\
            import logging
            import time

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()


            def run_once(key, token):
                if r.set(key, token, nx=True, ex=30):
                    return "queued"
                for _ in range(3):
                    time.sleep(1)
                    if r.set(key, token, nx=True, ex=30):
                        try:
                            return work(key)
                        finally:
                            if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return None
        """,
            message_contains="releases lease `key` without checking the holder",
            applicability=Applicability.SAFE,
        ),
        # A method named like a store method that claims and releases its own key is a lease, not a wrapper.
        Invalid(
            """\
            import redis


            class Documents:
                def __init__(self, db):
                    self.db = db
                    self.r = redis.Redis()

                def delete(self, doc_id, token):
                    if not self.r.set(f"deleting:{doc_id}", token, nx=True, ex=60):
                        raise RuntimeError("busy")
                    try:
                        self.db.remove(doc_id)
                    finally:
                        self.r.delete(f"deleting:{doc_id}")
        """,
            line=15,
            column=13,
            fixed="""\
            import logging

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class Documents:
                def __init__(self, db):
                    self.db = db
                    self.r = redis.Redis()

                def delete(self, doc_id, token):
                    if not self.r.set(f"deleting:{doc_id}", token, nx=True, ex=60):
                        raise RuntimeError("busy")
                    try:
                        self.db.remove(doc_id)
                    finally:
                        if not self.r.eval(LEASE_RELEASE_SCRIPT, 1, f"deleting:{doc_id}", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"deleting:{doc_id}")
        """,
            applicability=Applicability.SAFE,
        ),
        # The stale-claim recovery in an `elif`: kept (no fix removes it).
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def acquire(key):
                if r.setnx(key, "1"):
                    r.expire(key, 30)
                    return True
                elif r.ttl(key) == -1:
                    r.delete(key)
                return False
        """,
            line=11,
            column=9,
            message_contains="(no automatic fix: the delete clears a claim left without a lifetime",
        ),
        # Another method of the class writes the key (a heartbeat storing progress): the token is gone.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            class Job:
                def __init__(self, name):
                    self.key = f"lock:{name}"

                def start(self):
                    return r.set(self.key, "1", nx=True, ex=60)

                def heartbeat(self, progress):
                    r.set(self.key, progress, xx=True, ex=60)

                def finish(self):
                    r.delete(self.key)
        """,
            line=17,
            column=9,
            message_contains="(no automatic fix: line 14 writes the key again after the claim",
        ),
        # The module's logger name is a parameter here too: the report goes through logging itself.
        Invalid(
            """\
            import logging

            import redis

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job, token, log=None):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job, log)
                    finally:
                        r.delete(f"lock:{job}")
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

            log = logging.getLogger(__name__)
            r = redis.Redis()


            def run(job, token, log=None):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job, log)
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        # `secrets` names a local here: a fix calling `secrets.token_hex` would call the dict.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def rotate_keys(tenant):
                secrets = load_secrets(tenant)
                if not r.set(f"lock:rotate:{tenant}", "1", nx=True, ex=300):
                    return
                try:
                    rotate(secrets)
                finally:
                    r.delete(f"lock:rotate:{tenant}")
        """,
            line=13,
            column=9,
            message_contains="the name `secrets` is bound to something else in this module",
        ),
        # A parameter named `logging`, and no logger to report a lost lease with.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def run(job, token, logging=True):
                if r.set(f"lock:{job}", token, nx=True, ex=30):
                    try:
                        work(job, logging)
                    finally:
                        r.delete(f"lock:{job}")
        """,
            line=11,
            column=13,
            message_contains="the name `logging` is bound to something else in this module",
        ),
        # A WATCH/MULTI transaction that finds the key absent and writes it is a claim too.
        Invalid(
            """\
            import redis
            from redis.exceptions import WatchError

            r = redis.Redis()


            def reserve(order_id, token):
                key = f"reserve:{order_id}"
                with r.pipeline() as pipe:
                    while True:
                        try:
                            pipe.watch(key)
                            if pipe.exists(key):
                                pipe.unwatch()
                                return False
                            pipe.multi()
                            pipe.set(key, token, ex=120)
                            pipe.lpush("reservations", order_id)
                            pipe.execute()
                            return True
                        except WatchError:
                            continue


            def finish(order_id):
                r.delete(f"reserve:{order_id}")
        """,
            line=26,
            column=5,
            message_contains="(no automatic fix: the claim is a WATCH/MULTI transaction",
        ),
        Invalid(
            """\
            import secrets

            from redis.asyncio import Redis

            redis = Redis()


            async def take(name):
                token = secrets.token_hex(16)
                key = "lease:" + name
                async with redis.pipeline(transaction=True) as pipe:
                    await pipe.watch(key)
                    current = await pipe.get(key)
                    if current is not None:
                        return None
                    pipe.multi()
                    pipe.setex(key, 30, token)
                    await pipe.execute()
                return token


            async def drop(name):
                await redis.delete("lease:" + name)
        """,
            line=23,
            column=11,
        ),
        # A document claim that stores nothing beside its key, in a class: no token to keep or compare.
        Invalid(
            """\
            import pymongo
            from pymongo.errors import DuplicateKeyError


            class ImportLock:
                def __init__(self, url):
                    self.locks = pymongo.MongoClient(url).jobs.locks

                def acquire(self):
                    try:
                        self.locks.insert_one({"_id": "import"})
                    except DuplicateKeyError:
                        return False
                    return True

                def release(self):
                    self.locks.delete_one({"_id": "import"})
        """,
            line=17,
            column=9,
            message_contains="(no automatic fix: the claim stores no value beside its key",
        ),
        # The stored value is also the object's deadline: the held token goes in an attribute of its own.
        Invalid(
            """\
            import time

            import redis


            class ExpiringLock:
                def __init__(self, client: redis.Redis, name, ttl_ms=10000):
                    self.client = client
                    self.name = name
                    self.ttl_ms = ttl_ms
                    self.deadline = time.time() * 1000 + ttl_ms

                def acquire(self):
                    return bool(self.client.set(self.name, self.deadline, px=self.ttl_ms, nx=True))

                def release(self):
                    if time.time() * 1000 < self.deadline:
                        self.client.delete(self.name)
        """,
            line=18,
            column=13,
            fixed="""\
            import logging
            import secrets
            import time

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )


            class ExpiringLock:
                _lease_token = None

                def __init__(self, client: redis.Redis, name, ttl_ms=10000):
                    self.client = client
                    self.name = name
                    self.ttl_ms = ttl_ms
                    self.deadline = time.time() * 1000 + ttl_ms

                def acquire(self):
                    token = f"{self.deadline}:{secrets.token_hex(8)}"
                    claimed = bool(self.client.set(self.name, token, px=self.ttl_ms, nx=True))
                    if claimed:
                        self._lease_token = token
                    return claimed

                def release(self):
                    if time.time() * 1000 < self.deadline:
                        if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.name, self._lease_token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.name)
        """,
            applicability=Applicability.UNSAFE,
        ),
        # A claim and release pair the module exports: callers elsewhere would pass no token.
        Invalid(
            """\
            import redis

            r = redis.Redis()

            __all__ = ["acquire_lock", "release_lock"]


            def acquire_lock(name):
                return bool(r.set(f"lock:{name}", "1", nx=True, ex=60))


            def release_lock(name):
                r.delete(f"lock:{name}")
        """,
            line=13,
            column=5,
            message_contains="(no automatic fix: `acquire_lock` is in the module's `__all__`",
        ),
        # The pair is also reached through a table: a call there would get no token.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def _acquire_lock(key):
                return bool(r.set(key, "1", nx=True, ex=60))


            def _release_lock(key):
                r.delete(key)


            HANDLERS = {"take": _acquire_lock, "give": _release_lock}
        """,
            line=11,
            column=5,
            message_contains='(no automatic fix: `_acquire_lock` is used at line 14 other than by a call',
        ),
        # A lock class on a cache client the module never shows: its `add(key, value, ttl)` claims.
        Invalid(
            """\
            import time


            class CacheMutex:
                # A mutex on any cache client with add/delete (memcached, a framework cache).

                def __init__(self, get_client, name, expire=60):
                    self.get_client = get_client
                    self.key = f"mutex:{name}"
                    self.expire = expire

                def acquire(self, wait=True):
                    while True:
                        if self.get_client().add(self.key, "held", self.expire):
                            return True
                        if not wait:
                            return False
                        time.sleep(0.2)

                def release(self):
                    self.get_client().delete(self.key)
        """,
            line=21,
            column=9,
            message_contains="(no automatic fix: the cache API has no compare-and-delete",
        ),
        # A module-level name bound twice to the same text holds that key wherever it is read.
        Invalid(
            """\
            import redis

            r = redis.Redis()

            LOCK = "nightly-report"


            def run():
                if r.set(LOCK, "busy", nx=True, ex=300):
                    try:
                        build_report()
                    finally:
                        r.delete("nightly-report")


            # The name once more, as a second section of the module binds it.
            LOCK = "nightly-report"
        """,
            line=13,
            column=13,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_RELEASE_SCRIPT = (
                "if redis.call('get', KEYS[1]) == ARGV[1] then "
                "return redis.call('del', KEYS[1]) else return 0 end"
            )

            r = redis.Redis()

            LOCK = "nightly-report"


            def run():
                token = secrets.token_hex(16)
                if r.set(LOCK, token, nx=True, ex=300):
                    try:
                        build_report()
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, "nightly-report", token):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "nightly-report")


            # The name once more, as a second section of the module binds it.
            LOCK = "nightly-report"
        """,
            applicability=Applicability.UNSAFE,
        ),
        # `delete(*keys)` of a list grown with `+=`: each item is a key it deletes.
        Invalid(
            """\
            import redis

            r = redis.Redis()


            def finish(job, token, keep_result):
                lock = f"running:{job}"
                if not r.set(lock, token, nx=True, ex=300):
                    return
                run(job)
                stale = []
                stale += [lock]
                if not keep_result:
                    stale += [f"result:{job}"]
                r.delete(*stale)
        """,
            line=15,
            column=5,
            message_contains="(no automatic fix: the call deletes other keys too",
        ),
        Invalid(
            """\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/report-locks")


            def build_report(name, render):
                key = f"report-lock:{name}"
                token = secrets.token_hex(16)
                if not cache.add(key, token, expire=120):
                    return False
                try:
                    render(name)
                finally:
                    cache.delete(key)
                return True
        """,
            line=16,
            column=9,
            fixed="""\
            import logging
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/report-locks")


            def build_report(name, render):
                key = f"report-lock:{name}"
                token = secrets.token_hex(16)
                if not cache.add(key, token, expire=120):
                    return False
                try:
                    render(name)
                finally:
                    with cache.transact():
                        if cache.get(key) != token or not cache.delete(key):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def rotate(account, rotate_keys):
                key = f"lock:rotate:{account}"
                token = secrets.token_hex(16)
                if mc.add(key, token, time=60):
                    try:
                        rotate_keys(account)
                    finally:
                        mc.delete(key)
        """,
            line=15,
            column=13,
            fixed="""\
            import logging
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def rotate(account, rotate_keys):
                key = f"lock:rotate:{account}"
                token = secrets.token_hex(16)
                if mc.add(key, token, time=60):
                    try:
                        rotate_keys(account)
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

            import pylibmc

            mc = pylibmc.Client(["127.0.0.1"], binary=True)


            class MemcacheMutex:
                def __init__(self, name, ttl=30):
                    self.key = "mutex:" + name
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if mc.add(self.key, token, self.ttl):
                        self.token = token
                        return True
                    return False

                def release(self):
                    mc.delete(self.key)
        """,
            line=22,
            column=9,
            message_contains='future), catching `pylibmc.NotFound` for a key already gone)',
        ),
        Invalid(
            """\
            import secrets

            import etcd

            client = etcd.Client(host="127.0.0.1", port=2379)


            def run_backup(name, backup):
                key = f"/locks/backup/{name}"
                token = secrets.token_hex(16)
                try:
                    client.write(key, token, prevExist=False, ttl=60)
                except etcd.EtcdAlreadyExist:
                    return False
                try:
                    backup(name)
                finally:
                    client.delete(key)
                return True
        """,
            line=18,
            column=9,
            fixed="""\
            import logging
            import secrets

            import etcd

            client = etcd.Client(host="127.0.0.1", port=2379)


            def run_backup(name, backup):
                key = f"/locks/backup/{name}"
                token = secrets.token_hex(16)
                try:
                    client.write(key, token, prevExist=False, ttl=60)
                except etcd.EtcdAlreadyExist:
                    return False
                try:
                    backup(name)
                finally:
                    try:
                        client.delete(key, prevValue=token)
                    except etcd.EtcdCompareFailed:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            from etcd import Client, EtcdAlreadyExist


            class EtcdLock:
                def __init__(self, name, ttl=30):
                    self.client = Client(host="etcd.internal", port=2379)
                    self.key = "/locks/" + name
                    self.ttl = ttl
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    try:
                        self.client.write(self.key, token, prevExist=False, ttl=self.ttl)
                    except EtcdAlreadyExist:
                        return False
                    self.token = token
                    return True

                def release(self):
                    self.client.delete(self.key)
        """,
            line=23,
            column=9,
            message_contains='the release raises EtcdKeyNotFound when nothing holds the key',
        ),
        Invalid(
            """\
            import uuid

            from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient


            class TaskGuard:
                def __init__(self, client: GlideClient, name):
                    self.client = client
                    self.key = f"task-lock:{name}"

                async def run(self, task):
                    token = uuid.uuid4().hex
                    held = await self.client.set(
                        self.key, token, ConditionalChange.ONLY_IF_DOES_NOT_EXIST, ExpirySet(ExpiryType.MILLSEC, 30_000)
                    )
                    if held is None:
                        return False
                    try:
                        await task()
                    finally:
                        await self.client.delete([self.key])
                    return True
        """,
            line=21,
            column=19,
            message_contains='ipt` with `invoke_script(script, keys=[key], args=[token])`)',
        ),
        Invalid(
            """\
            import secrets
            from typing import Optional

            import diskcache


            def export(store: Optional[diskcache.Cache], name, write):
                key = f"export-lock:{name}"
                token = secrets.token_hex(16)
                if not store.add(key, token, expire=600):
                    return False
                try:
                    write(name)
                finally:
                    store.delete(key)
                return True
        """,
            line=15,
            column=9,
            fixed="""\
            import logging
            import secrets
            from typing import Optional

            import diskcache


            def export(store: Optional[diskcache.Cache], name, write):
                key = f"export-lock:{name}"
                token = secrets.token_hex(16)
                if not store.add(key, token, expire=600):
                    return False
                try:
                    write(name)
                finally:
                    with store.transact():
                        if store.get(key) != token or not store.delete(key):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def import_file(path, parse):
                token = secrets.token_hex(16)
                if not r.hsetnx("import:lock", path, token):
                    return False
                r.expire("import:lock", 300)
                try:
                    parse(path)
                finally:
                    r.hdel("import:lock", path)
                return True
        """,
            line=16,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_HDEL_SCRIPT = (
                "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
            )

            r = redis.Redis()


            def import_file(path, parse):
                token = secrets.token_hex(16)
                if not r.hsetnx("import:lock", path, token):
                    return False
                r.expire("import:lock", 300)
                try:
                    parse(path)
                finally:
                    if not r.eval(LEASE_HDEL_SCRIPT, 1, "import:lock", path, token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "import:lock")
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import redis

            r = redis.Redis()
            LOCKS = "worker:locks"


            class TaskLock:
                def __init__(self, name):
                    self.field = f"lock.{name}"

                def __enter__(self):
                    if not r.hsetnx(LOCKS, self.field, "1"):
                        raise RuntimeError(f"{self.field} is running")
                    return self

                def __exit__(self, *exc):
                    r.hdel(LOCKS, self.field)
        """,
            line=17,
            column=9,
            fixed="""\
            import logging
            import secrets

            import redis

            LEASE_HDEL_SCRIPT = (
                "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
            )

            r = redis.Redis()
            LOCKS = "worker:locks"


            class TaskLock:
                _lease_token = None

                def __init__(self, name):
                    self.field = f"lock.{name}"

                def __enter__(self):
                    token = secrets.token_hex(16)
                    if not r.hsetnx(LOCKS, self.field, token):
                        raise RuntimeError(f"{self.field} is running")
                    self._lease_token = token
                    return self

                def __exit__(self, *exc):
                    if self._lease_token is not None and not r.eval(LEASE_HDEL_SCRIPT, 1, LOCKS, self.field, self._lease_token):
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", LOCKS)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import functools
            import os
            import secrets

            import diskcache


            @functools.lru_cache(maxsize=None)
            def shared_cache() -> diskcache.Cache:
                return diskcache.Cache(os.environ.get("APP_CACHE_DIR", "/tmp/app-cache"))


            def run_nightly(job):
                store = shared_cache()
                token = secrets.token_hex(16)
                if store.add(f"lock:{job}", token, expire=900):
                    try:
                        job()
                    finally:
                        store.delete(f"lock:{job}")
        """,
            line=20,
            column=13,
            fixed="""\
            import functools
            import logging
            import os
            import secrets

            import diskcache


            @functools.lru_cache(maxsize=None)
            def shared_cache() -> diskcache.Cache:
                return diskcache.Cache(os.environ.get("APP_CACHE_DIR", "/tmp/app-cache"))


            def run_nightly(job):
                store = shared_cache()
                token = secrets.token_hex(16)
                if store.add(f"lock:{job}", token, expire=900):
                    try:
                        job()
                    finally:
                        with store.transact():
                            if store.get(f"lock:{job}") != token or not store.delete(f"lock:{job}"):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", f"lock:{job}")
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import bmemcached


            class ReportLock:
                def __init__(self, name):
                    self.key = f"report-lock:{name}"

                def _mc(self):
                    return bmemcached.Client(["127.0.0.1:11211"])

                def run(self, build):
                    token = secrets.token_hex(16)
                    if not self._mc().add(self.key, token, time=300):
                        return False
                    try:
                        build()
                    finally:
                        self._mc().delete(self.key)
                    return True
        """,
            line=20,
            column=13,
            fixed="""\
            import logging
            import secrets

            import bmemcached


            class ReportLock:
                def __init__(self, name):
                    self.key = f"report-lock:{name}"

                def _mc(self):
                    return bmemcached.Client(["127.0.0.1:11211"])

                def run(self, build):
                    token = secrets.token_hex(16)
                    if not self._mc().add(self.key, token, time=300):
                        return False
                    try:
                        build()
                    finally:
                        stored, cas_id = self._mc().gets(self.key)
                        if stored not in (token, token.encode() if isinstance(token, str) else token) or not self._mc().delete(self.key, cas=cas_id):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
                    return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets
            import time

            import boto3

            ddb = boto3.client("dynamodb")


            def run_partition(partition, process, lease_s=60):
                owner = secrets.token_hex(16)
                now = int(time.time())
                try:
                    ddb.update_item(
                        TableName="leases",
                        Key={"pk": {"S": partition}},
                        UpdateExpression="SET lease_owner = :o, lease_until = :u",
                        ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                        ExpressionAttributeValues={
                            ":o": {"S": owner},
                            ":u": {"N": str(now + lease_s)},
                            ":now": {"N": str(now)},
                        },
                    )
                except ddb.exceptions.ConditionalCheckFailedException:
                    return False
                try:
                    process(partition)
                finally:
                    ddb.delete_item(TableName="leases", Key={"pk": {"S": partition}})
                return True
        """,
            line=29,
            column=9,
            fixed="""\
            import logging
            import secrets
            import time

            import boto3

            ddb = boto3.client("dynamodb")


            def run_partition(partition, process, lease_s=60):
                owner = secrets.token_hex(16)
                now = int(time.time())
                try:
                    ddb.update_item(
                        TableName="leases",
                        Key={"pk": {"S": partition}},
                        UpdateExpression="SET lease_owner = :o, lease_until = :u",
                        ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                        ExpressionAttributeValues={
                            ":o": {"S": owner},
                            ":u": {"N": str(now + lease_s)},
                            ":now": {"N": str(now)},
                        },
                    )
                except ddb.exceptions.ConditionalCheckFailedException:
                    return False
                try:
                    process(partition)
                finally:
                    try:
                        ddb.delete_item(TableName="leases", Key={"pk": {"S": partition}}, ConditionExpression="#owner = :token", ExpressionAttributeNames={"#owner": "lease_owner"}, ExpressionAttributeValues={":token": {"S": owner}})
                    except ddb.exceptions.ConditionalCheckFailedException:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", partition)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import datetime

            import pymongo


            class MongoLocks:
                def __init__(self, uri):
                    self.locks = pymongo.MongoClient(uri).jobs.locks

                def acquire_lock(self, name, timeout):
                    now = datetime.datetime.utcnow()
                    try:
                        self.locks.find_and_modify(
                            {"_id": "lock:" + name, "expires": {"$lt": now}},
                            {"_id": "lock:" + name, "expires": now + datetime.timedelta(seconds=timeout)},
                            upsert=True,
                        )
                    except pymongo.errors.OperationFailure:
                        return False
                    return True

                def release_lock(self, name):
                    self.locks.remove({"_id": "lock:" + name})
        """,
            line=23,
            column=9,
            message_contains='urn a fresh token from the claim and pass it to the release)',
        ),
        Invalid(
            """\
            import socket

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().app.locks


            def run_exclusive(name, job):
                try:
                    locks.insert({"_id": "lock:" + name, "owner": socket.gethostname()})
                except DuplicateKeyError:
                    return False
                try:
                    job()
                finally:
                    locks.remove({"_id": "lock:" + name})
                return True
        """,
            line=17,
            column=9,
            fixed="""\
            import logging
            import secrets
            import socket

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().app.locks


            def run_exclusive(name, job):
                try:
                    token = secrets.token_hex(16)
                    locks.insert({"_id": "lock:" + name, "owner": token})
                except DuplicateKeyError:
                    return False
                try:
                    job()
                finally:
                    if locks.remove({"_id": "lock:" + name, "owner": token})["n"] == 0:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", "lock:" + name)
                return True
        """,
            applicability=Applicability.UNSAFE,
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


            def run_exclusive(name, job, ttl=timedelta(minutes=5)):
                token = secrets.token_hex(16)
                try:
                    JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
                except IntegrityError:
                    return False
                try:
                    job()
                finally:
                    JobLock.objects.filter(name=name).delete()
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


            def run_exclusive(name, job, ttl=timedelta(minutes=5)):
                token = secrets.token_hex(16)
                try:
                    JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
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
            import secrets

            import coredis
            from coredis.tokens import PureToken

            client = coredis.Redis(host="localhost", port=6379)


            async def rebuild(index, run):
                key = f"lock:rebuild:{index}"
                token = secrets.token_hex(16)
                if not await client.set(key, token, condition=PureToken.NX, px=60_000):
                    return False
                try:
                    await run(index)
                finally:
                    await client.delete([key])
                return True
        """,
            line=17,
            column=15,
            message_contains='e (`eval(script, keys=[...], args=[...])`, `delete([key])`))',
        ),
        Invalid(
            """\
            import socket

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().ops.locks


            def run_once(name, now, job):
                try:
                    locks.update_one(
                        {"_id": name, "expires": {"$lt": now}},
                        {"$set": {"owner": socket.gethostname(), "expires": now + 60}},
                        upsert=True,
                    )
                except DuplicateKeyError:
                    return False
                try:
                    job()
                finally:
                    locks.delete_one({"_id": name})
                return True
        """,
            line=21,
            column=9,
            fixed="""\
            import logging
            import secrets
            import socket

            from pymongo import MongoClient
            from pymongo.errors import DuplicateKeyError

            locks = MongoClient().ops.locks


            def run_once(name, now, job):
                try:
                    token = secrets.token_hex(16)
                    locks.update_one(
                        {"_id": name, "expires": {"$lt": now}},
                        {"$set": {"owner": token, "expires": now + 60}},
                        upsert=True,
                    )
                except DuplicateKeyError:
                    return False
                try:
                    job()
                finally:
                    if locks.delete_one({"_id": name, "owner": token}).deleted_count == 0:
                        logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", name)
                return True
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def reserve_days(room, days, book):
                token = secrets.token_hex(16)
                if not r.msetnx({f"reservation:{room}": token}):
                    return False
                try:
                    book(room, days)
                finally:
                    r.delete(f"reservation:{room}")
                return True
        """,
            line=15,
            column=9,
            message_contains='.)`, or all in one Lua script that sets their lifetimes too)',
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
            line=23,
            column=9,
            message_contains='can follow it (assign it, return it, or test it in an `if`))',
        ),
        Invalid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["a:11211", "b:11211"])


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if mc.add(key, token, 30):
                    try:
                        job()
                    finally:
                        mc.delete(key, cas=0)
        """,
            line=15,
            column=13,
            message_contains='ive it one server, or release with a token check per server)',
        ),
        Invalid(
            """\
            import secrets

            import diskcache


            class Lock:
                def __init__(self, key):
                    self.cache = diskcache.Cache("/tmp/x")
                    self.key = key
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.cache.add(self.key, token, expire=30, retry=True):
                        self.token = token
                        return True
                    return False

                def release(self):
                    self.cache.delete(self.key, retry=True)
        """,
            line=20,
            column=9,
            fixed="""\
            import logging
            import secrets

            import diskcache


            class Lock:
                _lease_token = None

                def __init__(self, key):
                    self.cache = diskcache.Cache("/tmp/x")
                    self.key = key
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.cache.add(self.key, token, expire=30, retry=True):
                        self._lease_token = token
                        self.token = token
                        return True
                    return False

                def release(self):
                    if self._lease_token is not None:
                        with self.cache.transact(retry=True):
                            if self.cache.get(self.key, retry=True) != self._lease_token or not self.cache.delete(self.key, retry=True):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import secrets

            from pymemcache.client.base import Client


            class Backend:
                def __init__(self, servers):
                    self.mc = Client(servers, default_noreply=False)


            class JobLock:
                def __init__(self, backend: Backend, name):
                    self.backend = backend
                    self.key = f"lock:{name}"
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.backend.mc.add(self.key, token, expire=30):
                        self.token = token
                        return True
                    return False

                def release(self):
                    self.backend.mc.delete(self.key)
        """,
            line=25,
            column=9,
            fixed="""\
            import logging
            import secrets

            from pymemcache.client.base import Client


            class Backend:
                def __init__(self, servers):
                    self.mc = Client(servers, default_noreply=False)


            class JobLock:
                _lease_token = None

                def __init__(self, backend: Backend, name):
                    self.backend = backend
                    self.key = f"lock:{name}"
                    self.token = None

                def acquire(self):
                    token = secrets.token_hex(16)
                    if self.backend.mc.add(self.key, token, expire=30):
                        self._lease_token = token
                        self.token = token
                        return True
                    return False

                def release(self):
                    if self._lease_token is not None:
                        stored, cas_id = self.backend.mc.gets(self.key)
                        if stored not in (self._lease_token, self._lease_token.encode() if isinstance(self._lease_token, str) else self._lease_token) or not self.backend.mc.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                            logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.UNSAFE,
        ),
        Invalid(
            """\
            import secrets

            from pymemcache.client.base import Client


            class Backend:
                def __init__(self, servers):
                    self.mc = Client(servers, default_noreply=False)


            class JobLock:
                def __init__(self, name):
                    self.backend = Backend(["127.0.0.1:11211"])
                    self.key = f"lock:{name}"

                def run(self, job):
                    token = secrets.token_hex(16)
                    if self.backend.mc.add(self.key, token, expire=30):
                        try:
                            job()
                        finally:
                            self.backend.mc.delete(self.key)
        """,
            line=22,
            column=17,
            fixed="""\
            import logging
            import secrets

            from pymemcache.client.base import Client


            class Backend:
                def __init__(self, servers):
                    self.mc = Client(servers, default_noreply=False)


            class JobLock:
                def __init__(self, name):
                    self.backend = Backend(["127.0.0.1:11211"])
                    self.key = f"lock:{name}"

                def run(self, job):
                    token = secrets.token_hex(16)
                    if self.backend.mc.add(self.key, token, expire=30):
                        try:
                            job()
                        finally:
                            stored, cas_id = self.backend.mc.gets(self.key)
                            if stored not in (token, token.encode() if isinstance(token, str) else token) or not self.backend.mc.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.key)
        """,
            applicability=Applicability.SAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        for lease in context.model.leases:
            for release in lease.releases:
                if release.checked or release.deliberate or release.transactional or release.check:
                    continue
                if release.reported_home and release.after_failed_claim is None:
                    continue  # the helper's own module reports its delete
                if release.after_failed_claim is not None:
                    message = (
                        f"`{release.method}` of `{key_text(release)}` runs after the claim failed: "
                        "the key is another worker's claim, and this frees it"
                    )
                else:
                    message = (
                        f"`{release.method}` releases lease `{key_text(release)}` without checking the holder: "
                        "after its deadline it frees another worker's claim"
                    )
                try:
                    if release.after_failed_claim is not None:
                        fix = context.fixer.drop_release(release)
                    else:
                        fix = context.fixer.checked_release(lease, release)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(release, message, fix)
        for release in context.model.lock_key_deletes:
            yield self.at_event(
                release,
                f"`{release.method}` deletes the key of lock `{key_text(release)}` without checking the holder: "
                "release through the lock object (`lock.release()`), which checks its token",
            )



from __future__ import annotations

from typing import Iterator

from leaselint.diagnostics import Applicability, Diagnostic
from leaselint.rewrite import NoFix
from leaselint.rule import Context, Invalid, Rule, Valid


class CheckThenClaim(Rule):
    """
    ## What it does
    Reports a lease claimed by reading and then writing: a read of the key
    (`get`, `exists`, Django's `cache.get` or `cache.has_key`, Flask-Caching's
    `cache.has`) whose `if` lets a plain `set`/`setex`/`psetex` (`cache.set`)
    of the same key run only when the key was absent, outside a WATCH/MULTI
    transaction. It is a lease when the key is also released (a delete in the
    same lease's life) and the value written is one a claim stores (a
    constant, a token, a clock), not a computed result: a cache filled on a
    miss is not reported, nor a default put in place when missing (a branch
    that holds only the write). For speed, files are looked at for this shape
    only when they name a lock somewhere (`lock` in any case: a key, a
    function, a class).

    ## Why is this bad?
    The read and the write are two steps, and another worker can run between
    them:

    1. Workers A and B both run `r.exists("lock:job")`: both find it absent.
    2. A writes `lock:job` and starts the job.
    3. B writes `lock:job` too (over A's value) and starts the same job.

    Both think they hold the lease; A's release then frees B's claim.

    ## Example
    ```python
    if r.exists(key):
        return False
    r.set(key, token, ex=600)
    ```

    ## Use instead
    ```python
    if not r.set(key, token, nx=True, ex=600):
        return False
    ```

    ## Fix safety
    The fix writes the store's conditional create with the write's own
    arguments: `set(..., nx=True)` (`setex`/`psetex` become `set(..., nx=True,
    ex=/px=)`) on Redis, `cache.add(...)` on Django's cache and
    Flask-Caching. A write inside `if <absent>:` moves into the test; a write
    after `if <present>: return` is wrapped in `if not <claim>:` with the same
    early exit (the read stays as a fast path). **Safe** when the read asks
    presence itself (`exists`, `has_key`, a compare with None); **unsafe** when
    it tests the truth of the stored value (`if not r.get(key)`), which also
    took a stored `""` or `0` as free. There is no fix when code runs in the
    branch before the write, or the write passes other options (`xx`,
    `keepttl`).
    """

    code = "LL009"
    name = "check-then-claim"
    fix_availability = "sometimes"

    VALID = [
        # A cache filled on a miss: the value written is what it computed.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def profile(user):
                key = f"profile:{user}"
                value = r.get(key)
                if value is None:
                    value = render(user)
                    r.set(key, value, ex=300)
                return value


            def forget(user):
                r.delete(f"profile:{user}")
        """
        ),
        # WATCH, the read, MULTI, then the write: the transaction fails if the key changed.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def enqueue(query, job_id):
                key = f"query-lock:{query}"
                with r.pipeline() as pipe:
                    pipe.watch(key)
                    if pipe.get(key) is None:
                        pipe.multi()
                        pipe.set(key, job_id, ex=600)
                        pipe.execute()
                        return True
                return False


            def done(query):
                r.delete(f"query-lock:{query}")
        """
        ),
        # The read is a fast path; the claim itself is the conditional create.
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def single(name):
                key = f"single:{name}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                if not r.set(key, token, nx=True, ex=30):
                    return False
                try:
                    work(name)
                finally:
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """
        ),
        # A login lockout: the read gates, and the key is written under a count of its own.
        Valid(
            """\
            from django.core.cache import cache


            def login(phone, attempts):
                lock_key = f"otp:lock:{phone}"
                if cache.get(lock_key):
                    return 429
                if attempts >= 5:
                    cache.set(lock_key, 1, 900)
                return 200


            def unlock(phone):
                cache.delete(f"otp:lock:{phone}")
        """
        ),
        # A cache filled on a miss and cleared by hand: the value is the computed result.
        Valid(
            """\
            import redis

            r = redis.Redis()


            class Reports:
                def render(self, day):
                    key = f"report:{day}"
                    if not r.exists(key):
                        r.set(key, build_report(day), ex=3600)
                    return r.get(key)

                def invalidate(self, day):
                    r.delete(f"report:{day}")
        """
        ),
        # A test that reads, then writes its own key.
        Valid(
            """\
            import redis

            r = redis.Redis()


            def test_lock_roundtrip():
                if r.get("lock:t") is None:
                    r.set("lock:t", "me", ex=5)
                assert r.get("lock:t") == b"me"
                r.delete("lock:t")
        """
        ),
        # A default put in place when missing: nothing runs while the key is "held".
        Valid(
            """\
            import redis

            r = redis.Redis()


            def warm(name):
                key = f"cache:{name}"
                if r.get(key) is None:
                    r.set(key, "placeholder", ex=60)
                if stale(name):
                    r.delete(key)
        """
        ),
        # nx given by position: already the conditional create.
        Valid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def once(job):
                key = f"once:{job}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                if not r.set(key, token, 30, None, True):
                    return False
                try:
                    job()
                finally:
                    r.delete(key)
                return True
        """
        ),
        Valid(
            """\
            import redis

            r = redis.Redis()


            def page(url, render):
                key = "page:" + url
                if r.exists(key):
                    return r.get(key)
                else:
                    body = render(url)
                    r.set(key, body, ex=60)
                    return body
        """
        ),
    ]

    INVALID = [
        # The read, then an early exit, then the plain write.
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def index_site(site):
                key = f"crawl:{site}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                r.set(key, token, ex=600)
                try:
                    crawl(site)
                finally:
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=13,
            column=5,
            fixed="""\
            import secrets

            import redis

            r = redis.Redis()


            def index_site(site):
                key = f"crawl:{site}:lock"
                if r.exists(key):
                    return False
                token = secrets.token_hex(16)
                if not r.set(key, token, ex=600, nx=True):
                    return False
                try:
                    crawl(site)
                finally:
                    r.eval(RELEASE, 1, key, token)
                return True


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `key` is claimed by reading it (`exists`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        # Django's cache: the write inside the branch that found no holder.
        Invalid(
            """\
            import uuid

            from django.core.cache import cache


            class CronLock:
                def __init__(self, name, timeout=3600):
                    self.key = f"cron-lock:{name}"
                    self.timeout = timeout

                def lock(self):
                    if cache.get(self.key) is None:
                        cache.set(self.key, uuid.uuid4().hex, self.timeout)
                        return True
                    return False

                def release(self):
                    cache.delete(self.key)
        """,
            line=13,
            column=13,
            fixed="""\
            import uuid

            from django.core.cache import cache


            class CronLock:
                def __init__(self, name, timeout=3600):
                    self.key = f"cron-lock:{name}"
                    self.timeout = timeout

                def lock(self):
                    if cache.add(self.key, uuid.uuid4().hex, self.timeout):
                        return True
                    return False

                def release(self):
                    cache.delete(self.key)
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `self.key` is claimed by reading it (`get`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        # setex, and the truth of the stored value as the test (unsafe: a stored "" counted as free).
        Invalid(
            """\
            from redis import Redis

            conn = Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


            def raise_or_lock(key, token, expires=60):
                if conn.get(key):
                    raise RuntimeError(f"{key} is already queued")
                conn.setex(key, expires, token)


            def clear_lock(key, token):
                return conn.eval(RELEASE, 1, key, token)
        """,
            line=10,
            column=5,
            fixed="""\
            from redis import Redis

            conn = Redis()
            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


            def raise_or_lock(key, token, expires=60):
                if conn.get(key):
                    raise RuntimeError(f"{key} is already queued")
                if not conn.set(key, token, nx=True, ex=expires):
                    raise RuntimeError(f"{key} is already queued")


            def clear_lock(key, token):
                return conn.eval(RELEASE, 1, key, token)
        """,
            applicability=Applicability.UNSAFE,
            message_contains='Lease `key` is claimed by reading it (`get`) and then writing it (`setex`): two workers can both find it free and both claim it',
        ),
        # Asyncio client, the write inside the branch, `exists` as the test.
        Invalid(
            """\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def refresh_feed(feed):
                key = f"feed:{feed}:lock"
                token = secrets.token_hex(16)
                if not await r.exists(key):
                    await r.set(key, token, px=20000)
                    try:
                        await pull(feed)
                    finally:
                        await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=12,
            column=15,
            fixed="""\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def refresh_feed(feed):
                key = f"feed:{feed}:lock"
                token = secrets.token_hex(16)
                if await r.set(key, token, px=20000, nx=True):
                    try:
                        await pull(feed)
                    finally:
                        await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `key` is claimed by reading it (`exists`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        # Flask-Caching: `has`, then `set`; the branch runs code before the write, so no fix.
        Invalid(
            """\
            from flask_caching import Cache

            cache = Cache()


            def send_digest(user):
                key = f"digest-lock:{user}"
                if not cache.has(key):
                    log_start(user)
                    cache.set(key, "sending", timeout=300)
                    try:
                        send(user)
                    finally:
                        cache.delete(key)
        """,
            line=10,
            column=9,
            message_contains='no automatic fix: the branch runs code before the write',
        ),
        # A lock-shaped read of the stored value's truth (`if not r.get(key)`): unsafe, a stored "" counted as free.
        Invalid(
            """\
            import uuid

            import redis

            client = redis.Redis()


            def run_once(job):
                key = f"once:{job}:lock"
                if not client.get(key):
                    client.set(key, str(uuid.uuid4()), ex=120)
                    try:
                        job()
                    finally:
                        client.delete(key)
        """,
            line=11,
            column=9,
            fixed="""\
            import uuid

            import redis

            client = redis.Redis()


            def run_once(job):
                key = f"once:{job}:lock"
                if client.set(key, str(uuid.uuid4()), ex=120, nx=True):
                    try:
                        job()
                    finally:
                        client.delete(key)
        """,
            applicability=Applicability.UNSAFE,
            message_contains='Lease `key` is claimed by reading it (`get`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        # An awaited read compared with None, on an asyncio client.
        Invalid(
            """\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def rotate_keys(tenant):
                key = f"rotate:{tenant}:lock"
                token = secrets.token_hex(16)
                if await r.get(key) is None:
                    await r.set(key, token, ex=120)
                    try:
                        await rotate(tenant)
                    finally:
                        await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            line=12,
            column=15,
            fixed="""\
            import secrets

            import redis.asyncio as redis

            r = redis.Redis()


            async def rotate_keys(tenant):
                key = f"rotate:{tenant}:lock"
                token = secrets.token_hex(16)
                if await r.set(key, token, ex=120, nx=True):
                    try:
                        await rotate(tenant)
                    finally:
                        await r.eval(RELEASE, 1, key, token)


            RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
        """,
            applicability=Applicability.SAFE,
            message_contains='Lease `key` is claimed by reading it (`get`) and then writing it (`set`): two workers can both find it free and both claim it',
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def refresh_catalog(shop, rebuild):
                key = f"lock:catalog:{shop}"
                if r.exists(key):
                    print("catalog rebuild already running")
                    return False
                else:
                    token = secrets.token_hex(16)
                    r.set(key, token, ex=600)
                    try:
                        rebuild(shop)
                    finally:
                        r.delete(key)
                    return True
        """,
            line=15,
            column=9,
            message_contains='ove the write first, then claim with the conditional create)',
        ),
        Invalid(
            """\
            import secrets
            import time

            import redis

            r = redis.Redis()


            def exclusive(name, job):
                key = "lock:" + name
                while r.exists(key):
                    time.sleep(0.5)
                token = secrets.token_hex(16)
                r.set(key, token, ex=60)
                try:
                    job()
                finally:
                    r.delete(key)
        """,
            line=14,
            column=5,
            message_contains='til the key is gone: loop on the conditional create instead)',
        ),
        Invalid(
            """\
            import secrets

            import redis

            r = redis.Redis()


            def refresh_catalog(shop, rebuild):
                key = f"lock:catalog:{shop}"
                if r.exists(key):
                    return False
                else:
                    r.set(key, secrets.token_hex(16), ex=600)
                    try:
                        rebuild(shop)
                    finally:
                        r.delete(key)
                    return True
        """,
            line=13,
            column=9,
            fixed="""\
            import secrets

            import redis

            r = redis.Redis()


            def refresh_catalog(shop, rebuild):
                key = f"lock:catalog:{shop}"
                if not r.set(key, secrets.token_hex(16), ex=600, nx=True):
                    return False
                else:
                    try:
                        rebuild(shop)
                    finally:
                        r.delete(key)
                    return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/x")


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if cache.get(key) is not None:
                    return False
                cache.set(key, token, expire=30)
                try:
                    job()
                finally:
                    cache.delete(key)
                return True
        """,
            line=13,
            column=5,
            fixed="""\
            import secrets

            import diskcache

            cache = diskcache.Cache("/tmp/x")


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if cache.get(key) is not None:
                    return False
                if not cache.add(key, token, expire=30):
                    return False
                try:
                    job()
                finally:
                    cache.delete(key)
                return True
        """,
            applicability=Applicability.SAFE,
        ),
        Invalid(
            """\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if mc.get(key) is None:
                    mc.set(key, token, 30)
                    job()
                    mc.delete(key)
        """,
            line=12,
            column=9,
            fixed="""\
            import secrets

            import bmemcached

            mc = bmemcached.Client(["127.0.0.1:11211"])


            def run(name, job):
                key = f"lock:{name}"
                token = secrets.token_hex(16)
                if mc.add(key, token, 30):
                    job()
                    mc.delete(key)
        """,
            applicability=Applicability.SAFE,
        ),
    ]


    def check(self, context: Context) -> Iterator[Diagnostic]:
        code_of, key_text = context.model.code_of, context.model.key_text
        for lease in context.model.leases:
            for claim in lease.claims:
                check = claim.read_check
                if check is None:
                    continue
                read = check.read.func.attr.value  # type: ignore[union-attr]
                message = (
                    f"Lease `{key_text(claim)}` is claimed by reading it (`{read}`) and then writing it "
                    f"(`{claim.method}`): two workers can both find it free and both claim it"
                )
                try:
                    fix = context.fixer.claim_in_one_step(claim)
                except NoFix as why:
                    fix = None
                    message += f" (no automatic fix: {why})"
                yield self.at_event(claim, message, fix)

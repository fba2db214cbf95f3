"""LL009 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
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
]

INVALID = [
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
]

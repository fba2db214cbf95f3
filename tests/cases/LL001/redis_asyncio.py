"""LL001 cases: asyncio clients."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
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
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.UNSAFE,
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
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
    """,
        applicability=Applicability.UNSAFE,
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
        message_contains="(no automatic fix: the claim is coredis's (`condition=PureToken.NX`), whose client takes other arguments)",
    ),
]

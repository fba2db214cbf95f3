"""LL005 cases: asyncio clients."""

from leaselint.rule import Invalid, Valid

VALID = [
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
]

INVALID = [
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
        from coredis import Redis
        from coredis.recipes.locks import LuaLock

        client = Redis()


        async def run(job):
            async with LuaLock(client, f"lock:{job}"):
                await work(job)

    """,
        line=8,
        column=16,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
]

"""LL006 cases: aioredis 1.x scripts, their keys and arguments in lists, run by a digest that `script_load` answered."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import aioredis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        async def run(pool: aioredis.Redis, job):
            key = f"job:{job}"
            token = secrets.token_hex(16)
            if not await pool.set(key, token, expire=30, exist=pool.SET_IF_NOT_EXIST):
                return False
            try:
                await work(job)
            finally:
                digest = await pool.script_load(UNLOCK)
                if not await pool.evalsha(digest, keys=[key], args=[token]):
                    raise LeaseLost(key)
            return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        import aioredis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        async def run(pool: aioredis.Redis, job):
            key = f"job:{job}"
            token = secrets.token_hex(16)
            if not await pool.set(key, token, expire=30, exist=pool.SET_IF_NOT_EXIST):
                return False
            try:
                await work(job)
            finally:
                digest = await pool.script_load(UNLOCK)
                await pool.evalsha(digest, keys=[key], args=[token])
            return True
    """,
        line=17,
        column=15,
        fixed="""\
        import logging
        import secrets

        import aioredis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        async def run(pool: aioredis.Redis, job):
            key = f"job:{job}"
            token = secrets.token_hex(16)
            if not await pool.set(key, token, expire=30, exist=pool.SET_IF_NOT_EXIST):
                return False
            try:
                await work(job)
            finally:
                digest = await pool.script_load(UNLOCK)
                if not await pool.evalsha(digest, keys=[key], args=[token]):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
]

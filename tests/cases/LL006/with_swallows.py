"""LL006 cases: `except LockError: return` around a `with` of a lock (its release's lost lease swallowed too)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import logging

        import redis.asyncio as aioredis
        from redis.exceptions import LockError, LockNotOwnedError

        r = aioredis.Redis()
        log = logging.getLogger(__name__)


        async def sync(account):
            try:
                async with r.lock(f"sync:{account}", timeout=30, blocking_timeout=5):
                    await pull(account)
            except LockNotOwnedError:
                log.warning("lease sync:%s lost before release", account)
            except LockError:
                return


        async def refresh(account):
            try:
                async with r.lock(f"refresh:{account}", timeout=30, blocking_timeout=5):
                    await pull(account)
            except LockError as exc:
                log.warning("refresh of %s: %s", account, exc)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis.asyncio as aioredis
        from redis.exceptions import LockError

        r = aioredis.Redis()


        async def sync(account):
            try:
                async with r.lock(f"sync:{account}", timeout=30, blocking_timeout=5):
                    await pull(account)
            except LockError:
                return
    """,
        line=11,
        column=12,
        fixed=None,
        message_contains="catch `LockNotOwnedError` apart",
    ),
]

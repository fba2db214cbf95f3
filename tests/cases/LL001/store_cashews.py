"""LL001 cases: cashews (`set(..., exist=False)`, `set_lock`, `delete`, `unlock`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets

        from cashews import cache


        async def sync(account):
            token = secrets.token_hex(16)
            if not await cache.set_lock(f"lock:sync:{account}", token, expire=60):
                return
            try:
                await pull(account)
            finally:
                if not await cache.unlock(f"lock:sync:{account}", token):
                    raise LeaseLost(account)


        async def remember(day, value):
            await cache.set(f"seen:{day}", value, expire=300)
            await cache.delete(f"seen:{day}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from cashews import cache


        async def sync(account):
            if not await cache.set_lock(f"lock:sync:{account}", "1", expire=60):
                return
            try:
                await pull(account)
            finally:
                await cache.delete(f"lock:sync:{account}")
    """,
        line=10,
        column=15,
        fixed=None,
        message_contains="the fixes do not write cashews' API yet",
    ),
]

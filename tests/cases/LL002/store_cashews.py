"""LL002 cases: cashews (`set(..., exist=False)`, `set_lock`, `delete`, `unlock`)."""

from leaselint.rule import Invalid

VALID = [
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
        line=5,
        column=57,
        fixed=None,
    ),
]

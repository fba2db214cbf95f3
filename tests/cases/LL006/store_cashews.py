"""LL006 cases: cashews (`set(..., exist=False)`, `set_lock`, `delete`, `unlock`)."""

from leaselint.rule import Invalid

VALID = [
]

INVALID = [
    Invalid(
        """\
        from cashews import cache


        async def report(day, token):
            if not await cache.set(f"report:{day}", token, expire=300, exist=False):
                return
            try:
                await build(day)
            finally:
                await cache.unlock(f"report:{day}", token)
    """,
        line=10,
        column=15,
        fixed=None,
    ),
]

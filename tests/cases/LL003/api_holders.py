"""LL003 cases: a guessable holder handed to a lock API leaselint cannot read."""

from leaselint.rule import Invalid, Valid

VALID = []

INVALID = [
    # The clock as the holder, handed to the API's acquire and release.
    Invalid(
        """\
        import time

        from app.locks import locker


        def rebuild(index):
            owner = str(time.time())
            if not locker.acquire(f"rebuild:{index}", owner, ttl=60):
                return
            try:
                build(index)
            finally:
                locker.release(f"rebuild:{index}", owner)
    """,
        line=8,
        column=47,
        fixed=None,
    ),
]

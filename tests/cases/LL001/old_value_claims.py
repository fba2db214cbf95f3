"""LL001 cases: a getset claim released by a plain delete, or a delete after the getset failed."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The old value is handed back, never tested: a write, not a claim.
    Valid(
        """\
    import redis

    r = redis.Redis()


    def rotate(name):
        old = r.getset(f"config:{name}", "v2")
        r.delete(f"config:{name}")
        return old
"""
    ),
]

INVALID = [
    # The sweeper releases its guard with a plain delete.
    Invalid(
        """\
    import redis

    r = redis.Redis()
    SWEEP_KEY = "sweeper"


    def sweep():
        previous = r.getset(SWEEP_KEY, "running")
        if previous is not None:
            return False
        r.expire(SWEEP_KEY, 60)
        try:
            return True
        finally:
            r.delete(SWEEP_KEY)
""",
        line=15,
        column=9,
        fixed=None,
    ),
    # A true old value means another worker holds the key: the delete frees it.
    Invalid(
        """\
    import secrets

    import redis

    r = redis.Redis()
    SWEEP_KEY = "sweeper"


    def sweep():
        previous = r.getset(SWEEP_KEY, secrets.token_hex(16))
        if previous:
            r.delete(SWEEP_KEY)
            return False
        return True
""",
        line=12,
        column=9,
        fixed=None,
    ),
]

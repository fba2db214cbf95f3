"""LL005 cases: a getset whose old value is tested claims: the first writer holds the key."""

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
    # The sweeper's guard key gets its lifetime from an expire after the getset.
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
        line=8,
        column=16,
        fixed=None,
    ),
]

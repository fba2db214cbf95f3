"""LL005 cases: a claim queued on a pipeline, whose answer the pipeline's execute() hands back."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The pipeline's answers are never read and the key names no lock: a cache write.
    Valid(
        """\
    import secrets

    import redis

    store = redis.Redis()


    def export(account):
        slot = f"export/{account}"
        pipe = store.pipeline()
        pipe.setnx(slot, "1")
        pipe.expire(slot, 300)
        pipe.execute()
        store.delete(slot)
"""
    ),
]

INVALID = [
    # setnx then expire on one pipeline, its answer read from execute(): no automatic fix (one command fewer moves the answers).
    Invalid(
        """\
    import secrets

    import redis

    store = redis.Redis()


    def export(account):
        slot = f"export/{account}"
        token = secrets.token_hex(16)
        pipe = store.pipeline()
        pipe.setnx(slot, token)
        pipe.expire(slot, 300)
        first, _ = pipe.execute()
        if not first:
            return False
        try:
            return True
        finally:
            store.delete(slot)
""",
        line=12,
        column=5,
        fixed=None,
    ),
]

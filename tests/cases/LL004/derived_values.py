"""LL004 cases: the read value compared under another name (`owner = value.decode()`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The derived name is only tested for presence: no holder is compared (a blind release, LL001's).
    Valid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key, session, ttl=60):
            return r.set(key, session, nx=True, ex=ttl)


        def release(key):
            value = r.get(key)
            owner = str(value)
            if owner is None:
                return False
            return r.delete(key) == 1
    """
    ),
]

INVALID = [
    # Decoded into a second name, compared, then deleted in a second step.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key, session, ttl=60):
            return r.set(key, session, nx=True, ex=ttl)


        def release(key, session):
            value = r.get(key)
            if value is None:
                return False
            owner = value.decode()
            if owner == session:
                return r.delete(key) == 1
            return False
    """,
        line=16,
        message_contains="handed through `value.decode(...)`",
    ),
]

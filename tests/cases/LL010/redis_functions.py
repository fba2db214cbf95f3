"""LL010 cases: Redis-family clients in module functions."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A counter's window: incr then expire is a rate limit, not a lease.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def allow(user):
            key = f"rate:{user}"
            for _ in range(3):
                count = r.incr(key)
                r.expire(key, 60)
                if count <= 100:
                    return True
            return False
    """
    ),
    # A test of the store: it renews its own key.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def test_expire_extends_a_held_key():
            assert r.set("lock:t", "me", nx=True, ex=5)
            for _ in range(2):
                assert r.expire("lock:t", 30)
            r.delete("lock:t")
    """
    ),
]

INVALID = [
    # Module functions around one key: the renewal is not handed the token.
    Invalid(
        """\
        import uuid

        import redis

        conn = redis.Redis()


        def acquire_lock(name, ttl=30):
            token = str(uuid.uuid4())
            if conn.set(f"lock:{name}", token, nx=True, ex=ttl):
                return token
            return None


        def renew_lock(name, ttl=30):
            conn.expire(f"lock:{name}", ttl)


        def release_lock(name):
            conn.delete(f"lock:{name}")
    """,
        line=16,
        column=5,
        message_contains='no automatic fix: the renewal cannot see the token this holder stored',
    ),
]

"""LL005 cases: claims made through the module's own helpers, whose lifetime comes from a second call
of the helper's own."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The expiry runs only when the claim failed: no second step of a claim that succeeded.
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()


        def mark_seen(key):
            ok = r.setnx(key, "1")
            if not ok:
                r.expire(key, 60)
            return ok
    """
    ),
    # The helper always answers True: its callers never learn whether it claimed, so the key is no
    # lease of theirs (a mark).
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()


        def mark(key):
            done = r.setnx(key, "1")
            if done:
                r.expire(key, 60)
            return True


        def visit(page):
            if mark(f"seen:{page}"):
                count(page)


        def forget_lock(page):
            r.delete(f"seen:{page}")
    """
    ),
]

INVALID = [
    # A claim helper with no release in its module: its own `setnx`, then `expire`, is reported once
    # there for every caller, and merged into one `set` whose answer keeps setnx's truth.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def reserve(key, owner, seconds=90):
            got = r.setnx(key, owner)
            r.expire(key, seconds)
            if not got:
                return False
            return True
    """,
        line=7,
        fixed="""\
        import redis

        r = redis.Redis()


        def reserve(key, owner, seconds=90):
            got = bool(r.set(key, owner, nx=True, ex=seconds))
            if not got:
                return False
            return True
    """,
        applicability=Applicability.UNSAFE,
        message_contains="gets its lifetime from a second call (`expire`)",
    ),
    # A class of classmethods: the helper claims with `setnx` and sets the lifetime in a second call,
    # its answer read on the way and handed back. Reported at the helper's claim.
    Invalid(
        """\
        import redis


        class Gate:
            client = redis.Redis(db=3)

            @classmethod
            def lock_room(cls, room):
                return cls._take(f"gate:{room}", 20)

            @classmethod
            def unlock_room(cls, room):
                cls.client.delete(f"gate:{room}")

            @classmethod
            def _take(cls, key, seconds):
                taken = cls.client.setnx(key, "busy") == 1
                if taken:
                    cls.client.expire(key, seconds)
                return taken
    """,
        line=17,
        message_contains="gets its lifetime from a second call (`expire`)",
    ),
    # An instance's helper answering the claim's truth as constants (`if not result: return False`).
    Invalid(
        """\
        import redis


        class Cache:
            def __init__(self, url):
                self.conn = redis.Redis.from_url(url)

            def put_new(self, key, value, expiration=600):
                result = self.conn.setnx(key, value)
                self.conn.expire(key, expiration)
                if not result:
                    return False
                return True

            def remove(self, key):
                self.conn.delete(key)


        def rebuild_index(cache: Cache, shard, token):
            if not cache.put_new(f"rebuild:{shard}", token):
                return
            try:
                rebuild(shard)
            finally:
                cache.remove(f"rebuild:{shard}")
    """,
        line=9,
        message_contains="gets its lifetime from a second call (`expire`)",
    ),
]

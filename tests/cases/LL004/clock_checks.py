"""LL004 cases: a stale holder broken by a clock check of the stored time (`now > int(stamp) + ttl`),
then a delete, directly or through the class's own release method."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The clock compared is the worker's own start time, not a value read from the key: no read,
    # no check-then-delete (the release is blind, LL001's).
    Valid(
        """\
        import time

        import redis

        r = redis.Redis()
        TIMEOUT = 600


        def take(key, started):
            return r.set(key, started, nx=True, ex=TIMEOUT)


        def give_back(key, started):
            if time.time() - started > TIMEOUT:
                r.delete(key)
    """
    ),
]

INVALID = [
    # The stored claim time, read under a name and compared through arithmetic, then deleted.
    Invalid(
        """\
        import time

        import redis

        r = redis.Redis()
        TIMEOUT = 600


        def grab(job):
            now = int(time.time())
            if r.setnx(job, now):
                return True
            stamp = r.get(job)
            if stamp is not None and now > int(stamp) + TIMEOUT:
                r.delete(job)
                return bool(r.setnx(job, now))
            return False


        def drop(job):
            r.delete(job)
    """,
        line=15,
        message_contains="a clock check",
    ),
    # The same, where the delete is the class's own method, itself a release of the lease.
    Invalid(
        """\
        import time

        import redis


        class TicketLock:
            client = redis.Redis()
            ttl = 600

            @classmethod
            def remove_lock(cls, name):
                cls.client.delete(name)

            @classmethod
            def put_lock(cls, name, stamp):
                return cls.client.setnx(name, stamp)

            @classmethod
            def hold(cls, name):
                now = int(time.time())
                if cls.put_lock(name, now):
                    return True
                seen = cls.client.get(name)
                if seen and now > int(seen) + cls.ttl:
                    cls.remove_lock(name)
                    return cls.put_lock(name, now)
                return False
    """,
        line=25,
        message_contains="released by `remove_lock` in a second step",
    ),
]

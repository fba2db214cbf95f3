"""LL010 cases: an `expire` of the lease's key in the branch where the claim failed, the recipe that
gives a deadline to a key whose holder crashed before its own `expire`."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The deadline is set only where the claim succeeded (LL005's split lifetime, not a renewal).
    Valid(
        """\
        import time
        import uuid

        import redis

        r = redis.Redis()


        def grab(name, wait=5, ttl=10):
            token = uuid.uuid4().hex
            key = "mutex:" + name
            stop = time.time() + wait
            while time.time() < stop:
                if r.setnx(key, token):
                    r.expire(key, ttl)
                    return token
                time.sleep(0.01)
            return None


        def let_go(name):
            r.delete("mutex:" + name)
    """
    ),
    # Where the claim failed, the deadline is extended only after a compare shows the key is this holder's (a check-then-renew, not a deadline set blind).
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def enter(name, token):
            key = "reentrant:" + name
            if r.set(key, token, nx=True, ex=30):
                return True
            if r.get(key) == token.encode():
                r.expire(key, 30)
                return True
            return False


        def release(name):
            r.delete("reentrant:" + name)
    """
    ),
    # A marker whose window slides on every repeat (`if not created: cache.touch(key, window)`): no
    # deadline given to a holder that lacks one.
    Valid(
        """\
        from django.core.cache import cache


        class Lockout:
            def __init__(self, user):
                self.key = "lockout:%s:audit" % user

            def first_in_window(self, window):
                created = cache.add(self.key, True, window)
                if not created:
                    cache.touch(self.key, window)
                return created

            def reset(self):
                cache.delete(self.key)
    """
    ),
]

INVALID = [
    # Where the claim failed and the key has no deadline, it gives the holder's key one.
    Invalid(
        """\
        import time
        import uuid

        import redis

        r = redis.Redis()


        def grab(name, wait=5, ttl=10):
            token = uuid.uuid4().hex
            key = "mutex:" + name
            stop = time.time() + wait
            while time.time() < stop:
                if r.set(key, token, nx=True, ex=ttl):
                    return token
                elif r.ttl(key) == -1:
                    r.expire(key, ttl)
                time.sleep(0.01)
            return None


        def let_go(name):
            r.delete("mutex:" + name)
    """,
        line=17,
        message_contains="runs where its claim failed",
    ),
]

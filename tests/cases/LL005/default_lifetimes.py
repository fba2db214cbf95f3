"""LL005 cases: a lifetime that is forever unless a caller passes one (a parameter defaulting to None)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The module's one construction passes a lifetime.
    Valid(
        """\
        from django.core.cache import cache


        class PageLock:
            def __init__(self, page, timeout=None):
                self.key = f"lock:page:{page}"
                self.timeout = timeout

            def acquire(self, owner):
                return cache.add(self.key, owner, self.timeout)

            def release(self):
                cache.delete(self.key)


        EDITING = PageLock("home", timeout=300)
    """
    ),
    # A store API of the project's own that hands the caller's choice on, as the client's `lock` does.
    Valid(
        """\
        import redis


        class Cache:
            def __init__(self, url):
                self.client = redis.Redis.from_url(url)

            def lock(self, key, timeout=None, blocking=True):
                return self.client.lock(f"cache:{key}", timeout=timeout, blocking=blocking)
    """
    ),
    # A default that is a lifetime.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def run(job, ttl=30):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, ex=ttl):
                work(job)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from django.core.cache import cache


        class PageLock:
            def __init__(self, page, timeout=None):
                self.key = f"lock:page:{page}"
                self.timeout = timeout

            def acquire(self, owner):
                return cache.add(self.key, owner, self.timeout)

            def release(self):
                cache.delete(self.key)
    """,
        line=10,
        column=16,
        fixed=None,
    ),
    Invalid(
        """\
        import redis
        import redis_lock

        r = redis.Redis()


        def exclusive(name, expire=None):
            lock = redis_lock.Lock(r, name, expire=expire)
            with lock:
                work(name)
    """,
        line=8,
        column=12,
        fixed=None,
    ),
]

"""LL005 cases: a lifetime that is forever unless a caller passes one (a parameter defaulting to None)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The parameter is bound again to a lifetime of the module's own when none is passed.
    Valid(
        """\
        import secrets


        class JobMutex:
            def __init__(self, client, job, lease=None):
                self.client = client
                self.key = f"job-mutex:{job}"
                if lease is None:
                    lease = 30
                self.lease = int(lease)

            def acquire(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.key, self.token, nx=True, ex=self.lease)

            def release(self):
                self.client.eval(
                    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
                    1, self.key, self.token,
                )
    """
    ),
    Valid(
        """\
        import secrets


        def claim(client, job, lease=None):
            lease = lease or 60
            token = secrets.token_hex(16)
            if client.set(f"job:{job}", token, nx=True, ex=lease):
                return token
            return None
    """
    ),
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
    # A conditional whose branch for the unpassed default is a lifetime.
    Valid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class JobLock:
            def __init__(self, client: redis.Redis, job, ttl=None):
                self.client = client
                self.key = f"lock:job:{job}"
                self.ttl = 60 if ttl is None else int(ttl)

            def acquire(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.key, self.token, nx=True, ex=self.ttl)

            def release(self):
                self.client.eval(UNLOCK, 1, self.key, self.token)
    """
    ),
    # The attribute starts as None and becomes a conversion of a parameter with a lifetime of its own.
    Valid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Lease:
            def __init__(self, client: redis.Redis, name, seconds=60):
                self.client = client
                self.name = name
                self.ms = None
                if seconds:
                    self.ms = int(seconds * 1000)

            def take(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.name, self.token, nx=True, px=self.ms)

            def give_back(self):
                return self.client.eval(UNLOCK, 1, self.name, self.token)
    """
    ),
]

INVALID = [
    # The parameter is bound again in the constructor, to its own conversion or to None: still
    # forever when nothing is passed.
    Invalid(
        """\
        import secrets


        class JobMutex:
            def __init__(self, client, job, lease=None):
                self.client = client
                self.key = f"job-mutex:{job}"
                if lease:
                    lease = int(lease * 1000)
                else:
                    lease = None
                self.lease = lease

            def acquire(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.key, self.token, nx=True, px=self.lease)

            def release(self):
                self.client.eval(
                    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
                    1, self.key, self.token,
                )
    """,
        line=16,
        column=16,
        fixed=None,
    ),
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
    # The attribute keeps the parameter's None unless one is passed, through a conditional.
    Invalid(
        """\
        import os

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Mutex:
            def __init__(self, client: redis.Redis, name, expire=None):
                self._client = client
                self._name = "mutex:" + name
                self._expire = expire if expire is None else int(expire)
                self._token = os.urandom(16)

            def acquire(self):
                return bool(self._client.set(self._name, self._token, nx=True, ex=self._expire))

            def release(self):
                self._client.eval(UNLOCK, 1, self._name, self._token)
    """,
        line=16,
        column=21,
        fixed=None,
    ),
    # The same with a truth test, in milliseconds.
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Mutex:
            def __init__(self, client: redis.Redis, name, timeout=None):
                self.client = client
                self.name = name
                self.px = int(timeout * 1000) if timeout else None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.name, token, nx=True, px=self.px):
                    return token

            def release(self, token):
                self.client.eval(UNLOCK, 1, self.name, token)
    """,
        line=16,
        column=12,
        fixed=None,
    ),
    # The attribute starts as None and is a conversion of the parameter only when one is passed.
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Lease:
            def __init__(self, client: redis.Redis, name, seconds=None):
                self.client = client
                self.name = name
                self.ms = None
                if seconds:
                    self.ms = int(seconds * 1000)

            def take(self):
                self.token = secrets.token_hex(16)
                return self.client.set(self.name, self.token, nx=True, px=self.ms)

            def give_back(self):
                return self.client.eval(UNLOCK, 1, self.name, self.token)
    """,
        line=18,
        column=16,
        fixed=None,
    ),
]

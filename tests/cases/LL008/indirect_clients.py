"""LL008 cases: a base class's `__enter__` that throws away what its subclass's `acquire` answers."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The subclass's acquire raises when the key is held: nothing to throw away.
    Valid(
        """\
        # no rule reports this
        import uuid

        import redis

        client = redis.Redis()


        class BaseLock:
            def __init__(self, name, ttl=60):
                self.name = name
                self.ttl = ttl

            def acquire(self):
                raise NotImplementedError

            def __enter__(self):
                self.acquire()
                return self


        class StrictLock(BaseLock):
            def acquire(self):
                token = uuid.uuid4().hex
                if not client.set(self.name, token, ex=self.ttl, nx=True):
                    raise RuntimeError("held")
                self.token = token
    """
    ),
    # The real client is python-memcached, whose `add` answers; the pymemcache test double a property falls back to is not the client.
    Valid(
        """\
        import memcache


        class Memo:
            def __init__(self, servers):
                self.servers = servers
                self._client = None

            @property
            def client(self):
                if self._client is None:
                    if self.servers:
                        self._client = memcache.Client(self.servers)
                    else:
                        from pymemcache.test.utils import MockMemcacheClient

                        self._client = MockMemcacheClient()
                return self._client

            def refresh(self, key):
                flag = key + "/refreshing"
                if not self.client.add(flag, "true"):
                    return
                try:
                    recompute(key)
                finally:
                    self.client.delete(flag)
    """
    ),
]

INVALID = [
    # The base class's `__enter__` drops the answer of the one subclass's `acquire`, which returns False when the key is held.
    Invalid(
        """\
        import uuid

        import redis

        client = redis.Redis()


        class BaseLock:
            def __init__(self, name, ttl=60):
                self.name = name
                self.ttl = ttl

            def acquire(self):
                raise NotImplementedError

            def release(self):
                raise NotImplementedError

            def __enter__(self):
                self.acquire()
                return self

            def __exit__(self, *exc):
                self.release()


        class RedisLock(BaseLock):
            token = None

            def acquire(self):
                token = uuid.uuid4().hex
                if not client.set(self.name, token, ex=self.ttl, nx=True):
                    return False
                self.token = token
                return True

            def release(self):
                unlock = client.register_script(
                    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
                )
                if not unlock(keys=[self.name], args=[self.token]):
                    raise RuntimeError("lost")
    """,
        line=20,
        column=9,
        fixed=None,
    ),
    # A module function makes an object of the module's lock class and drops its acquire's answer.
    Invalid(
        """\
        import contextlib
        import uuid

        import redis

        r = redis.Redis()


        @contextlib.contextmanager
        def locked(key, ttl=30):
            lock = KeyLock(key, ttl)
            try:
                lock.acquire()
                yield lock
            finally:
                lock.release()


        class KeyLock:
            def __init__(self, key, ttl):
                self.key = key
                self.ttl = ttl

            def acquire(self):
                self.token = uuid.uuid4().hex
                if not r.set(self.key, self.token, nx=True, ex=self.ttl):
                    return False
                return True

            def release(self):
                unlock = r.register_script("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0")
                if not unlock(keys=[self.key], args=[self.token]):
                    raise RuntimeError("lost")
    """,
        line=13,
        column=9,
        fixed=None,
    ),
]

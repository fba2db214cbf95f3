"""LL001 cases: a base class's client made by an abstract factory method its subclass of the module writes."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Subclasses of two families: the base class's client is neither's.
    Valid(
        """\
        import memcache
        import redis


        class Schedule:
            LOCK = "scheduler:leader"

            def __init__(self, url):
                self.client = self.connect(url)

            def connect(self, url):
                raise NotImplementedError

            def lead(self, ttl=60):
                return self.client.add(self.LOCK, "leader", ttl)

            def resign(self):
                self.client.delete(self.LOCK)


        class RedisSchedule(Schedule):
            def connect(self, url):
                return redis.Redis()


        class MemcacheSchedule(Schedule):
            def connect(self, url):
                return memcache.Client([url])
    """
    ),
    # A factory method the base class writes itself, making no client of the table.
    Valid(
        """\
        class Schedule:
            LOCK = "scheduler:leader"

            def __init__(self, url):
                self.client = self.connect(url)

            def connect(self, url):
                return Registry(url)

            def lead(self, ttl=60):
                return self.client.add(self.LOCK, "leader", ttl)

            def resign(self):
                self.client.delete(self.LOCK)
    """
    ),
]

INVALID = [
    # The one subclass makes a python-memcached client.
    Invalid(
        """\
        import memcache


        class Schedule:
            LOCK = "scheduler:leader"

            def __init__(self, url):
                self.client = self.connect(url)

            @classmethod
            def connect(cls, url):
                raise NotImplementedError()

            def lead(self, token, ttl=60):
                return self.client.add(self.LOCK, token, ttl)

            def resign(self):
                self.client.delete(self.LOCK)


        class MemcacheSchedule(Schedule):
            @classmethod
            def connect(cls, url):
                return memcache.Client([url])
    """,
        line=18,
    ),
    # Redis subclasses of one family, the base's method a `...` stub.
    Invalid(
        """\
        import secrets

        import redis


        class Leader:
            KEY = "cluster:leader"

            def __init__(self, url):
                self.redis = self.connect(url)
                self.token = None

            def connect(self, url): ...

            def campaign(self):
                token = secrets.token_hex(16)
                if self.redis.set(self.KEY, token, nx=True, ex=30):
                    self.token = token
                    return True
                return False

            def resign(self):
                self.redis.delete(self.KEY)


        class SentinelLeader(Leader):
            def connect(self, url):
                return redis.Redis(socket_timeout=5)


        class PlainLeader(Leader):
            def connect(self, url):
                return redis.Redis()
    """,
        line=23,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Leader:
            _lease_token = None
            KEY = "cluster:leader"

            def __init__(self, url):
                self.redis = self.connect(url)
                self.token = None

            def connect(self, url): ...

            def campaign(self):
                token = secrets.token_hex(16)
                if self.redis.set(self.KEY, token, nx=True, ex=30):
                    self._lease_token = token
                    self.token = token
                    return True
                return False

            def resign(self):
                if self._lease_token is not None and not self.redis.eval(LEASE_RELEASE_SCRIPT, 1, self.KEY, self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.KEY
                    )


        class SentinelLeader(Leader):
            def connect(self, url):
                return redis.Redis(socket_timeout=5)


        class PlainLeader(Leader):
            def connect(self, url):
                return redis.Redis()
    """,
    ),
]

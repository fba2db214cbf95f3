"""LL010 cases: a lifetime set by hand on the key a lock object stands on."""

from leaselint.rule import Invalid, Valid

VALID = [
    # redis-py's lock object extends with a token check.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def report(day):
            lock = r.lock(f"report:{day}", timeout=30)
            if not lock.acquire(blocking=False):
                return
            try:
                for part in parts(day):
                    part.render()
                    lock.extend(30, replace_ttl=True)
            finally:
                lock.release()
    """
    ),
    # The lock object extends itself: its script checks the token.
    Valid(
        """\
        import redis


        class Leader:
            KEY = "cron:leader"

            def __init__(self, client: redis.Redis):
                self.client = client
                self.lock = None

            def campaign(self, ttl=30):
                lock = self.client.lock(self.KEY, timeout=ttl)
                if lock.acquire(blocking=False):
                    self.lock = lock
                return self.lock is not None

            def heartbeat(self):
                self.lock.extend(30, replace_ttl=True)

            def resign(self):
                self.lock.release()
    """
    ),
    # A lifetime on another key of the same client.
    Valid(
        """\
        import redis


        class Leader:
            KEY = "cron:leader"
            SEEN = "cron:seen"

            def __init__(self, client: redis.Redis):
                self.client = client

            def campaign(self, ttl=30):
                self.lock = self.client.lock(self.KEY, timeout=ttl)
                return self.lock.acquire(blocking=False)

            def heartbeat(self):
                self.client.set(self.SEEN, 1)
                self.client.expire(self.SEEN, 30)
    """
    ),
    # A client wrapper's API: its `lock` and its `expire` each act on the key their caller hands them.
    Valid(
        """\
        import redis


        class Client:
            def __init__(self, url):
                self.client = redis.Redis.from_url(url)

            def lock(self, key, timeout=None):
                return self.client.lock(key, timeout=timeout)

            def expire(self, key, seconds):
                return self.client.expire(key, seconds)
    """
    ),
]

INVALID = [
    # A renewal by hand on the lock's key: it extends whoever holds the key now.
    Invalid(
        """\
        import redis


        class Leader:
            KEY = "cron:leader"

            def __init__(self, client: redis.Redis):
                self.client = client
                self.lock = None

            def campaign(self, ttl=30):
                lock = self.client.lock(self.KEY, timeout=ttl)
                if lock.acquire(blocking=False):
                    self.lock = lock
                return self.lock is not None

            def heartbeat(self):
                self.client.pexpire(self.KEY, 30000)

            def resign(self):
                self.lock.release()
    """,
        line=18,
        column=9,
        fixed=None,
        message_contains="extend it through the lock object",
    ),
]

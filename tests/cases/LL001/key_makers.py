"""LL001 cases: keys built by a key maker, a constant prefix or a format held in a name, and clients
reached through a property or another class: one lease when the key says so."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The key is the same text, but the delete goes to a Django cache, another store.
    Valid(
        """\
    import secrets

    from django.core.cache import cache


    class Jobs:
        def __init__(self, redis):
            self.redis = redis

        def try_lock(self, name):
            return self.redis.set(f"lock:{name}", secrets.token_hex(16), nx=True, ex=60)

        def forget(self, name):
            cache.delete(f"lock:{name}")
"""
    ),
    # Two key makers of one class: the delete is of the result, not of the lock.
    Valid(
        """\
    import secrets


    class Jobs:
        def __init__(self, redis):
            self.redis = redis

        def lock_key(self, job_id):
            return f"lock:{job_id}"

        def result_key(self, job_id):
            return f"result:{job_id}"

        def try_lock(self, job_id):
            return self.redis.set(self.lock_key(job_id), secrets.token_hex(16), nx=True, ex=60)

        def clear_result(self, job_id):
            self.redis.delete(self.result_key(job_id))
"""
    ),
]

INVALID = [
    # The claim's key comes from a method that only builds it; the release writes it out.
    Invalid(
        """\
    import secrets

    LOCK_PREFIX = "lock:"


    class Jobs:
        def __init__(self, redis):
            self.redis = redis

        def lock_name(self, job_id):
            return f"{LOCK_PREFIX}{job_id}"

        def try_lock(self, job_id):
            return bool(self.redis.set(self.lock_name(job_id), secrets.token_hex(16), nx=True, ex=60))

        def unlock(self, job_id):
            self.redis.delete(LOCK_PREFIX + str(job_id))
""",
        line=17,
        column=9,
    ),
    # A prefix held in a module constant, added in one place and formatted with % in the other.
    Invalid(
        """\
    import secrets

    import redis

    r = redis.Redis()
    PREFIX = "sync-lock:"


    def acquire(name):
        return r.set(PREFIX + name, secrets.token_hex(16), nx=True, ex=30)


    def release(name):
        r.delete("%s%s" % (PREFIX, name))
""",
        line=14,
        column=5,
        fixed="""\
    import logging
    import secrets

    import redis

    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )

    r = redis.Redis()
    PREFIX = "sync-lock:"


    def acquire(name):
        token = secrets.token_hex(16)
        return token if r.set(PREFIX + name, token, nx=True, ex=30) else None


    def release(name, token):
        if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, "%s%s" % (PREFIX, name), token):
            logging.getLogger(__name__).warning(
                "lease %s expired before release; another worker may hold it",
                "%s%s" % (PREFIX, name),
            )
""",
    ),
    # The claim reaches the client through a property that returns the attribute the release uses.
    Invalid(
        """\
    import secrets


    class Lock:
        def __init__(self, connection, name):
            self._connection = connection
            self.name = name

        @property
        def redis(self):
            return self._connection

        def acquire(self):
            return self.redis.set(f"lock:{self.name}", secrets.token_hex(16), nx=True, px=10000)

        def release(self):
            self._connection.delete(f"lock:{self.name}")
""",
        line=17,
        column=9,
        fixed="""\
    import logging
    import secrets

    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )


    class Lock:
        _lease_token = None

        def __init__(self, connection, name):
            self._connection = connection
            self.name = name

        @property
        def redis(self):
            return self._connection

        def acquire(self):
            token = secrets.token_hex(16)
            claimed = self.redis.set(f"lock:{self.name}", token, nx=True, px=10000)
            if claimed:
                self._lease_token = token
            return claimed

        def release(self):
            if self._lease_token is not None and not self._connection.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{self.name}", self._lease_token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it",
                    f"lock:{self.name}",
                )
""",
    ),
    # Another class's client, given to it as a parameter: the key names the same lease.
    Invalid(
        """\
    import secrets


    class Scheduler:
        def __init__(self, redis):
            self.redis = redis

        def try_lead(self, name):
            return self.redis.set(f"leader:{name}", secrets.token_hex(16), nx=True, ex=30)


    class Maintenance:
        def __init__(self, connection):
            self.connection = connection

        def step_down(self, name):
            self.connection.delete(f"leader:{name}")
""",
        line=17,
        column=9,
    ),
]

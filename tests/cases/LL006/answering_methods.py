"""LL006 cases: a lock class's release that answers what the store said, through its own methods, thrown away by __exit__."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The same proxy, testing the answer.
    Valid(
        """\
    import secrets

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Held:
        def __init__(self, lock):
            self.lock = lock

        def __enter__(self):
            return self.lock

        def __exit__(self, *exc):
            if not self.lock.release():
                raise RuntimeError("the export lock expired while held")


    class ExportLock:
        def __init__(self, client: redis.Redis, export):
            self.client = client
            self.key = f"export-lock:{export}"
            self.token = None

        def acquire(self):
            token = secrets.token_hex(16)
            if not self.client.set(self.key, token, nx=True, ex=120):
                raise RuntimeError("export running")
            self.token = token
            return Held(lock=self)

        def release(self):
            return self.client.eval(CHECKED_DELETE, 1, self.key, self.token) == 1
"""
    ),
    # The same, with the answer read.
    Valid(
        """\
    import uuid

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

    client = redis.Redis()


    class ReportLock:
        def __init__(self, report):
            self.key = f"report-lock:{report}"
            self.owner = None

        def acquire(self):
            owner = uuid.uuid4().hex
            if client.set(self.key, owner, nx=True, px=20000):
                self.owner = owner
                return True
            return False

        def release(self):
            deleted = client.eval(CHECKED_DELETE, 1, self.key, self.owner)
            return deleted == 1


    def build(report):
        guard = ReportLock(report)
        if not guard.acquire():
            return False
        render(report)
        if not guard.release():
            log.warning("report %s rendered after its lock expired", report)
        return True
"""
    ),
    # __exit__ tests what release answers.
    Valid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class QuotaSemaphore:
        def __init__(self, client, name):
            self.client = client
            self.key = f"quota:{name}"
            self.token = None
            self.script = client.register_script(RELEASE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self.client.set(self.key, token, nx=True, px=30000):
                self.token = token
                return True
            return False

        def _drop(self):
            gone = self.script(keys=[self.key], args=[self.token])
            self.token = None
            return gone == 1

        def release(self):
            if self.token is None:
                return False
            return self._drop()

        def __enter__(self):
            if not self.acquire():
                raise RuntimeError("busy")
            return self

        def __exit__(self, *exc):
            if not self.release():
                print("quota lease lost", self.key)
"""
    ),
    # A class not named for a lock: its methods are not read as a lock's.
    Valid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class QuotaCounter:
        def __init__(self, client, name):
            self.client = client
            self.key = f"quota:{name}"
            self.token = None
            self.script = client.register_script(RELEASE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self.client.set(self.key, token, nx=True, px=30000):
                self.token = token
                return True
            return False

        def _drop(self):
            gone = self.script(keys=[self.key], args=[self.token])
            self.token = None
            return gone == 1

        def release(self):
            if self.token is None:
                return False
            return self._drop()

        def __enter__(self):
            if not self.acquire():
                raise RuntimeError("busy")
            return self

        def __exit__(self, *exc):
            self.release()
"""
    ),
]

INVALID = [
    # A context proxy the lock class hands out (`return Held(lock=self)`): its __exit__ drops the answer.
    Invalid(
        """\
    import secrets

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Held:
        def __init__(self, lock):
            self.lock = lock

        def __enter__(self):
            return self.lock

        def __exit__(self, *exc):
            self.lock.release()


    class ExportLock:
        def __init__(self, client: redis.Redis, export):
            self.client = client
            self.key = f"export-lock:{export}"
            self.token = None

        def acquire(self):
            token = secrets.token_hex(16)
            if not self.client.set(self.key, token, nx=True, ex=120):
                raise RuntimeError("export running")
            self.token = token
            return Held(lock=self)

        def release(self):
            return self.client.eval(CHECKED_DELETE, 1, self.key, self.token) == 1
""",
        line=16,
        column=9,
        fixed=None,
    ),
    # The module's own lock class, its release's answer dropped by a function of the same module.
    Invalid(
        """\
    import uuid

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"

    client = redis.Redis()


    class ReportLock:
        def __init__(self, report):
            self.key = f"report-lock:{report}"
            self.owner = None

        def acquire(self):
            owner = uuid.uuid4().hex
            if client.set(self.key, owner, nx=True, px=20000):
                self.owner = owner
                return True
            return False

        def release(self):
            deleted = client.eval(CHECKED_DELETE, 1, self.key, self.owner)
            return deleted == 1


    def build(report):
        guard = ReportLock(report)
        if not guard.acquire():
            return False
        render(report)
        guard.release()
        return True
""",
        line=32,
        column=5,
        fixed=None,
    ),
    # release answers _drop's test of the script's answer; __exit__ drops it.
    Invalid(
        """\
    import secrets

    import redis

    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class QuotaSemaphore:
        def __init__(self, client, name):
            self.client = client
            self.key = f"quota:{name}"
            self.token = None
            self.script = client.register_script(RELEASE)

        def acquire(self):
            token = secrets.token_hex(16)
            if self.client.set(self.key, token, nx=True, px=30000):
                self.token = token
                return True
            return False

        def _drop(self):
            gone = self.script(keys=[self.key], args=[self.token])
            self.token = None
            return gone == 1

        def release(self):
            if self.token is None:
                return False
            return self._drop()

        def __enter__(self):
            if not self.acquire():
                raise RuntimeError("busy")
            return self

        def __exit__(self, *exc):
            self.release()
""",
        line=38,
        column=9,
        fixed=None,
    ),
]

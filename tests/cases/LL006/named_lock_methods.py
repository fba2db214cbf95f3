"""LL006 cases: a lock class whose methods are named with the lock's words (`acquire_lock`, `releaseLock`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The module's lock object, its answer tested.
    Valid(
        """\
    import uuid

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class SyncLock:
        def __init__(self, client, name, ttl=15):
            self.client = client
            self.name = name
            self.ttl = ttl
            self.owner = None

        def acquire_lock(self):
            self.owner = uuid.uuid4().hex
            return self.client.set(self.name, self.owner, nx=True, ex=self.ttl)

        def release_lock(self):
            return self.client.eval(CHECKED_DELETE, 1, self.name, self.owner)


    SYNC = SyncLock(redis.Redis(), "sync:catalog")


    def sync_catalog():
        if not SYNC.acquire_lock():
            return
        try:
            pull_catalog()
        finally:
            if not SYNC.release_lock():
                log.warning("catalog sync outlived its lock")
"""
    ),
    # A class not named for a lock: its `release_lock` may mean anything.
    Valid(
        """\
    import uuid

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class Catalog:
        def __init__(self, client):
            self.client = client
            self.owner = None

        def acquire_lock(self):
            self.owner = uuid.uuid4().hex
            return self.client.set("catalog", self.owner, nx=True, ex=15)

        def release_lock(self):
            return self.client.eval(CHECKED_DELETE, 1, "catalog", self.owner)


    CATALOG = Catalog(redis.Redis())


    def sync_catalog():
        if CATALOG.acquire_lock():
            try:
                pull_catalog()
            finally:
                CATALOG.release_lock()
"""
    ),
]

INVALID = [
    # The module's lock object: `release_lock` answers 0 for a lost lease, and the caller drops it.
    Invalid(
        """\
    import uuid

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class SyncLock:
        def __init__(self, client, name, ttl=15):
            self.client = client
            self.name = name
            self.ttl = ttl
            self.owner = None

        def acquire_lock(self):
            self.owner = uuid.uuid4().hex
            return self.client.set(self.name, self.owner, nx=True, ex=self.ttl)

        def release_lock(self):
            return self.client.eval(CHECKED_DELETE, 1, self.name, self.owner)


    SYNC = SyncLock(redis.Redis(), "sync:catalog")


    def sync_catalog():
        if not SYNC.acquire_lock():
            return
        try:
            pull_catalog()
        finally:
            SYNC.release_lock()
""",
        line=32,
        column=9,
    ),
    # Camel-case names, the object made in the function.
    Invalid(
        """\
    import secrets

    import redis

    CHECKED_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
    client = redis.Redis()


    class MutexHandle:
        def __init__(self, name):
            self.name = f"mutex:{name}"
            self.owner = None

        def tryAcquire(self):
            owner = secrets.token_hex(8)
            if client.set(self.name, owner, nx=True, px=8000):
                self.owner = owner
                return True
            return False

        def releaseMutex(self):
            return client.eval(CHECKED_DELETE, 1, self.name, self.owner) == 1


    def rebuild(index):
        mutex = MutexHandle(index)
        if mutex.tryAcquire():
            try:
                reindex(index)
            finally:
                mutex.releaseMutex()
""",
        line=31,
        column=13,
    ),
]

"""LL006 cases: a token-checked release of a method of the module's own class, held by a module-level
object, whose answer the caller drops: reported at the caller, which is what to change."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self):
                self.client = redis.Redis()
                self.unlock = self.client.register_script(UNLOCK)

            def compare_and_delete(self, key, token):
                try:
                    return bool(self.unlock(keys=[key], args=[token]))
                except redis.ConnectionError:
                    self.client.connection_pool.reset()
                return False


        STORE = Store()


        class SyncLock:
            # One token per process: `acquire` first clears a claim this worker left behind, where finding
            # nothing is the usual answer; `release` tests what the store said.
            def __init__(self, feed, owner):
                self.key = f"sync-lock:{feed}"
                self.token = owner

            def acquire(self):
                STORE.compare_and_delete(self.key, self.token)
                return bool(STORE.client.set(self.key, self.token, nx=True, ex=60))

            def release(self):
                if not STORE.compare_and_delete(self.key, self.token):
                    raise LeaseLost(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self):
                self.client = redis.Redis()
                self.unlock = self.client.register_script(UNLOCK)

            def compare_and_delete(self, key, token):
                try:
                    return bool(self.unlock(keys=[key], args=[token]))
                except redis.ConnectionError:
                    self.client.connection_pool.reset()
                return False


        STORE = Store()


        class SyncLock:
            def __init__(self, feed):
                self.key = f"sync-lock:{feed}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if not STORE.client.set(self.key, token, nx=True, ex=60):
                    return False
                self.token = token
                return True

            def release(self):
                STORE.compare_and_delete(self.key, self.token)
    """,
        line=37,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self):
                self.client = redis.Redis()
                self.unlock = self.client.register_script(UNLOCK)

            def compare_and_delete(self, key, token):
                try:
                    return bool(self.unlock(keys=[key], args=[token]))
                except redis.ConnectionError:
                    self.client.connection_pool.reset()
                return False


        STORE = Store()


        class SyncLock:
            def __init__(self, feed):
                self.key = f"sync-lock:{feed}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if not STORE.client.set(self.key, token, nx=True, ex=60):
                    return False
                self.token = token
                return True

            def release(self):
                if not STORE.compare_and_delete(self.key, self.token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self):
                self.client = redis.Redis()
                self.unlock = self.client.register_script(UNLOCK)

            def compare_and_delete(self, key, token):
                try:
                    return bool(self.unlock(keys=[key], args=[token]))
                except redis.ConnectionError:
                    self.client.connection_pool.reset()
                return False


        STORE = Store()


        class SyncLock:
            def __init__(self, feed):
                self.key = f"sync-lock:{feed}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if not STORE.client.set(self.key, token, nx=True, ex=60):
                    return False
                self.token = token
                return True

            def acquire_and_run(self, job):
                # Named for taking, and the release comes after the claim: its answer is a lost lease.
                if not self.acquire():
                    return False
                try:
                    job()
                finally:
                    STORE.compare_and_delete(self.key, self.token)
                return True
    """,
        line=43,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Store:
            def __init__(self):
                self.client = redis.Redis()
                self.unlock = self.client.register_script(UNLOCK)

            def compare_and_delete(self, key, token):
                try:
                    return bool(self.unlock(keys=[key], args=[token]))
                except redis.ConnectionError:
                    self.client.connection_pool.reset()
                return False


        STORE = Store()


        class SyncLock:
            def __init__(self, feed):
                self.key = f"sync-lock:{feed}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if not STORE.client.set(self.key, token, nx=True, ex=60):
                    return False
                self.token = token
                return True

            def acquire_and_run(self, job):
                # Named for taking, and the release comes after the claim: its answer is a lost lease.
                if not self.acquire():
                    return False
                try:
                    job()
                finally:
                    if not STORE.compare_and_delete(self.key, self.token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.key,
                        )
                return True
    """,
        applicability=Applicability.SAFE,
    ),
]

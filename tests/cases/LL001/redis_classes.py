"""LL001 cases: Redis-family clients in classes."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A store facade that namespaces its caller's key: not a lease of its own (nor a claim without
    # a deadline: no rule reports it).
    Valid(
        """\
        # no rule reports this
        class TenantCache:
            def __init__(self, client):
                self._client = client

            def delete(self, tenant_id, key):
                self._client.delete(f"{tenant_id}:{key}")

            def set_if_absent(self, tenant_id, key, value):
                return bool(self._client.setnx(f"{tenant_id}:{key}", value))
    """
    ),
    Valid(
        """\
        import redis


        class Lock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"lock:{name}"

            def acquire(self, token):
                return self.client.set(self.key, token, nx=True, ex=30)

            def force_release(self):
                # Break the lock whoever holds it (an admin action).
                self.client.delete(self.key)
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        class Lock:
            def __init__(self, name):
                self.key = f"lock:{name}"

            def acquire(self, token):
                return r.set(self.key, token, nx=True, ex=30)

            def release(self, force=False):
                if force:
                    r.delete(self.key)
    """
    ),
    # A storage API whose methods pass their caller's key on (through a key builder): the lease,
    # if any, is the caller's.
    Valid(
        """\
        import redis


        class ResultStore:
            def __init__(self, url):
                self.conn = redis.Redis.from_url(url)

            def result_key(self, key):
                return f"results:{key}"

            def put_if_empty(self, key, value, ttl=None):
                return self.conn.set(self.result_key(key), value, nx=True, ex=ttl)

            def delete_data(self, key):
                return self.conn.delete(self.result_key(key))
    """
    ),
    # `add` of two values outside a lock class, and a one-value `add` in one: no claims.
    Valid(
        """\
        class RequestLog:
            # No lock: `add` of two values on a plain collection object.

            def __init__(self, store):
                self.store = store
                self.key = "requests"

            def record(self, who, when):
                self.store.add(who, when)

            def forget(self):
                self.store.delete(self.key)


        class LockRegistry:
            # Named for locks, but its `add` takes one value: a set of names.

            def __init__(self):
                self.names = set()

            def acquire(self, name):
                self.names.add(name)

            def release(self, name):
                self.names.discard(name)
    """
    ),
    Valid(
        """\
        import secrets


        class Registry:
            def __init__(self):
                self.names = set()


        class JobLock:
            def __init__(self, name):
                self.registry = Registry()
                self.key = f"lock:{name}"

            def run(self, job):
                token = secrets.token_hex(16)
                if self.registry.names.add((self.key, token)):
                    try:
                        job()
                    finally:
                        self.registry.names.discard((self.key, token))
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets


        class Sweeper:
            def __init__(self, connection):
                self.connection = connection
                self.holding = False

            def start(self):
                self.token = secrets.token_hex(16)
                self.holding = self.connection.set("sweeper:lock", self.token, ex=60, nx=True)
                return self.holding

            def stop(self):
                if self.holding:
                    self.connection.delete("sweeper:lock")
                    self.holding = False
    """,
        line=16,
        column=13,
        fixed="""\
        import logging
        import secrets

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Sweeper:
            _lease_token = None

            def __init__(self, connection):
                self.connection = connection
                self.holding = False

            def start(self):
                self.token = secrets.token_hex(16)
                self.holding = self.connection.set("sweeper:lock", self.token, ex=60, nx=True)
                if self.holding:
                    self._lease_token = self.token
                return self.holding

            def stop(self):
                if self.holding:
                    if self._lease_token is not None and not self.connection.eval(LEASE_RELEASE_SCRIPT, 1, "sweeper:lock", self._lease_token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            "sweeper:lock",
                        )
                    self.holding = False
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import time

        import redis


        class StampLock:
            def __init__(self, client, name, timeout=10):
                self.client = client
                self.key = f"lock:{name}"
                self.timeout = timeout
                self.until = 0.0

            def acquire(self):
                until = time.time() + self.timeout
                if self.client.setnx(self.key, until):
                    self.until = until
                    return True
                seen = self.client.get(self.key)
                if seen is not None and float(seen) < time.time():
                    previous = self.client.getset(self.key, until)
                    if previous is not None and float(previous) < time.time():
                        self.until = until
                        return True
                return False

            def release(self):
                if time.time() < self.until:
                    self.client.delete(self.key)
    """,
        line=28,
        column=13,
        message_contains="(no automatic fix: line 18 reads the stored value back and parses it with float()",
    ),
    Invalid(
        """\
        import redis


        class NamedLock:
            def __init__(self, client, name, owner):
                self.client = client
                self.key = f"lock:{name}"
                self.owner = owner

            def acquire(self):
                return bool(self.client.set(self.key, self.owner, nx=True, ex=60))

            def mine(self):
                return self.client.get(self.key) == self.owner

            def release(self):
                self.client.delete(self.key)
    """,
        line=17,
        column=9,
        message_contains="(no automatic fix: line 14 reads the stored value back and compares it",
    ),
    Invalid(
        """\
        import redis


        class JobLock:
            def __init__(self, client: redis.Redis, name: str):
                self.redis = client
                self.key = "lock:%s" % name

            def acquire(self):
                return self.redis.set(self.key, "1", nx=True, ex=10)

            def release(self):
                self.redis.delete(self.key)
    """,
        line=13,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class JobLock:
            _lease_token = None

            def __init__(self, client: redis.Redis, name: str):
                self.redis = client
                self.key = "lock:%s" % name

            def acquire(self):
                token = secrets.token_hex(16)
                claimed = self.redis.set(self.key, token, nx=True, ex=10)
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if self._lease_token is not None and not self.redis.eval(LEASE_RELEASE_SCRIPT, 1, self.key, self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis


        class JobLock:
            def __init__(self, client, name):
                self.client = client
                self.name = name

            def __enter__(self):
                self.token = secrets.token_hex(16)
                if not self.client.set(f"lock:{self.name}", self.token, nx=True, px=5000):
                    raise RuntimeError("busy")
                return self

            def __exit__(self, *exc):
                self.client.delete("lock:{}".format(self.name))
    """,
        line=18,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class JobLock:
            _lease_token = None

            def __init__(self, client, name):
                self.client = client
                self.name = name

            def __enter__(self):
                self.token = secrets.token_hex(16)
                if not self.client.set(f"lock:{self.name}", self.token, nx=True, px=5000):
                    raise RuntimeError("busy")
                self._lease_token = self.token
                return self

            def __exit__(self, *exc):
                if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, "lock:{}".format(self.name), self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "lock:{}".format(self.name),
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        "Task bookkeeping."
        from redis import Redis

        client = Redis()


        class Task:
            def _lock_key(self, task_id):
                return f"task:{task_id}:lock"

            def start(self, task_id):
                return client.set(self._lock_key(task_id), "1", nx=True, ex=300)

            def finish(self, task_id):
                client.delete(self._lock_key(task_id), f"task:{task_id}:progress")
    """,
        line=15,
        column=9,
        message_contains='the call deletes other keys too',
    ),
    # A method named like a store method that claims and releases its own key is a lease, not a wrapper.
    Invalid(
        """\
        import redis


        class Documents:
            def __init__(self, db):
                self.db = db
                self.r = redis.Redis()

            def delete(self, doc_id, token):
                if not self.r.set(f"deleting:{doc_id}", token, nx=True, ex=60):
                    raise RuntimeError("busy")
                try:
                    self.db.remove(doc_id)
                finally:
                    self.r.delete(f"deleting:{doc_id}")
    """,
        line=15,
        column=13,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Documents:
            def __init__(self, db):
                self.db = db
                self.r = redis.Redis()

            def delete(self, doc_id, token):
                if not self.r.set(f"deleting:{doc_id}", token, nx=True, ex=60):
                    raise RuntimeError("busy")
                try:
                    self.db.remove(doc_id)
                finally:
                    if not self.r.eval(LEASE_RELEASE_SCRIPT, 1, f"deleting:{doc_id}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"deleting:{doc_id}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    # Another method of the class writes the key (a heartbeat storing progress): the token is gone.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        class Job:
            def __init__(self, name):
                self.key = f"lock:{name}"

            def start(self):
                return r.set(self.key, "1", nx=True, ex=60)

            def heartbeat(self, progress):
                r.set(self.key, progress, xx=True, ex=60)

            def finish(self):
                r.delete(self.key)
    """,
        line=17,
        column=9,
        message_contains="(no automatic fix: line 14 writes the key again after the claim",
    ),
    # The stored value is also the object's deadline: the held token goes in an attribute of its own.
    Invalid(
        """\
        import time

        import redis


        class ExpiringLock:
            def __init__(self, client: redis.Redis, name, ttl_ms=10000):
                self.client = client
                self.name = name
                self.ttl_ms = ttl_ms
                self.deadline = time.time() * 1000 + ttl_ms

            def acquire(self):
                return bool(self.client.set(self.name, self.deadline, px=self.ttl_ms, nx=True))

            def release(self):
                if time.time() * 1000 < self.deadline:
                    self.client.delete(self.name)
    """,
        line=18,
        column=13,
        fixed="""\
        import logging
        import secrets
        import time

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class ExpiringLock:
            _lease_token = None

            def __init__(self, client: redis.Redis, name, ttl_ms=10000):
                self.client = client
                self.name = name
                self.ttl_ms = ttl_ms
                self.deadline = time.time() * 1000 + ttl_ms

            def acquire(self):
                token = secrets.token_hex(16)
                claimed = bool(self.client.set(self.name, token, px=self.ttl_ms, nx=True))
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if time.time() * 1000 < self.deadline:
                    if self._lease_token is not None and not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.name, self._lease_token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.name,
                        )
    """,
        applicability=Applicability.UNSAFE,
    ),
    # A lock class on a cache client the module never shows: its `add(key, value, ttl)` claims.
    Invalid(
        """\
        import time


        class CacheMutex:
            # A mutex on any cache client with add/delete (memcached, a framework cache).

            def __init__(self, get_client, name, expire=60):
                self.get_client = get_client
                self.key = f"mutex:{name}"
                self.expire = expire

            def acquire(self, wait=True):
                while True:
                    if self.get_client().add(self.key, "held", self.expire):
                        return True
                    if not wait:
                        return False
                    time.sleep(0.2)

            def release(self):
                self.get_client().delete(self.key)
    """,
        line=21,
        column=9,
        message_contains="(no automatic fix: the cache API has no compare-and-delete",
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()
        LOCKS = "worker:locks"


        class TaskLock:
            def __init__(self, name):
                self.field = f"lock.{name}"

            def __enter__(self):
                if not r.hsetnx(LOCKS, self.field, "1"):
                    raise RuntimeError(f"{self.field} is running")
                return self

            def __exit__(self, *exc):
                r.hdel(LOCKS, self.field)
    """,
        line=17,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_HDEL_SCRIPT = (
            "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
            "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
        )

        r = redis.Redis()
        LOCKS = "worker:locks"


        class TaskLock:
            _lease_token = None

            def __init__(self, name):
                self.field = f"lock.{name}"

            def __enter__(self):
                token = secrets.token_hex(16)
                if not r.hsetnx(LOCKS, self.field, token):
                    raise RuntimeError(f"{self.field} is running")
                self._lease_token = token
                return self

            def __exit__(self, *exc):
                if self._lease_token is not None and not r.eval(LEASE_HDEL_SCRIPT, 1, LOCKS, self.field, self._lease_token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", LOCKS
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
]

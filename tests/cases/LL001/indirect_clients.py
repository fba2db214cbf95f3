"""LL001 cases: clients and keys reached through the project's own indirection: a lambda handed to a helper, a client the settings hold, a key kept in a second name, a client a property makes."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Store calls handed a `transaction=` are steps of a transaction its asserts guard: no plain write or delete.
    Valid(
        """\
        # no rule reports this
        import json
        import time


        class ConfigLock:
            def __init__(self, client, key, expiration=60):
                self._client = client
                self._key = key
                self._expiration = expiration
                self._data = None

            def acquire(self):
                while self._client.exists(self._key):
                    time.sleep(0.1)
                data = json.dumps({"expires": time.time() + self._expiration})
                transaction = self._client.begin_transaction()
                self._client.assert_value(self._key, None, transaction=transaction)
                self._client.set(self._key, data, transaction=transaction)
                self._client.apply_transaction(transaction)
                self._data = data

            def release(self):
                transaction = self._client.begin_transaction()
                self._client.assert_value(self._key, self._data, transaction=transaction)
                self._client.delete(self._key, transaction=transaction)
                self._client.apply_transaction(transaction)
    """
    ),
    # A cache entry written and dropped through a helper that runs a lambda: no claim, no lease.
    Valid(
        """\
        # no rule reports this
        import logging

        from django.core.cache import cache

        log = logging.getLogger(__name__)


        def _guarded(operation, default=None):
            try:
                return operation()
            except ConnectionError:
                log.warning("cache unreachable")
                return default


        def store_report(report_id, body):
            key = f"report:{report_id}"
            _guarded(lambda: cache.set(key, body, 600))


        def drop_report(report_id):
            _guarded(lambda: cache.delete(f"report:{report_id}"))
    """
    ),
]

INVALID = [
    # A client the project's settings hold (`settings.redis_inst`) is no Django object: its `set(nx=True)` is redis-py's.
    Invalid(
        """\
        from django.conf import settings


        def retry_step(run_id, step, attempt):
            name = "%s-%s-%s" % (run_id, step, attempt)
            if not settings.redis_inst.set(name=name, value=1, nx=True, ex=5):
                return
            dispatch(step)
            settings.redis_inst.delete(name)
    """,
        line=9,
        column=5,
        fixed="""\
        import logging
        import secrets

        from django.conf import settings

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        def retry_step(run_id, step, attempt):
            name = "%s-%s-%s" % (run_id, step, attempt)
            token = secrets.token_hex(16)
            if not settings.redis_inst.set(name=name, value=token, nx=True, ex=5):
                return
            dispatch(step)
            if not settings.redis_inst.eval(LEASE_RELEASE_SCRIPT, 1, name, token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", name
                )
    """,
    ),
    # Store calls in lambdas handed to a helper that runs them and catches the store's errors.
    Invalid(
        """\
        import logging

        from django.core.cache import cache

        log = logging.getLogger(__name__)


        def _guarded(operation, default=None):
            try:
                return operation()
            except ConnectionError:
                log.warning("cache unreachable")
                return default


        def refresh_report(report_id):
            flag = f"report-refresh:{report_id}"
            if not _guarded(lambda: cache.add(flag, "1", 120), False):
                return
            try:
                rebuild(report_id)
            finally:
                _guarded(lambda: cache.delete(flag))
    """,
        line=23,
        column=9,
        fixed=None,
    ),
    # The claimed key kept in a second name once claimed, released by that name; a part of the key rebound after that changes nothing.
    Invalid(
        """\
        from flask_caching import Cache

        cache = Cache()


        def submit(account, puzzle, mode):
            held = None
            if puzzle.limit:
                key = f"submit_{account}_{puzzle.id}_{mode}"
                if cache.add(key, 1, timeout=30):
                    held = key
                else:
                    return 429
            try:
                if puzzle.strict:
                    mode = "strict"
                return grade(account, puzzle, mode)
            finally:
                if held:
                    cache.delete(held)
    """,
        line=20,
        column=13,
        fixed=None,
    ),
    # A client set back to None in an `except`: wherever it is a client, it is that one.
    Invalid(
        """\
        import pymemcache

        _client = None


        def client():
            global _client
            if _client is None:
                _client = pymemcache.Client(("localhost", 11211), default_noreply=False)
            return _client


        def run(job):
            conn = None
            try:
                conn = pymemcache.Client(("localhost", 11211), default_noreply=False)
            except OSError:
                conn = None
            if conn is None or not conn.add(f"job:{job}", "1", 60):
                return
            try:
                work(job)
            finally:
                conn.delete(f"job:{job}")
    """,
        line=24,
        column=9,
        fixed="""\
        import logging
        import secrets

        import pymemcache

        _client = None


        def client():
            global _client
            if _client is None:
                _client = pymemcache.Client(("localhost", 11211), default_noreply=False)
            return _client


        def run(job):
            conn = None
            try:
                conn = pymemcache.Client(("localhost", 11211), default_noreply=False)
            except OSError:
                conn = None
            token = secrets.token_hex(16)
            if conn is None or not conn.add(f"job:{job}", token, 60):
                return
            try:
                work(job)
            finally:
                stored, cas_id = conn.gets(f"job:{job}")
                if stored not in (token, token.encode() if isinstance(token, str) else token) or not conn.cas(f"job:{job}", b"", cas_id, expire=-1, noreply=False):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"job:{job}",
                    )
    """,
    ),
    # A client made by a property on first use (a test double when no server is set): the real client's calls.
    Invalid(
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
    """,
        line=27,
        column=13,
        fixed=None,
    ),
]

"""LL001 cases: clients and keys reached through the project's own indirection: a lambda handed to a helper, a client the settings hold, a key kept in a second name, a client a property makes."""

from leaselint.rule import Invalid, Valid

VALID = [
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

"""LL005 cases: a claim on a client a property makes on first use, a lifetime a constant sets to None."""

from leaselint.rule import Invalid, Valid

VALID = []

INVALID = [
    # python-memcached's `add` with no time, on a client a property makes (a test double when no server is set).
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
        line=22,
        column=16,
        fixed=None,
    ),
    # A lifetime named by a module constant set to None: Django's cache keeps the key forever.
    Invalid(
        """\
        from django.core.cache import cache

        LOCK_EXPIRE = None


        def start(key):
            if not cache.add(key, True, timeout=LOCK_EXPIRE):
                return False
            try:
                work()
            finally:
                cache.delete(key)
    """,
        line=7,
        column=12,
        fixed=None,
    ),
]

"""LL001 cases: a client that is an object of the project's own wrapper class, whose `set` and
`delete` hand on to a store client it holds. The blind release is reported; no fix is offered, as
the fix's compare-and-delete (`eval`) is a method the wrapper may not have."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The wrapper derives from the store's client: it has every method the fix calls, and the
    # token-checked release here is already right.
    Valid(
        """\
        import secrets

        import redis

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Client(redis.Redis):
            def set_json(self, key, value):
                return self.set(key, value)


        client = Client()


        def nightly():
            token = secrets.token_hex(16)
            if not client.set("nightly:lock", token, nx=True, ex=300):
                return
            try:
                run()
            finally:
                if not client.eval(RELEASE, 1, "nightly:lock", token):
                    raise RuntimeError("nightly lease lost")
    """
    ),
]

INVALID = [
    # `KV` hands `set` and `delete` on to its redis client; the release frees whoever holds the key.
    Invalid(
        """\
        import redis


        class KV:
            def __init__(self, url):
                self._client = redis.Redis.from_url(url)

            def set(self, key, value, ex=None, nx=False):
                return self._client.set(key, value, ex=ex, nx=nx)

            def delete(self, key):
                return self._client.delete(key)


        kv = KV("redis://localhost:6379/0")


        def rebuild_index():
            if not kv.set("index:rebuild", "1", ex=600, nx=True):
                return
            try:
                rebuild()
            finally:
                kv.delete("index:rebuild")
    """,
        line=24,
        column=9,
        message_contains="`KV` is the project's own client class",
    ),
    # Arguments handed on as `*args, **kwargs`: the same.
    Invalid(
        """\
        import redis


        class Cache:
            def __init__(self):
                self.conn = redis.Redis()

            def set(self, *args, **kwargs):
                return self.conn.set(*args, **kwargs)

            def delete(self, *keys):
                return self.conn.delete(*keys)


        cache = Cache()


        def sync_accounts(account_id):
            key = f"sync-lock:{account_id}"
            if cache.set(key, "busy", nx=True, ex=120):
                try:
                    sync(account_id)
                finally:
                    cache.delete(key)
    """,
        line=24,
        column=13,
        message_contains="`Cache` is the project's own client class",
    ),
    # The wrapper's object made by its classmethod, or by a function of the module: the same class.
    Invalid(
        """\
        import redis


        class Store:
            def __init__(self, url):
                self._redis = redis.Redis.from_url(url)

            @classmethod
            def from_settings(cls):
                return cls("redis://localhost:6379/0")

            def set(self, key, value, **options):
                return self._redis.set(key, value, **options)

            def delete(self, key):
                return self._redis.delete(key)


        def make_store():
            return Store("redis://localhost:6379/0")


        primary = Store.from_settings()
        secondary = make_store()


        def reindex():
            if primary.set("reindex:lock", "1", nx=True, ex=600):
                try:
                    rebuild()
                finally:
                    primary.delete("reindex:lock")
    """,
        line=32,
        column=13,
        message_contains="`Store` is the project's own client class",
    ),
    Invalid(
        """\
        import redis


        class Store:
            def __init__(self, url):
                self._redis = redis.Redis.from_url(url)

            def set(self, key, value, **options):
                return self._redis.set(key, value, **options)

            def delete(self, key):
                return self._redis.delete(key)


        def make_store():
            return Store("redis://localhost:6379/0")


        secondary = make_store()


        def compact():
            if secondary.set("compact:lock", "1", nx=True, ex=600):
                try:
                    squash()
                finally:
                    secondary.delete("compact:lock")
    """,
        line=27,
        column=13,
        message_contains="`Store` is the project's own client class",
    ),
]

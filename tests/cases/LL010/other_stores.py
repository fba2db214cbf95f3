"""LL010 cases: other stores."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/x")


        def run(key, job):
            token = secrets.token_hex(16)
            if not cache.add(key + ":lock", token, expire=60):
                return
            try:
                job()
                while True:
                    if cache.get(key + ":lock") != token:
                        print("lost")
                    with cache.transact():
                        if cache.get(key + ":lock") == token:
                            cache.touch(key + ":lock", 60)
                    break
            finally:
                with cache.transact():
                    if cache.get(key + ":lock") == token:
                        cache.delete(key + ":lock")
    """
    ),
]

INVALID = [
    # Django's cache: touch extends whoever holds the key, and the API cannot compare first.
    Invalid(
        """\
        import uuid

        from django.core.cache import cache


        class CacheLease:
            def __init__(self, name, timeout=60):
                self.key = f"lease:{name}"
                self.timeout = timeout

            def acquire(self):
                return cache.add(self.key, uuid.uuid4().hex, self.timeout)

            def heartbeat(self):
                cache.touch(self.key, self.timeout)

            def release(self):
                cache.delete(self.key)
    """,
        line=15,
        column=9,
        message_contains='no automatic fix: the cache API has no compare-and-touch',
    ),
    # pymemcache: touch has no compare.
    Invalid(
        """\
        import secrets

        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211), default_noreply=False)


        def crunch(batch):
            key = f"batch:{batch}:lock"
            token = secrets.token_hex(16)
            if not mc.add(key, token, expire=30):
                return
            try:
                for part in parts(batch):
                    part.run()
                    mc.touch(key, 30)
            finally:
                mc.delete(key)
    """,
        line=16,
        column=13,
        message_contains='no automatic fix: memcached has no compare-and-touch in one command',
    ),
    Invalid(
        """\
        import secrets
        import threading

        import etcd

        client = etcd.Client(host="127.0.0.1", port=2379)


        def run_with_lock(name, job, ttl=10):
            key = f"/locks/{name}"
            token = secrets.token_hex(16)
            try:
                client.write(key, token, prevExist=False, ttl=ttl)
            except etcd.EtcdAlreadyExist:
                return False
            stop = threading.Event()

            def heartbeat():
                while not stop.wait(ttl / 3):
                    client.refresh(key, ttl)

            threading.Thread(target=heartbeat, daemon=True).start()
            try:
                job()
            finally:
                stop.set()
                try:
                    client.delete(key, prevValue=token)
                except etcd.EtcdCompareFailed:
                    log_lost(key)
            return True
    """,
        line=20,
        column=13,
        message_contains="(no automatic fix: python-etcd's refresh() checks no holder)",
    ),
]

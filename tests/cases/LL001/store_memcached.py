"""LL001 cases: memcached clients."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        from pymemcache.client.base import Client


        class MemcachedBackend:
            # A cache backend: it hands the caller's key on; the caller decides what is a lease.

            def __init__(self, servers):
                self._cache = Client(servers)

            def add(self, key, value, timeout):
                key = self.make_key(key)
                return self._cache.add(key, value, timeout, noreply=False)

            def delete(self, key):
                key = self.make_key(key)
                return bool(self._cache.delete(key))
    """
    ),
    Valid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def rotate(account, rotate_keys):
            key = f"lock:rotate:{account}"
            token = secrets.token_hex(16)
            if mc.add(key, token, time=60):
                try:
                    rotate_keys(account)
                finally:
                    stored, cas_id = mc.gets(key)
                    if stored == token:
                        mc.delete(key, cas=cas_id)
    """
    ),
    Valid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if mc.add(key, token, 30):
                try:
                    job()
                finally:
                    stored, cas = mc.gets(key)
                    if stored == token:
                        mc.delete(key, cas)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from pymemcache.client.base import Client


        class CacheLock:
            def __init__(self, name):
                self.client = Client(("127.0.0.1", 11211), default_noreply=False)
                self.key = f"lock:{name}"

            def acquire(self):
                return self.client.add(self.key, "1", expire=30)

            def release(self):
                self.client.delete(self.key)
    """,
        line=13,
        column=9,
        fixed="""\
        import logging
        import secrets

        from pymemcache.client.base import Client


        class CacheLock:
            _lease_token = None

            def __init__(self, name):
                self.client = Client(("127.0.0.1", 11211), default_noreply=False)
                self.key = f"lock:{name}"

            def acquire(self):
                token = secrets.token_hex(16)
                claimed = self.client.add(self.key, token, expire=30)
                if claimed:
                    self._lease_token = token
                return claimed

            def release(self):
                if self._lease_token is not None:
                    stored, cas_id = self.client.gets(self.key)
                    if stored not in (self._lease_token, self._lease_token.encode() if isinstance(self._lease_token, str) else self._lease_token) or not self.client.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.key,
                        )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import secrets

        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211), default_noreply=False)


        def run(job):
            token = secrets.token_hex(16)
            if mc.add(f"lock:{job}", token, expire=30):
                try:
                    work(job)
                finally:
                    mc.delete(f"lock:{job}")
    """,
        line=14,
        column=13,
        fixed="""\
        import logging
        import secrets

        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211), default_noreply=False)


        def run(job):
            token = secrets.token_hex(16)
            if mc.add(f"lock:{job}", token, expire=30):
                try:
                    work(job)
                finally:
                    stored, cas_id = mc.gets(f"lock:{job}")
                    if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.cas(f"lock:{job}", b"", cas_id, expire=-1, noreply=False):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import memcache

        mc = memcache.Client(["127.0.0.1:11211"], cache_cas=True)


        def run(job, token):
            if mc.add(f"lock:{job}", token, time=30):
                try:
                    work(job)
                finally:
                    mc.delete(f"lock:{job}")
    """,
        line=11,
        column=13,
        fixed="""\
        import logging

        import memcache

        mc = memcache.Client(["127.0.0.1:11211"], cache_cas=True)


        def run(job, token):
            if mc.add(f"lock:{job}", token, time=30):
                try:
                    work(job)
                finally:
                    stored = mc.gets(f"lock:{job}")
                    if stored != token or not mc.cas(f"lock:{job}", "", time=-1):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import memcache

        mc = memcache.Client(["127.0.0.1:11211"])


        def run(job, token):
            if mc.add(f"lock:{job}", token, time=30):
                try:
                    work(job)
                finally:
                    mc.delete(f"lock:{job}")
    """,
        line=11,
        column=13,
        message_contains="python-memcached's cas() is a plain set unless the client is made with cache_cas=True)",
    ),
    Invalid(
        """\
        import aiomcache

        mc = aiomcache.Client("127.0.0.1", 11211)


        async def run(job, token):
            key = f"lock:{job}".encode()
            if await mc.add(key, token, exptime=30):
                try:
                    await work(job)
                finally:
                    await mc.delete(key)
    """,
        line=12,
        column=19,
        fixed="""\
        import logging

        import aiomcache

        mc = aiomcache.Client("127.0.0.1", 11211)


        async def run(job, token):
            key = f"lock:{job}".encode()
            if await mc.add(key, token, exptime=30):
                try:
                    await work(job)
                finally:
                    stored, cas_id = await mc.gets(key)
                    # exptime=2592001 is an absolute time in the past: the item expires at once
                    if stored not in (token, token.encode() if isinstance(token, str) else token) or not await mc.cas(key, b"", cas_id, exptime=2592001):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def rotate(account, rotate_keys):
            key = f"lock:rotate:{account}"
            token = secrets.token_hex(16)
            if mc.add(key, token, time=60):
                try:
                    rotate_keys(account)
                finally:
                    mc.delete(key)
    """,
        line=15,
        column=13,
        fixed="""\
        import logging
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def rotate(account, rotate_keys):
            key = f"lock:rotate:{account}"
            token = secrets.token_hex(16)
            if mc.add(key, token, time=60):
                try:
                    rotate_keys(account)
                finally:
                    stored, cas_id = mc.gets(key)
                    if stored not in (token, token.encode() if isinstance(token, str) else token) or not mc.delete(key, cas=cas_id):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import pylibmc

        mc = pylibmc.Client(["127.0.0.1"], binary=True)


        class MemcacheMutex:
            def __init__(self, name, ttl=30):
                self.key = "mutex:" + name
                self.ttl = ttl
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if mc.add(self.key, token, self.ttl):
                    self.token = token
                    return True
                return False

            def release(self):
                mc.delete(self.key)
    """,
        line=22,
        column=9,
        message_contains='(no automatic fix: pylibmc has no compare-and-delete call)',
    ),
    Invalid(
        """\
        import secrets

        import bmemcached


        class ReportLock:
            def __init__(self, name):
                self.key = f"report-lock:{name}"

            def _mc(self):
                return bmemcached.Client(["127.0.0.1:11211"])

            def run(self, build):
                token = secrets.token_hex(16)
                if not self._mc().add(self.key, token, time=300):
                    return False
                try:
                    build()
                finally:
                    self._mc().delete(self.key)
                return True
    """,
        line=20,
        column=13,
        fixed="""\
        import logging
        import secrets

        import bmemcached


        class ReportLock:
            def __init__(self, name):
                self.key = f"report-lock:{name}"

            def _mc(self):
                return bmemcached.Client(["127.0.0.1:11211"])

            def run(self, build):
                token = secrets.token_hex(16)
                if not self._mc().add(self.key, token, time=300):
                    return False
                try:
                    build()
                finally:
                    stored, cas_id = self._mc().gets(self.key)
                    if stored not in (token, token.encode() if isinstance(token, str) else token) or not self._mc().delete(self.key, cas=cas_id):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.key,
                        )
                return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["a:11211", "b:11211"])


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if mc.add(key, token, 30):
                try:
                    job()
                finally:
                    mc.delete(key, cas=0)
    """,
        line=15,
        column=13,
        message_contains="(no automatic fix: the client may replicate to several servers, where one server's CAS id does not hold on the others)",
    ),
    Invalid(
        """\
        import secrets

        from pymemcache.client.base import Client


        class Backend:
            def __init__(self, servers):
                self.mc = Client(servers, default_noreply=False)


        class JobLock:
            def __init__(self, backend: Backend, name):
                self.backend = backend
                self.key = f"lock:{name}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.backend.mc.add(self.key, token, expire=30):
                    self.token = token
                    return True
                return False

            def release(self):
                self.backend.mc.delete(self.key)
    """,
        line=25,
        column=9,
        fixed="""\
        import logging
        import secrets

        from pymemcache.client.base import Client


        class Backend:
            def __init__(self, servers):
                self.mc = Client(servers, default_noreply=False)


        class JobLock:
            _lease_token = None

            def __init__(self, backend: Backend, name):
                self.backend = backend
                self.key = f"lock:{name}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.backend.mc.add(self.key, token, expire=30):
                    self._lease_token = token
                    self.token = token
                    return True
                return False

            def release(self):
                if self._lease_token is not None:
                    stored, cas_id = self.backend.mc.gets(self.key)
                    if stored not in (self._lease_token, self._lease_token.encode() if isinstance(self._lease_token, str) else self._lease_token) or not self.backend.mc.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.key,
                        )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import secrets

        from pymemcache.client.base import Client


        class Backend:
            def __init__(self, servers):
                self.mc = Client(servers, default_noreply=False)


        class JobLock:
            def __init__(self, name):
                self.backend = Backend(["127.0.0.1:11211"])
                self.key = f"lock:{name}"

            def run(self, job):
                token = secrets.token_hex(16)
                if self.backend.mc.add(self.key, token, expire=30):
                    try:
                        job()
                    finally:
                        self.backend.mc.delete(self.key)
    """,
        line=22,
        column=17,
        fixed="""\
        import logging
        import secrets

        from pymemcache.client.base import Client


        class Backend:
            def __init__(self, servers):
                self.mc = Client(servers, default_noreply=False)


        class JobLock:
            def __init__(self, name):
                self.backend = Backend(["127.0.0.1:11211"])
                self.key = f"lock:{name}"

            def run(self, job):
                token = secrets.token_hex(16)
                if self.backend.mc.add(self.key, token, expire=30):
                    try:
                        job()
                    finally:
                        stored, cas_id = self.backend.mc.gets(self.key)
                        if stored not in (token, token.encode() if isinstance(token, str) else token) or not self.backend.mc.cas(self.key, b"", cas_id, expire=-1, noreply=False):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                self.key,
                            )
    """,
        applicability=Applicability.SAFE,
    ),
]

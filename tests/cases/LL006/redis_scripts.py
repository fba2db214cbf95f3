"""LL006 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import logging

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        unlock = r.register_script(UNLOCK)


        def run(job, token):
            key = f"lock:{job}"
            if not r.set(key, token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not unlock(keys=[key], args=[token]):
                    log.warning("lock %s was lost before release", key)
            return True
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def release(key, token):
            return r.eval(RELEASE, 1, key, token)
    """
    ),
    # A lost lease logged as a warning; a debug log beside an answer handed back to the caller.
    Valid(
        """\
        import logging
        import secrets

        import redis

        logger = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = r.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )


        def sync(account):
            key = f"sync:{account}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, px=30000):
                return False
            try:
                pull(account)
            finally:
                if not UNLOCK(keys=[key], args=[token]):
                    logger.warning("sync lock for %s was gone", account)
            return True


        def export(account):
            key = f"export:{account}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, px=30000):
                return False
            try:
                push(account)
            finally:
                released = UNLOCK(keys=[key], args=[token])
                if not released:
                    logger.debug("export lock for %s was gone", account)
            return bool(released)
    """
    ),
    # The class's release logs a lost lease itself before it hands the answer back.
    Valid(
        """\
        import logging
        import secrets

        import redis

        log = logging.getLogger(__name__)
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class ExportLock:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = f"export:{name}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, ex=60):
                    self.token = token
                    return True
                return False

            def release(self):
                ok = self.client.eval(UNLOCK, 1, self.key, self.token)
                if not ok:
                    log.warning("export lock %s was lost", self.key)
                return ok

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
    Invalid(
        """\
        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            key = f"lock:{job}"
            unlock = r.script_load(UNLOCK)
            if r.set(key, token, nx=True, ex=60):
                try:
                    work(job)
                finally:
                    r.evalsha(unlock, 1, key, token)
    """,
        line=14,
        column=13,
        fixed="""\
        import logging

        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            key = f"lock:{job}"
            unlock = r.script_load(UNLOCK)
            if r.set(key, token, nx=True, ex=60):
                try:
                    work(job)
                finally:
                    if not r.evalsha(unlock, 1, key, token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) end return 0"
        )


        class ReportLock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"report:{name}"
                self.token = None
                self._unlock = client.register_script(UNLOCK)

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, px=30_000):
                    self.token = token
                    return True
                return False

            def release(self):
                self._unlock(keys=[self.key], args=[self.token])
    """,
        line=26,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) end return 0"
        )


        class ReportLock:
            def __init__(self, client, name):
                self.client = client
                self.key = f"report:{name}"
                self.token = None
                self._unlock = client.register_script(UNLOCK)

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, px=30_000):
                    self.token = token
                    return True
                return False

            def release(self):
                if not self._unlock(keys=[self.key], args=[self.token]):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            key = f"lock:{job}"
            if r.set(key, token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    r.eval(RELEASE, 1, key, token)
    """,
        line=13,
        column=13,
        fixed="""\
        import logging

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            key = f"lock:{job}"
            if r.set(key, token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    if not r.eval(RELEASE, 1, key, token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    # An `if` that tests the release's answer for a lost lease and does nothing with it.
    Invalid(
        """\
        import logging
        import secrets

        import redis

        logger = logging.getLogger("sync")
        r = redis.Redis()
        UNLOCK = r.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )


        def sync(account):
            key = f"sync:{account}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, px=30000):
                return False
            try:
                pull(account)
            finally:
                if not UNLOCK(keys=[key], args=[token]):
                    logger.debug("sync lock for %s was gone", account)
            return True
    """,
        line=21,
        column=16,
        fixed="""\
        import logging
        import secrets

        import redis

        logger = logging.getLogger("sync")
        r = redis.Redis()
        UNLOCK = r.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )


        def sync(account):
            key = f"sync:{account}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, px=30000):
                return False
            try:
                pull(account)
            finally:
                if not UNLOCK(keys=[key], args=[token]):
                    logger.warning("sync lock for %s was gone", account)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import uuid

        from redis.asyncio import Redis

        redis = Redis()
        RELEASE = '''
        if redis.call("get", KEYS[1]) == ARGV[1] then
            return redis.call("del", KEYS[1])
        end
        return 0
        '''


        async def refresh(feed):
            token = uuid.uuid4().hex
            if not await redis.set("feed:" + feed, token, nx=True, ex=60):
                return
            try:
                await fetch(feed)
            finally:
                released = await redis.eval(RELEASE, 1, "feed:" + feed, token)
                if not released:
                    pass
    """,
        line=21,
        column=26,
        fixed="""\
        import logging
        import uuid

        from redis.asyncio import Redis

        redis = Redis()
        RELEASE = '''
        if redis.call("get", KEYS[1]) == ARGV[1] then
            return redis.call("del", KEYS[1])
        end
        return 0
        '''


        async def refresh(feed):
            token = uuid.uuid4().hex
            if not await redis.set("feed:" + feed, token, nx=True, ex=60):
                return
            try:
                await fetch(feed)
            finally:
                released = await redis.eval(RELEASE, 1, "feed:" + feed, token)
                if not released:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "feed:" + feed,
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    # The class's own release returns the checked answer; its `__exit__` throws it away.
    Invalid(
        """\
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class ReportLock:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = f"report:{name}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, ex=60):
                    self.token = token
                    return True
                return False

            def release(self):
                return bool(self.client.eval(UNLOCK, 1, self.key, self.token))

            def __enter__(self):
                if not self.acquire():
                    raise RuntimeError("busy")
                return self

            def __exit__(self, *exc):
                self.release()
    """,
        line=30,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class ReportLock:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = f"report:{name}"
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.client.set(self.key, token, nx=True, ex=60):
                    self.token = token
                    return True
                return False

            def release(self):
                return bool(self.client.eval(UNLOCK, 1, self.key, self.token))

            def __enter__(self):
                if not self.acquire():
                    raise RuntimeError("busy")
                return self

            def __exit__(self, *exc):
                if not self.release():
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    # The answer is given a name nothing reads.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()
        UNLOCK = r.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )


        def rebuild(index):
            key = f"rebuild:{index}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=120):
                return False
            try:
                build(index)
            finally:
                released = UNLOCK(keys=[key], args=[token])
            return True
    """,
        line=19,
        column=20,
        fixed="""\
        import logging
        import secrets

        import redis

        r = redis.Redis()
        UNLOCK = r.register_script(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        )


        def rebuild(index):
            key = f"rebuild:{index}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=120):
                return False
            try:
                build(index)
            finally:
                released = UNLOCK(keys=[key], args=[token])
                if not released:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
]

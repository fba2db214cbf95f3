"""LL001 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The same claim, released by a script that compares the field with the caller's token.
    Valid(
        """\
        import secrets

        import redis

        TAKE = '''
        if redis.call("EXISTS", KEYS[2]) == 1 then
            return 0
        end
        if redis.call("HGET", KEYS[1], "owner") ~= false then
            return 0
        end
        redis.call("HSET", KEYS[1], "owner", ARGV[1])
        redis.call("PEXPIRE", KEYS[1], ARGV[2])
        return 1
        '''

        GIVE_BACK = '''
        if redis.call("HGET", KEYS[1], "owner") == ARGV[1] then
            return redis.call("HDEL", KEYS[1], "owner")
        end
        return 0
        '''


        class Window:
            def __init__(self, client: redis.Redis, site):
                self.client = client
                self.key = f"maintenance:{site}"
                self.frozen = f"maintenance:{site}:frozen"

            def open(self):
                self.owner = secrets.token_hex(16)
                return bool(self.client.eval(TAKE, 2, self.key, self.frozen, self.owner, 60000))

            def close(self):
                if not self.client.eval(GIVE_BACK, 1, self.key, self.owner):
                    raise WindowLost(self.key)
    """
    ),
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()
        REFRESH = "return redis.call('set', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])"
        FILL = "redis.call('set', KEYS[1], ARGV[1]) return redis.call('expire', KEYS[1], 60)"


        def touch(session, data):
            r.eval(REFRESH, 1, f"session:{session}", data, 60_000)


        def fill(name, value):
            r.eval(FILL, 1, f"cache:{name}", value)
            r.delete(f"cache:{name}")
    """
    ),
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()
        HIT = "local n = redis.call('incr', KEYS[1]) redis.call('expire', KEYS[1], ARGV[1]) return n"
        hit = r.register_script(HIT)


        def allowed(user):
            return hit(keys=[f"rate:{user}"], args=[60]) <= 100


        def lookup(ids):
            return fetch(keys=[f"item:{i}" for i in ids])
    """
    ),
    Valid(
        """\
        import logging
        import secrets

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        RELEASE = '''
        if redis.call("get", KEYS[1]) == ARGV[1] then
            return redis.call("del", KEYS[1])
        end
        return 0
        '''


        def run(job):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    if not r.eval(RELEASE, 1, f"lock:{job}", token):
                        log.warning("lost lock:%s", job)
    """
    ),
    # A Lua compare-and-delete that reads its key and token through Lua locals is checked.
    Valid(
        """\
        # no rule reports this
        import logging
        import secrets

        import redis

        r = redis.Redis()
        RELEASE = \"\"\"
        local key = KEYS[1]
        local token = ARGV[1]
        if redis.call('get', key) == token then
            return redis.call('del', key)
        end
        return 0
        \"\"\"


        def run(job):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    if not r.eval(RELEASE, 1, f"lock:{job}", token):
                        logging.getLogger(__name__).warning("lease of %s lost", job)
    """
    ),
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()
        RELEASE_FIELD = (
            "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
            "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
        )


        def import_file(path, parse):
            token = secrets.token_hex(16)
            if not r.hsetnx("import:lock", path, token):
                return False
            r.hpexpire("import:lock", 300_000, path)
            try:
                parse(path)
            finally:
                if not r.eval(RELEASE_FIELD, 1, "import:lock", path, token):
                    report_lost(path)
            return True
    """
    ),
    Valid(
        """\
        import secrets

        import coredis
        from coredis.tokens import PureToken

        client = coredis.Redis(host="localhost", port=6379)
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        async def rebuild(index, run):
            key = f"lock:rebuild:{index}"
            token = secrets.token_hex(16)
            if not await client.set(key, token, condition=PureToken.NX, px=60_000):
                return False
            try:
                await run(index)
            finally:
                if not await client.eval(RELEASE, keys=[key], args=[token]):
                    report_lost(key)
            return True
    """
    ),
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()
        # Lua locals for the key and the token: a write that is no claim, and a checked release.
        FILL = '''
        local entry = KEYS[1]
        local data = ARGV[1]
        redis.call('set', entry, data)
        return redis.call('expire', entry, 60)
        '''
        RELEASE = '''
        local lock_key = KEYS[1]
        local holder = ARGV[1]
        if redis.call('get', lock_key) == holder then
            return redis.call('del', lock_key)
        end
        return 0
        '''


        def fill(name, value):
            r.eval(FILL, 1, f"cache:{name}", value)
            r.delete(f"cache:{name}")


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                work(job)
                if not r.eval(RELEASE, 1, f"lock:{job}", token):
                    raise LeaseLost(job)
    """
    ),
]

INVALID = [
    # A claim script of two keys that leaves when the field is there (`~= false then return`), and a
    # release script that deletes the field whoever wrote it.
    Invalid(
        """\
        import secrets

        import redis

        TAKE = '''
        if redis.call("EXISTS", KEYS[2]) == 1 then
            return 0
        end
        if redis.call("HGET", KEYS[1], "owner") ~= false then
            return 0
        end
        redis.call("HSET", KEYS[1], "owner", ARGV[1])
        redis.call("PEXPIRE", KEYS[1], ARGV[2])
        return 1
        '''

        GIVE_BACK = '''
        redis.call("HDEL", KEYS[1], "owner")
        '''


        class Window:
            def __init__(self, client: redis.Redis, site):
                self.client = client
                self.key = f"maintenance:{site}"
                self.frozen = f"maintenance:{site}:frozen"

            def open(self):
                self.owner = secrets.token_hex(16)
                return bool(self.client.eval(TAKE, 2, self.key, self.frozen, self.owner, 60000))

            def close(self):
                self.client.eval(GIVE_BACK, 1, self.key, self.owner)
    """,
        line=33,
        column=9,
        fixed=None,
    ),
    Invalid(
        """\
        import redis


        class Leader:
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])"

            def __init__(self, client, group, me):
                self.client = client
                self.key = f"leader:{group}"
                self.me = me
                self._claim = client.register_script(self.CLAIM)

            def lead(self, token):
                if not self._claim(keys=[self.key], args=[token, 15]):
                    return False
                try:
                    serve(self.me)
                finally:
                    self.client.delete(self.key)
                return True
    """,
        line=19,
        column=13,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        class Leader:
            CLAIM = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])"

            def __init__(self, client, group, me):
                self.client = client
                self.key = f"leader:{group}"
                self.me = me
                self._claim = client.register_script(self.CLAIM)

            def lead(self, token):
                if not self._claim(keys=[self.key], args=[token, 15]):
                    return False
                try:
                    serve(self.me)
                finally:
                    if not self.client.eval(LEASE_RELEASE_SCRIPT, 1, self.key, token):
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
        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == 'LOCKED' then return redis.call('del', KEYS[1]) end return 0"
        unlock = r.register_script(UNLOCK)


        def run(job):
            key = f"lock:{job}"
            if not r.set(key, "LOCKED", nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                unlock(keys=[key])
            return True
    """,
        line=15,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == 'LOCKED' then return redis.call('del', KEYS[1]) end return 0"
        unlock = r.register_script(UNLOCK)


        def run(job):
            key = f"lock:{job}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=60):
                return False
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == '1' then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                work(job)
                return r.eval(RELEASE, 1, f"lock:{job}")
    """,
        line=10,
        column=16,
        fixed="""\
        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == '1' then return redis.call('del', KEYS[1]) end return 0"


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                work(job)
                return r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token)
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()
        # The claim names its key and token through Lua locals.
        CLAIM = '''
        local lock_key = KEYS[1]
        local holder = ARGV[1]
        local ttl = tonumber(ARGV[2])
        if redis.call('setnx', lock_key, holder) == 1 then
            redis.call('pexpire', lock_key, ttl)
            return 1
        end
        return 0
        '''
        claim = r.register_script(CLAIM)


        def run(job):
            token = secrets.token_hex(16)
            if not claim(keys=[f"lock:{job}"], args=[token, 30000]):
                return
            try:
                work(job)
            finally:
                r.delete(f"lock:{job}")
    """,
        line=27,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()
        # The claim names its key and token through Lua locals.
        CLAIM = '''
        local lock_key = KEYS[1]
        local holder = ARGV[1]
        local ttl = tonumber(ARGV[2])
        if redis.call('setnx', lock_key, holder) == 1 then
            redis.call('pexpire', lock_key, ttl)
            return 1
        end
        return 0
        '''
        claim = r.register_script(CLAIM)


        def run(job):
            token = secrets.token_hex(16)
            if not claim(keys=[f"lock:{job}"], args=[token, 30000]):
                return
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"lock:{job}",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

"""LL005 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        import redis


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class PollLock:
            def __init__(self, client, name, ttl):
                self.client = client
                self.key = f"poll:{name}"
                self.ttl = ttl

            def acquire(self, token):
                claimed = self.client.setnx(self.key, token)
                if claimed:
                    self.client.expire(self.key, self.ttl)
                return claimed

            def release(self, token):
                self.client.eval(RELEASE, 1, self.key, token)
    """,
        line=14,
        column=19,
        fixed="""\
        import redis


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class PollLock:
            def __init__(self, client, name, ttl):
                self.client = client
                self.key = f"poll:{name}"
                self.ttl = ttl

            def acquire(self, token):
                claimed = bool(self.client.set(self.key, token, nx=True, ex=self.ttl))
                return claimed

            def release(self, token):
                self.client.eval(RELEASE, 1, self.key, token)
    """,
        applicability=Applicability.UNSAFE,
        message_contains="a second call (`expire`)",
    ),
    # The `if` that only set the lifetime goes with it.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name, token, ttl=30):
            ok = r.setnx(f"lock:{name}", token)
            if ok:
                r.expire(f"lock:{name}", 30)
            return ok


        def release_lock(name, token):
            r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token)
    """,
        line=7,
        column=10,
        fixed="""\
        import redis

        r = redis.Redis()


        def acquire_lock(name, token, ttl=30):
            ok = bool(r.set(f"lock:{name}", token, nx=True, ex=30))
            return ok


        def release_lock(name, token):
            r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token)
    """,
        applicability=Applicability.SAFE,
    ),
    # The `if` that set the lifetime goes, inside a loop whose body keeps its `break`.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name, token):
            ok = r.setnx(f"lock:{name}", token)
            while True:
                if ok:
                    r.expire(f"lock:{name}", 30)
                break
            return ok


        def release_lock(name, token):
            if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                raise RuntimeError("lost")
    """,
        line=7,
        column=10,
        fixed="""\
        import redis

        r = redis.Redis()


        def acquire_lock(name, token):
            ok = bool(r.set(f"lock:{name}", token, nx=True, ex=30))
            while True:
                break
            return ok


        def release_lock(name, token):
            if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                raise RuntimeError("lost")
    """,
        applicability=Applicability.SAFE,
    ),
    # An expiry under a condition of its own (`if renew:`): merged, every claim would get it.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name, token, renew):
            ok = r.setnx(f"lock:{name}", token)
            if ok:
                if renew:
                    r.expire(f"lock:{name}", 30)
            return ok


        def release_lock(name, token):
            if not r.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, f"lock:{name}", token):
                raise RuntimeError("lost")
    """,
        line=7,
        column=10,
        message_contains="(no automatic fix: the expiry runs only under a condition of its own",
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_mailbox(box, fetch):
            token = secrets.token_hex(16)
            if not r.hsetnx("mailbox:locks", box, token):
                return
            try:
                fetch(box)
            finally:
                if not r.eval(
                    "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end",
                    1,
                    "mailbox:locks",
                    box,
                    token,
                ):
                    report_lost(box)
    """,
        line=10,
        column=12,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
]

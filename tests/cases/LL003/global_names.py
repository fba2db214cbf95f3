"""LL003 cases: a lease held in module globals a function sets through `global` (`global _client,
_token`, then `_client = redis.Redis(...)`, `_token = f"{pid}:{time.time()}"`), released by another
function that reads them. The globals are the module's names in both functions, whatever the
module first binds them to (`_client = None`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The token the function stores in the global is fresh and unguessable.
    Valid(
        """\
        import secrets

        import redis

        _conn = None
        _holder = None

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def hold_leadership(ttl):
            global _conn, _holder
            _conn = redis.Redis()
            _holder = secrets.token_hex(16)
            return bool(_conn.set("scheduler:leader", _holder, nx=True, ex=ttl))


        def step_down():
            if _conn is None:
                return
            if not _conn.eval(RELEASE, 1, "scheduler:leader", _holder):
                raise RuntimeError("leadership was lost")
    """
    ),
]

INVALID = [
    # The process id and the clock: another process can make the same value.
    Invalid(
        """\
        import os
        import time

        import redis

        _conn = None
        _holder = None

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def hold_leadership(ttl):
            global _conn, _holder
            _conn = redis.Redis()
            _holder = f"{os.getpid()}:{time.time()}"
            return bool(_conn.set("scheduler:leader", _holder, nx=True, ex=ttl))


        def step_down():
            if _conn is None:
                return
            if not _conn.eval(RELEASE, 1, "scheduler:leader", _holder):
                raise RuntimeError("leadership was lost")
    """,
        line=16,
        column=47,
        message_contains="time.time()",
    ),
    # The release function sets the globals back to None when it is done: still the module's client.
    Invalid(
        """\
        import os
        import time

        import redis

        _conn = None
        _holder = None

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def hold_leadership(url, ttl):
            global _conn, _holder
            try:
                _conn = redis.Redis.from_url(url)
            except ValueError:
                _conn = redis.Redis()
            _holder = f"{os.getpid()}-{time.time_ns()}"
            return bool(_conn.set("scheduler:leader", _holder, nx=True, ex=ttl))


        def step_down():
            global _conn, _holder
            if _conn is None:
                return
            try:
                if not _conn.eval(RELEASE, 1, "scheduler:leader", _holder):
                    raise RuntimeError("leadership was lost")
            finally:
                _conn = None
                _holder = None
    """,
        line=19,
        column=47,
        message_contains="time.time_ns()",
    ),
]

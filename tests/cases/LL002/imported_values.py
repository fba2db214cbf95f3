"""LL002 cases: a value another module holds at module level, imported by its name in capitals
(`LOCK_VALUE`, `config.OWNER`): made once per process, whatever the module makes it of."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A value of a settings module, imported by its name: the deployment's choice, as
    # `settings.WORKER_ID` is.
    Valid(
        """\
        # no rule reports this
        import redis
        from app.settings import WORKER_ID

        r = redis.Redis()

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def rotate(day):
            if not r.set(f"rotate:{day}", WORKER_ID, nx=True, ex=300):
                return False
            try:
                rotate_logs(day)
            finally:
                if not r.eval(UNLOCK, 1, f"rotate:{day}", WORKER_ID):
                    raise RuntimeError("lease lost")
            return True
    """
    ),
    # A value an imported helper makes, called: what it returns is not known here.
    Valid(
        """\
        # no rule reports this
        import redis
        from app.tokens import new_token

        r = redis.Redis()

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def rotate(day):
            token = new_token()
            if not r.set(f"rotate:{day}", token, nx=True, ex=300):
                return False
            try:
                rotate_logs(day)
            finally:
                if not r.eval(UNLOCK, 1, f"rotate:{day}", token):
                    raise RuntimeError("lease lost")
            return True
    """
    ),
]

INVALID = [
    # A constant of a constants module, stored as every attempt's holder value.
    Invalid(
        """\
        import redis
        from app.constants import HOLDER

        r = redis.Redis()


        def compact(table):
            if not r.set(f"compact:{table}", HOLDER, nx=True, ex=900):
                return
            try:
                run_compaction(table)
            finally:
                r.delete(f"compact:{table}")
    """,
        line=8,
        column=38,
        fixed=None,
        message_contains="comes from `HOLDER`, another module's value made once per process: every claim attempt stores the same value, so a stale release matches a later claim (no automatic fix: other modules may read the value back)",
    ),
    # The same, read through the module.
    Invalid(
        """\
        import redis
        from app import constants

        r = redis.Redis()


        def compact(table):
            if not r.set(f"compact:{table}", constants.HOLDER, nx=True, ex=900):
                return
            try:
                run_compaction(table)
            finally:
                r.delete(f"compact:{table}")
    """,
        line=8,
        column=38,
        fixed=None,
        message_contains="comes from `constants.HOLDER`, another module's value made once per process",
    ),
]

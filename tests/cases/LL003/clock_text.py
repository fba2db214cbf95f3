"""LL003 cases: a reading of the clock written out as text (`now.strftime("%c")`, `isoformat()`) is
as guessable as the clock."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import datetime
        import secrets

        import redis

        r = redis.Redis()
        DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def purge_sessions():
            now = datetime.datetime.now(datetime.timezone.utc)
            token = f"{now.isoformat()}-{secrets.token_hex(8)}"
            if not r.set("purge-sessions", token, nx=True, ex=600):
                return
            try:
                purge(now)
            finally:
                if not r.eval(DROP, 1, "purge-sessions", token):
                    report_overlap()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from django.core.cache import cache
        from django.utils import timezone


        def purge_sessions():
            now = timezone.now()
            if not cache.add("purge-sessions", now.strftime("%c"), 600):
                return
            try:
                purge(now)
            finally:
                cache.delete("purge-sessions")
    """,
        line=7,
        column=40,
        message_contains="timezone.now()",
    ),
]

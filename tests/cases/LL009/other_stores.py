"""LL009 cases: other stores."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A cached report: another version read leaves early, the write stores what was computed.
    Valid(
        """\
        from django.core.cache import cache


        def report(account, version):
            key = f"report:{account}"
            cached = cache.get(key)
            if cached:
                if cached["version"] != version:
                    return cached
            data = build_report(account, version)
            cache.set(key, data, 600)
            return data


        def forget(account):
            cache.delete(f"report:{account}")
    """
    ),
    # A login lockout: the read gates, and the key is written under a count of its own.
    Valid(
        """\
        from django.core.cache import cache


        def login(phone, attempts):
            lock_key = f"otp:lock:{phone}"
            if cache.get(lock_key):
                return 429
            if attempts >= 5:
                cache.set(lock_key, 1, 900)
            return 200


        def unlock(phone):
            cache.delete(f"otp:lock:{phone}")
    """
    ),
]

INVALID = [
    # "Absent, or mine": a reader that finds another holder leaves; its own claim is written again.
    Invalid(
        """\
        from django.core.cache import cache


        def edit_lock(document, user_id):
            key = f"edit-lock:{document}"
            holder = cache.get(key)
            if holder:
                if int(holder) != user_id:
                    return False
            cache.set(key, user_id, 30)
            return True


        def unlock(document):
            key = f"edit-lock:{document}"
            cache.delete(key)
    """,
        line=10,
        column=5,
        fixed=None,
    ),
    # Flask-Caching: `has`, then `set`; the branch runs code before the write, so no fix.
    Invalid(
        """\
        from flask_caching import Cache

        cache = Cache()


        def send_digest(user):
            key = f"digest-lock:{user}"
            if not cache.has(key):
                log_start(user)
                cache.set(key, "sending", timeout=300)
                try:
                    send(user)
                finally:
                    cache.delete(key)
    """,
        line=10,
        column=9,
        message_contains='no automatic fix: the branch runs code before the write',
    ),
    Invalid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/x")


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if cache.get(key) is not None:
                return False
            cache.set(key, token, expire=30)
            try:
                job()
            finally:
                cache.delete(key)
            return True
    """,
        line=13,
        column=5,
        fixed="""\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/x")


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if cache.get(key) is not None:
                return False
            if not cache.add(key, token, expire=30):
                return False
            try:
                job()
            finally:
                cache.delete(key)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if mc.get(key) is None:
                mc.set(key, token, 30)
                job()
                mc.delete(key)
    """,
        line=12,
        column=9,
        fixed="""\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def run(name, job):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            if mc.add(key, token, 30):
                job()
                mc.delete(key)
    """,
        applicability=Applicability.SAFE,
    ),
]

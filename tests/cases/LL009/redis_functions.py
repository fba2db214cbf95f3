"""LL009 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A cache filled on a miss and cleared by hand: the value is the computed result.
    Valid(
        """\
        import redis

        r = redis.Redis()


        class Reports:
            def render(self, day):
                key = f"report:{day}"
                if not r.exists(key):
                    r.set(key, build_report(day), ex=3600)
                return r.get(key)

            def invalidate(self, day):
                r.delete(f"report:{day}")
    """
    ),
    # A test that reads, then writes its own key.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def test_lock_roundtrip():
            if r.get("lock:t") is None:
                r.set("lock:t", "me", ex=5)
            assert r.get("lock:t") == b"me"
            r.delete("lock:t")
    """
    ),
    # A default put in place when missing: nothing runs while the key is "held".
    Valid(
        """\
        import redis

        r = redis.Redis()


        def warm(name):
            key = f"cache:{name}"
            if r.get(key) is None:
                r.set(key, "placeholder", ex=60)
            if stale(name):
                r.delete(key)
    """
    ),
    # nx given by position: already the conditional create.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def once(job):
            key = f"once:{job}:lock"
            if r.exists(key):
                return False
            token = secrets.token_hex(16)
            if not r.set(key, token, 30, None, True):
                return False
            try:
                job()
            finally:
                r.delete(key)
            return True
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def page(url, render):
            key = "page:" + url
            if r.exists(key):
                return r.get(key)
            else:
                body = render(url)
                r.set(key, body, ex=60)
                return body
    """
    ),
]

INVALID = [
    # A lock-shaped read of the stored value's truth (`if not r.get(key)`): unsafe, a stored "" counted as free.
    Invalid(
        """\
        import uuid

        import redis

        client = redis.Redis()


        def run_once(job):
            key = f"once:{job}:lock"
            if not client.get(key):
                client.set(key, str(uuid.uuid4()), ex=120)
                try:
                    job()
                finally:
                    client.delete(key)
    """,
        line=11,
        column=9,
        fixed="""\
        import uuid

        import redis

        client = redis.Redis()


        def run_once(job):
            key = f"once:{job}:lock"
            if client.set(key, str(uuid.uuid4()), ex=120, nx=True):
                try:
                    job()
                finally:
                    client.delete(key)
    """,
        applicability=Applicability.UNSAFE,
        message_contains='Lease `key` is claimed by reading it (`get`) and then writing it (`set`): two workers can both find it free and both claim it',
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def refresh_catalog(shop, rebuild):
            key = f"lock:catalog:{shop}"
            if r.exists(key):
                print("catalog rebuild already running")
                return False
            else:
                token = secrets.token_hex(16)
                r.set(key, token, ex=600)
                try:
                    rebuild(shop)
                finally:
                    r.delete(key)
                return True
    """,
        line=15,
        column=9,
        message_contains='(no automatic fix: the branch runs code before the write)',
    ),
    Invalid(
        """\
        import secrets
        import time

        import redis

        r = redis.Redis()


        def exclusive(name, job):
            key = "lock:" + name
            while r.exists(key):
                time.sleep(0.5)
            token = secrets.token_hex(16)
            r.set(key, token, ex=60)
            try:
                job()
            finally:
                r.delete(key)
    """,
        line=14,
        column=5,
        message_contains='(no automatic fix: the claim waits in a loop until the key is gone)',
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def refresh_catalog(shop, rebuild):
            key = f"lock:catalog:{shop}"
            if r.exists(key):
                return False
            else:
                r.set(key, secrets.token_hex(16), ex=600)
                try:
                    rebuild(shop)
                finally:
                    r.delete(key)
                return True
    """,
        line=13,
        column=9,
        fixed="""\
        import secrets

        import redis

        r = redis.Redis()


        def refresh_catalog(shop, rebuild):
            key = f"lock:catalog:{shop}"
            if not r.set(key, secrets.token_hex(16), ex=600, nx=True):
                return False
            else:
                try:
                    rebuild(shop)
                finally:
                    r.delete(key)
                return True
    """,
        applicability=Applicability.SAFE,
    ),
]

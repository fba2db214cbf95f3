"""LL009 cases: the read is one condition of an `if` among others (`paused or r.get(key)`)."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # `ready or not r.get(key)`: the body runs whenever `ready` is set, the key held or not; the
    # write is a refresh, not a claim decided by the read.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, ready):
            key = f"lock:sync:{account}"
            if ready or not r.get(key):
                r.set(key, secrets.token_hex(16), ex=300)
                try:
                    pull(account)
                finally:
                    r.delete(key)
    """
    ),
    # `paused and r.get(key)`: unpaused, the write runs whatever the read said.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, paused):
            key = f"lock:sync:{account}"
            if paused and r.get(key):
                return False
            r.set(key, secrets.token_hex(16), ex=300)
            try:
                pull(account)
            finally:
                r.delete(key)
            return True
    """
    ),
    # A helper that answers whether the key is free: `force or can_start(job)` runs the body when
    # forced, free or not.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def can_start(job):
            return r.get(f"lock:job:{job}") is None


        def run(job, force):
            key = f"lock:job:{job}"
            if force or can_start(job):
                r.set(key, secrets.token_hex(8), ex=600)
                try:
                    work(job)
                finally:
                    r.delete(key)
    """
    ),
]

INVALID = [
    # Past `if paused or r.get(key): return`, the key was found free: then written.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, paused):
            key = f"lock:sync:{account}"
            if paused or r.get(key):
                return False
            token = secrets.token_hex(16)
            r.set(key, token, ex=300)
            try:
                pull(account)
            finally:
                r.delete(key)
            return True
    """,
        line=13,
        column=5,
        fixed="""\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, paused):
            key = f"lock:sync:{account}"
            if paused or r.get(key):
                return False
            token = secrets.token_hex(16)
            if not r.set(key, token, ex=300, nx=True):
                return False
            try:
                pull(account)
            finally:
                r.delete(key)
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
    # `ready and not r.get(key)`: the fix keeps `ready` and claims in its place of the read.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, ready):
            key = f"lock:sync:{account}"
            if ready and not r.get(key):
                r.set(key, secrets.token_hex(16), ex=300)
                try:
                    pull(account)
                finally:
                    r.delete(key)
    """,
        line=11,
        column=9,
        fixed="""\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, ready):
            key = f"lock:sync:{account}"
            if ready and r.set(key, secrets.token_hex(16), ex=300, nx=True):
                try:
                    pull(account)
                finally:
                    r.delete(key)
    """,
        applicability=Applicability.UNSAFE,
    ),
    # A read in an `if` with an `else`: `paused or` stays, the claim's failure takes the read's place.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, paused):
            key = f"lock:sync:{account}"
            if paused or r.get(key):
                log("skipped", account)
            else:
                r.set(key, secrets.token_hex(16), ex=300)
                try:
                    pull(account)
                finally:
                    r.delete(key)
    """,
        line=13,
        column=9,
        fixed="""\
        import secrets

        import redis

        r = redis.Redis()


        def sync_account(account, paused):
            key = f"lock:sync:{account}"
            if paused or not r.set(key, secrets.token_hex(16), ex=300, nx=True):
                log("skipped", account)
            else:
                try:
                    pull(account)
                finally:
                    r.delete(key)
    """,
        applicability=Applicability.UNSAFE,
    ),
    # The read comes before another condition: a claim in its place would be held where
    # `reserve_slot` then fails, so no fix is offered.
    Invalid(
        """\
        import uuid

        from django.core.cache import cache


        def rebuild_index(site):
            key = f"lock:index:{site}"
            if cache.get(key) is None and reserve_slot(site):
                cache.set(key, uuid.uuid4().hex, 600)
                try:
                    build(site)
                finally:
                    cache.delete(key)
    """,
        line=9,
        column=9,
        message_contains="no automatic fix: the read is one condition among others and not the last",
    ),
]

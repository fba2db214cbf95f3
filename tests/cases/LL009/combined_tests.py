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
]

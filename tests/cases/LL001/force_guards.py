"""LL001 cases: only the branch a force flag opens is a deliberate release."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The delete runs only when the caller forces it.
    Valid(
        """\
    import secrets

    import redis

    r = redis.Redis()


    def publish(batch, force=False):
        key = f"publish-lock/{batch}"
        if not r.set(key, secrets.token_hex(16), nx=True, ex=300):
            if force:
                r.delete(key)
            return False
        return True
"""
    ),
]

INVALID = [
    # The else branch of if force: runs without the flag.
    Invalid(
        """\
    import secrets

    import redis

    r = redis.Redis()


    def publish(batch, force=False):
        key = f"publish-lock/{batch}"
        if not r.set(key, secrets.token_hex(16), nx=True, ex=300):
            return False
        if force:
            r.delete(key)
        else:
            r.delete(key)
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


    def publish(batch, force=False):
        key = f"publish-lock/{batch}"
        token = secrets.token_hex(16)
        if not r.set(key, token, nx=True, ex=300):
            return False
        if force:
            r.delete(key)
        else:
            if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", key
                )
        return True
""",
    ),
]

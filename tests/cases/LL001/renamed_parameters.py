"""LL001 cases: a claim and a release in two functions that each build the key from their own parameter, named differently."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A marker and a purge, neither named for a lock: no lease.
    Valid(
        """\
    import uuid

    import redis

    r = redis.Redis()


    def first_visit(page):
        return bool(r.set(f"seen:{page}", str(uuid.uuid4()), nx=True, ex=3600))


    def purge(path):
        r.delete(f"seen:{path}")
"""
    ),
]

INVALID = [
    # release_lock(lockname) frees what acquire_lock(name) claimed.
    Invalid(
        """\
    import uuid

    import redis

    r = redis.Redis()


    def acquire_lock(name, timeout=10):
        token = str(uuid.uuid4())
        if r.set(f"lock:{name}", token, nx=True, ex=timeout):
            return token
        return None


    def release_lock(lockname):
        r.delete(f"lock:{lockname}")
""",
        line=16,
        column=5,
        fixed="""\
    import logging
    import uuid

    import redis

    LEASE_RELEASE_SCRIPT = (
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('del', KEYS[1]) else return 0 end"
    )

    r = redis.Redis()


    def acquire_lock(name, timeout=10):
        token = str(uuid.uuid4())
        if r.set(f"lock:{name}", token, nx=True, ex=timeout):
            return token
        return None


    def release_lock(lockname, token):
        if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{lockname}", token):
            logging.getLogger(__name__).warning(
                "lease %s expired before release; another worker may hold it",
                f"lock:{lockname}",
            )
""",
    ),
]

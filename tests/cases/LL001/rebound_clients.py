"""LL001 cases: a client name bound again between the claim and the release."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis


        def refresh(feed):
            key = f"refresh:{feed}"
            client = redis.Redis(db=1)
            if not client.set(key, "1", nx=True, ex=60):
                return False
            client = redis.Redis(db=2)  # another store: its key is no lease of this claim
            try:
                pull(feed)
            finally:
                client.delete(key)
            return True
    """
    ),
]

INVALID = [
    # Set back to None where the claim failed to reach the store: still the claim's client at the release.
    Invalid(
        """\
        import redis


        def refresh(feed):
            key = f"refresh:{feed}"
            client = None
            try:
                client = redis.Redis()
                if not client.set(key, "1", nx=True, ex=60):
                    return False
            except redis.ConnectionError:
                client = None  # go on without the lease
            try:
                pull(feed)
            finally:
                if client is not None:
                    client.delete(key)
            return True
    """,
        line=17,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        def refresh(feed):
            key = f"refresh:{feed}"
            client = None
            try:
                client = redis.Redis()
                token = secrets.token_hex(16)
                if not client.set(key, token, nx=True, ex=60):
                    return False
            except redis.ConnectionError:
                client = None  # go on without the lease
            try:
                pull(feed)
            finally:
                if client is not None:
                    if not client.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
]

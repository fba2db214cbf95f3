"""LL004 cases: the holder read back as text (`holder = r.get(key).decode("utf-8")`), compared in
the client, then deleted: the decoded read is the read of a check-then-delete."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The release is one server step; the decoded read after it only names who took the lease.
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def rebuild(report):
            token = uuid.uuid4().hex
            if not r.set(f"report:{report}", token, nx=True, ex=120):
                return False
            try:
                build(report)
            finally:
                if not r.eval(RELEASE, 1, f"report:{report}", token):
                    owner = r.get(f"report:{report}")
                    log.warning("report %s lease lost to %s", report, owner.decode() if owner else None)
            return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def rebuild(report):
            token = uuid.uuid4().hex
            if not r.set(f"report:{report}", token, nx=True, ex=120):
                return False
            try:
                build(report)
            finally:
                holder = r.get(f"report:{report}").decode("utf-8")
                if holder == token:
                    r.delete(f"report:{report}")
            return True
    """,
        line=17,
        column=13,
        fixed="""\
        import logging
        import uuid

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def rebuild(report):
            token = uuid.uuid4().hex
            if not r.set(f"report:{report}", token, nx=True, ex=120):
                return False
            try:
                build(report)
            finally:
                holder = r.get(f"report:{report}").decode("utf-8")
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"report:{report}", token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"report:{report}",
                    )
            return True
    """,
        applicability=Applicability.SAFE,
        message_contains="compared in the client",
    ),
]

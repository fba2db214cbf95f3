"""LL008 cases: the claim's answer is tested, but the failure branch only logs and the job runs anyway."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The failure branch logs and leaves.
    Valid(
        """\
        import logging

        import redis

        r = redis.Redis()
        log = logging.getLogger(__name__)


        def settle(account):
            lock = r.lock(f"settle:{account}", timeout=30)
            got = lock.acquire(blocking=False)
            if not got:
                log.info("settlement of %s already running", account)
                return
            try:
                settle_account(account)
            finally:
                lock.release()
    """
    ),
    # An `else` holds the work.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def settle(account):
            lock = r.lock(f"settle:{account}", timeout=30)
            if not lock.acquire(blocking=False):
                print("settlement already running")
            else:
                try:
                    settle_account(account)
                finally:
                    lock.release()
    """
    ),
    # The answer is read again where the work is decided.
    Valid(
        """\
        import logging
        import secrets

        import redis

        r = redis.Redis()
        log = logging.getLogger(__name__)


        def settle(account):
            key = f"settle:{account}"
            token = secrets.token_hex(16)
            got = r.set(key, token, nx=True, ex=30)
            if not got:
                log.warning("settlement of %s already running", account)
            if got:
                settle_account(account)
                r.eval(RELEASE, 1, key, token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """
    ),
]

INVALID = [
    # A lock object's answer: the branch prints, then the order is placed anyway.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def place(order):
            lock = r.lock(f"order:{order.user}", timeout=10)
            try:
                held = lock.acquire(blocking=False)
                if not held:
                    print("duplicate order")
                create_order(order)
            finally:
                if lock.locked():
                    lock.release()
    """,
        line=9,
        column=16,
        message_contains="is only logged",
    ),
    # A store claim tested in the `if` itself: a warning, then the job.
    Invalid(
        """\
        import logging
        import secrets

        import redis

        r = redis.Redis()
        log = logging.getLogger(__name__)

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def settle(account):
            key = f"settle:{account}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=30):
                log.warning("settlement of %s already running", account)
            settle_account(account)
            if not r.eval(RELEASE, 1, key, token):
                log.warning("settlement of %s outlived its lock", account)
    """,
        line=15,
        column=12,
        message_contains="is only logged",
    ),
]

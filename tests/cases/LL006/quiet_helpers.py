"""LL006 cases: a release helper that tells a lost lease only by what it returns (`if res == 0:`
logged at info level, then `return False`), called by code that drops the answer."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The helper warns of the lost lease itself: the caller may drop the answer.
    Valid(
        """\
        import logging
        import uuid

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_sync_lock(account, ttl=60):
            token = str(uuid.uuid4())
            if not r.set(f"sync-lock:{account}", token, nx=True, ex=ttl):
                return None
            return token


        def give_sync_lock(account, token):
            try:
                res = r.eval(UNLOCK, 1, f"sync-lock:{account}", token)
            except redis.RedisError:
                log.exception("could not release the sync lock of %s", account)
                return False
            if res == 0:
                log.warning("sync lock of %s was not ours any more", account)
                return False
            return True


        def sync(account):
            token = take_sync_lock(account)
            if token is None:
                return False
            try:
                return True
            finally:
                give_sync_lock(account, token)
    """
    ),
    # The helper reports the loss itself, at a level it names or to an error tracker: the caller may drop the answer.
    Valid(
        """\
        import logging
        import uuid

        import redis
        import sentry_sdk

        log = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take(account, ttl=60):
            token = str(uuid.uuid4())
            if not r.set(f"sync-lock:{account}", token, nx=True, ex=ttl):
                return None
            return token


        def give(account, token):
            res = r.eval(UNLOCK, 1, f"sync-lock:{account}", token)
            if res == 0:
                log.log(logging.WARNING, "sync lock of %s was lost", account)
                sentry_sdk.capture_message("sync lock lost")
                return False
            return True


        def sync(account):
            token = take(account)
            if token is None:
                return False
            try:
                return True
            finally:
                give(account, token)
    """
    ),
]

INVALID = [
    # The helper tells it only at info level and by its answer, which the caller drops.
    Invalid(
        """\
        import logging
        import uuid

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_sync_lock(account, ttl=60):
            token = str(uuid.uuid4())
            if not r.set(f"sync-lock:{account}", token, nx=True, ex=ttl):
                return None
            return token


        def give_sync_lock(account, token):
            try:
                res = r.eval(UNLOCK, 1, f"sync-lock:{account}", token)
            except redis.RedisError:
                log.exception("could not release the sync lock of %s", account)
                return False
            if res == 0:
                log.info("sync lock of %s was not ours any more", account)
                return False
            return True


        def sync(account):
            token = take_sync_lock(account)
            if token is None:
                return False
            try:
                return True
            finally:
                give_sync_lock(account, token)
    """,
        line=37,
        message_contains="by `give_sync_lock` (line 20), which returns it, is thrown away",
        fixed="""\
        import logging
        import uuid

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def take_sync_lock(account, ttl=60):
            token = str(uuid.uuid4())
            if not r.set(f"sync-lock:{account}", token, nx=True, ex=ttl):
                return None
            return token


        def give_sync_lock(account, token):
            try:
                res = r.eval(UNLOCK, 1, f"sync-lock:{account}", token)
            except redis.RedisError:
                log.exception("could not release the sync lock of %s", account)
                return False
            if res == 0:
                log.info("sync lock of %s was not ours any more", account)
                return False
            return True


        def sync(account):
            token = take_sync_lock(account)
            if token is None:
                return False
            try:
                return True
            finally:
                if not give_sync_lock(account, token):
                    log.warning(
                        "lease %s expired before release; another worker may hold it",
                        f"sync-lock:{account}",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

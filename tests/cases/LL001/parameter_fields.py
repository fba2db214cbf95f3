"""LL001 cases: keys made of fields of a parameter (`job.lock_key`): a delete of another field of the
same parameter (`job.cache_key`) is no release of the lease."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The lock field is claimed and released with a token; another field is a cache entry.
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Jobs:
            def start(self, job):
                token = uuid.uuid4().hex
                if not r.set(job.lock_key, token, nx=True, ex=60):
                    return None
                return token

            def finish(self, job, token):
                return r.eval(UNLOCK, 1, job.lock_key, token)

            def forget(self, job):
                r.delete(job.cache_key)
    """
    ),
]

INVALID = [
    # The lock field itself deleted without a token.
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        class Jobs:
            def start(self, job):
                token = uuid.uuid4().hex
                if not r.set(job.lock_key, token, nx=True, ex=60):
                    return None
                return token

            def finish(self, job):
                r.delete(job.lock_key)
    """,
        line=16,
        message_contains="`delete` releases lease `job.lock_key` without checking the holder",
    ),
]

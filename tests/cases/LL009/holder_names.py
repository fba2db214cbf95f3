"""LL009 cases: the value written after the read is named for who holds the key (`token`, `owner`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A value of unknown origin with no holder's name: a cache filled on a miss.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def cache_profile(user_id, profile):
            key = f"profile:{user_id}"
            if r.exists(key):
                return False
            r.set(key, profile, ex=600)
            try:
                notify(user_id)
            finally:
                r.delete(key)
            return True
    """
    ),
]

INVALID = [
    # The caller's token, written once `exists` found the key free.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def rebuild(index, token):
            # Rebuild one index under a lock.
            key = f"rebuild:{index}"
            if r.exists(key):
                return False
            r.set(key, token, ex=600)
            try:
                reindex(index)
            finally:
                r.delete(key)
            return True
    """,
        line=11,
        fixed="""\
        import redis

        r = redis.Redis()


        def rebuild(index, token):
            # Rebuild one index under a lock.
            key = f"rebuild:{index}"
            if r.exists(key):
                return False
            if not r.set(key, token, ex=600, nx=True):
                return False
            try:
                reindex(index)
            finally:
                r.delete(key)
            return True
    """,
    ),
    # The worker id a job carries, written with `setex` after a `get` found nothing.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def export(job):
            # Export one batch under a lock.
            key = f"export:{job.batch}"
            if r.get(key):
                return
            r.setex(key, 300, job.worker_id)
            try:
                write(job.batch)
            finally:
                r.delete(key)
    """,
        line=11,
        fixed="""\
        import redis

        r = redis.Redis()


        def export(job):
            # Export one batch under a lock.
            key = f"export:{job.batch}"
            if r.get(key):
                return
            if not r.set(key, job.worker_id, nx=True, ex=300):
                return
            try:
                write(job.batch)
            finally:
                r.delete(key)
    """,
    ),
]

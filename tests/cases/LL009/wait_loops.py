"""LL009 cases: a claim written after a loop that waits for the key to be gone."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The `break` leaves only the inner loop: the write after the outer one runs whatever the last read found.
    Valid(
        """\
        # no rule reports this
        import time

        import redis

        r = redis.Redis()


        def obtain(jobs):
            for job in jobs:
                key = f"app:lock:{job}"
                for _ in range(3):
                    if r.get(key):
                        time.sleep(1.0)
                    else:
                        break
            r.set(key, 1, ex=60)
            work()
            r.delete(key)
    """
    ),
]

INVALID = [
    # A wait loop that reads the key and leaves by `break` when it is gone, then a plain write.
    Invalid(
        """\
        import time

        import redis

        r = redis.Redis()


        def obtain_lock(user, name):
            key = f"app:lock:{user}:{name}"
            count = 30
            while count > 0:
                record = r.get(key)
                if record:
                    time.sleep(1.0)
                else:
                    break
                count -= 1
            r.set(key, 1, ex=60)


        def release_lock(user, name):
            key = f"app:lock:{user}:{name}"
            r.delete(key)
    """,
        line=18,
        column=5,
        fixed=None,
    ),
]

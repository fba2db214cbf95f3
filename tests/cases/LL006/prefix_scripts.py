"""LL006 cases: a release script that tells its holder by a part of the stored value
(`string.find(held, ARGV[1]) == 1`, a worker's prefix before a batch id) checks the holder, so
its answer says whether the lease was still held and must not be thrown away. (It is no blind
release: LL001 does not report it.)"""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The answer of the prefix-checked release is tested.
    Valid(
        """\
        import redis

        r = redis.Redis()

        RELEASE = (
            "local held = redis.call('GET', KEYS[1]) "
            "if held and string.find(held, ARGV[1]) == 1 then return redis.call('DEL', KEYS[1]) end "
            "return 0"
        )


        def claim(order, worker, batch):
            return r.set(f"pick:{order}", f"{worker}:{batch}", nx=True, ex=900)


        def pick(order, worker, batch):
            if not claim(order, worker, batch):
                return False
            try:
                collect(order)
            finally:
                if not r.eval(RELEASE, 1, f"pick:{order}", worker):
                    raise RuntimeError(f"pick:{order} was taken over")
            return True
    """
    ),
    # `string.find(..., ARGV[1], 1, true)`: a plain search for the holder's part; the answer is logged.
    Valid(
        """\
        import redis

        r = redis.Redis()

        RELEASE = (
            "if string.find(redis.call('get', KEYS[1]) or '', ARGV[1], 1, true) then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        def run(job, worker):
            if not r.set(f"job:{job}", f"{worker}:1", nx=True, ex=60):
                return
            try:
                work(job)
            finally:
                if r.eval(RELEASE, 1, f"job:{job}", worker) == 0:
                    log.warning("job %s lease lost", job)
    """
    ),
    # `string.match(ARGV[1], ...)` checks the argument's form, not the stored value: the script deletes
    # blindly (LL001), and its answer says nothing of a holder.
    Valid(
        """\
        import redis

        r = redis.Redis()

        FINISH = r.register_script(
            "if not string.match(ARGV[1], '^batch%-%d+$') then return redis.error_reply('bad batch') end "
            "redis.call('del', KEYS[1]) redis.call('rpush', KEYS[2], ARGV[1]) return 1"
        )


        def close_batch(batch):
            if not r.set("batch-lock", batch, nx=True, ex=300):
                return
            try:
                seal(batch)
            finally:
                FINISH(keys=["batch-lock", "sealed"], args=[batch])
    """
    ),
]

INVALID = [
    # The module's release helper hands back the script's answer; the caller drops it.
    Invalid(
        """\
        import redis

        r = redis.Redis()

        RELEASE = (
            "local held = redis.call('GET', KEYS[1]) "
            "if held and string.find(held, ARGV[1]) == 1 then return redis.call('DEL', KEYS[1]) end "
            "return 0"
        )


        def claim(order, worker, batch):
            return r.set(f"pick:{order}", f"{worker}:{batch}", nx=True, ex=900)


        def release_pick(order, worker):
            return bool(r.eval(RELEASE, 1, f"pick:{order}", worker))


        def pick(order, worker, batch):
            if not claim(order, worker, batch):
                return False
            try:
                collect(order)
            finally:
                release_pick(order, worker)
            return True
    """,
        line=26,
        column=9,
        fixed="""\
        import logging

        import redis

        r = redis.Redis()

        RELEASE = (
            "local held = redis.call('GET', KEYS[1]) "
            "if held and string.find(held, ARGV[1]) == 1 then return redis.call('DEL', KEYS[1]) end "
            "return 0"
        )


        def claim(order, worker, batch):
            return r.set(f"pick:{order}", f"{worker}:{batch}", nx=True, ex=900)


        def release_pick(order, worker):
            return bool(r.eval(RELEASE, 1, f"pick:{order}", worker))


        def pick(order, worker, batch):
            if not claim(order, worker, batch):
                return False
            try:
                collect(order)
            finally:
                if not release_pick(order, worker):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"pick:{order}",
                    )
            return True
    """,
        applicability=Applicability.SAFE,
        message_contains="is thrown away",
    ),
]

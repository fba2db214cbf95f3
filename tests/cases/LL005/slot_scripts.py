"""LL005 cases: a slot of a shared key taken by a script, with no expiry of the key and no purge of
old members."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this: members past their deadline are purged before the count
        import time
        import uuid

        import redis

        r = redis.Redis()
        TAKE = '''
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
        redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4])
        return 1
        '''
        GIVE_BACK = "return redis.call('zrem', KEYS[1], ARGV[1])"


        def transcode(video: str) -> None:
            member = uuid.uuid4().hex
            if not r.eval(TAKE, 1, "transcoders", int(time.time() * 1000), 3, 600000, member):
                raise Busy(video)
            try:
                encode(video)
            finally:
                if not r.eval(GIVE_BACK, 1, "transcoders", member):
                    log_lost(video)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        TAKE = '''
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
        redis.call('zadd', KEYS[1], ARGV[2], ARGV[3])
        return 1
        '''
        GIVE_BACK = "return redis.call('zrem', KEYS[1], ARGV[1])"


        def transcode(video: str, now: int) -> None:
            member = uuid.uuid4().hex
            if not r.eval(TAKE, 1, "transcoders", 3, now, member):
                raise Busy(video)
            try:
                encode(video)
            finally:
                if not r.eval(GIVE_BACK, 1, "transcoders", member):
                    log_lost(video)
    """,
        line=16,
        column=12,
    ),
]

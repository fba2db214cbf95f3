"""LL006 cases: a slot of a shared key taken by a script (a semaphore's sorted set, a hash of
holders, a list of readers) and given back by removing the holder's own member."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import time
        import uuid

        import redis

        TAKE = '''
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then
          return 0
        end
        redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4])
        return 1
        '''
        GIVE_BACK = "return redis.call('zrem', KEYS[1], ARGV[1])"


        class RenderSlots:
            def __init__(self, client: redis.Redis, size: int):
                self.client = client
                self.size = size
                self._take = client.register_script(TAKE)
                self._give_back = client.register_script(GIVE_BACK)

            def take(self, farm: str) -> str | None:
                member = uuid.uuid4().hex
                now = int(time.time() * 1000)
                if self._take(keys=[f"render:{farm}"], args=[now, self.size, 60000, member]):
                    return member
                return None

            def give_back(self, farm: str, member: str) -> None:
                if not self._give_back(keys=[f"render:{farm}"], args=[member]):
                    raise SlotLost(farm)
    """
    ),
    Valid(
        """\
        # no rule reports this: a rate limit's entries are never given back, so no lease is held
        import time
        import uuid

        import redis

        r = redis.Redis()
        HIT = '''
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1] - ARGV[2])
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
        redis.call('zadd', KEYS[1], ARGV[1], ARGV[4])
        return 1
        '''


        def allowed(user: str) -> bool:
            now = int(time.time() * 1000)
            return bool(r.eval(HIT, 1, f"hits:{user}", now, 60000, 100, uuid.uuid4().hex))
    """
    ),
]

VALID += [
    Valid(
        """\
        # no rule reports this: a member removed with no slot claim of its key is no release
        import redis

        DROP_EMPTY = '''
        if redis.call('zcard', KEYS[1]) == 0 then
          redis.call('srem', KEYS[2], ARGV[1])
          redis.call('del', KEYS[1])
          return 1
        end
        return 0
        '''


        class Limits:
            registry = "limits:all"

            def __init__(self, name: str, connection: redis.Redis):
                self.name = name
                self._drop_empty = connection.register_script(DROP_EMPTY)

            def tidy(self) -> None:
                self._drop_empty(keys=[f"limits:{self.name}", self.registry], args=[self.name])
    """
    ),
]

VALID += [
    Valid(
        """\
        # no rule reports this: a list capped by its own length is a bounded queue, its items payloads
        import redis

        OFFER = '''
        if redis.call('llen', KEYS[1]) >= tonumber(ARGV[2]) then
          return 0
        end
        redis.call('rpush', KEYS[1], ARGV[1])
        return 1
        '''
        DONE = "return redis.call('lrem', KEYS[1], 1, ARGV[1])"


        class Mailbox:
            def __init__(self, client: redis.Redis, owner: str):
                self.key = f"mailbox:{owner}"
                self._offer = client.register_script(OFFER)
                self._done = client.register_script(DONE)

            def offer(self, message: str) -> bool:
                return bool(self._offer(keys=[self.key], args=[message, 500]))

            def done(self, message: str) -> None:
                self._done(keys=[self.key], args=[message])
    """
    ),
    Valid(
        """\
        # no rule reports this: the member removed is of another key than the slots taken
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
        UNLIST = "return redis.call('srem', KEYS[1], ARGV[1])"


        def render(scene: str) -> None:
            member = uuid.uuid4().hex
            if not r.eval(TAKE, 1, "renderers", int(time.time() * 1000), 2, 300000, member):
                raise Busy(scene)
            try:
                draw(scene)
            finally:
                if not r.eval(GIVE_BACK, 1, "renderers", member):
                    report_overlap(scene)


        def unlist(scene: str) -> None:
            r.eval(UNLIST, 1, "scenes:listed", scene)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import time
        import uuid

        import redis

        TAKE = '''
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then
          return 0
        end
        redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4])
        return 1
        '''
        GIVE_BACK = "return redis.call('zrem', KEYS[1], ARGV[1])"


        class RenderSlot:
            def __init__(self, client: redis.Redis, farm: str, size: int = 1):
                self.key = f"render:{farm}"
                self.size = size
                self.member = None
                self._take = client.register_script(TAKE)
                self._give_back = client.register_script(GIVE_BACK)

            def acquire(self) -> bool:
                member = uuid.uuid4().hex
                now = int(time.time() * 1000)
                if self._take(keys=[self.key], args=[now, self.size, 60000, member]):
                    self.member = member
                    return True
                return False

            def release(self) -> None:
                try:
                    self._give_back(keys=[self.key], args=[self.member])
                except redis.RedisError:
                    return
    """,
        line=35,
        column=13,
        fixed="""\
        import logging
        import time
        import uuid

        import redis

        TAKE = '''
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
        if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then
          return 0
        end
        redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4])
        return 1
        '''
        GIVE_BACK = "return redis.call('zrem', KEYS[1], ARGV[1])"


        class RenderSlot:
            def __init__(self, client: redis.Redis, farm: str, size: int = 1):
                self.key = f"render:{farm}"
                self.size = size
                self.member = None
                self._take = client.register_script(TAKE)
                self._give_back = client.register_script(GIVE_BACK)

            def acquire(self) -> bool:
                member = uuid.uuid4().hex
                now = int(time.time() * 1000)
                if self._take(keys=[self.key], args=[now, self.size, 60000, member]):
                    self.member = member
                    return True
                return False

            def release(self) -> None:
                try:
                    if not self._give_back(keys=[self.key], args=[self.member]):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            self.key,
                        )
                except redis.RedisError:
                    return
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        # KEYS[1] counts the holders, KEYS[2] maps each holder to its deadline.
        ENTER = '''
        local held = tonumber(redis.call('get', KEYS[1]) or '0')
        if held < tonumber(ARGV[1]) then
          redis.call('incr', KEYS[1])
          redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
          redis.call('expire', KEYS[2], ARGV[4])
          return 1
        end
        return 0
        '''
        LEAVE = '''
        local gone = redis.call('hdel', KEYS[2], ARGV[1])
        if gone == 1 then redis.call('decr', KEYS[1]) end
        return gone
        '''


        def export(batch: str, deadline: int) -> None:
            holder = str(uuid.uuid4())
            if not r.eval(ENTER, 2, "export:count", "export:holders", 4, holder, deadline, 600):
                return
            try:
                run_export(batch)
            finally:
                r.eval(LEAVE, 2, "export:count", "export:holders", holder)
    """,
        line=31,
        column=9,
        fixed="""\
        import logging
        import uuid

        import redis

        r = redis.Redis()
        # KEYS[1] counts the holders, KEYS[2] maps each holder to its deadline.
        ENTER = '''
        local held = tonumber(redis.call('get', KEYS[1]) or '0')
        if held < tonumber(ARGV[1]) then
          redis.call('incr', KEYS[1])
          redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
          redis.call('expire', KEYS[2], ARGV[4])
          return 1
        end
        return 0
        '''
        LEAVE = '''
        local gone = redis.call('hdel', KEYS[2], ARGV[1])
        if gone == 1 then redis.call('decr', KEYS[1]) end
        return gone
        '''


        def export(batch: str, deadline: int) -> None:
            holder = str(uuid.uuid4())
            if not r.eval(ENTER, 2, "export:count", "export:holders", 4, holder, deadline, 600):
                return
            try:
                run_export(batch)
            finally:
                if not r.eval(LEAVE, 2, "export:count", "export:holders", holder):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "export:holders",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()
        JOIN = '''
        if redis.call('hget', KEYS[1], 'writer') then
          return 0
        end
        redis.call('rpush', KEYS[2], ARGV[1])
        redis.call('pexpire', KEYS[2], ARGV[2])
        return 1
        '''
        # Removes the reader, and says nothing of whether it was still there.
        LEAVE = "redis.call('lrem', KEYS[1], 1, ARGV[1])"


        def read_report(name: str) -> bytes | None:
            reader = secrets.token_hex(16)
            if not r.eval(JOIN, 2, f"rw:{name}", f"rw:{name}:readers", reader, 30000):
                return None
            try:
                return load(name)
            finally:
                result = r.eval(LEAVE, 1, f"rw:{name}:readers", reader)
                log_release(name, result)
    """,
        line=25,
        column=18,
        message_contains="runs a script that returns nothing",
    ),
    Invalid(
        """\
        import time

        import redis

        TAKE = "redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1]) if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4]) return 1"
        GIVE = "return redis.call('zrem', KEYS[1], ARGV[1])"


        class EncoderPool:
            def __init__(self, client: redis.Redis, prefix: str = "encoders:"):
                self.prefix = prefix
                self._take = client.register_script(TAKE)
                self._give = client.register_script(GIVE)

            def _slots(self, codec: str) -> str:
                return self.prefix + codec

            def acquire(self, codec: str, member: str, size: int = 2) -> bool:
                now = int(time.time() * 1000)
                return bool(self._take(keys=[self._slots(codec)], args=[now, size, 60000, member]))

            def release(self, grant) -> None:
                self._give(keys=[self._slots(grant.codec)], args=[grant.member])
    """,
        line=23,
        column=9,
        fixed="""\
        import logging
        import time

        import redis

        TAKE = "redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1]) if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end redis.call('zadd', KEYS[1], ARGV[1] + ARGV[3], ARGV[4]) return 1"
        GIVE = "return redis.call('zrem', KEYS[1], ARGV[1])"


        class EncoderPool:
            def __init__(self, client: redis.Redis, prefix: str = "encoders:"):
                self.prefix = prefix
                self._take = client.register_script(TAKE)
                self._give = client.register_script(GIVE)

            def _slots(self, codec: str) -> str:
                return self.prefix + codec

            def acquire(self, codec: str, member: str, size: int = 2) -> bool:
                now = int(time.time() * 1000)
                return bool(self._take(keys=[self._slots(codec)], args=[now, size, 60000, member]))

            def release(self, grant) -> None:
                if not self._give(keys=[self._slots(grant.codec)], args=[grant.member]):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        self._slots(grant.codec),
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

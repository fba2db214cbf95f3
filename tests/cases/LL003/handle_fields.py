"""LL003 cases: a claim whose key is made of a parameter (`f"lock:{key}"`) and a release whose key is
made of a field of the handle the claim hands back (`f"lock:{handle.key}"`), through a client made
by the same call in each branch."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A fresh random token for every attempt.
    Valid(
        """\
        import logging
        import os
        import time
        import uuid
        from dataclasses import dataclass

        import redis

        log = logging.getLogger(__name__)
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        @dataclass
        class Handle:
            key: str
            token: str


        def make_client():
            return redis.Redis()


        def lock(key, ttl=60, fast=False):
            if fast:
                client = make_client()
                token = uuid.uuid4().hex
                if client.set(f"lock:{key}", token, nx=True, ex=ttl):
                    return Handle(key, token)
                return None
            client = make_client()
            token = uuid.uuid4().hex
            if client.set(f"lock:{key}", token, nx=True, ex=ttl):
                return Handle(key, token)
            return None


        def unlock(handle):
            client = make_client()
            released = client.eval(UNLOCK, 1, f"lock:{handle.key}", handle.token)
            if not released:
                log.warning("lock %s was lost", handle.key)
    """
    ),
]

INVALID = [
    # The slow path's token is the process id and the clock: another worker can make the same one.
    Invalid(
        """\
        import logging
        import os
        import time
        import uuid
        from dataclasses import dataclass

        import redis

        log = logging.getLogger(__name__)
        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        @dataclass
        class Handle:
            key: str
            token: str


        def make_client():
            return redis.Redis()


        def lock(key, ttl=60, fast=False):
            if fast:
                client = make_client()
                token = uuid.uuid4().hex
                if client.set(f"lock:{key}", token, nx=True, ex=ttl):
                    return Handle(key, token)
                return None
            client = make_client()
            token = f"{os.getpid()}-{time.time_ns()}"
            if client.set(f"lock:{key}", token, nx=True, ex=ttl):
                return Handle(key, token)
            return None


        def unlock(handle):
            client = make_client()
            released = client.eval(UNLOCK, 1, f"lock:{handle.key}", handle.token)
            if not released:
                log.warning("lock %s was lost", handle.key)
    """,
        line=32,
        message_contains='comes from time.time_ns()',
    ),
]

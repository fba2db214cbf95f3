"""LL010 cases: Lua scripts: eval, evalsha, register_script."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A token-checked extend in one server step.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()
        EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def crawl(site):
            key = f"crawl:{site}:lock"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=30):
                return
            try:
                for page in pages(site):
                    fetch(page)
                    if not r.eval(EXTEND, 1, key, token, 30):
                        raise RuntimeError("lease lost")
            finally:
                r.eval(RELEASE, 1, key, token)
    """
    ),
    # A cache entry's lifetime, in a function that has nothing to do with the lease.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def lock_report(name, token):
            if r.set(f"lock:{name}", token, nx=True, ex=30):
                try:
                    build(name)
                finally:
                    r.eval(RELEASE, 1, f"lock:{name}", token)


        def remember(name, value):
            r.set(f"cache:{name}", value)
            r.expire(f"cache:{name}", 600)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """
    ),
]

INVALID = [
    # Renewed between the steps of a long job, in the claim's own function.
    Invalid(
        """\
        import secrets

        from redis import Redis

        r = Redis()


        def rebuild_index(shard, steps):
            key = f"index:{shard}:lock"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=60):
                return
            try:
                for step in steps:
                    step()
                    r.expire(key, 60)
            finally:
                r.eval(RELEASE, 1, key, token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """,
        line=16,
        column=13,
        fixed="""\
        import logging
        import secrets

        from redis import Redis

        LEASE_EXPIRE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end"
        )

        r = Redis()


        def rebuild_index(shard, steps):
            key = f"index:{shard}:lock"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=60):
                return
            try:
                for step in steps:
                    step()
                    if not r.eval(LEASE_EXPIRE_SCRIPT, 1, key, token, 60):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before renewal; another worker may hold it", key
                        )
            finally:
                r.eval(RELEASE, 1, key, token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """,
        applicability=Applicability.SAFE,
        message_contains='`expire` renews lease `key`',
    ),
    # On an asyncio client, between the batches of a long job.
    Invalid(
        """\
        import secrets

        import redis.asyncio as redis

        r = redis.Redis()


        async def sync_feed(feed, batches):
            key = f"feed:{feed}:lock"
            token = secrets.token_hex(16)
            if not await r.set(key, token, nx=True, px=20000):
                return
            try:
                for batch in batches:
                    await save(batch)
                    await r.pexpire(key, 20000)
            finally:
                await r.eval(RELEASE, 1, key, token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """,
        line=16,
        column=19,
        fixed="""\
        import logging
        import secrets

        import redis.asyncio as redis

        LEASE_PEXPIRE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
        )

        r = redis.Redis()


        async def sync_feed(feed, batches):
            key = f"feed:{feed}:lock"
            token = secrets.token_hex(16)
            if not await r.set(key, token, nx=True, px=20000):
                return
            try:
                for batch in batches:
                    await save(batch)
                    if not await r.eval(LEASE_PEXPIRE_SCRIPT, 1, key, token, 20000):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before renewal; another worker may hold it", key
                        )
            finally:
                await r.eval(RELEASE, 1, key, token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """,
        applicability=Applicability.SAFE,
        message_contains='`pexpire` renews lease `key`',
    ),
    # A sustaining thread writes the key again with a lifetime: it also takes over another's claim.
    Invalid(
        """\
        import secrets
        import threading
        import time

        import redis

        r = redis.Redis()
        held = {}


        def claim(resource):
            token = secrets.token_hex(16)
            if r.set(f"res:{resource}:lock", token, nx=True, ex=60):
                held[resource] = token
                return token
            return None


        def sustain():
            while True:
                for resource, token in list(held.items()):
                    r.set(f"res:{resource}:lock", token, ex=60)
                time.sleep(1)


        def release_resource(resource):
            token = held.pop(resource)
            r.eval(RELEASE, 1, f"res:{resource}:lock", token)


        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    """,
        line=22,
        column=13,
        message_contains='no automatic fix: the renewal writes the key again, which also takes over a key another worker claimed since',
    ),
]

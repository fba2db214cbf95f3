"""LL010 cases: an `expire` queued with the claim on one pipeline runs when the claim failed too."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The lifetime is set only once the pipeline said the claim succeeded.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def publish(site):
            key = f"publish:{site}"
            token = secrets.token_hex(16)
            pipe = r.pipeline()
            pipe.setnx(key, token)
            if not pipe.execute()[0]:
                return False
            r.expire(key, 60)
            try:
                build(site)
            finally:
                r.delete(key)
            return True
    """
    ),
    # The claim has its lifetime; the pipeline's expire is a counter's.
    Valid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def publish(site):
            key = f"publish:{site}"
            token = secrets.token_hex(16)
            pipe = r.pipeline()
            pipe.set(key, token, nx=True, ex=60)
            pipe.incr(f"attempts:{site}")
            pipe.expire(f"attempts:{site}", 3600)
            got, _, _ = pipe.execute()
            if not got:
                return False
            try:
                build(site)
            finally:
                r.delete(key)
            return True
    """
    ),
]

INVALID = [
    # A lock loop: every waiting worker's pipeline pushes the holder's deadline out again.
    Invalid(
        """\
        import time
        from contextlib import contextmanager

        import redis

        r = redis.Redis()


        @contextmanager
        def deploy_lock(app, ttl=30):
            key = f"deploy:{app}"
            while True:
                pipe = r.pipeline()
                pipe.setnx(key, "busy")
                pipe.expire(key, ttl)
                if pipe.execute()[0]:
                    break
                time.sleep(0.5)
            try:
                yield
            finally:
                r.delete(key)
    """,
        line=15,
        column=9,
    ),
    # Chained on an asyncio pipeline, in a claim helper.
    Invalid(
        """\
        from redis import asyncio as aioredis

        client = aioredis.from_url("redis://localhost")


        async def acquire(key):
            async with client.pipeline() as pipe:
                got, _ = await pipe.setnx(key, "1").expire(key, 20).execute()
            return bool(got)


        async def release(key):
            await client.delete(key)
    """,
        line=8,
        column=24,
    ),
]

"""LL008 cases: a helper of the module whose claim is a lease there and which answers True or False
(`if result: return True`, retried, `return False` on an error), called by code that drops it."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The caller asks the answer.
    Valid(
        """\
        import asyncio
        import uuid

        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        store = aioredis.Redis()


        async def take_order_lock(order_id):
            key = "order-lock:" + order_id
            token = str(uuid.uuid4())
            while True:
                try:
                    result = await store.set(key, token, nx=True, ex=10)
                    if result:
                        return True
                    await asyncio.sleep(0.1)
                except RedisError:
                    return False


        async def drop_order_lock(order_id):
            await store.delete("order-lock:" + order_id)


        async def pay(order_id):
            if not await take_order_lock(order_id):
                return "busy"
            try:
                return "paid"
            finally:
                await drop_order_lock(order_id)
    """
    ),
    # A helper that waits until it holds the lease unless given a timeout: a call with none has no answer to ask.
    Valid(
        """\
        import time

        from django.core.cache import cache


        def acquire_index_lock(name, timeout=None):
            key = "index-lock:" + name
            give_up = None if timeout is None else time.monotonic() + timeout
            while True:
                got = cache.add(key, "1", 60)
                if got:
                    return True
                if give_up is not None and time.monotonic() > give_up:
                    return False
                time.sleep(0.1)


        def release_index_lock(name):
            cache.delete("index-lock:" + name)


        def reindex(name):
            acquire_index_lock(name)
            try:
                return name
            finally:
                release_index_lock(name)
    """
    ),
]

INVALID = [
    # The caller goes on whatever the helper answered.
    Invalid(
        """\
        import asyncio
        import uuid

        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        store = aioredis.Redis()


        async def take_order_lock(order_id):
            key = "order-lock:" + order_id
            token = str(uuid.uuid4())
            while True:
                try:
                    result = await store.set(key, token, nx=True, ex=10)
                    if result:
                        return True
                    await asyncio.sleep(0.1)
                except RedisError:
                    return False


        async def drop_order_lock(order_id):
            await store.delete("order-lock:" + order_id)


        async def pay(order_id):
            await take_order_lock(order_id)
            try:
                return "paid"
            finally:
                await drop_order_lock(order_id)
    """,
        line=28,
        message_contains='`take_order_lock` can answer that it did not get the lease (line 15)',
    ),
]

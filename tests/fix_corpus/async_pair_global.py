"""Async module-level acquire_lock(key, token)/release_lock(key, token): setnx then expire, compared release."""

# overlap: original keeps b

import redis.asyncio

client = redis.asyncio.Redis(host="localhost", port=6379, decode_responses=True)


async def acquire_lock(key, token, ttl=30):
    if not await client.setnx(key, token):
        return False
    await client.expire(key, ttl)
    return True


async def release_lock(key, token):
    current = await client.get(key)
    if current == token:
        await client.delete(key)
        return True
    return False

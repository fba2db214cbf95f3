"""An async module function on redis.asyncio: claim, await the callback, release in finally."""

import socket

import redis.asyncio as redis

client = redis.Redis()


async def run_once(name, callback, ttl=120):
    key = f"lock:{name}"
    acquired = await client.set(key, socket.gethostname(), nx=True, ex=ttl)
    if not acquired:
        return None
    try:
        return await callback()
    finally:
        await client.delete(key)

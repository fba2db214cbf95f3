"""An async context manager only (`async with Lock(...)`) on redis.asyncio, raising when the lock is busy."""

import os

import redis.asyncio as redis


class AlreadyRunning(Exception):
    pass


class SingleFlight:
    def __init__(self, redis_client, name, ttl=60):
        self.redis_client = redis_client
        self.key = f"singleflight:{name}"
        self.ttl = ttl

    async def __aenter__(self):
        ok = await self.redis_client.set(self.key, os.getpid(), nx=True, ex=self.ttl)
        if not ok:
            raise AlreadyRunning(self.key)
        return self

    async def __aexit__(self, *exc_info):
        await self.redis_client.delete(self.key)

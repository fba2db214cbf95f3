"""An async lock class with a uuid4 made once in __init__, blocking with asyncio.sleep up to a timeout."""

import asyncio
import uuid

import redis.asyncio as redis


class AsyncMutex:
    def __init__(self, client, name, ttl=30, blocking_timeout=0.1):
        self.client = client
        self.key = f"mutex:{name}"
        self.ttl = ttl
        self.blocking_timeout = blocking_timeout
        self.token = uuid.uuid4().hex

    async def acquire(self):
        waited = 0.0
        while not await self.client.set(self.key, self.token, nx=True, ex=self.ttl):
            if waited >= self.blocking_timeout:
                return False
            await asyncio.sleep(0.01)
            waited += 0.01
        return True

    async def release(self):
        await self.client.delete(self.key)

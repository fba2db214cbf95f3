"""An async context manager on redis.asyncio that retries with asyncio.sleep and raises TimeoutError."""

import asyncio

import redis.asyncio as redis

r = redis.Redis(decode_responses=True)


class Throttle:
    def __init__(self, name, ttl=10, retries=20):
        self.key = f"throttle:{name}"
        self.ttl = ttl
        self.retries = retries

    async def __aenter__(self):
        for _ in range(self.retries):
            if await r.set(self.key, "1", nx=True, ex=self.ttl):
                return self
            await asyncio.sleep(0.05)
        raise TimeoutError(self.key)

    async def __aexit__(self, exc_type, exc, tb):
        await r.delete(self.key)

"""An async lock class on redis.asyncio with acquire/release and async with support."""

import redis.asyncio as redis


class LockBusy(RuntimeError):
    pass


class AsyncLease:
    def __init__(self, client, name, ttl=60):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl

    async def acquire(self):
        return bool(await self.client.set(self.key, "1", nx=True, ex=self.ttl))

    async def release(self):
        await self.client.delete(self.key)

    async def __aenter__(self):
        if not await self.acquire():
            raise LockBusy(self.key)
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await self.release()

"""Async claim and release helpers on an asyncio client, awaited by a sync task."""

import redis.asyncio as redis

r = redis.Redis()


async def acquire_sync_lock(name):
    if await r.set(f"sync:{name}", "running", nx=True, px=60_000):
        return True
    return False


async def release_sync_lock(name):
    await r.delete(f"sync:{name}")


async def sync_account(name, fn):
    if not await acquire_sync_lock(name):
        return False
    try:
        await fn()
    finally:
        await release_sync_lock(name)
    return True

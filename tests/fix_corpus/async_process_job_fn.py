"""An async worker handler on redis.asyncio that claims a job, awaits process(job), and releases in finally."""

import redis.asyncio as redis

r = redis.from_url("redis://localhost:6379/0", decode_responses=True)


async def handle_job(job, ttl=120):
    key = f"lock:job:{job}"
    if not await r.set(key, "processing", nx=True, ex=ttl):
        return False
    try:
        await process(job)
    finally:
        await r.delete(key)
    return True

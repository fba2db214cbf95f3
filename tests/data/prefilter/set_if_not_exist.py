async def run(redis, token):
    if await redis.set("lock:job", token, exist=redis.SET_IF_NOT_EXIST):
        work()
        await redis.delete("lock:job")

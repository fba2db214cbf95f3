"""A chat bot's per-command lock using `from redis import Redis`, so one command runs at a time."""

from redis import Redis

bot_redis = Redis(host="localhost", port=6379)


class CommandLock:
    def __init__(self, name, ttl=20):
        self.key = f"bot:cmd:{name}:lock"
        self.ttl = ttl

    def acquire(self):
        acquired = bot_redis.set(self.key, "running", nx=True, ex=self.ttl)
        return acquired is not None

    def release(self):
        bot_redis.delete(self.key)

    def busy(self):
        return bool(bot_redis.exists(self.key))

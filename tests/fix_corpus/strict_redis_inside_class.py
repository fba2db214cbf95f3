"""A lock class that makes its own StrictRedis client inside __init__ and stores a constant."""

import redis


class ReindexLock:
    def __init__(self, name, ttl=900, host="localhost", port=6379):
        self.redis = redis.StrictRedis(host=host, port=port, db=0)
        self.key = f"reindex:{name}"
        self.ttl = ttl

    def acquire(self):
        if self.redis.set(self.key, 1, nx=True, ex=self.ttl):
            return True
        return False

    def release(self):
        self.redis.delete(self.key)

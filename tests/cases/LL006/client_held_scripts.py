"""LL006 cases: a release script registered on each client (client._unlock = client.register_script(LUA)) whose answer is thrown away."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The answer is handed back.
    Valid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, urls, name):
            self.name = f"shard-lock:{name}"
            self.shards = []
            for url in urls:
                shard = redis.Redis.from_url(url)
                shard._unlock = shard.register_script(UNLOCK)
                self.shards.append(shard)
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(shard.set(self.name, self.token, nx=True, px=10000) for shard in self.shards)

        def release_shard(self, shard):
            return bool(shard._unlock(keys=[self.name], args=[self.token]))
"""
    ),
]

INVALID = [
    # The shard's release answer is dropped.
    Invalid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, urls, name):
            self.name = f"shard-lock:{name}"
            self.shards = []
            for url in urls:
                shard = redis.Redis.from_url(url)
                shard._unlock = shard.register_script(UNLOCK)
                self.shards.append(shard)
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(shard.set(self.name, self.token, nx=True, px=10000) for shard in self.shards)

        def release_shard(self, shard):
            shard._unlock(keys=[self.name], args=[self.token])
""",
        line=23,
        column=9,
        fixed="""\
    import logging
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, urls, name):
            self.name = f"shard-lock:{name}"
            self.shards = []
            for url in urls:
                shard = redis.Redis.from_url(url)
                shard._unlock = shard.register_script(UNLOCK)
                self.shards.append(shard)
            self.token = None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(shard.set(self.name, self.token, nx=True, px=10000) for shard in self.shards)

        def release_shard(self, shard):
            if not shard._unlock(keys=[self.name], args=[self.token]):
                logging.getLogger(__name__).warning("lease %s expired before release; another worker may hold it", self.name)
""",
    ),
]

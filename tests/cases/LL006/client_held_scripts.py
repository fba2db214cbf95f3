"""LL006 cases: a release script registered on each client (client._unlock = client.register_script(LUA)) whose answer is thrown away."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A lost lease raises.
    Valid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, name):
            self.name = f"shard-lock:{name}"
            self.token = None
            self.shards = [redis.Redis()]
            for shard in self.shards:
                shard._unlock = shard.register_script(UNLOCK)

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(node.set(self.name, self.token, nx=True, px=10000) for node in self.shards)

        def release(self):
            for node in self.shards:
                if not node._unlock(keys=[self.name], args=[self.token]):
                    raise RuntimeError("lost")
"""
    ),
]

INVALID = [
    # Each shard's release answer is dropped.
    Invalid(
        """\
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, name):
            self.name = f"shard-lock:{name}"
            self.token = None
            self.shards = [redis.Redis()]
            for shard in self.shards:
                shard._unlock = shard.register_script(UNLOCK)

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(node.set(self.name, self.token, nx=True, px=10000) for node in self.shards)

        def release(self):
            for node in self.shards:
                node._unlock(keys=[self.name], args=[self.token])
""",
        line=22,
        column=13,
        fixed="""\
    import logging
    import secrets

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


    class ShardLock:
        def __init__(self, name):
            self.name = f"shard-lock:{name}"
            self.token = None
            self.shards = [redis.Redis()]
            for shard in self.shards:
                shard._unlock = shard.register_script(UNLOCK)

        def acquire(self):
            self.token = secrets.token_hex(16)
            return all(node.set(self.name, self.token, nx=True, px=10000) for node in self.shards)

        def release(self):
            for node in self.shards:
                if not node._unlock(keys=[self.name], args=[self.token]):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        self.name,
                    )
""",
    ),
]

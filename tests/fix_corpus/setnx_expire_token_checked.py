"""A lock class whose only bug is setnx followed by expire: its release already checks the token in Lua."""

# overlap: original keeps b

import uuid

import redis

RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class TokenLock:
    def __init__(self, client, name, ttl=60):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl
        self.token = None

    def acquire(self):
        token = uuid.uuid4().hex
        if not self.client.setnx(self.key, token):
            return False
        self.client.expire(self.key, self.ttl)
        self.token = token
        return True

    def release(self):
        if self.token is None:
            return False
        freed = self.client.eval(RELEASE, 1, self.key, self.token)
        self.token = None
        return freed == 1

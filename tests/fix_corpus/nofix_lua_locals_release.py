"""A correct release whose Lua script compares two Lua locals (the value read and the token): nothing to fix."""

# leaselint: no fix

import secrets

import redis

UNLOCK = """
local mine = ARGV[1]
local held = redis.call('get', KEYS[1])
if held == mine then
    return redis.call('del', KEYS[1])
end
return 0
"""


class ReportLock:
    def __init__(self, client, name, ttl=30):
        self.client = client
        self.key = f"report:{name}:lock"
        self.ttl = ttl
        self.token = None

    def acquire(self):
        token = secrets.token_hex(16)
        if self.client.set(self.key, token, nx=True, ex=self.ttl):
            self.token = token
            return True
        return False

    def release(self):
        if self.token is None:
            return False
        freed = self.client.eval(UNLOCK, 1, self.key, self.token)
        self.token = None
        return bool(freed)

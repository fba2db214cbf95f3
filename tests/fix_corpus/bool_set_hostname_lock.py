"""A lock class whose acquire() is `return bool(client.set(...))` and stores the host name."""

import socket

import redis


class HostLock:
    def __init__(self, client, name, expire=30):
        self.client = client
        self.key = f"lock:{name}"
        self.expire = expire

    def acquire(self):
        return bool(self.client.set(self.key, socket.gethostname(), nx=True, ex=self.expire))

    def release(self):
        return self.client.delete(self.key)

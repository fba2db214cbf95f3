"""A job lock class as task queues write it: token on self, release() before acquire() answers False."""

import uuid

import redis


class JobLock:
    def __init__(self, client, name, ttl=60):
        self.client = client
        self.key = f"lock:{name}"
        self.ttl = ttl
        self.token = None

    def acquire(self):
        token = uuid.uuid4().hex
        if self.client.set(self.key, token, nx=True, ex=self.ttl):
            self.token = token
            return True
        return False

    def release(self):
        """Free the job; False when this lock holds nothing."""
        if self.token is None:
            return False
        self.client.delete(self.key)
        self.token = None
        return True

"""A scheduler's leader lease: an instance_id stored as the value, leader() read by other instances."""

import redis


class LeaderLease:
    def __init__(self, client, name, instance_id, ttl=15):
        self.client = client
        self.key = f"leader:{name}"
        self.instance_id = instance_id
        self.ttl = ttl

    def try_lead(self):
        ok = self.client.set(self.key, self.instance_id, nx=True, ex=self.ttl)
        return bool(ok)

    def step_down(self):
        self.client.delete(self.key)

    def leader(self):
        """The instance currently leading, as the other instances log it."""
        value = self.client.get(self.key)
        return value.decode() if value else None

"""A dataclass lock (client, name, ttl fields) with acquire()/release() and a constant value."""

from dataclasses import dataclass, field

import redis


@dataclass
class Mutex:
    client: redis.Redis
    name: str
    ttl: int = 30
    key: str = field(init=False)

    def __post_init__(self):
        self.key = f"mutex:{self.name}"

    def acquire(self) -> bool:
        return bool(self.client.set(self.key, "locked", nx=True, ex=self.ttl))

    def release(self) -> None:
        self.client.delete(self.key)

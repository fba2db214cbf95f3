"""LL001 cases: a claim and a delete of one key made of a parameter, in two methods of one class (a field of a
record, or a key of a method named for taking a lease)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A cache's `add` and `delete` take the key itself: a cache entry, whoever wrote it.
    Valid(
        """\
        import redis


        class Cache:
            def __init__(self):
                self.client = redis.Redis()

            def add(self, key, value, ttl=300):
                return self.client.set(key, value, nx=True, ex=ttl)

            def delete(self, key):
                self.client.delete(key)
    """
    ),
    # A record made for good (no lifetime) and deleted by its owner's request: a row, not a lease.
    Valid(
        """\
        import redis


        class Accounts:
            def __init__(self):
                self.client = redis.Redis()

            def register(self, account):
                return self.client.set(account.handle, account.email, nx=True)

            def remove(self, account):
                self.client.delete(account.handle)
    """
    ),
    # A cache's prefixed keys: `add` is no name for taking a lease.
    Valid(
        """\
        import redis


        class Cache:
            def __init__(self):
                self.r = redis.Redis()

            def add(self, key, value, ttl=60):
                return self.r.set(f"cache:{key}", value, nx=True, ex=ttl)

            def delete(self, key):
                self.r.delete(f"cache:{key}")
    """
    ),
]

INVALID = [
    # An idempotency record: the in-progress mark expires, and the failure path deletes whatever holds it.
    Invalid(
        """\
        import json

        import redis


        class Ledger:
            def __init__(self, ttl=900):
                self.client = redis.Redis()
                self.ttl = ttl

            def mark_in_progress(self, entry):
                body = json.dumps({"status": "IN_PROGRESS", "at": entry.started})
                if not self.client.set(entry.dedupe_key, body, nx=True, ex=self.ttl):
                    raise AlreadyRunning(entry.dedupe_key)

            def drop_entry(self, entry):
                self.client.delete(entry.dedupe_key)
    """,
        line=17,
    ),
    # A method named for claiming: its key, made of the parameter, is deleted by another method.
    Invalid(
        """\
        from redis.asyncio import Redis


        class Inbox:
            def __init__(self, url):
                self.r = Redis.from_url(url)

            async def claim(self, message_id, owner):
                return await self.r.set(f"inbox:{message_id}", owner, nx=True, ex=600)

            async def unclaim(self, message_id):
                await self.r.delete(f"inbox:{message_id}")
    """,
        line=12,
    ),
]

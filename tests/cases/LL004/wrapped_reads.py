"""LL004 cases: the read value handed through a helper before the compare (`self._to_str(r.get(k))`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import redis

        r = redis.Redis()


        def to_str(value):
            return value.decode() if isinstance(value, bytes) else value


        def forget(user, version):
            # A cache entry read through a helper and compared: no lease, nothing claims the key.
            current = to_str(r.get(f"profile:{user}"))
            if current == version:
                r.delete(f"profile:{user}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis


        class LockServer:
            def __init__(self):
                self.db = redis.Redis()

            def _to_str(self, value):
                return value.decode() if isinstance(value, bytes) else value

            def acquire(self, name, worker, expire_at):
                key = f"lock:{name}"
                if self.db.set(key, worker, nx=True, exat=expire_at):
                    return True
                return False

            def release(self, name, worker):
                key = f"lock:{name}"
                current = self._to_str(self.db.get(key))
                if current == worker:
                    self.db.delete(key)
                return True
    """,
        line=21,
        column=13,
        fixed=None,
        message_contains="handed through `self._to_str(...)`",
    ),
    # The read and the delete run in threads (`asyncio.to_thread`): still a compare in the client.
    Invalid(
        """\
        import asyncio
        import secrets

        import redis

        r = redis.Redis()


        async def sync_feed(feed):
            token = secrets.token_hex(16)
            if not await asyncio.to_thread(r.set, f"feed:{feed}", token, nx=True, ex=60):
                return
            await pull(feed)
            if await asyncio.to_thread(r.get, f"feed:{feed}") == token.encode():
                await asyncio.to_thread(r.delete, f"feed:{feed}")
    """,
        line=15,
        column=15,
        fixed=None,
    ),
    # The read is bound to a name first, then handed to a class's decoder (`Codec.text(raw)`).
    Invalid(
        """\
        import uuid

        import redis


        class Codec:
            @staticmethod
            def text(value):
                return value.decode() if isinstance(value, bytes) else value


        class Mutex:
            def __init__(self, name, client: redis.Redis):
                self.name = name
                self.client = client
                self.token = None

            def acquire(self):
                token = uuid.uuid4().hex
                if not self.client.set(self.name, token, nx=True, ex=60):
                    return False
                self.token = token
                return True

            def release(self):
                raw = self.client.get(self.name)
                if not raw:
                    return True
                owner = Codec.text(raw)
                if owner != self.token:
                    return False
                return self.client.delete(self.name)
    """,
        line=32,
        fixed=None,
        message_contains="handed through `Codec.text(...)`",
    ),
]

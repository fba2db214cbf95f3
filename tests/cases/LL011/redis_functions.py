"""LL011 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        import secrets

        import aiomcache

        mc = aiomcache.Client("127.0.0.1", 11211)


        async def refresh(feed):
            key = f"refresh:{feed}".encode()
            token = secrets.token_hex(16).encode()
            if await mc.add(key, token, exptime=120):
                try:
                    await pull(feed)
                finally:
                    mc.delete(key)
    """,
        line=15,
        column=13,
        fixed="""\
        import secrets

        import aiomcache

        mc = aiomcache.Client("127.0.0.1", 11211)


        async def refresh(feed):
            key = f"refresh:{feed}".encode()
            token = secrets.token_hex(16).encode()
            if await mc.add(key, token, exptime=120):
                try:
                    await pull(feed)
                finally:
                    await mc.delete(key)
    """,
        applicability=Applicability.SAFE,
        message_contains='`delete` on an asyncio client is never awaited',
    ),
]

"""LL011 cases: a project's own client, known by its method's name, may have sync methods beside async ones."""

from leaselint.rule import Valid

VALID = [
    Valid(
        """\
        async def refresh(cache, feed):
            if not await cache.aset_if_absent(f"refresh:{feed}", "1", ttl=60):
                return
            try:
                await pull(feed)
            finally:
                cache.delete(f"refresh:{feed}")
    """
    ),
]

INVALID = []

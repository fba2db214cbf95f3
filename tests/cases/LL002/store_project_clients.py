"""LL002 cases: a project's own client, known by a method named for a conditional create."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        LEASE_SECONDS = 120


        def compact(kv, shard):
            # Two arguments: a key and a lifetime, or a key and a value; no value is read.
            if kv.setnx_ex(f"compact:{shard}", LEASE_SECONDS):
                try:
                    run_compaction(shard)
                finally:
                    kv.delete(f"compact:{shard}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import socket


        class Reports:
            def __init__(self, cache):
                self.cache = cache

            def build(self, day):
                key = f"reports:{day}"
                if not self.cache.setNx(key, socket.gethostname(), 600):
                    return
                try:
                    self.render(day)
                finally:
                    self.cache.delete(key)
    """,
        line=10,
        column=38,
        fixed=None,
    ),
    Invalid(
        """\
        from app.cache import kv


        async def seed_defaults():
            # Two arguments, the second text: a stored value, not a lifetime.
            if not await kv.asetNx("seed:defaults", "1"):
                return
            try:
                await write_defaults()
            finally:
                await kv.adelete("seed:defaults")
    """,
        line=6,
        column=45,
        fixed=None,
    ),
]

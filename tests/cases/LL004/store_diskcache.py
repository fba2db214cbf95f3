"""LL004 cases: diskcache."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        from diskcache import FanoutCache

        cache = FanoutCache("/tmp/export-locks", shards=8)


        class ExportLock:
            def __init__(self, name):
                self.key = f"export-lock:{name}"
                self.token = secrets.token_hex(16)

            def __enter__(self):
                if not cache.add(self.key, self.token, expire=300):
                    raise RuntimeError("export already running")
                return self

            def __exit__(self, *exc):
                with cache.transact():
                    if cache.get(self.key) == self.token:
                        cache.delete(self.key)
    """
    ),
    Valid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/x")


        def run(key, job):
            token = secrets.token_hex(16)
            if not cache.add(key + ":lock", token, expire=60):
                return
            try:
                job()
                while True:
                    if cache.get(key + ":lock") != token:
                        print("lost")
                    with cache.transact():
                        if cache.get(key + ":lock") == token:
                            cache.touch(key + ":lock", 60)
                    break
            finally:
                with cache.transact():
                    if cache.get(key + ":lock") == token:
                        cache.delete(key + ":lock")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        from diskcache import FanoutCache

        cache = FanoutCache("/tmp/export-locks", shards=8)


        class ExportLock:
            def __init__(self, name):
                self.key = f"export-lock:{name}"
                self.token = secrets.token_hex(16)

            def __enter__(self):
                if not cache.add(self.key, self.token, expire=300):
                    raise RuntimeError("export already running")
                return self

            def __exit__(self, *exc):
                if cache.get(self.key) == self.token:
                    cache.delete(self.key)
    """,
        line=20,
        column=13,
        fixed="""\
        import logging
        import secrets

        from diskcache import FanoutCache

        cache = FanoutCache("/tmp/export-locks", shards=8)


        class ExportLock:
            def __init__(self, name):
                self.key = f"export-lock:{name}"
                self.token = secrets.token_hex(16)

            def __enter__(self):
                token = secrets.token_hex(16)
                if not cache.add(self.key, token, expire=300):
                    raise RuntimeError("export already running")
                self.token = token
                return self

            def __exit__(self, *exc):
                if self.token is not None:
                    with cache.transact():
                        if cache.get(self.key) != self.token or not cache.delete(self.key):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                self.key,
                            )
    """,
        applicability=Applicability.UNSAFE,
    ),
]

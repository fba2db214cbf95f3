"""LL001 cases: diskcache."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/report-locks")


        def build_report(name, render):
            key = f"report-lock:{name}"
            token = secrets.token_hex(16)
            if not cache.add(key, token, expire=120):
                return False
            try:
                render(name)
            finally:
                with cache.transact():
                    if cache.get(key) == token:
                        cache.delete(key)
            return True
    """
    ),
    Valid(
        """\
        from diskcache import Cache

        cache = Cache("/tmp/memo")


        def cached_price(sku, fetch):
            # memoisation: an entry added once, dropped when the price changes
            cache.add(f"price:{sku}", fetch(sku), expire=300)
            return cache.get(f"price:{sku}")


        def price_changed(sku):
            cache.delete(f"price:{sku}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/report-locks")


        def build_report(name, render):
            key = f"report-lock:{name}"
            token = secrets.token_hex(16)
            if not cache.add(key, token, expire=120):
                return False
            try:
                render(name)
            finally:
                cache.delete(key)
            return True
    """,
        line=16,
        column=9,
        fixed="""\
        import logging
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/report-locks")


        def build_report(name, render):
            key = f"report-lock:{name}"
            token = secrets.token_hex(16)
            if not cache.add(key, token, expire=120):
                return False
            try:
                render(name)
            finally:
                with cache.transact():
                    if cache.get(key) != token or not cache.delete(key):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets
        from typing import Optional

        import diskcache


        def export(store: Optional[diskcache.Cache], name, write):
            key = f"export-lock:{name}"
            token = secrets.token_hex(16)
            if not store.add(key, token, expire=600):
                return False
            try:
                write(name)
            finally:
                store.delete(key)
            return True
    """,
        line=15,
        column=9,
        fixed="""\
        import logging
        import secrets
        from typing import Optional

        import diskcache


        def export(store: Optional[diskcache.Cache], name, write):
            key = f"export-lock:{name}"
            token = secrets.token_hex(16)
            if not store.add(key, token, expire=600):
                return False
            try:
                write(name)
            finally:
                with store.transact():
                    if store.get(key) != token or not store.delete(key):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it", key
                        )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import functools
        import os
        import secrets

        import diskcache


        @functools.lru_cache(maxsize=None)
        def shared_cache() -> diskcache.Cache:
            return diskcache.Cache(os.environ.get("APP_CACHE_DIR", "/tmp/app-cache"))


        def run_nightly(job):
            store = shared_cache()
            token = secrets.token_hex(16)
            if store.add(f"lock:{job}", token, expire=900):
                try:
                    job()
                finally:
                    store.delete(f"lock:{job}")
    """,
        line=20,
        column=13,
        fixed="""\
        import functools
        import logging
        import os
        import secrets

        import diskcache


        @functools.lru_cache(maxsize=None)
        def shared_cache() -> diskcache.Cache:
            return diskcache.Cache(os.environ.get("APP_CACHE_DIR", "/tmp/app-cache"))


        def run_nightly(job):
            store = shared_cache()
            token = secrets.token_hex(16)
            if store.add(f"lock:{job}", token, expire=900):
                try:
                    job()
                finally:
                    with store.transact():
                        if store.get(f"lock:{job}") != token or not store.delete(f"lock:{job}"):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                f"lock:{job}",
                            )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import diskcache


        class Lock:
            def __init__(self, key):
                self.cache = diskcache.Cache("/tmp/x")
                self.key = key
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.cache.add(self.key, token, expire=30, retry=True):
                    self.token = token
                    return True
                return False

            def release(self):
                self.cache.delete(self.key, retry=True)
    """,
        line=20,
        column=9,
        fixed="""\
        import logging
        import secrets

        import diskcache


        class Lock:
            _lease_token = None

            def __init__(self, key):
                self.cache = diskcache.Cache("/tmp/x")
                self.key = key
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                if self.cache.add(self.key, token, expire=30, retry=True):
                    self._lease_token = token
                    self.token = token
                    return True
                return False

            def release(self):
                if self._lease_token is not None:
                    with self.cache.transact(retry=True):
                        if self.cache.get(self.key, retry=True) != self._lease_token or not self.cache.delete(self.key, retry=True):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                self.key,
                            )
    """,
        applicability=Applicability.UNSAFE,
    ),
]

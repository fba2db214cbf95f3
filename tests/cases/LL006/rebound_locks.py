"""LL006 cases: a lock object held in a name that an `except` sets back to None."""

from leaselint.rule import Invalid, Valid

VALID = []

INVALID = [
    # `lock = None`, then the lock made in a `try` whose `except` sets it back to None: its release's error swallowed.
    Invalid(
        """\
        from django.core.cache import cache


        def rebuild_view(name):
            lock = None
            acquired = False
            try:
                lock = cache.lock(f"rebuild:{name}", timeout=600)
            except Exception:
                lock = None
            try:
                if lock is not None:
                    acquired = lock.acquire(blocking=True, blocking_timeout=5)
                refresh(name)
            finally:
                if acquired and lock is not None:
                    try:
                        lock.release()
                    except Exception:
                        pass
    """,
        line=19,
        column=20,
        fixed="""\
        import logging

        from django.core.cache import cache


        def rebuild_view(name):
            lock = None
            acquired = False
            try:
                lock = cache.lock(f"rebuild:{name}", timeout=600)
            except Exception:
                lock = None
            try:
                if lock is not None:
                    acquired = lock.acquire(blocking=True, blocking_timeout=5)
                refresh(name)
            finally:
                if acquired and lock is not None:
                    try:
                        lock.release()
                    except Exception as exc:
                        logging.getLogger(__name__).warning(
                            "lease lost before release: %s", exc
                        )
    """,
    ),
]

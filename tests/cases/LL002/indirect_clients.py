"""LL002 cases: a constant stored through a lambda handed to a helper."""

from leaselint.rule import Invalid, Valid

VALID = []

INVALID = [
    # Store calls in lambdas handed to a helper that runs them and catches the store's errors.
    Invalid(
        """\
        import logging

        from django.core.cache import cache

        log = logging.getLogger(__name__)


        def _guarded(operation, default=None):
            try:
                return operation()
            except ConnectionError:
                log.warning("cache unreachable")
                return default


        def refresh_report(report_id):
            flag = f"report-refresh:{report_id}"
            if not _guarded(lambda: cache.add(flag, "1", 120), False):
                return
            try:
                rebuild(report_id)
            finally:
                _guarded(lambda: cache.delete(flag))
    """,
        line=18,
        column=45,
        fixed=None,
    ),
]

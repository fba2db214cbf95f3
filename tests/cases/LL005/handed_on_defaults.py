"""LL005 cases: a lifetime that a module function hands on from its own parameter, None by default."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The module function gives the lifetime a default of 300 s.
    Valid(
        """\
    import secrets

    from django.core.cache import cache


    class ReportLock:
        def __init__(self, name, expires=None):
            self.key = f"report-lock:{name}"
            self.expires = expires or None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return cache.add(self.key, self.token, self.expires)

        def release(self):
            cache.delete(self.key)


    def report_lock(name, expires=300):
        return ReportLock(name, expires)
"""
    ),
]

INVALID = [
    # Neither the class nor the function that makes it has a lifetime by default.
    Invalid(
        """\
    import secrets

    from django.core.cache import cache


    class ReportLock:
        def __init__(self, name, expires=None):
            self.key = f"report-lock:{name}"
            self.expires = expires or None

        def acquire(self):
            self.token = secrets.token_hex(16)
            return cache.add(self.key, self.token, self.expires)

        def release(self):
            cache.delete(self.key)


    def report_lock(name, expires=None):
        return ReportLock(name, expires)
""",
        line=13,
        column=16,
        fixed=None,
    ),
]

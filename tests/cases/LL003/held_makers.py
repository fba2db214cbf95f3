"""LL003 cases: a token made by the maker an object holds by default."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The default maker is uuid4.
    Valid(
        """\
    import uuid

    from django.core.cache import cache


    class ExportLock:
        def __init__(self, name, make_token=None):
            self.key = f"export-lock:{name}"
            self.make_token = make_token or uuid.uuid4
            self.token = None

        def acquire(self):
            token = str(self.make_token())
            if cache.add(self.key, token, 60):
                self.token = token
                return True
            return False

        def release(self):
            if cache.get(self.key) == self.token:
                cache.delete(self.key)
"""
    ),
]

INVALID = [
    # The default maker is uuid1: the host and the time.
    Invalid(
        """\
    import uuid

    from django.core.cache import cache


    class ExportLock:
        def __init__(self, name, make_token=None):
            self.key = f"export-lock:{name}"
            self.make_token = make_token or uuid.uuid1
            self.token = None

        def acquire(self):
            token = str(self.make_token())
            if cache.add(self.key, token, 60):
                self.token = token
                return True
            return False

        def release(self):
            if cache.get(self.key) == self.token:
                cache.delete(self.key)
""",
        line=14,
        column=32,
        fixed=None,
    ),
]

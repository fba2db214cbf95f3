"""LL006 cases: a lock class whose file holds no store word, its release answering through another object."""

from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        class JobLease:
            def __init__(self, backend, name):
                self.backend = backend
                self.name = name

            def release(self):
                released = self.backend.release(self.name)
                if not released:
                    return False
                return True

            def __exit__(self, *exc):
                self.release()
    """,
        line=13,
        column=9,
        fixed=None,
        message_contains="answers whether the lease was still held",
    ),
]

"""LL009 cases: a read helper and a write helper of one class, the write storing an attribute the
object was given in `__init__`."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The attribute holds what the caller gave the object: a cache's payload, not a claim's holder.
    Valid(
        """\
        from django.core.cache import cache


        class Snapshot:
            def __init__(self, payload):
                self.payload = payload

            def is_cached(self, name):
                return cache.get("snapshot:" + name)

            def store(self, name, timeout=300):
                cache.set("snapshot:" + name, self.payload, timeout)

            def evict(self, name):
                cache.delete("snapshot:" + name)


        def refresh(name, payload):
            snap = Snapshot(payload)
            if snap.is_cached(name):
                return
            snap.store(name)
    """
    ),
]

INVALID = [
    # The write stores the host name the object took in `__init__`, the same for every instance.
    Invalid(
        """\
        import socket

        from django.core.cache import cache


        class JobMarks:
            def __init__(self):
                self.host = socket.gethostname()

            def is_running(self, name):
                key = "lock:job:" + name
                return cache.get(key)

            def mark_running(self, name, timeout=600):
                key = "lock:job:" + name
                cache.set(key, self.host, timeout)

            def release(self, name):
                key = "lock:job:" + name
                cache.delete(key)


        def nightly(name):
            marks = JobMarks()
            if marks.is_running(name):
                return
            marks.mark_running(name)
            try:
                rebuild(name)
            finally:
                marks.release(name)
    """,
        line=16,
        column=9,
        message_contains="no automatic fix: the write is made inside `JobMarks.mark_running` (line 16)",
    ),
]

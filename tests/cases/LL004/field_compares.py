"""LL004 cases: the client-side check compares a field of the stored value."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        from django.core.cache import cache


        def show(job, me):
            # A field of a cached entry compared, and no lease: nothing claims the key.
            entry = cache.get(f"report:{job}")
            if entry and entry.get("author") == me:
                cache.delete(f"report:{job}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from django.core.cache import cache


        def reserve_items(items, task_id):
            for item in items:
                if not cache.add(f"reserve:{item}", {"task_id": task_id}, 600):
                    raise Busy(item)


        def release_items(items, task_id):
            for item in items:
                key = f"reserve:{item}"
                reservation = cache.get(key)
                if isinstance(reservation, dict) and reservation.get("task_id") == task_id:
                    cache.delete(key)
    """,
        line=15,
        column=13,
        fixed=None,
        message_contains="compares a field of the stored value",
    ),
    Invalid(
        """\
        import uuid

        from django.core.cache import cache


        class ReportLock:
            def __init__(self, name):
                self.key = f"report-lock:{name}"
                self.token = None

            def acquire(self):
                token = uuid.uuid4().hex
                if cache.add(self.key, [token, "pending"], 300):
                    self.token = token
                    return True
                return False

            def release(self):
                held = cache.get(self.key)
                if held and held[0] == self.token:
                    cache.delete(self.key)
    """,
        line=21,
        column=13,
        fixed=None,
        message_contains="compared in the client",
    ),
]

"""LL008 cases: a claim written as a lambda bound to a name (`acquire_lock = lambda: cache.add(...)`,
the task-locking recipe), called as a bare statement."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The call's answer decides whether the job runs.
    Valid(
        """\
        import uuid

        from django.core.cache import cache


        def refresh_feed(url):
            lock_id = "feed-refresh-%s" % url
            token = uuid.uuid4().hex
            take = lambda: cache.add(lock_id, token, 600)
            drop = lambda: cache.delete(lock_id)
            if not take():
                return None
            try:
                return url
            finally:
                drop()
    """
    ),
    # A marker written once a payload is handled (`mark_done = lambda: cache.add(...)`): no lease, nothing asked of its answer.
    Valid(
        """\
        from django.core.cache import cache


        def consume(message):
            key = "handled:%s" % message["id"]
            mark_done = lambda: cache.add(key, 1, 86400)
            if cache.get(key):
                return
            print(message)
            mark_done()
    """
    ),
]

INVALID = [
    # The job runs whatever the claim answered.
    Invalid(
        """\
        import uuid

        from django.core.cache import cache


        def refresh_feed(url):
            lock_id = "feed-refresh-%s" % url
            token = uuid.uuid4().hex
            take = lambda: cache.add(lock_id, token, 600)
            drop = lambda: cache.delete(lock_id)
            take()
            try:
                return url
            finally:
                drop()
    """,
        line=11,
        message_contains="`take` can answer that it did not get the lease (line 9)",
    ),
]

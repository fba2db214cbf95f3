"""LL009 cases: the read and the write made through the module's own helpers. A caller asks one
helper whether the key is held (`if is_job_active(job_id): raise`) and then calls another that
writes it plainly (`set_job_active(job_id)`); the key is released by a third. The claim is the
helper's write, reported there."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A cache filled on a miss through helpers: the value written is a computed result, the key
    # names no lock, and nothing releases it.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def cached_report(report_id):
            return r.get(f"report:{report_id}")


        def store_report(report_id, body):
            r.set(f"report:{report_id}", body, ex=600)


        def report(report_id):
            body = cached_report(report_id)
            if body is None:
                body = render(report_id)
                store_report(report_id, body)
            return body
    """
    ),
    # The write helper claims with `nx=True` itself: the read is only a fast path.
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def running(job_id):
            return r.exists(f"job-lock:{job_id}")


        def mark_running(job_id, token):
            return r.set(f"job-lock:{job_id}", token, nx=True, ex=300)


        def start(job_id):
            if running(job_id):
                return False
            token = uuid.uuid4().hex
            if not mark_running(job_id, token):
                return False
            return token
    """
    ),
    # The helpers read and write different keys.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def is_job_active(job_id):
            return bool(r.get(f"job_lock:{job_id}"))


        def set_job_seen(job_id):
            r.set(f"seen_job:{job_id}", "1", ex=3600)


        def remove_job_active(job_id):
            r.delete(f"job_lock:{job_id}")


        def run(job_id):
            if is_job_active(job_id):
                raise RuntimeError("busy")
            set_job_seen(job_id)
            try:
                work(job_id)
            finally:
                remove_job_active(job_id)
    """
    ),
    # The helper answers whether the key is free; the write runs only while it is held (a refresh
    # of a marker, never a claim).
    Valid(
        """\
        import redis

        r = redis.Redis()


        def slot_is_free(slot):
            return r.get(f"slot_lock:{slot}") is None


        def touch_slot(slot, ttl=60):
            r.set(f"slot_lock:{slot}", "1", ex=ttl)


        def drop_slot(slot):
            r.delete(f"slot_lock:{slot}")


        def heartbeat(slot):
            if not slot_is_free(slot):
                touch_slot(slot)
                try:
                    ping(slot)
                finally:
                    drop_slot(slot)
    """
    ),
    # A number from the store's counter kept for an order when it has none yet: a sequence, not a
    # holder (the order's row lock is the database's).
    Valid(
        """\
        import redis

        r = redis.Redis()


        def number_missing(order_id):
            return not r.get(f"order_no:{order_id}")


        def submit_numbered(order_id):
            key = f"order_no:{order_id}"
            if number_missing(order_id):
                number = int(r.incr("order_seq"))
                r.set(key, number)
            try:
                return submit(order_id, r.get(key))
            except Exception:
                r.delete(key)
                raise
    """
    ),
]

INVALID = [
    # A marker asked for by one helper and set by another, in the caller's order: check, then set.
    Invalid(
        """\
        import redis

        r = redis.Redis(decode_responses=True)


        def is_job_active(job_id):
            try:
                return bool(r.get(f"job_lock:{job_id}"))
            except redis.RedisError:
                return False


        def set_job_active(job_id, expire_seconds=3600):
            try:
                r.set(f"job_lock:{job_id}", "1", ex=expire_seconds)
            except redis.RedisError:
                pass


        def remove_job_active(job_id):
            r.delete(f"job_lock:{job_id}")


        def start(job_id):
            if is_job_active(job_id):
                raise RuntimeError("already running")
            set_job_active(job_id)
            try:
                work(job_id)
            finally:
                remove_job_active(job_id)
    """,
        line=27,
    ),
    # A page lock: the caller reads the holder through one method and, when none, takes it through
    # another that writes the user's name; a third compares and deletes.
    Invalid(
        """\
        import redis

        LOCK_KEY = "page:{id}:lock"


        class PageLocks:
            def __init__(self, client: redis.Redis):
                self.client = client

            def holder(self, page_id):
                key = LOCK_KEY.format(id=page_id)
                return self.client.get(key)

            def take(self, page_id, user, ttl=900):
                key = LOCK_KEY.format(id=page_id)
                self.client.set(key, user, ex=ttl)

            def give_back(self, page_id, user):
                key = LOCK_KEY.format(id=page_id)
                self.client.delete(key)

            def open_page(self, page_id, user):
                current = self.holder(page_id)
                if current:
                    return current == user
                else:
                    self.take(page_id, user)
                    log(page_id, user)
                    return True
    """,
        line=16,
    ),
    # The helper answers whether the key is free; the write runs only then.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def slot_is_free(slot):
            return r.get(f"slot_lock:{slot}") is None


        def take_slot(slot, ttl=60):
            r.set(f"slot_lock:{slot}", "1", ex=ttl)


        def drop_slot(slot):
            r.delete(f"slot_lock:{slot}")


        def run(slot):
            if slot_is_free(slot):
                take_slot(slot)
                try:
                    work(slot)
                finally:
                    drop_slot(slot)
    """,
        line=20,
    ),
]

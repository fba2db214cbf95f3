"""LL001 cases: a lease held in module globals that a function sets through `global` and another
function releases. A global that each function binds to a value of its own is that function's value
there: two functions that set one global name to two keys (or two clients) hold no common lease."""

from leaselint.rule import Invalid, Valid

VALID = [
    # One global name for the key of whatever each function does: an import's lease and a page's
    # cache entry are not one lease.
    Valid(
        """\
        import redis

        r = redis.Redis()
        _key = None


        def start_import(batch):
            global _key
            _key = f"import-running:{batch}"
            return bool(r.set(_key, 1, nx=True, ex=600))


        def drop_render(page):
            global _key
            _key = f"render-cache:{page}"
            r.delete(_key)
    """
    ),
    # Two clients under one global name: the release function talks to another database.
    Valid(
        """\
        import redis

        _conn = None


        def run_exclusive(job, fn):
            global _conn
            _conn = redis.Redis(db=0)
            if not _conn.set(f"job:{job}", "1", nx=True, ex=60):
                return False
            fn()
            return True


        def clear_result(job):
            global _conn
            _conn = redis.Redis(db=3)
            _conn.delete(f"job:{job}")
    """
    ),
]

INVALID = [
    # The client and the key live in globals the claim sets; the shutdown hook deletes the key blindly.
    Invalid(
        """\
        import redis

        _conn = None
        _lock_key = None


        def become_leader(name, ttl=30):
            global _conn, _lock_key
            _conn = redis.Redis()
            _lock_key = f"leader:{name}"
            return bool(_conn.set(_lock_key, "1", nx=True, ex=ttl))


        def on_shutdown():
            if _conn is not None and _lock_key is not None:
                _conn.delete(_lock_key)
    """,
        line=16,
        column=9,
        message_contains="without checking the holder",
    ),
]

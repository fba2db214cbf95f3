"""LL006 cases: a release helper that watches the key, reads the holder back as text
(`pipe.get(name).decode()`), compares it and deletes in MULTI/EXEC, answering True or False: its
answer says whether the lease was still held, and a caller that drops it loses that."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The caller acts on the helper's answer.
    Valid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def acquire(conn, name, ttl=30):
            token = uuid.uuid4().hex
            if conn.set("mutex:" + name, token, nx=True, ex=ttl):
                return token
            return None


        def release(conn, name, token):
            pipe = conn.pipeline(True)
            name = "mutex:" + name
            while True:
                try:
                    pipe.watch(name)
                    held = pipe.get(name).decode()
                    if held == token:
                        pipe.multi()
                        pipe.delete(name)
                        pipe.execute()
                        return True
                    pipe.unwatch()
                    break
                except redis.exceptions.WatchError:
                    pass
            return False


        def sweep(name):
            token = acquire(r, name)
            if not token:
                return
            try:
                clean(name)
            finally:
                if not release(r, name, token):
                    raise RuntimeError(f"mutex {name} was lost")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()


        def acquire(conn, name, ttl=30):
            token = uuid.uuid4().hex
            if conn.set("mutex:" + name, token, nx=True, ex=ttl):
                return token
            return None


        def release(conn, name, token):
            pipe = conn.pipeline(True)
            name = "mutex:" + name
            while True:
                try:
                    pipe.watch(name)
                    held = pipe.get(name).decode()
                    if held == token:
                        pipe.multi()
                        pipe.delete(name)
                        pipe.execute()
                        return True
                    pipe.unwatch()
                    break
                except redis.exceptions.WatchError:
                    pass
            return False


        def sweep(name):
            token = acquire(r, name)
            if not token:
                return
            try:
                clean(name)
            finally:
                release(r, name, token)
    """,
        line=41,
        column=9,
        fixed="""\
        import logging
        import uuid

        import redis

        r = redis.Redis()


        def acquire(conn, name, ttl=30):
            token = uuid.uuid4().hex
            if conn.set("mutex:" + name, token, nx=True, ex=ttl):
                return token
            return None


        def release(conn, name, token):
            pipe = conn.pipeline(True)
            name = "mutex:" + name
            while True:
                try:
                    pipe.watch(name)
                    held = pipe.get(name).decode()
                    if held == token:
                        pipe.multi()
                        pipe.delete(name)
                        pipe.execute()
                        return True
                    pipe.unwatch()
                    break
                except redis.exceptions.WatchError:
                    pass
            return False


        def sweep(name):
            token = acquire(r, name)
            if not token:
                return
            try:
                clean(name)
            finally:
                if not release(r, name, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", name
                    )
    """,
        applicability=Applicability.SAFE,
        message_contains="is thrown away",
    ),
]

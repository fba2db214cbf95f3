"""LL006 cases: a release helper made as a WATCH/MULTI/EXEC transaction (compare, then the delete
queued after `multi()`) that answers `return True` when it ran and `return False` when another worker
held the key, called by code that drops the answer."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The caller tells a lost lock.
    Valid(
        """\
        import time
        import uuid

        import redis

        PREFIX = "crawl-lock:"


        def take_lock(conn, name, timeout=10):
            token = str(uuid.uuid4())
            key = PREFIX + name
            end = time.time() + 2
            while time.time() < end:
                if conn.set(key, token, ex=timeout, nx=True):
                    return token
                time.sleep(0.05)
            return None


        def give_lock(conn, name, token):
            key = PREFIX + name
            with conn.pipeline(True) as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        if pipe.get(key) == token.encode():
                            pipe.multi()
                            pipe.delete(key)
                            pipe.execute()
                            return True
                        pipe.unwatch()
                        return False
                    except redis.exceptions.WatchError:
                        continue


        def crawl(conn, name):
            token = take_lock(conn, name)
            if token is None:
                return False
            try:
                return True
            finally:
                if not give_lock(conn, name, token):
                    print("crawl lock", name, "was lost")
    """
    ),
    # A transaction that compares nothing before its delete answers whether the WATCH held, not whether the lease did.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def open_job(job_id):
            return r.set(f"job:{job_id}", "1", nx=True, ex=60)


        def close_job(job_id):
            key = f"job:{job_id}"
            with r.pipeline() as pipe:
                try:
                    pipe.watch(key)
                    pipe.multi()
                    pipe.delete(key)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    return False


        def run(job_id):
            if not open_job(job_id):
                return
            try:
                print(job_id)
            finally:
                close_job(job_id)
    """
    ),
]

INVALID = [
    # The caller's `finally` drops the answer.
    Invalid(
        """\
        import time
        import uuid

        import redis

        PREFIX = "crawl-lock:"


        def take_lock(conn, name, timeout=10):
            token = str(uuid.uuid4())
            key = PREFIX + name
            end = time.time() + 2
            while time.time() < end:
                if conn.set(key, token, ex=timeout, nx=True):
                    return token
                time.sleep(0.05)
            return None


        def give_lock(conn, name, token):
            key = PREFIX + name
            with conn.pipeline(True) as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        if pipe.get(key) == token.encode():
                            pipe.multi()
                            pipe.delete(key)
                            pipe.execute()
                            return True
                        pipe.unwatch()
                        return False
                    except redis.exceptions.WatchError:
                        continue


        def crawl(conn, name):
            token = take_lock(conn, name)
            if token is None:
                return False
            try:
                return True
            finally:
                give_lock(conn, name, token)
    """,
        line=44,
        message_contains="by `give_lock` (line 28), which returns it, is thrown away",
        fixed="""\
        import logging
        import time
        import uuid

        import redis

        PREFIX = "crawl-lock:"


        def take_lock(conn, name, timeout=10):
            token = str(uuid.uuid4())
            key = PREFIX + name
            end = time.time() + 2
            while time.time() < end:
                if conn.set(key, token, ex=timeout, nx=True):
                    return token
                time.sleep(0.05)
            return None


        def give_lock(conn, name, token):
            key = PREFIX + name
            with conn.pipeline(True) as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        if pipe.get(key) == token.encode():
                            pipe.multi()
                            pipe.delete(key)
                            pipe.execute()
                            return True
                        pipe.unwatch()
                        return False
                    except redis.exceptions.WatchError:
                        continue


        def crawl(conn, name):
            token = take_lock(conn, name)
            if token is None:
                return False
            try:
                return True
            finally:
                if not give_lock(conn, name, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "crawl-lock:" + name,
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

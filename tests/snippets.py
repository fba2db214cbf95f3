"""Source texts several test modules lint."""

# A lease released with a plain delete (LL001); its token is fresh, so the fix is safe.
BLIND_RELEASE = '''import redis

r = redis.Redis()


def run(job):
    token = secrets.token_hex(16)
    if r.set(f"lock:{job}", token, nx=True, ex=30):
        try:
            work(job)
        finally:
            r.delete(f"lock:{job}")
'''

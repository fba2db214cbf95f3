import redis
from redis.lock import Lock as L

r = redis.Redis()


def run():
    with L(r, "job"):
        work()

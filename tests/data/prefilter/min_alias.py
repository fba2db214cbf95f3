from redis.lock import Lock as L

with L(r, "job"):
    pass

"""A connection-passing lock pair: setnx then expire, released under WATCH/MULTI when the token matches."""

# overlap: original keeps b

import redis


def acquire_lock(conn, key, token, lock_timeout=10):
    if conn.setnx(key, token):
        conn.expire(key, lock_timeout)
        return True
    return False


def release_lock(conn, key, token):
    with conn.pipeline(True) as pipe:
        while True:
            try:
                pipe.watch(key)
                value = pipe.get(key)
                if value is not None and value.decode() == token:
                    pipe.multi()
                    pipe.delete(key)
                    pipe.execute()
                    return True
                pipe.unwatch()
                return False
            except redis.exceptions.WatchError:
                continue

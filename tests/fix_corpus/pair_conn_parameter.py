"""Lock helpers that take the connection, as small web apps write them; a view-like function uses them."""

import redis


def get_lock(conn, name, timeout=30):
    key = "lock:" + name
    ok = conn.set(key, "1", nx=True, ex=timeout)
    return ok


def drop_lock(conn, name):
    conn.delete("lock:" + name)


def rebuild_cache(conn, name, fn):
    if get_lock(conn, name):
        try:
            fn()
        finally:
            drop_lock(conn, name)
        return True
    return False

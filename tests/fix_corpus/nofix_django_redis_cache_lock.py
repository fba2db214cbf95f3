"""A lock on django-redis's cache API (`set(nx=True)`): redis-py's eval is not its API, so no fix."""

# leaselint: no fix

from django.core.cache import cache


def rebuild_index(name, build):
    key = f"index:{name}:lock"
    if not cache.set(key, "1", nx=True, timeout=300):
        return False
    try:
        build()
    finally:
        cache.delete(key)
    return True

from .pymemcache import Client

if Client().add("lock", 1, 30):
    pass

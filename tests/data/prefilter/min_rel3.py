from .memcache import mc

if mc.add("lock", 1, 30):
    mc.delete("lock")

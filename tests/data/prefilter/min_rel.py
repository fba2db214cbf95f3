from . import memcache

mc = memcache.Client()
if mc.add("lock", 1, 30):
    mc.delete("lock")

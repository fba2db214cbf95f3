from .pymemcache.client.base import Client

mc = Client(("h", 1))


def run(token):
    if mc.add("lock:job", token, expire=30):
        work()

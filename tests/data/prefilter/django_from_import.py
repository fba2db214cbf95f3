from django.core import cache as c


def run(token):
    if c.add("lock:job", token, 30):
        work()
        c.delete("lock:job")

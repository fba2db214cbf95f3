def run(r, token):
    if r.setnx("lock:job", token):
        work()
        r.delete("lock:job")

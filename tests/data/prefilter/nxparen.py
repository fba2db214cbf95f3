def run(r, token):
    if r.set("lock:job", token, ex=30, nx=(True)):
        try:
            work()
        finally:
            r.delete("lock:job")

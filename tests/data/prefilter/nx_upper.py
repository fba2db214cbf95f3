def run(r, token):
    if r.execute_command("SET", "lock:job", token, "NX", "PX", 30000):
        work()
        r.delete("lock:job")

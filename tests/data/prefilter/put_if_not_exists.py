def run(etcd, token):
    if etcd.put_if_not_exists("lock:job", token):
        work()
        etcd.delete("lock:job")

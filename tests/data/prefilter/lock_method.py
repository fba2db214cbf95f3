def run(r):
    with r.lock("job"):
        work()

if r.set("lock", 1, nx=(True)):
    r.delete("lock")

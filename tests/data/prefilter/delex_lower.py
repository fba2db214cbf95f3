def release(r, key, token):
    r.execute_command("delex", key, "IFEQ", token)

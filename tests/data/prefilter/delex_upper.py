def release(r, key, token):
    r.execute_command("DELEX", key, "IFEQ", token)

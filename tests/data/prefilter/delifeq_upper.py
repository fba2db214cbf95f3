r.execute_command("DELIFEQ", key, token)

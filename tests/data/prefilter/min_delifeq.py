r.execute_command("delifeq", key, token)

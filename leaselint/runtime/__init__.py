"""The run-time checker: leases as the store receives them, whatever code stands in between.

`record.py` keeps one event per lease command a client sends (claims, reads, releases, renewals),
with the first frame of the user's own code that made it; `redis_hooks.py` and `other_hooks.py`
wrap the clients through their public classes; `install.py` applies the wraps when a client module
is imported; `analyze.py` turns the events into findings with the static rules' codes; `output.py`
reports them; `pytest_plugin.py` (`pytest --leases`) and `trace.py` (`leaselint trace -- CMD`) are
the two ways in. Nothing here imports libcst: a traced process pays for what it records only.
"""

"""LL002 cases: a local token given a value in each branch of an `if` (a name bound more than once):
weak when every value it can be given is weak."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this: one branch makes a fresh token
        import os
        import uuid

        import redis

        r = redis.Redis()
        DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def compact(table: str, debug: bool) -> None:
            if debug:
                holder = f"debug-{os.getpid()}"
            else:
                holder = uuid.uuid4().hex
            if not r.set(f"compact:{table}", holder, nx=True, ex=120):
                return
            try:
                run_compaction(table)
            finally:
                if not r.eval(DROP, 1, f"compact:{table}", holder):
                    report_overlap(table)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import os
        import socket

        import redis

        r = redis.Redis()
        DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def compact(table: str, per_process: bool) -> None:
            if per_process:
                holder = str(os.getpid())
            else:
                holder = socket.gethostname()
            if not r.set(f"compact:{table}", holder, nx=True, ex=120):
                return
            try:
                run_compaction(table)
            finally:
                if not r.eval(DROP, 1, f"compact:{table}", holder):
                    report_overlap(table)
    """,
        line=15,
        column=38,
        message_contains="comes from the process id",
        fixed="""\
        import os
        import secrets
        import socket

        import redis

        r = redis.Redis()
        DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        def compact(table: str, per_process: bool) -> None:
            if per_process:
                holder = str(os.getpid())
            else:
                holder = socket.gethostname()
            token = f"{holder}:{secrets.token_hex(8)}"
            if not r.set(f"compact:{table}", token, nx=True, ex=120):
                return
            try:
                run_compaction(table)
            finally:
                if not r.eval(DROP, 1, f"compact:{table}", token):
                    report_overlap(table)
    """,
        applicability=Applicability.SAFE,
    ),
]

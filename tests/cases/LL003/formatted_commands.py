"""LL003 cases: commands written as one formatted string (`execute_command(f"SET {key} {token} NX")`)."""

from leaselint.rule import Invalid

VALID = [
]

INVALID = [
    Invalid(
        """\
        import random

        import redis

        r = redis.Redis()


        def run(job):
            key = f"lock:{job}"
            token = random.random()
            if r.execute_command(f"SET {key} {token} NX PX 30000") != b"OK":
                return
            try:
                work(job)
            finally:
                r.execute_command(f"DEL {key}")
    """,
        line=11,
        column=39,
        fixed=None,
        message_contains="comes from the random module",
    ),
]

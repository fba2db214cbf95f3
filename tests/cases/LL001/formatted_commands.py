"""LL001 cases: commands written as one formatted string (`execute_command(f"SET {key} {token} NX")`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def refresh(name, value):
            # Not a claim: XX writes only a key that is there, and `lock:{name}` glued to the text is no argument.
            r.execute_command(f"SET {name} {value} XX PX 30000")
            r.execute_command(f"SET lock:{name} {value} NX PX 30000")
            r.execute_command(f"DEL {name}")
            r.execute_command(f"DEL lock:{name}")
    """
    ),
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
        line=16,
        column=9,
        fixed=None,
        message_contains="the command is one formatted string",
    ),
]

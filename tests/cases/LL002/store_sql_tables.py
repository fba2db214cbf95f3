"""LL002 cases: rows of a lock table through SQL (DB-API `cursor.execute(sql, params)`)."""

from leaselint.rule import Invalid

VALID = [
]

INVALID = [
    Invalid(
        """\
        import socket

        import psycopg2

        conn = psycopg2.connect("dbname=app")


        def run_nightly(job):
            with conn.cursor() as cur:
                try:
                    cur.execute(
                        "INSERT INTO job_locks (name, owner, expires_at) VALUES (%s, %s, now() + interval '5 minutes')",
                        (job, socket.gethostname()),
                    )
                except psycopg2.IntegrityError:
                    return False
            try:
                work(job)
            finally:
                with conn.cursor() as cur:
                    cur.execute("DELETE FROM job_locks WHERE name = %s", (job,))
            return True
    """,
        line=11,
        column=13,
        fixed=None,
        message_contains="comes from the host name",
    ),
]

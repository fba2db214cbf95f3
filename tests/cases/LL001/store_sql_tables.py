"""LL001 cases: rows of a lock table through SQL (DB-API `cursor.execute(sql, params)`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets

        import pymysql

        conn = pymysql.connect(database="app")


        def acquire(name, seconds=60):
            token = secrets.token_hex(16)
            with conn.cursor() as cur:
                cur.execute(
                    "INSERT IGNORE INTO locks (name, owner, expires_at) VALUES (%(name)s, %(owner)s, NOW() + INTERVAL %(s)s SECOND)",
                    {"name": name, "owner": token, "s": seconds},
                )
                return token if cur.rowcount == 1 else None


        def release(name, token):
            with conn.cursor() as cur:
                cur.execute("DELETE FROM locks WHERE name = %s AND owner = %s", (name, token))
                if cur.rowcount == 0:
                    raise LeaseLost(name)


        def forget(user):
            # Rows of a table that holds no locks.
            with conn.cursor() as cur:
                cur.execute("INSERT INTO visits (user_name, seen_at) VALUES (%s, NOW())", (user,))
                cur.execute("DELETE FROM visits WHERE user_name = %s", (user,))
    """
    ),
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
        line=21,
        column=13,
        fixed=None,
        message_contains='(no automatic fix: the SQL statements are written by hand)',
    ),
]

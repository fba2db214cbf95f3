"""LL006 cases: rows of a lock table through SQL (DB-API `cursor.execute(sql, params)`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
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
        import secrets
        import sqlite3

        db = sqlite3.connect("app.db")


        class LeaseStore:
            def acquire(self, resource):
                token = secrets.token_hex(16)
                cur = db.cursor()
                cur.execute("INSERT OR IGNORE INTO leases (resource, holder) VALUES (?, ?)", (resource, token))
                if cur.rowcount != 1:
                    return None
                return token

            def release(self, resource, token):
                cur = db.cursor()
                cur.execute("DELETE FROM leases WHERE resource = ? AND holder = ?", (resource, token))
    """,
        line=18,
        column=9,
        fixed=None,
    ),
]

"""LL005 cases: rows of a lock table through SQL (DB-API `cursor.execute(sql, params)`)."""

from leaselint.rule import Invalid

VALID = [
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
        line=11,
        column=9,
        fixed=None,
        message_contains="the row has no expiry column",
    ),
]

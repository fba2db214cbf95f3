"""LL006 cases: a row's holder column emptied with a holder check whose row count nobody reads."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets
        import sqlite3

        db = sqlite3.connect("jobs.db")


        def run(job_id):
            runner = secrets.token_hex(16)
            cur = db.execute("UPDATE jobs SET runner = ?, runner_until = ? WHERE id = ? AND runner IS NULL", (runner, deadline(), job_id))
            if not cur.rowcount:
                return
            try:
                execute_job(job_id)
            finally:
                cur = db.execute("UPDATE jobs SET runner = NULL WHERE id = ? AND runner = ?", (job_id, runner))
                if cur.rowcount == 0:
                    report_overlap(job_id)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets
        import sqlite3

        db = sqlite3.connect("jobs.db")


        def run(job_id):
            runner = secrets.token_hex(16)
            cur = db.execute("UPDATE jobs SET runner = ?, runner_until = ? WHERE id = ? AND runner IS NULL", (runner, deadline(), job_id))
            if not cur.rowcount:
                return
            try:
                execute_job(job_id)
            finally:
                db.execute("UPDATE jobs SET runner = NULL WHERE id = ? AND runner = ?", (job_id, runner))
    """,
        line=15,
        column=9,
    ),
]

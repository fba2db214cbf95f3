"""LL001 cases: a row claimed by setting a column where it holds its free value (`UPDATE ... SET
owner = %s WHERE id = %s AND owner IS NULL`, `SET busy = 1 ... AND busy = 0`), and given back by
setting it free again."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import uuid

        import psycopg2

        conn = psycopg2.connect("dbname=shop")


        def pack(order_id):
            packer = uuid.uuid4().hex
            with conn.cursor() as cur:
                cur.execute(
                    "UPDATE orders SET packer = %s, packing_until = now() + interval '10 minutes' WHERE id = %s AND packer IS NULL",
                    (packer, order_id),
                )
                if cur.rowcount != 1:
                    return
            try:
                pack_items(order_id)
            finally:
                with conn.cursor() as cur:
                    cur.execute("UPDATE orders SET packer = NULL WHERE id = %s AND packer = %s", (order_id, packer))
                    if cur.rowcount == 0:
                        raise PackingLost(order_id)
    """
    ),
    Valid(
        """\
        # no rule reports this: the row is never claimed here, only cleared
        import psycopg2

        conn = psycopg2.connect("dbname=shop")


        def unassign(order_id):
            with conn.cursor() as cur:
                cur.execute("UPDATE orders SET packer = NULL WHERE id = %s", (order_id,))
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import psycopg2

        conn = psycopg2.connect("dbname=shop")


        def pack(order_id):
            packer = uuid.uuid4().hex
            with conn.cursor() as cur:
                cur.execute(
                    "UPDATE orders SET packer = %s, packing_until = now() + interval '10 minutes' WHERE id = %s AND packer IS NULL",
                    (packer, order_id),
                )
                if cur.rowcount != 1:
                    return
            try:
                pack_items(order_id)
            finally:
                with conn.cursor() as cur:
                    cur.execute("UPDATE orders SET packer = NULL, packing_until = NULL WHERE id = %s", (order_id,))
    """,
        line=21,
        column=13,
        message_contains="no automatic fix",
    ),
    Invalid(
        """\
        import sqlite3

        db = sqlite3.connect("reports.db")


        def rebuild(report_id):
            cur = db.execute("UPDATE reports SET rebuilding = 1 WHERE id = ? AND rebuilding = 0", (report_id,))
            if cur.rowcount != 1:
                return
            try:
                render(report_id)
            finally:
                db.execute("UPDATE reports SET rebuilding = 0 WHERE id = ?", (report_id,))
    """,
        line=13,
        column=9,
    ),
]

"""LL001 cases: a row claimed by setting its holder column where it is empty (`UPDATE ... SET
owner = %s WHERE id = %s AND owner IS NULL`), and given back by emptying that column."""

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
]

"""LL005 cases: etcd."""

from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        import os

        import etcd

        client = etcd.Client(host=os.environ["ETCD_HOST"], port=2379)


        def lock_migration(version, token):
            try:
                client.write(f"/locks/migrate/{version}", token, prevExist=False)
            except etcd.EtcdAlreadyExist:
                return False
            return True


        def unlock_migration(version, token):
            try:
                client.delete(f"/locks/migrate/{version}", prevValue=token)
            except etcd.EtcdCompareFailed:
                raise RuntimeError("migration lock lost")
    """,
        line=10,
        column=9,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import base64
        import secrets

        import etcd3gw

        client = etcd3gw.client(host="127.0.0.1", port=2379)


        def lock_release_train(version, ship):
            key = base64.b64encode(f"/locks/release/{version}".encode()).decode()
            token = base64.b64encode(secrets.token_bytes(16)).decode()
            claimed = client.transaction(
                {
                    "compare": [{"key": key, "result": "EQUAL", "target": "VERSION", "version": 0}],
                    "success": [{"request_put": {"key": key, "value": token}}],
                    "failure": [],
                }
            )
            if not claimed.get("succeeded", False):
                return False
            try:
                ship(version)
            finally:
                client.transaction(
                    {
                        "compare": [{"key": key, "result": "EQUAL", "target": "VALUE", "value": token}],
                        "success": [{"request_delete_range": {"key": key}}],
                    }
                )
            return True
    """,
        line=12,
        column=15,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import uuid

        from etcd3 import Client

        client = Client(host="127.0.0.1", port=2379)


        def with_lock(name, job):
            key = f"/locks/{name}"
            token = uuid.uuid4().hex
            txn = client.Txn()
            txn.If(txn.key(key).create == 0)
            txn.Then(txn.put(key, token))
            if not txn.commit().succeeded:
                return False
            try:
                job()
            finally:
                txn = client.Txn()
                txn.If(txn.key(key).value == token)
                txn.Then(txn.delete(key))
                txn.commit()
            return True
    """,
        line=13,
        column=5,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
]

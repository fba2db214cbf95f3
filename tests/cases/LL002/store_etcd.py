"""LL002 cases: etcd."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import base64
        import uuid

        import etcd3gw


        def _b64(data):
            return base64.b64encode(data).decode()


        class GatewayLock:
            def __init__(self, name, ttl=30):
                self.client = etcd3gw.client(host="127.0.0.1", port=2379)
                self.key = _b64(b"/locks/" + name.encode())
                self.token = None
                self.ttl = ttl

            def acquire(self):
                token = _b64(uuid.uuid4().bytes)
                lease = self.client.lease(self.ttl)
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "CREATE", "create_revision": 0}],
                    "success": [{"request_put": {"key": self.key, "value": token, "lease": lease.id}}],
                    "failure": [],
                }
                if self.client.transaction(txn).get("succeeded", False):
                    self.token = token
                    return True
                return False

            def release(self):
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "VALUE", "value": self.token}],
                    "success": [{"request_delete_range": {"key": self.key}}],
                }
                return self.client.transaction(txn).get("succeeded", False)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import base64
        import uuid

        import etcd3gw


        def _b64(data):
            return base64.b64encode(data).decode()


        class GatewayLock:
            def __init__(self, name, ttl=30):
                self.client = etcd3gw.client(host="127.0.0.1", port=2379)
                self.key = _b64(b"/locks/" + name.encode())
                self.token = _b64(uuid.uuid4().bytes)
                self.ttl = ttl

            def acquire(self):
                lease = self.client.lease(self.ttl)
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "CREATE", "create_revision": 0}],
                    "success": [{"request_put": {"key": self.key, "value": self.token, "lease": lease.id}}],
                    "failure": [],
                }
                return self.client.transaction(txn).get("succeeded", False)

            def release(self):
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "VALUE", "value": self.token}],
                    "success": [{"request_delete_range": {"key": self.key}}],
                }
                return self.client.transaction(txn).get("succeeded", False)
    """,
        line=25,
        column=16,
        message_contains="(no automatic fix: the claim's answer is not tested where leaselint can see whether it succeeded)",
    ),
    Invalid(
        """\
        import uuid

        from etcd3 import Client

        client = Client(host="127.0.0.1", port=2379)


        class BuildLock:
            def __init__(self, name, ttl=30):
                self.key = f"/locks/build/{name}"
                self.token = uuid.uuid4().hex
                self.ttl = ttl

            def acquire(self):
                lease = client.Lease(self.ttl)
                lease.grant()
                txn = client.Txn()
                txn.If(txn.key(self.key).version == 0)
                txn.Then(txn.put(self.key, self.token, lease=lease.ID))
                return txn.commit().succeeded

            def release(self):
                client.delete_range(self.key)
    """,
        line=19,
        column=36,
        message_contains="(no automatic fix: the claim's answer is not tested where leaselint can see whether it succeeded)",
    ),
]

"""LL001 cases: etcd."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import secrets

        import etcd

        client = etcd.Client(host="127.0.0.1", port=2379)


        def run_backup(name, backup):
            key = f"/locks/backup/{name}"
            token = secrets.token_hex(16)
            try:
                client.write(key, token, prevExist=False, ttl=60)
            except etcd.EtcdAlreadyExist:
                return False
            try:
                backup(name)
            finally:
                try:
                    client.delete(key, prevValue=token)
                except etcd.EtcdCompareFailed:
                    log_lost(key)
            return True
    """
    ),
    Valid(
        """\
        import uuid

        from etcd3 import Client

        client = Client(host="127.0.0.1", port=2379)


        def with_lock(name, job, ttl=30):
            key = f"/locks/{name}"
            token = uuid.uuid4().hex
            lease = client.Lease(ttl)
            lease.grant()
            if not client.Txn().If(client.Txn.key(key).version == 0).Then(client.Txn.put(key, token, lease=lease.ID)).commit().succeeded:
                return False
            try:
                job()
            finally:
                txn = client.Txn()
                txn.If(txn.key(key).value == token)
                txn.Then(txn.delete(key))
                if not txn.commit().succeeded:
                    report_lost(key)
            return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import etcd3

        etcd = etcd3.client()


        def run(job, token, lease):
            key = f"/locks/{job}"
            ok, _ = etcd.transaction(
                compare=[etcd.transactions.create(key) == 0],
                success=[etcd.transactions.put(key, token, lease)],
                failure=[],
            )
            if ok:
                work(job)
                etcd.delete(key)
    """,
        line=15,
        column=9,
        fixed="""\
        import logging

        import etcd3

        etcd = etcd3.client()


        def run(job, token, lease):
            key = f"/locks/{job}"
            ok, _ = etcd.transaction(
                compare=[etcd.transactions.create(key) == 0],
                success=[etcd.transactions.put(key, token, lease)],
                failure=[],
            )
            if ok:
                work(job)
                if not etcd.transaction(compare=[etcd.transactions.value(key) == token], success=[etcd.transactions.delete(key)], failure=[])[0]:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import etcd

        client = etcd.Client(host="127.0.0.1", port=2379)


        def run_backup(name, backup):
            key = f"/locks/backup/{name}"
            token = secrets.token_hex(16)
            try:
                client.write(key, token, prevExist=False, ttl=60)
            except etcd.EtcdAlreadyExist:
                return False
            try:
                backup(name)
            finally:
                client.delete(key)
            return True
    """,
        line=18,
        column=9,
        fixed="""\
        import logging
        import secrets

        import etcd

        client = etcd.Client(host="127.0.0.1", port=2379)


        def run_backup(name, backup):
            key = f"/locks/backup/{name}"
            token = secrets.token_hex(16)
            try:
                client.write(key, token, prevExist=False, ttl=60)
            except etcd.EtcdAlreadyExist:
                return False
            try:
                backup(name)
            finally:
                try:
                    client.delete(key, prevValue=token)
                except etcd.EtcdCompareFailed:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        from etcd import Client, EtcdAlreadyExist


        class EtcdLock:
            def __init__(self, name, ttl=30):
                self.client = Client(host="etcd.internal", port=2379)
                self.key = "/locks/" + name
                self.ttl = ttl
                self.token = None

            def acquire(self):
                token = secrets.token_hex(16)
                try:
                    self.client.write(self.key, token, prevExist=False, ttl=self.ttl)
                except EtcdAlreadyExist:
                    return False
                self.token = token
                return True

            def release(self):
                self.client.delete(self.key)
    """,
        line=23,
        column=9,
        message_contains='the release raises EtcdKeyNotFound when nothing holds the key',
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
        line=23,
        column=9,
        message_contains="(no automatic fix: the claim's answer is not tested where leaselint can see whether it succeeded)",
    ),
]

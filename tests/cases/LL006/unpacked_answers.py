"""LL006 cases: a release's answer unpacked from a transaction's (succeeded, responses) and handed back."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The caller tests what release answers.
    Valid(
        """\
    import etcd3
    import secrets


    class LeaderLease:
        def __init__(self, group):
            self.etcd = etcd3.client()
            self.key = f"/leaders/{group}"
            self.token = None

        def acquire(self):
            token = secrets.token_hex(16)
            lease = self.etcd.lease(30)
            won, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.create(self.key) == 0],
                success=[self.etcd.transactions.put(self.key, token, lease=lease)],
                failure=[],
            )
            if won:
                self.token = token
            return won

        def release(self):
            done, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.value(self.key) == self.token],
                success=[self.etcd.transactions.delete(self.key)],
                failure=[],
            )
            return done

        def step_down(self):
            if not self.release():
                raise RuntimeError("lost the lead")
"""
    ),
]

INVALID = [
    # step_down throws away the answer release hands back.
    Invalid(
        """\
    import etcd3
    import secrets


    class LeaderLease:
        def __init__(self, group):
            self.etcd = etcd3.client()
            self.key = f"/leaders/{group}"
            self.token = None

        def acquire(self):
            token = secrets.token_hex(16)
            lease = self.etcd.lease(30)
            won, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.create(self.key) == 0],
                success=[self.etcd.transactions.put(self.key, token, lease=lease)],
                failure=[],
            )
            if won:
                self.token = token
            return won

        def release(self):
            done, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.value(self.key) == self.token],
                success=[self.etcd.transactions.delete(self.key)],
                failure=[],
            )
            return done

        def step_down(self):
            self.release()
""",
        line=32,
        column=9,
        fixed="""\
    import logging

    import etcd3
    import secrets


    class LeaderLease:
        def __init__(self, group):
            self.etcd = etcd3.client()
            self.key = f"/leaders/{group}"
            self.token = None

        def acquire(self):
            token = secrets.token_hex(16)
            lease = self.etcd.lease(30)
            won, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.create(self.key) == 0],
                success=[self.etcd.transactions.put(self.key, token, lease=lease)],
                failure=[],
            )
            if won:
                self.token = token
            return won

        def release(self):
            done, _ = self.etcd.transaction(
                compare=[self.etcd.transactions.value(self.key) == self.token],
                success=[self.etcd.transactions.delete(self.key)],
                failure=[],
            )
            return done

        def step_down(self):
            if not self.release():
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", self.key
                )
""",
    ),
]

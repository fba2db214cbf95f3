"""LL002 cases: a value written out by a helper named for encoding (`_encode(self._uuid)`) is as fixed as what it encodes."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A fresh value, encoded.
    Valid(
        """\
        import uuid

        import redis

        from deploys.codec import to_bytes

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def roll_out(service):
            key = f"rollout:{service}"
            owner = to_bytes(uuid.uuid4().hex)
            if not r.set(key, owner, nx=True, ex=300):
                return False
            try:
                deploy(service)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("rollout lock of %s expired", service)
            return True
    """
    ),
    # A helper named for making a token may add a fresh part: not read as an encoding.
    Valid(
        """\
        import socket

        import redis

        from deploys.codec import owner_token

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def roll_out(service):
            key = f"rollout:{service}"
            owner = owner_token(socket.gethostname())
            if not r.set(key, owner, nx=True, ex=300):
                return False
            try:
                deploy(service)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("rollout lock of %s expired", service)
            return True
    """
    ),
]

INVALID = [
    # The host name, written out by base64.
    Invalid(
        """\
        import base64
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def roll_out(service):
            key = f"rollout:{service}"
            owner = base64.b64encode(socket.gethostname().encode())
            if not r.set(key, owner, nx=True, ex=300):
                return False
            try:
                deploy(service)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("rollout lock of %s expired", service)
            return True
    """,
        line=13,
        fixed="""\
        import base64
        import secrets
        import socket

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def roll_out(service):
            key = f"rollout:{service}"
            owner = f"{base64.b64encode(socket.gethostname().encode())}:{secrets.token_hex(8)}"
            if not r.set(key, owner, nx=True, ex=300):
                return False
            try:
                deploy(service)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("rollout lock of %s expired", service)
            return True
    """,
    ),
    # A per-instance id, written out by an imported helper into an etcd transaction's value.
    Invalid(
        """\
        import uuid

        import etcd3gw

        from jobs.util import encode_b64


        class JobLock:
            def __init__(self, name, ttl=30):
                self.client = etcd3gw.client(host="127.0.0.1", port=2379)
                self.key = encode_b64("/jobs/" + name)
                self.holder = str(uuid.uuid4())
                self.ttl = ttl

            def acquire(self):
                value = encode_b64(self.holder)
                lease = self.client.lease(self.ttl)
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "CREATE", "create_revision": 0}],
                    "success": [{"request_put": {"key": self.key, "value": value, "lease": lease.id}}],
                    "failure": [],
                }
                return self.client.transaction(txn).get("succeeded", False)

            def release(self):
                txn = {
                    "compare": [{"key": self.key, "result": "EQUAL", "target": "VALUE", "value": encode_b64(self.holder)}],
                    "success": [{"request_delete_range": {"key": self.key}}],
                }
                if not self.client.transaction(txn).get("succeeded", False):
                    raise RuntimeError("job lock lost")
    """,
        line=23,
    ),
]

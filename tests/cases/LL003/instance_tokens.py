"""LL003 cases: a value made once per instance that is guessable too."""

from leaselint.rule import Invalid, Valid

VALID = [
    # uuid4 is not guessable (LL002 reports the value made once per instance).
    Valid(
        """\
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    store = redis.Redis()


    class SyncLock:
        def __init__(self, name):
            self.key = f"sync-lock/{name}"
            self.holder = str(uuid.uuid4())

        def acquire(self):
            return bool(store.set(self.key, self.holder, nx=True, ex=30))

        def release(self):
            return store.eval(UNLOCK, 1, self.key, self.holder) == 1
"""
    ),
]

INVALID = [
    # uuid1 made in __init__: reported as guessable beside LL002.
    Invalid(
        """\
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    store = redis.Redis()


    class SyncLock:
        def __init__(self, name):
            self.key = f"sync-lock/{name}"
            self.holder = str(uuid.uuid1())

        def acquire(self):
            return bool(store.set(self.key, self.holder, nx=True, ex=30))

        def release(self):
            return store.eval(UNLOCK, 1, self.key, self.holder) == 1
""",
        line=15,
        column=41,
        fixed="""\
    import secrets
    import uuid

    import redis

    UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
    store = redis.Redis()


    class SyncLock:
        def __init__(self, name):
            self.key = f"sync-lock/{name}"
            self.holder = str(uuid.uuid1())

        def acquire(self):
            token = secrets.token_hex(16)
            claimed = bool(store.set(self.key, token, nx=True, ex=30))
            if claimed:
                self.holder = token
            return claimed

        def release(self):
            return (store.eval(UNLOCK, 1, self.key, self.holder) if self.holder is not None else 0) == 1
""",
    ),
]

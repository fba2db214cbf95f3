"""LL008 cases: a method that claims the object's own key and hands the answer back
through the project's store wrapper (`return self.store.acquire_lock(self.key, ...)`), called by a
method of the class that drops it."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The caller asks the answer.
    Valid(
        """\
        import uuid

        import redis


        class Store:
            def __init__(self):
                self.r = redis.Redis()

            def acquire_lock(self, key, value, ttl):
                return self.r.set(key, value, nx=True, ex=ttl)

            def delete(self, key):
                return self.r.delete(key)


        class Primary:
            def __init__(self, name):
                self.store = Store()
                self.key = name + ":primary"

            def take(self, token):
                return self.store.acquire_lock(self.key, token, 60)

            def run(self):
                token = uuid.uuid4().hex
                if not self.take(token):
                    return
                try:
                    print("primary")
                finally:
                    self.store.delete(self.key)
    """
    ),
]

INVALID = [
    # The caller goes on as the primary whatever the claim answered.
    Invalid(
        """\
        import uuid

        import redis


        class Store:
            def __init__(self):
                self.r = redis.Redis()

            def acquire_lock(self, key, value, ttl):
                return self.r.set(key, value, nx=True, ex=ttl)

            def delete(self, key):
                return self.r.delete(key)


        class Primary:
            def __init__(self, name):
                self.store = Store()
                self.key = name + ":primary"

            def take(self, token):
                return self.store.acquire_lock(self.key, token, 60)

            def run(self):
                token = uuid.uuid4().hex
                self.take(token)
                try:
                    print("primary")
                finally:
                    self.store.delete(self.key)
    """,
        line=27,
        message_contains="`take` can answer that it did not get the lease (line 23)",
    ),
]

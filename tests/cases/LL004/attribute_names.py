"""LL004 cases: the read value is held in a name that is also the attribute it is compared with
(`owner == self.owner`): the attribute's name is no read of the value."""

from leaselint.rule import Invalid, Valid

VALID = [
    # Compared with None alone: a presence test, no holder compared.
    Valid(
        """\
        import uuid

        import redis


        class Primary:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = "primary:" + name
                self.owner = str(uuid.uuid4())

            def take(self):
                return self.client.set(self.key, self.owner, nx=True, px=5000)

            def held(self):
                owner = self.client.get(self.key)
                return owner is not None

            def step_down(self):
                if self.held():
                    self.client.delete(self.key)
    """
    ),
]

INVALID = [
    # Asked by another method of the class, then deleted in a second step.
    Invalid(
        """\
        import uuid

        import redis


        class Primary:
            def __init__(self, client: redis.Redis, name):
                self.client = client
                self.key = "primary:" + name
                self.owner = str(uuid.uuid4())

            def take(self):
                return self.client.set(self.key, self.owner, nx=True, px=5000)

            def held(self):
                owner = self.client.get(self.key)
                if owner is None:
                    return False
                owner = owner.decode()
                return owner == self.owner

            def step_down(self):
                if self.held():
                    self.client.delete(self.key)
    """,
        line=24,
        message_contains="the holder is compared by another method, `held()`",
    ),
]

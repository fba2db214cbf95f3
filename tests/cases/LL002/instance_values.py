"""LL002 cases: a write helper storing an attribute of its object, given in `__init__`."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The caller replaces the attribute with a fresh value before the write.
    Valid(
        """\
        import socket
        import uuid

        import redis

        r = redis.Redis()


        class Stamps:
            def __init__(self):
                self.holder = socket.gethostname()

            def taken(self, name):
                return r.get("lock:stamp:" + name)

            def take(self, name):
                r.set("lock:stamp:" + name, self.holder, ex=600)

            def give_back(self, name):
                r.delete("lock:stamp:" + name)


        def stamp(name):
            stamps = Stamps()
            stamps.holder = uuid.uuid4().hex
            if stamps.taken(name):
                return
            stamps.take(name)
            try:
                apply(name)
            finally:
                stamps.give_back(name)
    """
    ),
    # A dataclass field's default: each caller may give its own value.
    Valid(
        """\
        import uuid
        from dataclasses import dataclass

        import redis

        r = redis.Redis()


        @dataclass
        class Stamps:
            holder: str = "nobody"

            def taken(self, name):
                return r.get("lock:stamp:" + name)

            def take(self, name):
                r.set("lock:stamp:" + name, self.holder, ex=600)

            def give_back(self, name):
                r.delete("lock:stamp:" + name)


        def stamp(name):
            stamps = Stamps(holder=uuid.uuid4().hex)
            if stamps.taken(name):
                return
            stamps.take(name)
            try:
                apply(name)
            finally:
                stamps.give_back(name)
    """
    ),
]

INVALID = [
    # The host name every object of the class takes in `__init__`.
    Invalid(
        """\
        import socket

        import redis

        r = redis.Redis()


        class Stamps:
            def __init__(self):
                self.holder = socket.gethostname()

            def taken(self, name):
                key = "lock:stamp:" + name
                return r.get(key)

            def take(self, name):
                key = "lock:stamp:" + name
                r.set(key, self.holder, ex=600)

            def give_back(self, name):
                key = "lock:stamp:" + name
                r.delete(key)


        def stamp(name):
            stamps = Stamps()
            if stamps.taken(name):
                return
            stamps.take(name)
            try:
                apply(name)
            finally:
                stamps.give_back(name)
    """,
        line=29,
        column=5,
        message_contains="comes from the host name that `Stamps.take` (line 18) stores",
    ),
]

"""LL003 cases: an optional token parameter filled in by a chain of fallbacks (`holder = holder or
self._holder or str(uuid.uuid1())`): the caller's value, the one the object kept from the last
call, then one made here. For every caller that passes none, the token is what the chain makes."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # The fallback is unguessable.
    Valid(
        """\
        import secrets

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Slot:
            def __init__(self, client, name):
                self.client = client
                self.name = name
                self._holder = None

            def take(self, holder=None):
                holder = holder or self._holder or secrets.token_hex(16)
                if self._try(holder):
                    self._holder = holder
                    return True
                return False

            def _try(self, holder):
                return bool(self.client.set(self.name, holder, nx=True, px=5000))

            def give_back(self):
                if not self.client.eval(RELEASE, 1, self.name, self._holder):
                    raise RuntimeError("slot lost")
    """
    ),
    # The object is made with a holder it must be given: the chain never reaches its fallback for
    # want of one, and no origin is claimed for it.
    Valid(
        """\
        import uuid

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Slot:
            def __init__(self, client, name, holder):
                self.client = client
                self.name = name
                self._holder = holder

            def take(self, holder=None):
                holder = holder or self._holder or str(uuid.uuid1())
                if self._try(holder):
                    self._holder = holder
                    return True
                return False

            def _try(self, holder):
                return bool(self.client.set(self.name, holder, nx=True, px=5000))

            def give_back(self):
                if not self.client.eval(RELEASE, 1, self.name, self._holder):
                    raise RuntimeError("slot lost")
    """
    ),
]

INVALID = [
    # uuid1 is the host and the time; the chain makes it whenever the caller passes no holder.
    Invalid(
        """\
        import uuid

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Slot:
            def __init__(self, client, name):
                self.client = client
                self.name = name
                self._holder = None

            def take(self, holder=None):
                holder = holder or self._holder or str(uuid.uuid1())
                if self._try(holder):
                    self._holder = holder
                    return True
                return False

            def _try(self, holder):
                return bool(self.client.set(self.name, holder, nx=True, px=5000))

            def give_back(self):
                if not self.client.eval(RELEASE, 1, self.name, self._holder):
                    raise RuntimeError("slot lost")
    """,
        line=20,
        column=48,
        fixed="""\
        import secrets
        import uuid

        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        class Slot:
            def __init__(self, client, name):
                self.client = client
                self.name = name
                self._holder = None

            def take(self, holder=None):
                holder = holder or self._holder or str(secrets.token_hex(16))
                if self._try(holder):
                    self._holder = holder
                    return True
                return False

            def _try(self, holder):
                return bool(self.client.set(self.name, holder, nx=True, px=5000))

            def give_back(self):
                if not self.client.eval(RELEASE, 1, self.name, self._holder):
                    raise RuntimeError("slot lost")
    """,
        applicability=Applicability.UNSAFE,
        message_contains="made when the caller passes no `holder`",
    ),
]

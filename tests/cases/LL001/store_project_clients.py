"""LL001 cases: a project's own client, known by a method named for a conditional create
(`set_nx`, `set_if_absent`, `setnx_ex`), whose store leaselint does not see."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        async def fill_profile(item):
            # An object mapper's field update (`SET nickname = if_not_exists(...)`), whose answer
            # nobody reads: no claim, so its field's removal is no release.
            await item.set_if_not_exists("nickname", "anon")
            await item.save()
            if item.banned:
                await item.delete("nickname")
    """
    ),
    Valid(
        """\
        # no rule reports this
        def first_delivery(kv, message_id):
            # A key claimed once and left to expire: a dedupe mark, no lease.
            if not kv.setnx_ex(f"seen:{message_id}", 3600):
                return False
            deliver(message_id)
            return True
    """
    ),
    Valid(
        """\
        # no rule reports this
        class Registry:
            # The module's own method: its body, not its name, says what it does.
            def __init__(self):
                self.items = {}

            def put_if_absent(self, key, value):
                return self.items.setdefault(key, value) is value

            def delete(self, key):
                self.items.pop(key, None)


        def register(registry, name, plugin):
            if registry.put_if_absent(f"plugin:{name}", plugin):
                try:
                    plugin.setup()
                except SetupError:
                    registry.delete(f"plugin:{name}")
    """
    ),
    Valid(
        """\
        # no rule reports this
        def seed(settings, user):
            # Another key is deleted than the one set.
            if settings.set_if_absent(f"theme:{user}", "light"):
                settings.delete(f"theme-cache:{user}")
    """
    ),
    Valid(
        """\
        from app.cache import BaseCache

        UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


        class Guard(BaseCache):
            # The module's own `adelete`: its body checks the holder, whatever its name says.
            async def adelete(self, key):
                if not await self.client.eval(UNLOCK, 1, key, self.owner):
                    raise LeaseLost(key)


        async def reindex(guard: Guard, index):
            if not await guard.asetNx(f"reindex:{index}", guard.owner, ex=60):
                return
            try:
                await rebuild(index)
            finally:
                await guard.adelete(f"reindex:{index}")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        class Importer:
            def __init__(self, driver):
                self.driver = driver

            def run(self, feed):
                key = f"import:{feed}"
                if not self.driver.set_nx_sync(key, b"1", ttl=300):
                    return False
                try:
                    self.pull(feed)
                finally:
                    self.driver.delete(key)
                return True
    """,
        line=12,
        column=13,
        fixed=None,
        message_contains="the project's own client",
    ),
    Invalid(
        """\
        import uuid

        from app.state import store

        LEADER_KEY = "scheduler:leader"


        async def lead_once():
            me = uuid.uuid4().hex
            if not await store.set_if_absent(LEADER_KEY, me, ex=30):
                return
            try:
                await schedule_all()
            finally:
                await store.delete(LEADER_KEY)
    """,
        line=15,
        column=15,
        fixed=None,
    ),
    Invalid(
        """\
        from app.cache import kv


        async def seed_defaults(token):
            if not await kv.asetNx("seed:defaults", token):
                return
            try:
                await write_defaults()
            finally:
                await kv.adelete("seed:defaults")
    """,
        line=10,
        column=15,
        fixed=None,
    ),
    Invalid(
        """\
        def rebuild(kv, index):
            # A name a store row knows for its own clients (etcd's), on a client of the project.
            if not kv.put_if_not_exists(f"rebuild:{index}", "busy", 120):
                return
            try:
                run_rebuild(index)
            finally:
                kv.delete(f"rebuild:{index}")
    """,
        line=8,
        column=9,
        fixed=None,
    ),
]

"""LL001 cases: valkey-glide."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import uuid

        from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient, Script

        RELEASE = Script("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end")


        class TaskGuard:
            def __init__(self, client: GlideClient, name):
                self.client = client
                self.key = f"task-lock:{name}"

            async def run(self, task):
                token = uuid.uuid4().hex
                held = await self.client.set(
                    self.key, token, ConditionalChange.ONLY_IF_DOES_NOT_EXIST, ExpirySet(ExpiryType.MILLSEC, 30_000)
                )
                if held is None:
                    return False
                try:
                    await task()
                finally:
                    if not await self.client.invoke_script(RELEASE, keys=[self.key], args=[token]):
                        report_lost(self.key)
                return True
    """
    ),
    Valid(
        """\
        from glide import ExpirySet, ExpiryType, GlideClient


        async def remember_session(client: GlideClient, sid, data):
            await client.set(f"session:{sid}", data, expiry=ExpirySet(ExpiryType.SEC, 3600))


        async def logout(client: GlideClient, sid):
            await client.delete([f"session:{sid}"])
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient


        class TaskGuard:
            def __init__(self, client: GlideClient, name):
                self.client = client
                self.key = f"task-lock:{name}"

            async def run(self, task):
                token = uuid.uuid4().hex
                held = await self.client.set(
                    self.key, token, ConditionalChange.ONLY_IF_DOES_NOT_EXIST, ExpirySet(ExpiryType.MILLSEC, 30_000)
                )
                if held is None:
                    return False
                try:
                    await task()
                finally:
                    await self.client.delete([self.key])
                return True
    """,
        line=21,
        column=19,
        message_contains='(no automatic fix: valkey-glide has no compare-and-delete call)',
    ),
]

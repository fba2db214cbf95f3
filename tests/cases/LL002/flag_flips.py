"""LL002 cases: a document claimed by flipping a flag from its free value (`{"busy": 0}` to
`{"busy": 1}`) and released by flipping it back: the stored value says nothing of who holds it."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this: the claim stores a fresh holder, and the release asks for it
        import datetime
        import uuid

        from motor.motor_asyncio import AsyncIOMotorClient

        db = AsyncIOMotorClient("mongodb://127.0.0.1:27017/app").get_default_database()


        async def with_printer(job):
            me = uuid.uuid4().hex
            until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=2)
            taken = await db.printers.find_one_and_update(
                {"_id": "main", "holder": None}, {"$set": {"holder": me, "expires_at": until}}
            )
            if taken is None:
                return False
            try:
                await print_job(job)
            finally:
                if await db.printers.find_one_and_update({"_id": "main", "holder": me}, {"$set": {"holder": None}}) is None:
                    raise PrinterLost(job)
            return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from motor.motor_asyncio import AsyncIOMotorClient

        db = AsyncIOMotorClient("mongodb://127.0.0.1:27017/app").get_default_database()


        async def with_printer(job):
            taken = await db.printers.find_one_and_update({"_id": "main", "busy": 0}, {"$set": {"busy": 1}})
            if taken is None:
                return False
            try:
                await print_job(job)
            finally:
                await db.printers.find_one_and_update({"_id": "main", "busy": 1}, {"$set": {"busy": 0}})
            return True
    """,
        line=7,
        column=97,
        message_contains="comes from a constant",
    ),
]

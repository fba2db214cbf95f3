"""LL008 cases: other stores."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        from django.core.cache import cache


        def run(job, token):
            if cache.add(f"lock:{job}", token, 5):
                work(job)
                cache.delete(f"lock:{job}")
    """
    ),
    Valid(
        """\
        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211), default_noreply=False)


        def run(job, token):
            if mc.add(f"lock:{job}", token, expire=30):
                work(job)
                mc.delete(f"lock:{job}")
    """
    ),
    Valid(
        """\
        import boto3

        dynamodb = boto3.client("dynamodb")


        def run(job, token, now):
            try:
                dynamodb.put_item(
                    TableName="locks",
                    Item={"pk": {"S": job}, "owner": {"S": token}, "expires_at": {"N": str(now + 30)}},
                    ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
                    ExpressionAttributeValues={":now": {"N": str(now)}},
                )
            except dynamodb.exceptions.ConditionalCheckFailedException:
                return
            work(job)
            dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}})

    """
    ),
]

INVALID = [
    Invalid(
        """\
        from django.core.cache import cache


        def run(job, token):
            if cache.add(f"lock:{job}", token, 0.5):
                work(job)
                cache.delete(f"lock:{job}")
    """,
        line=5,
        column=40,
        message_contains='A lifetime below one second is cut to 0 s',
    ),
    Invalid(
        """\
        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211))


        def run(job, token):
            if mc.add(f"lock:{job}", token, expire=30):
                try:
                    work(job)
                finally:
                    mc.delete(f"lock:{job}")
    """,
        line=7,
        column=8,
        fixed="""\
        from pymemcache.client.base import Client

        mc = Client(("localhost", 11211))


        def run(job, token):
            if mc.add(f"lock:{job}", token, expire=30, noreply=False):
                try:
                    work(job)
                finally:
                    mc.delete(f"lock:{job}")
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import datetime

        from pymongo import MongoClient

        locks = MongoClient().ops.locks


        def claim(name, owner, ttl=60):
            now = datetime.datetime.utcnow()
            locks.update_one(
                {"_id": f"lock:{name}"},
                {"$set": {"owner": owner, "expires": now + datetime.timedelta(seconds=ttl)}},
                upsert=True,
            )
            return True


        def release(name, owner):
            return locks.delete_one({"_id": f"lock:{name}", "owner": owner}).deleted_count == 1
    """,
        line=10,
        column=5,
        message_contains='its filter names only the key, so it writes over whoever holds it',
    ),
]

"""LL005 cases: other stores."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        from django.core.cache import cache


        def run(job, token):
            if cache.add(f"lock:{job}", token):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """
    ),
    Valid(
        """\
        import secrets

        import bmemcached

        mc = bmemcached.Client(["127.0.0.1:11211"])


        def import_feed(feed, load):
            key = f"lock:import:{feed}"
            token = secrets.token_hex(16)
            if not mc.add(key, token, time=300):
                return
            try:
                load(feed)
            finally:
                stored, cas_id = mc.gets(key)
                if stored == token:
                    mc.delete(key, cas=cas_id)
    """
    ),
    Valid(
        """\
        import datetime
        import secrets

        import pymongo


        class ExportMutex:
            STALE_AFTER = 600

            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.export_locks
                self.token = None

            def acquire(self):
                now = datetime.datetime.now(datetime.timezone.utc)
                stale = now - datetime.timedelta(seconds=self.STALE_AFTER)
                self.locks.delete_many({"_id": self.name, "taken_at": {"$lte": stale}})
                token = secrets.token_hex(16)
                try:
                    self.locks.update_one(
                        {"_id": self.name, "owner": None}, {"$set": {"owner": token, "taken_at": now}}, upsert=True
                    )
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.token = token
                return True

            def release(self):
                self.locks.delete_one({"_id": self.name, "owner": self.token})
    """
    ),
]

INVALID = [
    Invalid(
        """\
        from django.core.cache import cache


        def run(job, token):
            if cache.add(f"lock:{job}", token, None):
                try:
                    work(job)
                finally:
                    cache.delete(f"lock:{job}")
    """,
        line=5,
        column=8,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import boto3

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token):
            table.put_item(Item={"pk": job, "owner": token}, ConditionExpression="attribute_not_exists(pk)")
            work(job)
            table.delete_item(Key={"pk": job}, ConditionExpression="#o = :t", ExpressionAttributeNames={"#o": "owner"}, ExpressionAttributeValues={":t": token})
    """,
        line=7,
        column=5,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import boto3

        table = boto3.resource("dynamodb").Table("jobs")


        def claim_job(job_id, worker):
            try:
                table.update_item(
                    Key={"job_id": job_id},
                    UpdateExpression="SET #owner = :w",
                    ConditionExpression="attribute_not_exists(#owner)",
                    ExpressionAttributeNames={"#owner": "owner"},
                    ExpressionAttributeValues={":w": worker},
                )
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def finish_job(job_id, worker):
            table.delete_item(
                Key={"job_id": job_id},
                ConditionExpression="#owner = :w",
                ExpressionAttributeNames={"#owner": "owner"},
                ExpressionAttributeValues={":w": worker},
            )
    """,
        line=8,
        column=9,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import secrets

        import diskcache

        cache = diskcache.Cache("/tmp/import-locks")


        def import_feed(feed, load):
            key = f"lock:import:{feed}"
            token = secrets.token_hex(16)
            if not cache.add(key, token):
                return
            try:
                load(feed)
            finally:
                with cache.transact():
                    if cache.get(key) == token:
                        cache.delete(key)
    """,
        line=11,
        column=12,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
    Invalid(
        """\
        import secrets

        from django.db import IntegrityError, models


        class ImportLock(models.Model):
            name = models.CharField(max_length=100, unique=True)
            owner = models.CharField(max_length=64)


        def import_feed(name, load):
            token = secrets.token_hex(16)
            try:
                ImportLock.objects.create(name=name, owner=token)
            except IntegrityError:
                return
            try:
                load(name)
            finally:
                if not ImportLock.objects.filter(name=name, owner=token).delete()[0]:
                    report_lost(name)
    """,
        line=14,
        column=9,
        message_contains='(no automatic fix: choosing a lifetime is a decision)',
    ),
]

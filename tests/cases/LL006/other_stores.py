"""LL006 cases: other stores."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def release(job, token):
            table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import etcd3

        etcd = etcd3.client()


        def release(key, token):
            etcd.transaction(
                compare=[etcd.transactions.value(key) == token],
                success=[etcd.transactions.delete(key)],
                failure=[],
            )
    """,
        line=7,
        column=5,
        fixed="""\
        import logging

        import etcd3

        etcd = etcd3.client()


        def release(key, token):
            if not etcd.transaction(
                compare=[etcd.transactions.value(key) == token],
                success=[etcd.transactions.delete(key)],
                failure=[],
            )[0]:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", key
                )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import base64
        import secrets

        import etcd3gw

        client = etcd3gw.client(host="127.0.0.1", port=2379)


        def lock_release_train(version, ship):
            key = base64.b64encode(f"/locks/release/{version}".encode()).decode()
            token = base64.b64encode(secrets.token_bytes(16)).decode()
            claimed = client.transaction(
                {
                    "compare": [{"key": key, "result": "EQUAL", "target": "VERSION", "version": 0}],
                    "success": [{"request_put": {"key": key, "value": token}}],
                    "failure": [],
                }
            )
            if not claimed.get("succeeded", False):
                return False
            try:
                ship(version)
            finally:
                client.transaction(
                    {
                        "compare": [{"key": key, "result": "EQUAL", "target": "VALUE", "value": token}],
                        "success": [{"request_delete_range": {"key": key}}],
                    }
                )
            return True
    """,
        line=24,
        column=9,
        fixed="""\
        import base64
        import logging
        import secrets

        import etcd3gw

        client = etcd3gw.client(host="127.0.0.1", port=2379)


        def lock_release_train(version, ship):
            key = base64.b64encode(f"/locks/release/{version}".encode()).decode()
            token = base64.b64encode(secrets.token_bytes(16)).decode()
            claimed = client.transaction(
                {
                    "compare": [{"key": key, "result": "EQUAL", "target": "VERSION", "version": 0}],
                    "success": [{"request_put": {"key": key, "value": token}}],
                    "failure": [],
                }
            )
            if not claimed.get("succeeded", False):
                return False
            try:
                ship(version)
            finally:
                if not client.transaction(
                    {
                        "compare": [{"key": key, "result": "EQUAL", "target": "VALUE", "value": token}],
                        "success": [{"request_delete_range": {"key": key}}],
                    }
                ).get("succeeded", False):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class JobLock(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()


        def run_exclusive(name, job):
            token = secrets.token_hex(16)
            try:
                JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + timedelta(minutes=5))
            except IntegrityError:
                return False
            try:
                job()
            finally:
                JobLock.objects.filter(name=name, owner=token).delete()
            return True
    """,
        line=23,
        column=9,
        fixed="""\
        import logging
        import secrets
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class JobLock(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()


        def run_exclusive(name, job):
            token = secrets.token_hex(16)
            try:
                JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + timedelta(minutes=5))
            except IntegrityError:
                return False
            try:
                job()
            finally:
                if JobLock.objects.filter(name=name, owner=token).delete()[0] == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", name
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
]

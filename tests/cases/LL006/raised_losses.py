"""LL006 cases: a checked release that answers a lost lease by raising (DynamoDB's failed condition), the error swallowed."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import time

        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def acquire(resource, token, ttl=60):
            now = int(time.time())
            item = {"resource": resource, "owner": token, "expires": now + ttl}
            condition = Attr("resource").not_exists() | Attr("expires").lt(now)
            try:
                table.put_item(Item=item, ConditionExpression=condition)
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def release(resource, token):
            try:
                table.delete_item(Key={"resource": resource}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                raise LeaseLost(resource) from None
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import time

        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def acquire(resource, token, ttl=60):
            now = int(time.time())
            item = {"resource": resource, "owner": token, "expires": now + ttl}
            condition = Attr("resource").not_exists() | Attr("expires").lt(now)
            try:
                table.put_item(Item=item, ConditionExpression=condition)
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def release(resource, token):
            try:
                table.delete_item(Key={"resource": resource}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                pass
    """,
        line=23,
        column=12,
        fixed="""\
        import logging
        import time

        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def acquire(resource, token, ttl=60):
            now = int(time.time())
            item = {"resource": resource, "owner": token, "expires": now + ttl}
            condition = Attr("resource").not_exists() | Attr("expires").lt(now)
            try:
                table.put_item(Item=item, ConditionExpression=condition)
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def release(resource, token):
            try:
                table.delete_item(Key={"resource": resource}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException as exc:
                logging.getLogger(__name__).warning("lease lost before release: %s", exc)
    """,
        applicability=Applicability.SAFE,
    ),
]

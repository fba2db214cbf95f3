"""LL005 cases: a DynamoDB condition built with Python's `or` (it keeps only the first condition)."""

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
            condition = Attr("resource").not_exists() or Attr("expires").lt(now)
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
    """,
        line=14,
        column=9,
        fixed=None,
        message_contains="its condition ignores an expiry attribute",
    ),
]

"""LL010 cases: DynamoDB renewals (`update_item` that sets only times), the holder in the condition or not."""

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
            try:
                table.put_item(Item=item, ConditionExpression=Attr("resource").not_exists() | Attr("expires").lt(now))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def renew(resource, token, ttl=60):
            now = int(time.time())
            condition = Attr("owner").eq(token) & Attr("expires").gt(now)
            table.update_item(
                Key={"resource": resource},
                UpdateExpression="SET expires = :e",
                ConditionExpression=condition,
                ExpressionAttributeValues={":e": now + ttl},
            )


        def release(resource, token):
            try:
                table.delete_item(Key={"resource": resource}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                raise LeaseLost(resource) from None


        def renew_text(resource, token, ttl=60):
            now = int(time.time())
            table.update_item(
                Key={"resource": resource},
                UpdateExpression="SET #e = :e",
                ConditionExpression="#o = :t AND #e > :now",
                ExpressionAttributeNames={"#e": "expires", "#o": "owner"},
                ExpressionAttributeValues={":e": now + ttl, ":t": token, ":now": now},
            )
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
            try:
                table.put_item(Item=item, ConditionExpression=Attr("resource").not_exists() | Attr("expires").lt(now))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                return False
            return True


        def renew(resource, token, ttl=60):
            now = int(time.time())
            condition = Attr("owner").eq(token) and Attr("expires").gt(now)
            table.update_item(
                Key={"resource": resource},
                UpdateExpression="SET expires = :e",
                ConditionExpression=condition,
                ExpressionAttributeValues={":e": now + ttl},
            )


        def release(resource, token):
            try:
                table.delete_item(Key={"resource": resource}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                raise LeaseLost(resource) from None
    """,
        line=22,
        column=5,
        fixed=None,
        message_contains="(no automatic fix: no token-checked renewal is written for DynamoDB)",
    ),
]

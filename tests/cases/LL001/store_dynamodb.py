"""LL001 cases: DynamoDB."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token):
            table.put_item(Item={"pk": job, "owner": token}, ConditionExpression=Attr("pk").not_exists())
            work(job)
            table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
    """
    ),
    Valid(
        """\
        import secrets
        import time

        import boto3

        ddb = boto3.client("dynamodb")


        def run_partition(partition, process, lease_s=60):
            owner = secrets.token_hex(16)
            now = int(time.time())
            try:
                ddb.update_item(
                    TableName="leases",
                    Key={"pk": {"S": partition}},
                    UpdateExpression="SET lease_owner = :o, lease_until = :u",
                    ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                    ExpressionAttributeValues={
                        ":o": {"S": owner},
                        ":u": {"N": str(now + lease_s)},
                        ":now": {"N": str(now)},
                    },
                )
            except ddb.exceptions.ConditionalCheckFailedException:
                return False
            try:
                process(partition)
            finally:
                ddb.delete_item(
                    TableName="leases",
                    Key={"pk": {"S": partition}},
                    ConditionExpression="lease_owner = :o",
                    ExpressionAttributeValues={":o": {"S": owner}},
                )
            return True
    """
    ),
    Valid(
        """\
        import boto3

        table = boto3.resource("dynamodb").Table("counters")


        def bump(name, expected):
            # optimistic concurrency on a version: no lease
            table.update_item(
                Key={"name": name},
                UpdateExpression="SET version = :next",
                ConditionExpression="version = :expected",
                ExpressionAttributeValues={":next": expected + 1, ":expected": expected},
            )


        def drop(name):
            table.delete_item(Key={"name": name})
    """
    ),
]

INVALID = [
    Invalid(
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
    """,
        line=17,
        column=5,
        fixed="""\
        import logging

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
            try:
                dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}}, ConditionExpression="#owner = :token", ExpressionAttributeNames={"#owner": "owner"}, ExpressionAttributeValues={":token": {"S": token}})
            except dynamodb.exceptions.ConditionalCheckFailedException:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", job
                )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token, now):
            table.put_item(
                Item={"pk": job, "owner": token, "expires_at": now + 30},
                ConditionExpression=Attr("pk").not_exists() | Attr("expires_at").lt(now),
            )
            work(job)
            table.delete_item(Key={"pk": job})
    """,
        line=13,
        column=5,
        fixed="""\
        import logging

        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token, now):
            table.put_item(
                Item={"pk": job, "owner": token, "expires_at": now + 30},
                ConditionExpression=Attr("pk").not_exists() | Attr("expires_at").lt(now),
            )
            work(job)
            try:
                table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", job
                )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token, now):
            table.put_item(
                Item={"lock_id": job, "owner": token, "expires_at": now + 30},
                ConditionExpression=Attr("lock_id").not_exists() | Attr("expires_at").lt(now),
            )
            work(job)
            table.delete_item(Key={"lock_id": job}, ConditionExpression=Attr("lock_id").eq(job))
    """,
        line=13,
        column=5,
        fixed="""\
        import logging

        import boto3
        from boto3.dynamodb.conditions import Attr

        table = boto3.resource("dynamodb").Table("locks")


        def run(job, token, now):
            table.put_item(
                Item={"lock_id": job, "owner": token, "expires_at": now + 30},
                ConditionExpression=Attr("lock_id").not_exists() | Attr("expires_at").lt(now),
            )
            work(job)
            try:
                table.delete_item(Key={"lock_id": job}, ConditionExpression=Attr("owner").eq(token))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", job
                )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets
        import time

        import boto3

        ddb = boto3.client("dynamodb")


        def run_partition(partition, process, lease_s=60):
            owner = secrets.token_hex(16)
            now = int(time.time())
            try:
                ddb.update_item(
                    TableName="leases",
                    Key={"pk": {"S": partition}},
                    UpdateExpression="SET lease_owner = :o, lease_until = :u",
                    ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                    ExpressionAttributeValues={
                        ":o": {"S": owner},
                        ":u": {"N": str(now + lease_s)},
                        ":now": {"N": str(now)},
                    },
                )
            except ddb.exceptions.ConditionalCheckFailedException:
                return False
            try:
                process(partition)
            finally:
                ddb.delete_item(TableName="leases", Key={"pk": {"S": partition}})
            return True
    """,
        line=29,
        column=9,
        fixed="""\
        import logging
        import secrets
        import time

        import boto3

        ddb = boto3.client("dynamodb")


        def run_partition(partition, process, lease_s=60):
            owner = secrets.token_hex(16)
            now = int(time.time())
            try:
                ddb.update_item(
                    TableName="leases",
                    Key={"pk": {"S": partition}},
                    UpdateExpression="SET lease_owner = :o, lease_until = :u",
                    ConditionExpression="attribute_not_exists(lease_until) OR lease_until < :now",
                    ExpressionAttributeValues={
                        ":o": {"S": owner},
                        ":u": {"N": str(now + lease_s)},
                        ":now": {"N": str(now)},
                    },
                )
            except ddb.exceptions.ConditionalCheckFailedException:
                return False
            try:
                process(partition)
            finally:
                try:
                    ddb.delete_item(TableName="leases", Key={"pk": {"S": partition}}, ConditionExpression="#owner = :token", ExpressionAttributeNames={"#owner": "lease_owner"}, ExpressionAttributeValues={":token": {"S": owner}})
                except ddb.exceptions.ConditionalCheckFailedException:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", partition
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
]

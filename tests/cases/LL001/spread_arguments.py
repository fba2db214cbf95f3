"""LL001 cases: DynamoDB calls whose arguments are spread from a dict, and conditions that only order the holder."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The spread release's condition compares the holder.
    Valid(
        """\
    import secrets

    import boto3

    dynamodb = boto3.client("dynamodb")


    def run_exclusive(job, work):
        owner = secrets.token_hex(16)
        claim = {
            "TableName": "leases",
            "Item": {"pk": {"S": job}, "owner": {"S": owner}},
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        dynamodb.put_item(**claim)
        try:
            work()
        finally:
            release = {
                "TableName": "leases",
                "Key": {"pk": {"S": job}},
                "ConditionExpression": "owner = :me",
                "ExpressionAttributeValues": {":me": {"S": owner}},
            }
            try:
                dynamodb.delete_item(**release)
            except dynamodb.exceptions.ConditionalCheckFailedException:
                print("lease expired before release", job)
"""
    ),
    # The same release written out.
    Valid(
        """\
    import secrets

    import boto3

    dynamodb = boto3.client("dynamodb")


    def run_exclusive(job, work):
        owner = secrets.token_hex(16)
        claim = {
            "TableName": "leases",
            "Item": {"pk": {"S": job}, "owner": {"S": owner}},
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        dynamodb.put_item(**claim)
        try:
            work()
        finally:
            try:
                dynamodb.delete_item(
                    TableName="leases",
                    Key={"pk": {"S": job}},
                    ConditionExpression="owner = :me",
                    ExpressionAttributeValues={":me": {"S": owner}},
                )
            except dynamodb.exceptions.ConditionalCheckFailedException:
                print("lease expired before release", job)
"""
    ),
]

INVALID = [
    # The spread release carries no condition.
    Invalid(
        """\
    import secrets

    import boto3

    dynamodb = boto3.client("dynamodb")


    def run_exclusive(job, work):
        owner = secrets.token_hex(16)
        claim = {
            "TableName": "leases",
            "Item": {"pk": {"S": job}, "owner": {"S": owner}},
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        dynamodb.put_item(**claim)
        try:
            work()
        finally:
            release = {"TableName": "leases", "Key": {"pk": {"S": job}}}
            dynamodb.delete_item(**release)
""",
        line=20,
        column=9,
        fixed=None,
    ),
    # The condition orders the holder (<=) instead of comparing it: another worker's claim passes.
    Invalid(
        """\
    import secrets

    import boto3

    dynamodb = boto3.client("dynamodb")


    def run_exclusive(job, work):
        owner = secrets.token_hex(16)
        claim = {
            "TableName": "leases",
            "Item": {"pk": {"S": job}, "owner": {"S": owner}},
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        dynamodb.put_item(**claim)
        try:
            work()
        finally:
            try:
                dynamodb.delete_item(
                    TableName="leases",
                    Key={"pk": {"S": job}},
                    ConditionExpression="#who <= :me",
                    ExpressionAttributeNames={"#who": "owner"},
                    ExpressionAttributeValues={":me": {"S": owner}},
                )
            except dynamodb.exceptions.ConditionalCheckFailedException:
                print("lease expired before release", job)
""",
        line=20,
        column=13,
        fixed=None,
    ),
]

"""LL001 cases: a DynamoDB lease whose key has a slot index beside the name, and whose token field names a word of a lifetime inside another word (release_code)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The release compares release_code, the holder's token: the slot is part of the key.
    Valid(
        """\
    import secrets
    import time

    import boto3
    from boto3.dynamodb.conditions import Attr

    table = boto3.resource("dynamodb").Table("slots")


    def claim(name, slot):
        code = secrets.token_hex(16)
        table.put_item(
            Item={"name": name, "slot": slot, "release_code": code, "expires": int(time.time()) + 60},
            ConditionExpression=Attr("name").not_exists() | Attr("expires").lte(int(time.time())),
        )
        return code


    def release(name, slot, code):
        try:
            table.delete_item(Key={"name": name, "slot": slot}, ConditionExpression=Attr("release_code").eq(code))
        except table.meta.client.exceptions.ConditionalCheckFailedException:
            print("slot lost before release", name, slot)
"""
    ),
]

INVALID = [
    # No condition at all.
    Invalid(
        """\
    import secrets
    import time

    import boto3
    from boto3.dynamodb.conditions import Attr

    table = boto3.resource("dynamodb").Table("slots")


    def claim(name, slot):
        code = secrets.token_hex(16)
        table.put_item(
            Item={"name": name, "slot": slot, "release_code": code, "expires": int(time.time()) + 60},
            ConditionExpression=Attr("name").not_exists() | Attr("expires").lte(int(time.time())),
        )
        return code


    def release(name, slot, code):
        try:
            table.delete_item(Key={"name": name, "slot": slot})
        except table.meta.client.exceptions.ConditionalCheckFailedException:
            print("slot lost before release", name, slot)
""",
        line=21,
        column=9,
        fixed=None,
    ),
]

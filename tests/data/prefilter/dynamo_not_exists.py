import boto3

table = boto3.resource("dynamodb").Table("locks")


def run(token):
    table.put_item(Item={"pk": "job", "owner": token}, ConditionExpression="attribute_not_exists(pk)")
    work()
    table.delete_item(Key={"pk": "job"})

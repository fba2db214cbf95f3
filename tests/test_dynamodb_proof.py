"""LL001 on DynamoDB, proven on an EMULATOR: moto's in-process backend (`mock_aws`).

No DynamoDB server (nor DynamoDB Local) can be had on these machines. moto
evaluates condition expressions (`attribute_not_exists`, `<`, `=` with
attribute names and values, and the `Attr(...)` conditions of the resource
API) and raises `ConditionalCheckFailedException` as DynamoDB does; that is
what these tests rely on. Timing is not emulated: the lease's deadline is an
`expires_at` attribute compared with a `now` the caller passes, as DynamoDB
leases do (its own TTL deletes expired items lazily, up to days later), so the
timeline runs on a logical clock.

Both client forms: the boto3 client (`ConditionExpression="#owner = :token"`)
and the `Table` resource (`Attr("owner").eq(token)`). The same timeline runs on
the original module and on a copy fixed by the real CLI:

1. worker A claims the item (`expires_at = now + ttl`);
2. A's deadline passes;
3. worker B claims: its condition `expires_at < :now` takes the expired claim over;
4. A releases;
5. worker C tries to claim.

Unfixed, A's blind `delete_item` deletes B's item and C gets in. Fixed, A's
conditional `delete_item` fails with `ConditionalCheckFailedException`, which
the fix catches and logs as a warning naming the key; B's item survives and C
is kept out.

The last tests keep two rules from misjudging these modules, as they did
until LL006 and LL008 learned that DynamoDB answers by raising: LL008 reported
the claims as never tested, though their answer is the exception, and LL006
reported the release LL001's fix writes and wrapped it in a dead `if not`
(`delete_item` returns a non-empty dict), so `--fix` left a finding and its
output changed on a second run.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import pytest

from proof_support import assert_reported_lost, fix_copy, load, lost_lease_warnings, run_cli, write_module

JOB = "nightly"
A_TOKEN, B_TOKEN, C_TOKEN = "worker-a-token", "worker-b-token", "worker-c-token"
TTL = 30
T_A = 1_000  # A claims: its claim ends at T_A + TTL
T_B = T_A + TTL + 1  # B claims just after A's deadline
T_C = T_B + 1  # C tries while B's claim runs

CLIENT_JOB = textwrap.dedent(
    '''\
    import boto3

    dynamodb = boto3.client("dynamodb")


    def run_job(job, token, now, ttl, work):
        try:
            dynamodb.put_item(
                TableName="locks",
                Item={"pk": {"S": job}, "owner": {"S": token}, "expires_at": {"N": str(now + ttl)}},
                ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
                ExpressionAttributeValues={":now": {"N": str(now)}},
            )
        except dynamodb.exceptions.ConditionalCheckFailedException:
            return False
        work()
        dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}})
        return True
    '''
)

TABLE_JOB = textwrap.dedent(
    '''\
    import boto3
    from boto3.dynamodb.conditions import Attr

    table = boto3.resource("dynamodb").Table("locks")


    def run_job(job, token, now, ttl, work):
        try:
            table.put_item(
                Item={"pk": job, "owner": token, "expires_at": now + ttl},
                ConditionExpression=Attr("pk").not_exists() | Attr("expires_at").lt(now),
            )
        except table.meta.client.exceptions.ConditionalCheckFailedException:
            return False
        work()
        table.delete_item(Key={"pk": job})
        return True
    '''
)

# The release LL001's fix writes for each form (its DynamoDB cases, with these modules' names).
CLIENT_FIXED_RELEASE = textwrap.indent(
    textwrap.dedent(
        '''\
        try:
            dynamodb.delete_item(TableName="locks", Key={"pk": {"S": job}}, ConditionExpression="#owner = :token", ExpressionAttributeNames={"#owner": "owner"}, ExpressionAttributeValues={":token": {"S": token}})
        except dynamodb.exceptions.ConditionalCheckFailedException:
            logging.getLogger(__name__).warning(
                "lease %s expired before release; another worker may hold it", job
            )
        '''
    ),
    " " * 4,
)
TABLE_FIXED_RELEASE = textwrap.indent(
    textwrap.dedent(
        '''\
        try:
            table.delete_item(Key={"pk": job}, ConditionExpression=Attr("owner").eq(token))
        except table.meta.client.exceptions.ConditionalCheckFailedException:
            logging.getLogger(__name__).warning(
                "lease %s expired before release; another worker may hold it", job
            )
        '''
    ),
    " " * 4,
)

FORMS = {
    "client": (CLIENT_JOB, CLIENT_FIXED_RELEASE, lambda module: module.dynamodb),
    "table": (TABLE_JOB, TABLE_FIXED_RELEASE, lambda module: module.table.meta.client),
}
# `--fix --select LL001` writes LL001's fix alone; plain `--fix` runs every rule, and must write the same.
FIXES = {
    "ll001": ("--fix", "--select", "LL001"),
    "all-rules": ("--fix",),
}


def owner(client) -> str | None:
    item = client.get_item(TableName="locks", Key={"pk": {"S": JOB}}, ConsistentRead=True).get("Item")
    return item["owner"]["S"] if item else None


def b_claims(client, now: int) -> bool:
    """Worker B's claim, with the same condition as the module's."""
    try:
        client.put_item(
            TableName="locks",
            Item={"pk": {"S": JOB}, "owner": {"S": B_TOKEN}, "expires_at": {"N": str(now + TTL)}},
            ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
            ExpressionAttributeValues={":now": {"N": str(now)}},
        )
    except client.exceptions.ConditionalCheckFailedException:
        return False
    return True


def record_delete_errors(module_client) -> list[str | None]:
    """The error code of every DeleteItem the module's client sends (None: it succeeded)."""
    codes: list[str | None] = []

    def after_call(parsed, **_):
        codes.append(parsed.get("Error", {}).get("Code"))

    module_client.meta.events.register("after-call.dynamodb.DeleteItem", after_call)
    return codes


@dataclass
class Timeline:
    a_claimed: bool
    a_owner: str | None
    a_expired_item_there_at_b: bool  # DynamoDB does not delete at the deadline: B takes the item over
    b_claimed: bool
    b_owner: str | None
    after_a_release: str | None
    a_delete_errors: list
    c_got_in: bool
    c_owner: str | None
    final: str | None


def replay(module, module_client, client) -> Timeline:
    seen: dict = {}
    delete_errors = record_delete_errors(module_client)

    def work_a():
        seen["a_owner"] = owner(client)
        seen["a_item_there"] = owner(client) == A_TOKEN
        seen["b_claimed"] = b_claims(client, T_B)
        seen["b_owner"] = owner(client)

    def work_c():
        seen["c_owner"] = owner(client)

    a_claimed = module.run_job(JOB, A_TOKEN, T_A, TTL, work_a)
    after = owner(client)
    a_errors = list(delete_errors)
    c_got_in = module.run_job(JOB, C_TOKEN, T_C, TTL, work_c)
    assert c_got_in == ("c_owner" in seen)
    return Timeline(
        a_claimed, seen["a_owner"], seen["a_item_there"], seen["b_claimed"], seen["b_owner"],
        after, a_errors, c_got_in, seen.get("c_owner"), owner(client),
    )


def assert_stage_set(t: Timeline) -> None:
    assert t.a_claimed is True
    assert t.a_owner == A_TOKEN
    assert t.a_expired_item_there_at_b is True
    assert t.b_claimed is True  # B's condition took A's expired claim over
    assert t.b_owner == B_TOKEN


@pytest.mark.parametrize("form", FORMS)
def test_original_deletes_b_item(form, tmp_path, dynamodb_locks, caplog):
    source, _, client_of = FORMS[form]
    module = load(write_module(tmp_path, "original", source))
    t = replay(module, client_of(module), dynamodb_locks)
    assert_stage_set(t)
    assert t.after_a_release is None  # A's blind delete_item deleted B's item
    assert t.a_delete_errors == [None]
    assert t.c_got_in is True  # and C runs beside B
    assert t.c_owner == C_TOKEN
    assert t.final is None  # C released on its way out
    assert lost_lease_warnings(caplog, module) == []


@pytest.mark.parametrize("fix", FIXES)
@pytest.mark.parametrize("form", FORMS)
def test_fix_keeps_b_item(form, fix, tmp_path, dynamodb_locks, caplog):
    source, fixed_release, client_of = FORMS[form]
    path = fix_copy(tmp_path, source, *FIXES[fix])
    text = path.read_text(encoding="utf-8")
    assert fixed_release in text
    module = load(path)
    t = replay(module, client_of(module), dynamodb_locks)
    assert_stage_set(t)
    assert t.a_delete_errors == ["ConditionalCheckFailedException"]  # the emulator refused A's delete...
    assert t.after_a_release == B_TOKEN  # ...so B's item survived
    assert t.c_got_in is False
    assert t.c_owner is None
    assert t.final == B_TOKEN
    assert_reported_lost(caplog, module, JOB)  # the fix caught the refusal and logged it
    # A run that ends in time deletes its own item, silently.
    dynamodb_locks.delete_item(TableName="locks", Key={"pk": {"S": JOB}})
    assert module.run_job(JOB, A_TOKEN, T_C, TTL, lambda: None) is True
    assert owner(dynamodb_locks) is None
    assert len(lost_lease_warnings(caplog, module)) == 1


@pytest.mark.parametrize("form", FORMS)
def test_ll001_alone_fixes_cleanly(form, tmp_path):
    source, fixed_release, _ = FORMS[form]
    path = write_module(tmp_path, "fixed", source)
    result = run_cli(path, "--fix", "--select", "LL001")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 1 error (1 fixed, 0 remaining)." in result.stdout
    assert fixed_release in path.read_text(encoding="utf-8")


# Rules that must leave DynamoDB's claims and checked releases alone -------------------------


@pytest.mark.parametrize("form", FORMS)
def test_ll008_accepts_a_claim_answered_by_its_exception(form, tmp_path):
    """A conditional put_item answers by raising ConditionalCheckFailedException: it is tested."""
    path = write_module(tmp_path, "original", FORMS[form][0])
    result = run_cli(path, "--select", "LL008")
    assert result.stdout.strip() == "All checks passed!", result.stdout


@pytest.mark.parametrize("form", FORMS)
def test_ll006_accepts_ll001_fix(form, tmp_path):
    """The fixed release's outcome is the exception the fix catches and logs: nothing is thrown away."""
    path = write_module(tmp_path, "fixed", FORMS[form][0])
    assert run_cli(path, "--fix", "--select", "LL001").returncode == 0
    result = run_cli(path, "--select", "LL006")
    assert result.stdout.strip() == "All checks passed!", result.stdout


@pytest.mark.parametrize("form", FORMS)
def test_fix_is_clean_and_stable(form, tmp_path):
    """`--fix` with every rule fixes all, and a second run finds and writes nothing."""
    fix_copy(tmp_path, FORMS[form][0])

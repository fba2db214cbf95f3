"""Fixes keep working code working: every fixable rule case and every module of tests/fix_corpus/,
run before and after `--fix --unsafe-fixes` on a real Redis (see fix_check.py for the scenarios)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from fix_check import DiskcacheFamily, MongoFamily, DynamoFamily, Etcd2Family, Etcd3gwFamily, EtcdFamily, MemcachedFamily, RedisFamily, World, _same, lease_apis, run_scenarios
from leaselint.model.build import build_model
from leaselint.rules import ALL_RULES
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
from proof_support import load, write_module
import cases

# python-etcd3's generated code is old: protobuf warns as it imports (as in test_etcd_proof.py).
pytestmark = pytest.mark.filterwarnings(r"ignore:Call to deprecated create function:DeprecationWarning")

CORPUS = Path(__file__).parent / "fix_corpus"
# Rules whose fix closes the overlap: the original frees B's claim, the fixed code keeps it.
OVERLAP_RULES = {"LL001", "LL002"}
# Rules whose originals never send their release: the fix is meant to change that.
DROPPED_RELEASE_RULES = {"LL011"}
# Fixable rule cases that do not run here, and why (each is proven on its own server elsewhere, or
# its store has no server in the suite).
NOT_RUN = {
    "aioredis": "aioredis 1.x is not installed (its API is the old one)",
    '"DELIFEQ"': "DELIFEQ needs Valkey 9; the suite's Redis has no such command (run on Valkey in test_valkey_proof.py)",
    "django.db": "Django's ORM has no family here; its row-lease fix runs on SQLite in test_row_lease_proof.py",
    ".hsetnx(": "the Redis family here reads string keys; hash-field fixes run in test_hash_field_proof.py",
    "django.conf": "a client Django's settings hold (`settings.redis_inst`) is not pointed at the test server here; "
    "its fix is the Lua release run here on every module client of tests/cases/LL001/redis_functions.py",
    "django.core.cache": "Django's cache has no family here; LL009's `cache.add` fix runs on Django's Redis "
    "backend in test_check_then_claim_proof.py",
    "jobs.leases": "the lease class is another module's, which a rule case cannot hold; the same log fix runs "
    "here on the module's own lease class in the first case of tests/cases/LL006/project_errors.py",
    "class EncoderPool": "its release takes a grant object the scenarios cannot make; the same log fix on a slot "
    "script is run here by the first case of tests/cases/LL006/slot_scripts.py",
    "class Redlock": "the scenarios here drive a claim and a release method pair, and the Redlock's pair is its "
    "per-server helpers; its fix runs on Redis through the public methods in test_quorum_proof.py",
}
# Store family (as the store table names it) -> the fixture of its test server, and its family here.
FAMILIES = {
    "redis": ("redis_url", RedisFamily),
    "pymemcache": ("memcached_server", MemcachedFamily),
    "python-memcached": ("memcached_server", MemcachedFamily),
    "aiomcache": ("memcached_server", MemcachedFamily),
    "bmemcached": ("memcached_server", MemcachedFamily),
    "diskcache": ("tmp_path", DiskcacheFamily),
    "etcd": ("etcd_server", EtcdFamily),
    "etcd v2": ("etcd_server", Etcd2Family),
    "etcd3gw": ("etcd_server", Etcd3gwFamily),
    "DynamoDB": ("dynamodb_emulator", DynamoFamily),
    "MongoDB": ("tmp_path", MongoFamily),
}


def _store_of(source: str) -> str:
    model = build_model(cst.parse_module(source))
    stores = {event.store.name for event in [*model.claims, *model.releases]}
    if model.locks:
        stores.add("redis")  # redis-py's lock objects
    return ",".join(sorted(stores))


def _not_run(source: str) -> str | None:
    for module, why in NOT_RUN.items():
        if f"import {module}" in source or f"from {module}" in source or (not module.isidentifier() and module in source):
            return why
    return None


def _rule_cases():
    for rule in ALL_RULES:
        for name, case in cases.numbered(rule, "INVALID"):
            if case.fixed is None or rule.code == "LL100" or _not_run(textwrap.dedent(case.code)):
                continue
            yield pytest.param(rule.code, textwrap.dedent(case.code), id=f"{rule.code}-{name}")


def _corpus():
    for path in sorted(CORPUS.glob("*.py")):
        yield pytest.param(path.read_text(encoding="utf-8"), id=path.stem)


def fixed_text(source: str) -> str | None:
    settings = Settings(fix=True, unsafe_fixes=True)
    result = lint_text(SourceText(source), "module.py", settings)
    assert result.internal_errors == []
    return result.fixed_text


# Originals whose release never worked, so the fix changes what they do (a second bug the fix ends).
BROKEN_ORIGINALS = {
    "== '1' then": "the original's script compares with a constant the claim never stores",
    "get(key) == token:": "the original compares the bytes get() returns with a str token",
}


def _returns_what_was_stored(source: str) -> bool:
    """`get` answers the str stored, not bytes: Redis with decode_responses, bmemcached, diskcache."""
    return any(mark in source for mark in ("decode_responses=True", "import bmemcached", "diskcache"))


def _frees_other(outcomes) -> bool:
    from fix_check import CONTENDED

    return any(o.step == CONTENDED and not o.keys for o in outcomes)


@pytest.fixture
def dynamodb_emulator(dynamodb_locks):
    """boto3, talking to moto's DynamoDB while the test runs (the proofs' fixture: fake credentials)."""
    import boto3

    return boto3


def family_for(request, source: str):
    """A maker of the store family the module's leases are on, with its test server started."""
    fixture, family = FAMILIES[_store_of(source)]
    family.prepare()
    server = request.getfixturevalue(fixture)
    return lambda: family(server)


def compare(
    tmp_path: Path, family, source: str, fixed: str, overlap_must_fail: bool, must_show: bool = False, dropped: bool = False
) -> int:
    """Runs every lease API of `source` on both texts; returns how many APIs were run. `dropped`: the
    original never sends its release (LL011), so the fix must change exactly that: every step answers
    the same, and keys the original leaves held are released."""
    broken = [
        why
        for text, why in BROKEN_ORIGINALS.items()
        if text in source and not ("bytes" in why and _returns_what_was_stored(source))
    ]
    apis = lease_apis(source)
    original_path = write_module(tmp_path, "original", source)
    fixed_path = write_module(tmp_path, "fixed", fixed)
    for api in apis:
        runs = {}
        for label, path in (("original", original_path), ("fixed", fixed_path)):
            module = load(path)
            runs[label] = run_scenarios(lambda m=module: World(m, family(), api.is_async), api)
        before, after = runs["original"], runs["fixed"]
        changed = [
            (a.step, a.result, a.keys, b.result, b.keys)
            for a, b in zip(before.ordinary, after.ordinary)
            if not a.same_as(b, answers_token=api.kind == "pair")
        ]
        if before.identity:
            # What the API reads back of an identity stays readable: `owner`, or `owner:<token>`.
            changed += [
                (a.step, a.raw, b.raw)
                for a, b in zip(before.ordinary, after.ordinary)
                if a.step.startswith("a.") and not _same(a.raw, b.raw)
            ]
        assert [o.step for o in before.ordinary] == [o.step for o in after.ordinary]
        ran = [o for o in before.ordinary if not str(o.result).startswith("raises") or "job raises" in o.step]
        assert ran, f"{api}: every step of the original raised, so the check proves nothing: {before.ordinary}"
        assert after.b_kept is not False, f"{api}: after the fix, A's late release still freed B's claim"
        assert not _frees_other(after.ordinary), f"{api}: after the fix, a run freed another worker's claim"
        if broken:
            assert changed, f"{api}: listed as broken ({broken[0]}) but the fix changed nothing"
            continue
        if dropped:
            assert changed, f"{api}: the original's release is never sent, yet the fix changed nothing"
            wrong = [c for c in changed if c[1] != c[3] or not set(c[4]) < set(c[2])]
            assert wrong == [], f"{api}: the fix changed more than the dropped release (step, before, keys, after, keys):\n{wrong}"
            continue
        assert changed == [], f"{api}: the fix changed ordinary use (step, before, keys, after, keys):\n{changed}"
        assert (after.b_kept is None) == (before.b_kept is None), (api, before.overlap_note, after.overlap_note)
        if overlap_must_fail and (before.b_kept is not None or must_show):
            shown = before.b_kept is False or _frees_other(before.ordinary)
            assert shown, f"{api}: neither the overlap nor a contended run shows the bug on the original"
    return len(apis)


@pytest.mark.parametrize(("code", "source"), list(_rule_cases()))
def test_fixed_rule_case_behaves_the_same(tmp_path, request, code, source):
    """The case's text after every fix `--fix --unsafe-fixes` writes (its own rule's and the others')."""
    fixed = fixed_text(source)
    assert fixed is not None
    family = family_for(request, source)
    assert compare(tmp_path, family, source, fixed, code in OVERLAP_RULES, dropped=code in DROPPED_RELEASE_RULES) >= 1


def test_rule_cases_not_run_here_are_the_listed_stores():
    """Every fixable case is run here unless its store is one NOT_RUN names; each entry is used."""
    used = set()
    for rule in ALL_RULES:
        for case in cases.invalid(rule):
            why = _not_run(textwrap.dedent(case.code))
            if case.fixed is not None and why is not None:
                used.add(why)
    assert used == set(NOT_RUN.values())


@pytest.mark.parametrize("source", list(_corpus()))
def test_fixed_corpus_module_behaves_the_same(tmp_path, request, source):
    fixed = fixed_text(source)
    expect_fix = "# leaselint: no fix" not in source
    if not expect_fix:
        assert fixed is None
        return
    assert fixed is not None, "no fix written"
    runs = compare(tmp_path, family_for(request, source), source, fixed, "# overlap: original keeps b" not in source, must_show=True)
    assert runs >= 1

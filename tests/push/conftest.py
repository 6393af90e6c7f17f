"""The push tests' Redis: each test its own keys and channels under a prefix of its own, removed
after it; a test that needs Redis is skipped only when none answers."""

from __future__ import annotations

import uuid

import pytest
import redis

from roomops.push.brokers import Keys

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture()
def keys():
    client = redis.Redis.from_url(REDIS)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    found = Keys(f"roomops:test:{uuid.uuid4().hex}")  # this test's own keys and channels
    yield found
    for key in client.scan_iter(f"{found.prefix}:*"):
        client.delete(key)
    client.close()

"""LL002 cases: a token read from the environment or a settings object (one value per process)."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A setting with a fresh fallback: unknown, since the fallback makes a new value.
    Valid(
        """\
        import os
        import uuid

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            token = os.environ.get("COMPACT_TOKEN") or uuid.uuid4().hex
            if not r.set(key, token, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, token):
                    log.warning("compaction of %s outlived its lock", shard)
    """
    ),
    # A setting names the key; the token is fresh.
    Valid(
        """\
        import secrets

        import redis
        from django.conf import settings

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"{settings.LOCK_PREFIX}:{shard}"
            token = secrets.token_hex(16)
            if not r.set(key, token, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, token):
                    log.warning("compaction of %s outlived its lock", shard)
    """
    ),
]

INVALID = [
    # An environment variable read by subscript.
    Invalid(
        """\
        import os

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            owner = os.environ["HOME"]
            if not r.set(key, owner, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
        line=12,
        message_contains="an environment variable",
        fixed="""\
        import os
        import secrets

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            owner = f'{os.environ["HOME"]}:{secrets.token_hex(8)}'
            if not r.set(key, owner, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
    ),
    # `os.getenv` with a literal default.
    Invalid(
        """\
        import os

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            owner = os.getenv("WORKER_ID", "worker")
            if not r.set(key, owner, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
        line=12,
        message_contains="an environment variable",
        fixed="""\
        import os
        import secrets

        import redis

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            owner = f'{os.getenv("WORKER_ID", "worker")}:{secrets.token_hex(8)}'
            if not r.set(key, owner, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, owner):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
    ),
    # A Django setting.
    Invalid(
        """\
        import redis
        from django.conf import settings

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            if not r.set(key, settings.WORKER_NAME, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, settings.WORKER_NAME):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
        line=10,
        message_contains="a setting",
        fixed="""\
        import secrets

        import redis
        from django.conf import settings

        r = redis.Redis()
        RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


        def compact(shard):
            key = f"compact:{shard}"
            token = f"{settings.WORKER_NAME}:{secrets.token_hex(8)}"
            if not r.set(key, token, nx=True, ex=120):
                return
            try:
                run(shard)
            finally:
                if not r.eval(RELEASE, 1, key, token):
                    log.warning("compaction of %s outlived its lock", shard)
    """,
    ),
]

"""LL002 cases: other stores."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid

VALID = []

INVALID = [
    Invalid(
        """\
        from celery import shared_task
        from django.core.cache import cache

        LOCK_EXPIRE = 60 * 10


        @shared_task(bind=True)
        def import_feed(self, feed_url):
            lock_id = f"import-feed-lock-{feed_url}"
            if cache.add(lock_id, self.app.oid, LOCK_EXPIRE):
                try:
                    return do_import(feed_url)
                finally:
                    cache.delete(lock_id)
    """,
        line=10,
        column=27,
        message_contains='the cache API has no compare-and-delete',
    ),
    Invalid(
        """\
        from contextlib import contextmanager

        from django.core.cache import cache


        @contextmanager
        def memcache_lock(lock_id, oid):
            status = cache.add(lock_id, oid, 600)
            try:
                yield status
            finally:
                if status:
                    cache.delete(lock_id)


        def import_feed(task, feed_url):
            with memcache_lock(f"feed-{feed_url}", task.app.oid) as acquired:
                if acquired:
                    do_import(feed_url)
    """,
        line=8,
        column=33,
        message_contains='the cache API has no compare-and-delete',
    ),
    Invalid(
        """\
        from diskcache import FanoutCache

        cache = FanoutCache("/tmp/sync-locks", shards=4)


        def sync(account, push):
            key = "sync-lock:" + account
            if cache.add(key, True, expire=120):
                try:
                    push(account)
                finally:
                    cache.delete(key)
    """,
        line=8,
        column=23,
        fixed="""\
        import logging
        import secrets

        from diskcache import FanoutCache

        cache = FanoutCache("/tmp/sync-locks", shards=4)


        def sync(account, push):
            key = "sync-lock:" + account
            token = secrets.token_hex(16)
            if cache.add(key, token, expire=120):
                try:
                    push(account)
                finally:
                    with cache.transact():
                        if cache.get(key) != token or not cache.delete(key):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                key,
                            )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        from glide import ConditionalChange, ExpirySet, ExpiryType, GlideClient, GlideClientConfiguration, NodeAddress

        config = GlideClientConfiguration([NodeAddress("localhost", 6379)])


        async def nightly(job):
            client = await GlideClient.create(config)
            claimed = await client.set(
                "nightly-lock",
                "locked",
                conditional_set=ConditionalChange.ONLY_IF_DOES_NOT_EXIST,
                expiry=ExpirySet(ExpiryType.SEC, 60),
            )
            if not claimed:
                return
            try:
                await job()
            finally:
                await client.delete(["nightly-lock"])
    """,
        line=8,
        column=21,
        message_contains='(no automatic fix: valkey-glide has no compare-and-delete call)',
    ),
    Invalid(
        """\
        import socket
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class TaskLease(models.Model):
            task_name = models.CharField(max_length=100, unique=True)
            holder = models.CharField(max_length=100)
            locked_until = models.DateTimeField()


        def claim(task_name):
            try:
                TaskLease.objects.create(
                    task_name=task_name, holder=socket.gethostname(), locked_until=timezone.now() + timedelta(minutes=10)
                )
            except IntegrityError:
                return False
            return True


        def release(task_name):
            TaskLease.objects.filter(task_name=task_name, holder=socket.gethostname()).delete()
    """,
        line=16,
        column=9,
        message_contains='(no automatic fix: the release is in another function)',
    ),
]

"""LL001 cases: a class that claims a key in one method and deletes it in another, the key built the
same way from each method's parameter (`f"inflight:{msg.id}"`), whatever the two methods are called.
The claim has a deadline and its answer decides; the release is blind."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A marker written for its own sake (the answer is never asked): a cache write, not a claim.
    Valid(
        """\
        class SeenMarks:
            def __init__(self, client):
                self.client = client

            def mark_seen(self, message):
                self.client.set(f"seen:{message.id}", 1, nx=True, ex=3600)

            def unmark_seen(self, message):
                self.client.delete(f"seen:{message.id}")
    """
    ),
    # A record made for good (no deadline): creating it if absent and deleting it is CRUD.
    Valid(
        """\
        class Profiles:
            def __init__(self, client):
                self.client = client

            def create_profile(self, user, data):
                return self.client.set(f"profile:{user.id}", data, nx=True)

            def remove_profile(self, user):
                self.client.delete(f"profile:{user.id}")
    """
    ),
    # Two keys built from one parameter with different text: two leases, and the deleted one was
    # never claimed.
    Valid(
        """\
        class Ordering:
            def __init__(self, client):
                self.client = client

            def _key(self, suffix):
                return f"ordering:{suffix}"

            def begin(self, event):
                return bool(self.client.set(self._key(f"processing:{event.id}"), 1, nx=True, ex=60))

            def forget_seen(self, event):
                self.client.delete(self._key(f"seen:{event.id}"))
    """
    ),
    # A cooldown claimed with a deadline and lifted by support staff: no work is held, so the delete
    # frees nobody's job (a method named `unblock_phone` is not named for unlocking).
    Valid(
        """\
        class OtpService:
            def __init__(self, client):
                self.client = client

            def send_code(self, phone):
                if not self.client.set(f"otp-cooldown:{phone}", "1", nx=True, ex=60):
                    raise TooSoon(phone)
                deliver(phone)

            def unblock_phone(self, phone):
                self.client.delete(f"otp-cooldown:{phone}")
    """
    ),
    # A rendered page cached if absent and dropped when the article changes.
    Valid(
        """\
        class ArticlePages:
            def __init__(self, client):
                self.client = client

            def remember(self, article, html):
                if self.client.set(f"article-html:{article.id}", html, nx=True, ex=300):
                    count("article.cache.fill")

            def on_saved(self, article):
                self.client.delete(f"article-html:{article.id}")
    """
    ),
    # The same key built in two unrelated classes: two objects, not one lease's life.
    Valid(
        """\
        class Intake:
            def __init__(self, client):
                self.client = client

            def begin(self, event):
                return self.client.set(f"processing:{event.id}", 1, nx=True, ex=60)


        class Janitor:
            def __init__(self, client):
                self.client = client

            def sweep(self, event):
                self.client.delete(f"processing:{event.id}")
    """
    ),
]

INVALID = [
    # An in-flight mark through a key helper, answered by `bool(...)`; the forget method deletes it
    # blindly, so a mark that outlived its deadline and was taken again by a second consumer is freed.
    Invalid(
        """\
        class InFlight:
            def __init__(self, client, prefix):
                self.client = client
                self.prefix = prefix

            def _key(self, name):
                if not self.prefix:
                    return name
                return f"{self.prefix}:{name}"

            async def mark_in_flight(self, message):
                taken = await self.client.set(self._key(f"inflight:{message.id}"), 1, ex=120, nx=True)
                return bool(taken)

            async def forget_in_flight(self, message):
                await self.client.delete(self._key(f"inflight:{message.id}"))
    """,
        line=16,
        column=15,
        message_contains="without checking the holder",
    ),
    # The key is a plain template of a parameter; the claim's answer is tested by its caller.
    Invalid(
        """\
        import redis


        class Exports:
            def __init__(self):
                self.redis = redis.Redis()

            def try_begin(self, export_id, ttl=900):
                return self.redis.set(f"export-running:{export_id}", "1", nx=True, ex=ttl)

            def drop(self, export_id):
                self.redis.delete(f"export-running:{export_id}")
    """,
        line=12,
        column=9,
        message_contains="without checking the holder",
    ),
    # A release named in camelCase (`doRelease`): its words are read, not its lower-cased letters.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def tryAcquire(job):
            return r.set(f"job:{job}", "1", nx=True, ex=120)


        def doRelease(job):
            r.delete(f"job:{job}")
    """,
        line=11,
        column=5,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def tryAcquire(job):
            token = secrets.token_hex(16)
            return token if r.set(f"job:{job}", token, nx=True, ex=120) else None


        def doRelease(job, token):
            if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"job:{job}", token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", f"job:{job}"
                )
    """,
        applicability=Applicability.UNSAFE,
        message_contains="without checking the holder",
    ),
]

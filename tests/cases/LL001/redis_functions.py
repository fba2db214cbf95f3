"""LL001 cases: Redis-family clients in module functions."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import redis

        r = redis.Redis()


        def cached_profile(uid):
            r.set(f"profile:{uid}", load(uid), ex=60)
            r.delete(f"profile:{uid}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def handle_once(event_id):
            if not r.set(f"seen:{event_id}", 1, nx=True, ex=86400):
                return
            process(event_id)
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            if r.set(f"lock:{job}", "1", nx=True, ex=30):
                work(job)
                r.delete(f"result:{job}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()
        other = redis.Redis(db=2)


        def run(job):
            if r.set(f"lock:{job}", "1", nx=True, ex=30):
                work(job)
                other.delete(f"lock:{job}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            with r.lock(f"lock:{job}", timeout=30):
                work(job)
    """
    ),
    Valid(
        """\
        import secrets

        import valkey

        v = valkey.Valkey()


        def run(job):
            token = secrets.token_hex(16)
            if v.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job)
                finally:
                    if not v.execute_command("DELIFEQ", f"lock:{job}", token):
                        raise RuntimeError("lease lost")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job, key):
            if r.set(key, "1", nx=True, ex=30):
                work(job)
            key = "other"
            r.delete(key)
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def cache_user(user_id, data):
            r.set(f"user:{user_id}", data, nx=True, ex=300)


        def invalidate_user(user_id):
            r.delete(f"user:{user_id}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def hit(client_ip):
            key = f"rate:{client_ip}"
            if r.set(key, 0, nx=True, ex=60):
                pass
            return r.incr(key)


        def reset(client_ip):
            r.delete(f"rate:{client_ip}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(key, token):
            return r.set(key, token, nx=True, ex=30)


        def cache_delete(key):
            r.delete(key)
    """
    ),
    Valid(
        """\
        from myproject.cache import mc


        def run(job):
            lock_key = "lock:%s" % job
            if not mc.add(lock_key, "1", 60):
                return False
            try:
                work(job)
            finally:
                mc.delete(lock_key)

    """
    ),
    # Outside tests too, two functions that only share a key (no call between them, no release
    # in the name, no lock in the key) are not one lease's life.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def start_export(job):
            if r.set(f"export:{job}", "running", nx=True, ex=600):
                enqueue(job)


        def drop_cached(job):
            r.delete(f"export:{job}")
    """
    ),
    # A deliberate reset: a function named for it deletes the lock on purpose.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                work(job)


        def reset_lock(job):
            r.delete(f"lock:{job}")
    """
    ),
    # WATCH, read, MULTI, write: an update of a value read (a counter), a token-checked renewal, and
    # a token-checked release are no claims.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def bump(name):
            key = f"count:{name}"
            with r.pipeline() as pipe:
                pipe.watch(key)
                old = pipe.get(key)
                if old is None:
                    old = 0
                pipe.multi()
                pipe.set(key, int(old) + 1)
                pipe.execute()


        def renew(name, token):
            key = f"lock:{name}"
            with r.pipeline() as pipe:
                pipe.watch(key)
                if pipe.get(key) != token:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.set(key, token, ex=30)
                pipe.execute()
                return True


        def reset(name):
            r.delete(f"count:{name}")
            r.delete(f"lock:{name}")
    """
    ),
    # A name bound to two keys in turn: which one a read sees is not told, and nothing pairs.
    Valid(
        """\
        import redis

        r = redis.Redis()

        name = "report:a"
        r.set(name, "busy", nx=True, ex=300)
        name = "report:b"
        r.set(name, "busy", nx=True, ex=300)
        r.delete("report:a")
    """
    ),
    Valid(
        """\
        import secrets

        from app.storage import Store


        def export(store: Store, name, write):
            key = f"export-lock:{name}"
            token = secrets.token_hex(16)
            if not store.add(key, token, expire=600):
                return False
            try:
                write(name)
            finally:
                store.delete(key)
            return True
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def first_seen(event_id, now):
            # a field written once, never released: a record, not a lease
            r.hsetnx(f"event:{event_id}", "first_seen", now)
            r.hincrby(f"event:{event_id}", "count", 1)


        def forget(event_id):
            r.delete(f"event:{event_id}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def reserve_username(name, user_id):
            # a registry entry; dropping it on rollback is no lease release
            return r.hsetnx("usernames", name, user_id)


        def cancel(name):
            r.hdel("usernames", name)
    """
    ),
    Valid(
        """\
        import secrets

        from app.registry import Registry


        def registry():
            return Registry.default()


        def run_nightly(job):
            store = registry()
            token = secrets.token_hex(16)
            if store.add(f"lock:{job}", token, expire=900):
                try:
                    job()
                finally:
                    store.delete(f"lock:{job}")
    """
    ),
    Valid(
        """\
        import redis

        r = redis.Redis()


        def seed_defaults(settings):
            # defaults written once; nothing holds them
            r.msetnx({"settings:theme": settings["theme"], "settings:lang": settings["lang"]})


        def reset():
            r.delete("settings:theme", "settings:lang")
    """
    ),
    # Two tests that use one key are two worlds: neither releases the other's claim.
    Valid(
        """\
        import redis

        r = redis.Redis()


        def test_report_runs_once():
            if r.set("lock:report", "t1", nx=True, ex=10):
                run_report()


        def test_cleanup_frees_the_key():
            r.delete("lock:report")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run_batch(names, token):
            claimed = []
            for name in names:
                if r.set(f"lock:{name}", token, nx=True, ex=60):
                    claimed.append(name)
            try:
                process(claimed)
            finally:
                keys = [f"lock:{name}" for name in claimed]
                if keys:
                    r.delete(*keys)
    """,
        line=16,
        column=13,
        message_contains='(no automatic fix: the call deletes other keys too',
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name):
            return r.set(f"take:{name}", "1", nx=True, ex=60)


        def release_lock(name):
            r.delete(f"take:{name}")


        def rebuild(name):
            if not acquire_lock(name):
                return False
            try:
                work(name)
            finally:
                release_lock(name)
            return True
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


        def acquire_lock(name):
            token = secrets.token_hex(16)
            return token if r.set(f"take:{name}", token, nx=True, ex=60) else None


        def release_lock(name, token):
            if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"take:{name}", token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it",
                    f"take:{name}",
                )


        def rebuild(name):
            token = acquire_lock(name)
            if not token:
                return False
            try:
                work(name)
            finally:
                release_lock(name, token=token)
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name):
            return r.set(f"take:{name}", "1", nx=True, ex=60)


        def release_lock(name):
            r.delete(f"take:{name}")


        def try_lock(name):
            return acquire_lock(name)


        def rebuild(name):
            ok = try_lock(name)
            release_lock(name)
            return ok
    """,
        line=11,
        column=5,
        message_contains="the call of `release_lock` at line 20 has no single call of `acquire_lock` beside it",
    ),
    Invalid(
        """\
        import logging
        import secrets

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job):
            token = secrets.token_hex(16)
            if not r.set(f"lock:{job}", token, nx=True, ex=30):
                return
            try:
                work(job)
            finally:
                r.delete(f"lock:{job}")
    """,
        line=17,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job):
            token = secrets.token_hex(16)
            if not r.set(f"lock:{job}", token, nx=True, ex=30):
                return
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                    log.warning(
                        "lease %s expired before release; another worker may hold it",
                        f"lock:{job}",
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire_lock(name):
            return r.set("%s_lock" % name, "1", nx=True, ex=60)


        def release_lock(name):
            r.delete(f"{name}_lock")
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


        def acquire_lock(name):
            token = secrets.token_hex(16)
            return token if r.set("%s_lock" % name, token, nx=True, ex=60) else None


        def release_lock(name, token):
            if token is not None and not r.eval(LEASE_RELEASE_SCRIPT, 1, f"{name}_lock", token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it",
                    f"{name}_lock",
                )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def settle(account, token):
            key = "settle:" + account
            if r.execute_command("SET", key, token, "NX", "PX", 10_000):
                try:
                    post(account)
                finally:
                    pipe = r.pipeline()
                    pipe.delete(key)
                    pipe.incr("settled")
                    pipe.execute()
    """,
        line=13,
        column=13,
        fixed="""\
        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def settle(account, token):
            key = "settle:" + account
            if r.execute_command("SET", key, token, "NX", "PX", 10_000):
                try:
                    post(account)
                finally:
                    pipe = r.pipeline()
                    pipe.eval(LEASE_RELEASE_SCRIPT, 1, key, token)
                    pipe.incr("settled")
                    pipe.execute()
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def job(name):
            key = f"lock:{name}"
            while not r.setnx(key, "locked"):
                sleep(0.1)
            try:
                work()
            finally:
                return r.unlink(key)
    """,
        line=13,
        column=16,
        fixed="""\
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def job(name):
            key = f"lock:{name}"
            token = secrets.token_hex(16)
            while not r.setnx(key, token):
                sleep(0.1)
            try:
                work()
            finally:
                return r.eval(LEASE_RELEASE_SCRIPT, 1, key, token)
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        def run(client, job):
            token = make_token()
            if client.set(f"lock:{job}", token, nx=True, ex=30):
                try: work()
                finally: client.delete(f"lock:{job}")
    """,
        line=5,
        column=18,
        fixed="""\
        import logging

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        def run(client, job):
            token = make_token()
            if client.set(f"lock:{job}", token, nx=True, ex=30):
                try: work()
                finally: client.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token) or logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", f"lock:{job}"
                )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if not r.set(key, token, nx=True, ex=30):
                r.delete(key)
                return False
            work(job)
            return True
    """,
        line=9,
        column=9,
        fixed="""\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"
            if not r.set(key, token, nx=True, ex=30):
                return False
            work(job)
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        def acquire_lock(conn, lockname, identifier):
            if conn.setnx("lock:" + lockname, identifier):
                conn.expire("lock:" + lockname, 10)
                return identifier
            return False


        def release_lock(conn, lockname):
            lockname = "lock:" + lockname
            conn.delete(lockname)
    """,
        line=10,
        column=5,
        fixed="""\
        import logging

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )


        def acquire_lock(conn, lockname, identifier):
            if conn.setnx("lock:" + lockname, identifier):
                conn.expire("lock:" + lockname, 10)
                return identifier
            return None


        def release_lock(conn, lockname, token):
            lockname = "lock:" + lockname
            if token is not None and not conn.eval(LEASE_RELEASE_SCRIPT, 1, lockname, token):
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", lockname
                )
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            lock = r.lock(f"lock:{job}", timeout=30)
            if lock.acquire(blocking=False):
                try:
                    work(job)
                finally:
                    r.delete(f"lock:{job}")
    """,
        line=12,
        column=13,
        message_contains='`delete` deletes the key of lock `f"lock',
    ),
    # After `if <claim>: return`, the code runs only when the claim failed: the key is another
    # worker's, and a compare with this attempt's token could never match.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key):
            if r.set(key, "1", nx=True, ex=30):
                return True
            r.delete(key)
            return False
    """,
        line=9,
        column=5,
        message_contains="runs after the claim failed: the key is another worker's claim, and this frees it "
        "(no automatic fix: the delete follows the claim's early exit",
    ),
    # A stale-claim recovery: the delete clears a key left without a lifetime (SETNX then EXPIRE).
    # Removing it would leave such a key for ever; it goes once the claim sets its lifetime.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key):
            if r.setnx(key, "1"):
                r.expire(key, 30)
                return True
            else:
                if r.ttl(key) == -1:
                    r.delete(key)
            return False
    """,
        line=12,
        column=13,
        message_contains="(no automatic fix: the delete clears a claim left without a lifetime",
    ),
    # The key is written again after the claim: a checked release would compare with "busy" and
    # never free the key (which has lost its lifetime too).
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def build_thumbnail(name):
            if r.set(name, "lock", nx=True, px=35000):
                r.set(name, "busy")
                try:
                    render(name)
                finally:
                    r.delete(name)
    """,
        line=12,
        column=13,
        message_contains="(no automatic fix: line 8 writes the key again after the claim",
    ),
    # The same fresh token written again (a renewal with XX) keeps the release's compare true.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def run(job):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, px=30000):
                try:
                    step(job)
                    r.set(f"lock:{job}", token, xx=True, px=30000)
                    step(job)
                finally:
                    r.delete(f"lock:{job}")
    """,
        line=16,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(job):
            token = secrets.token_hex(16)
            if r.set(f"lock:{job}", token, nx=True, px=30000):
                try:
                    step(job)
                    r.set(f"lock:{job}", token, xx=True, px=30000)
                    step(job)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    # Not after a failed claim: an earlier `if` whose body ends in a loop (no early exit); an
    # early exit on the name before the claim binds it; a claim again between the exit and the release.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(key, token, verbose):
            if verbose:
                for line in ("start", key):
                    print(line)
            if not r.set(key, token, nx=True, ex=30):
                return
            try:
                work()
            finally:
                r.delete(key)
    """,
        line=15,
        column=9,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(key, token, verbose):
            if verbose:
                for line in ("start", key):
                    print(line)
            if not r.set(key, token, nx=True, ex=30):
                return
            try:
                work()
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        message_contains="releases lease `key` without checking the holder",
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def sync(key, token):
            done = already_synced(key)
            if done:
                return
            done = r.set(key, token, nx=True, ex=30)
            if not done:
                return
            try:
                work(key)
            finally:
                r.delete(key)
    """,
        line=16,
        column=9,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def sync(key, token):
            done = already_synced(key)
            if done:
                return
            done = r.set(key, token, nx=True, ex=30)
            if not done:
                return
            try:
                work(key)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
    """,
        message_contains="releases lease `key` without checking the holder",
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import time

        import redis

        r = redis.Redis()


        def run_once(key, token):
            if r.set(key, token, nx=True, ex=30):
                return "queued"
            for _ in range(3):
                time.sleep(1)
                if r.set(key, token, nx=True, ex=30):
                    try:
                        return work(key)
                    finally:
                        r.delete(key)
            return None
    """,
        line=17,
        column=17,
        fixed="""\
        import logging
        import time

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run_once(key, token):
            if r.set(key, token, nx=True, ex=30):
                return "queued"
            for _ in range(3):
                time.sleep(1)
                if r.set(key, token, nx=True, ex=30):
                    try:
                        return work(key)
                    finally:
                        if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                            logging.getLogger(__name__).warning(
                                "lease %s expired before release; another worker may hold it",
                                key,
                            )
            return None
    """,
        message_contains="releases lease `key` without checking the holder",
        applicability=Applicability.SAFE,
    ),
    # The stale-claim recovery in an `elif`: kept (no fix removes it).
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def acquire(key):
            if r.setnx(key, "1"):
                r.expire(key, 30)
                return True
            elif r.ttl(key) == -1:
                r.delete(key)
            return False
    """,
        line=11,
        column=9,
        message_contains="(no automatic fix: the delete clears a claim left without a lifetime",
    ),
    # The module's logger name is a parameter here too: the report goes through logging itself.
    Invalid(
        """\
        import logging

        import redis

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job, token, log=None):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job, log)
                finally:
                    r.delete(f"lock:{job}")
    """,
        line=14,
        column=13,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        log = logging.getLogger(__name__)
        r = redis.Redis()


        def run(job, token, log=None):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job, log)
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            f"lock:{job}",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    # `secrets` names a local here: a fix calling `secrets.token_hex` would call the dict.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def rotate_keys(tenant):
            secrets = load_secrets(tenant)
            if not r.set(f"lock:rotate:{tenant}", "1", nx=True, ex=300):
                return
            try:
                rotate(secrets)
            finally:
                r.delete(f"lock:rotate:{tenant}")
    """,
        line=13,
        column=9,
        message_contains="the name `secrets` is bound to something else in this module",
    ),
    # A parameter named `logging`, and no logger to report a lost lease with.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token, logging=True):
            if r.set(f"lock:{job}", token, nx=True, ex=30):
                try:
                    work(job, logging)
                finally:
                    r.delete(f"lock:{job}")
    """,
        line=11,
        column=13,
        message_contains="the name `logging` is bound to something else in this module",
    ),
    # A WATCH/MULTI transaction that finds the key absent and writes it is a claim too.
    Invalid(
        """\
        import redis
        from redis.exceptions import WatchError

        r = redis.Redis()


        def reserve(order_id, token):
            key = f"reserve:{order_id}"
            with r.pipeline() as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        if pipe.exists(key):
                            pipe.unwatch()
                            return False
                        pipe.multi()
                        pipe.set(key, token, ex=120)
                        pipe.lpush("reservations", order_id)
                        pipe.execute()
                        return True
                    except WatchError:
                        continue


        def finish(order_id):
            r.delete(f"reserve:{order_id}")
    """,
        line=26,
        column=5,
        message_contains="(no automatic fix: the claim is a WATCH/MULTI transaction",
    ),
    # A claim and release pair the module exports: callers elsewhere would pass no token.
    Invalid(
        """\
        import redis

        r = redis.Redis()

        __all__ = ["acquire_lock", "release_lock"]


        def acquire_lock(name):
            return bool(r.set(f"lock:{name}", "1", nx=True, ex=60))


        def release_lock(name):
            r.delete(f"lock:{name}")
    """,
        line=13,
        column=5,
        message_contains="(no automatic fix: `acquire_lock` is in the module's `__all__`",
    ),
    # The pair is also reached through a table: a call there would get no token.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def _acquire_lock(key):
            return bool(r.set(key, "1", nx=True, ex=60))


        def _release_lock(key):
            r.delete(key)


        HANDLERS = {"take": _acquire_lock, "give": _release_lock}
    """,
        line=11,
        column=5,
        message_contains='(no automatic fix: `_acquire_lock` is used at line 14 other than by a call',
    ),
    # A module-level name bound twice to the same text holds that key wherever it is read.
    Invalid(
        """\
        import redis

        r = redis.Redis()

        LOCK = "nightly-report"


        def run():
            if r.set(LOCK, "busy", nx=True, ex=300):
                try:
                    build_report()
                finally:
                    r.delete("nightly-report")


        # The name once more, as a second section of the module binds it.
        LOCK = "nightly-report"
    """,
        line=13,
        column=13,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()

        LOCK = "nightly-report"


        def run():
            token = secrets.token_hex(16)
            if r.set(LOCK, token, nx=True, ex=300):
                try:
                    build_report()
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, "nightly-report", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            "nightly-report",
                        )


        # The name once more, as a second section of the module binds it.
        LOCK = "nightly-report"
    """,
        applicability=Applicability.UNSAFE,
    ),
    # `delete(*keys)` of a list grown with `+=`: each item is a key it deletes.
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def finish(job, token, keep_result):
            lock = f"running:{job}"
            if not r.set(lock, token, nx=True, ex=300):
                return
            run(job)
            stale = []
            stale += [lock]
            if not keep_result:
                stale += [f"result:{job}"]
            r.delete(*stale)
    """,
        line=15,
        column=5,
        message_contains="(no automatic fix: the call deletes other keys too",
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def import_file(path, parse):
            token = secrets.token_hex(16)
            if not r.hsetnx("import:lock", path, token):
                return False
            r.expire("import:lock", 300)
            try:
                parse(path)
            finally:
                r.hdel("import:lock", path)
            return True
    """,
        line=16,
        column=9,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_HDEL_SCRIPT = (
            "if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then "
            "return redis.call('hdel', KEYS[1], ARGV[1]) else return 0 end"
        )

        r = redis.Redis()


        def import_file(path, parse):
            token = secrets.token_hex(16)
            if not r.hsetnx("import:lock", path, token):
                return False
            r.expire("import:lock", 300)
            try:
                parse(path)
            finally:
                if not r.eval(LEASE_HDEL_SCRIPT, 1, "import:lock", path, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "import:lock",
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def reserve_days(room, days, book):
            token = secrets.token_hex(16)
            if not r.msetnx({f"reservation:{room}": token}):
                return False
            try:
                book(room, days)
            finally:
                r.delete(f"reservation:{room}")
            return True
    """,
        line=15,
        column=9,
        message_contains='(no automatic fix: the claim writes several keys at once (`msetnx`))',
    ),
    # A test that claims and releases in itself holds a lease like any other code.
    Invalid(
        """\
        import secrets

        import redis

        r = redis.Redis()


        def test_report_runs_once():
            token = secrets.token_hex(16)
            if r.set("lock:report", token, nx=True, ex=10):
                try:
                    run_report()
                finally:
                    r.delete("lock:report")
    """,
        line=14,
        fixed="""\
        import logging
        import secrets

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def test_report_runs_once():
            token = secrets.token_hex(16)
            if r.set("lock:report", token, nx=True, ex=10):
                try:
                    run_report()
                finally:
                    if not r.eval(LEASE_RELEASE_SCRIPT, 1, "lock:report", token):
                        logging.getLogger(__name__).warning(
                            "lease %s expired before release; another worker may hold it",
                            "lock:report",
                        )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job):
            key = f"lock:{job}"

            def attempt():
                return r.set(key, "1", nx=True, ex=30)

            if not retry(attempt, times=3):
                return False
            try:
                work(job)
            finally:
                r.delete(key)
            return True
    """,
        line=17,
        column=9,
        message_contains='(no automatic fix: the claim in the nested function stores no token the release can see',
    ),
    Invalid(
        """\
        import redis

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"

            def attempt():
                return r.set(key, token, nx=True, ex=30)

            if not retry(attempt, times=3):
                return False
            try:
                work(job)
            finally:
                r.delete(key)
            return True
    """,
        line=17,
        column=9,
        fixed="""\
        import logging

        import redis

        LEASE_RELEASE_SCRIPT = (
            "if redis.call('get', KEYS[1]) == ARGV[1] then "
            "return redis.call('del', KEYS[1]) else return 0 end"
        )

        r = redis.Redis()


        def run(job, token):
            key = f"lock:{job}"

            def attempt():
                return r.set(key, token, nx=True, ex=30)

            if not retry(attempt, times=3):
                return False
            try:
                work(job)
            finally:
                if not r.eval(LEASE_RELEASE_SCRIPT, 1, key, token):
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", key
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
]

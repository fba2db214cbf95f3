"""The prefilter never drops a file that has a finding: neither its look at the bytes nor its look at
CPython's tree."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from leaselint.prefilter import CLAIM_WORDS, MORE, NOTHING, may_hold_findings, verdict, words
from leaselint.rules import ALL_RULES
from leaselint.parsing import worth_parsing
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
import cases

CASES = [
    pytest.param(textwrap.dedent(case.code), id=f"{rule.code}-{kind}-{name}")
    for rule in ALL_RULES
    for kind in ("VALID", "INVALID")
    for name, case in cases.numbered(rule, kind)
]


@pytest.mark.parametrize("code", CASES)
def test_every_rule_case_with_a_finding_passes_the_prefilter(code):
    findings = lint_text(SourceText(code), "case.py", Settings()).diagnostics
    lease_findings = [d for d in findings if d.code != "LL000"]
    if lease_findings:
        found = verdict(code.encode(), noqa_rule=True)
        assert found != NOTHING, [(d.code, d.start.line) for d in lease_findings]
        if found == CLAIM_WORDS:
            assert worth_parsing(code), [(d.code, d.start.line) for d in lease_findings]


@pytest.mark.parametrize(
    "code",
    [
        "import os\n\nprint(os.getcwd())\n",
        "items = set()\nitems.add(1)\n",
        "import threading\n\nguard = threading.Lock()\n",
        "def add(a, b):\n    return a + b\n",
    ],
)
def test_lease_free_code_is_dropped(code):
    assert not may_hold_findings(code.encode())


@pytest.mark.parametrize(
    "code",
    [
        "cache.add(key, value, 30)\ncache.delete(key)\n",
        "lock = r.lock('x')\n",
        "from pymemcache.client.base import Client\nmc = Client(('h', 1))\nmc.add('k', 'v')\n",
        "r.set(k, v, nx=True, ex=3)\n",
    ],
)
def test_common_words_go_to_the_second_stage(code):
    assert may_hold_findings(code.encode())


def test_words_come_from_the_store_table():
    decisive, common = words()
    assert b"setnx" in decisive and b"put_if_not_exists" in decisive and b"LockNotOwnedError" in decisive
    # Self-evident token-checked releases: their commands in both cases, the script's ARGV, `delex`.
    assert {b"DELIFEQ", b"delifeq", b"DELEX", b"delex", b"ARGV"} <= set(decisive)
    assert b".add(" in common and b"Lock(" in common


@pytest.mark.parametrize("word", words()[0], ids=lambda word: word.decode())
def test_every_decisive_word_is_found(word):
    # Some are found through a lower-cased copy (`NX` and `nx` in one scan), some as they are.
    assert verdict(b"x = " + word + b"\n") != NOTHING


def test_other_cases_of_the_words_are_dropped():
    # The lower-cased copy holds `nx`, `lock`, `not_exist`, `delex` and `delifeq`; the bytes do not.
    assert verdict(b"block = clock.nX(Not_Exist, DeLex, delIfeq)\n", noqa_rule=True) == NOTHING


def test_patterns_keep_their_word_boundary():
    # `\bnx\s*=...` is searched as `nx(?<=\bnx)\s*=...`: the same matches.
    assert verdict(b"f(x, nx = (True))\n") == verdict(b"f(x, upsert=True)\n") == CLAIM_WORDS
    assert verdict(b"f(x, onx=True)\n") == verdict(b"f(x, no_upsert=True)\n") == NOTHING


# A store API of its own (as Django's cache backends have): claims and deletes of the caller's key.
WRAPPERS = textwrap.dedent(
    """
    import pymemcache.serde


    class Backend:
        def add(self, key, value, timeout=None):
            key = self.make_key(key)
            return self._cache.add(key, value, timeout)

        def set(self, key, value, timeout=None):
            return self.client.set(key, value, nx=True, ex=timeout)

        def get_or_set(self, key, default):
            self.add(key, default)
            return self.get(key)

        def delete(self, key):
            return self._cache.delete(key)
    """
)


def test_second_look_passes_over_a_store_api_of_its_own():
    assert verdict(WRAPPERS.encode()) == CLAIM_WORDS
    assert not worth_parsing(WRAPPERS)
    assert lint_text(SourceText(WRAPPERS), "case.py", Settings()).diagnostics == []


@pytest.mark.parametrize(
    "edit",
    [
        # A lease in a method not named like a store method.
        ("def set(self, key, value, timeout=None):", "def acquire(self, key, value, timeout=None):"),
        # A key made in the method, not the caller's.
        ("return self.client.set(key, value", 'return self.client.set(f"lock:{key}", value'),
        # pymemcache's client (made by its own module): `add` answers True unless asked not to.
        ("return self._cache.add(key, value, timeout)", "return self.mc.add(key, value, timeout)"),
    ],
)
def test_second_look_keeps_what_the_model_could_take_for_a_lease(edit):
    text = WRAPPERS.replace(*edit)
    if "self.mc" in text:
        text = text.replace("class Backend:\n", "class Backend:\n    def __init__(self):\n        self.mc = pymemcache.Client(('h', 1))\n\n")
    assert worth_parsing(text)


@pytest.mark.parametrize(
    "code",
    [
        "def add(self, key):\n    r.set(key, 1, nx=True)\n  (\n",  # CPython cannot parse it: libcst decides
        "r.set(k, v, nx=True)\nr.delete(k)\n",
    ],
)
def test_second_look_keeps_when_in_doubt_or_a_claim_is_there(code):
    assert worth_parsing(code)


def test_other_words_skip_the_second_look():
    assert verdict(b"r.set(k, v, nx=True)\nexcept LockNotOwnedError:\n") == MORE
    assert verdict(b"script = 'if redis.call(\"get\", KEYS[1]) == ARGV[1]'\nr.set(k, v, nx=True)\n") == MORE
    assert verdict(b"r.set(k, v, nx=True)\n") == CLAIM_WORDS


def test_a_store_release_beside_a_claim_skips_the_second_look():
    """The store's module near the top, a claim's words and the store's plain release: CPython's look
    would keep the file, so it is not asked; a function named like a store method still is."""
    claim = b"import redis\n\nr = redis.Redis()\n\ndef job(k):\n    if r.set(k, 1, nx=True):\n        r.delete(k)\n"
    assert verdict(claim) == MORE
    assert worth_parsing(claim.decode())
    assert verdict(claim.replace(b"import redis", b"import shelve").replace(b"redis.Redis", b"make")) == CLAIM_WORDS
    assert verdict(claim.replace(b"r.delete(k)", b"r.hget(k, 1)")) == CLAIM_WORDS
    assert verdict(claim + b"\ndef delete(key):\n    r.delete(key)\n") == CLAIM_WORDS
    assert verdict(b"from django.core.cache import cache\nif cache.add(k, 1, 5):\n    cache.delete(k)\n") == MORE


# Found by a review that mutated the rule cases (lease code the prefilter once dropped), and a case
# for each word found through the lower-cased copy or a pattern the prefilter rewrites.
REVIEWED = sorted((Path(__file__).parent / "data" / "prefilter").glob("*.py"))


@pytest.mark.parametrize("path", REVIEWED, ids=[p.stem for p in REVIEWED])
def test_reviewed_lease_code_is_never_dropped(path):
    code = path.read_text(encoding="utf-8")
    findings = [d for d in lint_text(SourceText(code), "case.py", Settings()).diagnostics if d.code != "LL000"]
    assert findings, "the case should have a finding"
    found = verdict(code.encode())
    assert found != NOTHING
    assert found == MORE or worth_parsing(code)


ETCD2_CLAIM = b'''import etcd

client = etcd.Client()


def take(key, token):
    client.write(key, token, prevExist=False, ttl=30)
'''


def test_a_store_word_looked_for_only_in_lock_named_files_with_the_store_named_at_the_top():
    """`prevExist` is read only in a file that names a lock (its text, or its own name) and names
    python-etcd's module near its top; elsewhere the bytes say nothing."""
    assert verdict(ETCD2_CLAIM) == NOTHING
    assert verdict(ETCD2_CLAIM, path="app/locks.py") == CLAIM_WORDS
    assert verdict(ETCD2_CLAIM, path="app/leases.py") == CLAIM_WORDS
    assert verdict(ETCD2_CLAIM, path="app/election.py") == NOTHING
    assert verdict(b"# the lock\n" + ETCD2_CLAIM) == CLAIM_WORDS
    # Named, but the module's import is not near the top: not read (a long head of other code).
    late = b"# lock\n" + b"x = 1\n" * 2000 + ETCD2_CLAIM
    assert verdict(late) == NOTHING
    # A word the stdlib is full of (`.insert(`) counts only beside its store's module.
    assert verdict(b"import threading\nlock = threading.Lock()\nitems.insert(0, x)\n") == NOTHING


def test_words_that_share_a_first_byte_are_found_like_plain_words():
    """One regex per first byte stands in for the words' own scans (every decisive word is still
    found: the test above); the words so grouped are there, and their first byte alone finds nothing."""
    from leaselint.prefilter import _table

    table = _table()
    grouped = [w for pattern, words in table["first_groups"] if pattern is not None for w in words]
    parts = [p for pattern, entries in table["folded_groups"] if pattern is not None for p, _ in entries]
    assert {b".multi(", b".transactions"} <= set(grouped) and {b"delex", b"delifeq", b"nx", b"not_exist"} <= set(parts)
    decisive = words()[0]
    for word in grouped + parts:
        if word == b".add(":
            continue  # a common word: the client and arguments decide (the `.add(` tests)
        found = [d for d in decisive if word in d]
        assert found, word
        for text in found:
            assert verdict(b"x = " + text + b"\n") != NOTHING, text
            split = text.replace(word, word[:1] + b" " + word[1:])
            assert verdict(b"x = " + split + b"\n") == NOTHING, split


def test_a_lock_librarys_error_without_lock_in_its_name_counts_where_a_lock_is_named():
    assert verdict(b"import redis_lock\ntry:\n    m.release()\nexcept redis_lock.NotAcquired:\n    pass\n") == MORE
    assert verdict(b"try:\n    m.release()\nexcept NotAcquired:\n    pass\n") == NOTHING


def test_a_projects_own_lost_lease_error_around_a_release_is_kept():
    assert verdict(b"try:\n    lease.release()\nexcept (ValueError, LeaseExpiredError):\n    pass\n") == MORE
    assert verdict(b"try:\n    job.unlock()\nexcept errors.NotLockOwner as exc:\n    pass\n") == MORE
    assert verdict(b"with suppress(LockNotOwned):\n    lock.release(handle)\n") == MORE
    # A lock's other errors, or a lost-lease error with no release in the text, are not.
    assert verdict(b"try:\n    lease.release()\nexcept LockTimeout:\n    pass\n") == NOTHING
    assert verdict(b"try:\n    job.run()\nexcept LeaseExpiredError:\n    pass\n") == NOTHING


# An ORM's own get-or-create (a queryset creating rows under IntegrityError) beside a lock word: no
# lock model's row is claimed, so the prefilter drops it (it sent a 107 KB module of Django to libcst
# on every run); a lock model's create is kept, with IntegrityError caught or not.
QUERYSET = textwrap.dedent(
    """
    from django.db import IntegrityError, transaction


    class QuerySet:
        def select_for_update(self, nowait=False):
            return self._chain(lock=True, nowait=nowait)

        def get_or_create(self, defaults=None, **kwargs):
            try:
                return self.get(**kwargs), False
            except self.model.DoesNotExist:
                params = dict(kwargs, **(defaults or {}))
                try:
                    with transaction.atomic(using=self.db):
                        return self.create(**params), True
                except IntegrityError:
                    return self.get(**kwargs), False
    """
)


def test_an_orms_own_create_is_dropped_and_a_lock_rows_is_kept():
    assert verdict(QUERYSET.encode()) == NOTHING
    row = QUERYSET + textwrap.dedent(
        """
        def take(key, token):
            try:
                JobLock.objects.create(name=key, owner=token)
            except IntegrityError:
                return False
            return True
        """
    )
    assert verdict(row.encode()) == CLAIM_WORDS
    assert worth_parsing(row)
    assert verdict(row.replace("JobLock", "JobRecord").encode()) == NOTHING
    assert not worth_parsing(row.replace("name=key", "title=key"))
    # The manager on a line of its own (inside parentheses, or after a backslash) is still the lock model's.
    assert verdict(row.replace("JobLock.objects", "JobLock \\\n    .objects").encode()) == CLAIM_WORDS
    assert verdict(row.replace("JobLock.objects", "(JobLock\n                .objects").replace("owner=token)", "owner=token))").encode()) == CLAIM_WORDS


# A lock model's row claimed without catching IntegrityError (the claim answers by raising), in a file
# whose text holds no other store word: the prefilter once dropped it.
UNCAUGHT_ROW = textwrap.dedent(
    """
    from django.db import models


    class NightlyLease(models.Model):
        name = models.CharField(max_length=100, unique=True)
        holder = models.CharField(max_length=40)


    def nightly(job):
        NightlyLease.objects.create(name=job, holder="cron")
        try:
            run(job)
        finally:
            NightlyLease.objects.filter(name=job).delete()
    """
)


def test_a_lock_rows_claim_without_its_error_caught_is_kept():
    assert verdict(UNCAUGHT_ROW.encode()) == CLAIM_WORDS
    assert worth_parsing(UNCAUGHT_ROW)
    codes = [d.code for d in lint_text(SourceText(UNCAUGHT_ROW), "jobs.py", Settings()).diagnostics]
    assert codes == ["LL005", "LL002", "LL001"]
    assert verdict(UNCAUGHT_ROW.replace("from django.db", "from peewee").encode()) == NOTHING


# A cache backend whose client is a cached property (as a store's cache adapter makes it): the model
# follows assigned attributes and called factories, not a property read by name.
PROPERTY_CLIENT = textwrap.dedent(
    """
    from functools import cached_property


    class MemoBackend:
        def __init__(self, servers, library):
            self._servers = servers
            self._factory = library.Client

        @cached_property
        def _cache(self):
            return self._factory(self._servers)

        def add(self, key, value, timeout=0):
            return self._cache.add(key, value, timeout)


    class PymemcacheBackend(MemoBackend):
        def __init__(self, servers):
            import pymemcache

            super().__init__(servers, pymemcache)
    """
)


def test_second_look_does_not_follow_a_property_the_model_does_not():
    assert verdict(PROPERTY_CLIENT.encode()) == CLAIM_WORDS
    assert not worth_parsing(PROPERTY_CLIENT)
    assert lint_text(SourceText(PROPERTY_CLIENT), "case.py", Settings()).diagnostics == []
    # Called, the method is a factory the model follows.
    called = PROPERTY_CLIENT.replace("self._cache.add(", "self._cache().add(").replace("@cached_property\n", "")
    assert worth_parsing(called)
    # Assigned, the attribute is one the model reads: pymemcache's `add` answers True unless asked not to.
    assigned = PROPERTY_CLIENT.replace("self._factory = library.Client", "self.mc = pymemcache.Client(servers)")
    assigned = assigned.replace("self._cache.add(", "self.mc.add(").replace("from functools", "import pymemcache\nfrom functools")
    assert worth_parsing(assigned)
    assert [d.code for d in lint_text(SourceText(assigned), "case.py", Settings()).diagnostics] == ["LL008"]


# A cache backend's own read-then-write methods: the read in one method, the write of that key in another.
SPLIT_READ_WRITE = textwrap.dedent(
    """
    class LockingCache:
        def incr(self, key, delta):
            client = self.client_for(key)
            if not client.exists(key):
                raise ValueError(key)
            return client.incrby(key, delta)

        def put(self, key, value, timeout):
            client = self.client_for(key)
            client.set(key, value, ex=timeout)

        def drop(self, key):
            client = self.client_for(key)
            return client.delete(key)

        def add(self, key, value):
            client = self.client_for(key)
            return client.set(key, value, nx=True)
    """
)


def test_second_look_takes_a_read_then_write_in_one_function_alone():
    assert verdict(SPLIT_READ_WRITE.encode()) == CLAIM_WORDS
    assert not worth_parsing(SPLIT_READ_WRITE)
    assert lint_text(SourceText(SPLIT_READ_WRITE), "case.py", Settings()).diagnostics == []
    # The write after the read in the same method: LL009's shape, kept for the model.
    joined = SPLIT_READ_WRITE.replace("return client.incrby(key, delta)", "client.set(key, 1)")
    assert worth_parsing(joined)
    # The write before the read: no check-then-claim.
    before = SPLIT_READ_WRITE.replace("client = self.client_for(key)\n        if", "client.set(key, 1)\n        if")
    assert before != SPLIT_READ_WRITE
    assert not worth_parsing(before)


# A cache API's base class: `self.add(...)` with a store's module named only in its prose.
PROSE_ONLY = textwrap.dedent(
    '''
    class Cache:
        def get_or_set(self, key, default, timeout=None):
            """Some backends (memcached, from what pylibmc says) answer this in one call."""
            value = self.get(key)
            if value is None:
                self.add(key, default, timeout)
                value = self.get(key, default)
            return value
    '''
)


@pytest.mark.parametrize(
    "line",
    [
        "import pylibmc\n",
        "try: import pylibmc\nexcept ImportError: pass\n",
        "from diskcache import Cache as Disk\n",
        "import os, \\\n    pylibmc\n",
    ],
)
def test_an_add_is_a_claims_word_where_its_store_is_imported_not_named(line):
    assert verdict(PROSE_ONLY.encode()) == NOTHING
    assert verdict((line + PROSE_ONLY).encode()) == CLAIM_WORDS

"""Where a claim's stored value comes from, for every origin the token rules know."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from leaselint.model import build_model
from leaselint.model.values import FIXED, FRESH, GUESSABLE, UNKNOWN

HEADER = """\
import datetime
import json
import getpass
import itertools
import os
import platform
import random
import secrets
import socket
import threading
import time
import uuid
from uuid import uuid4

import redis

r = redis.Redis()
WORKER_ID = uuid.uuid4().hex
"""

CASES = [
    ('"1"', FIXED, "a constant"),
    ("1", FIXED, "a constant"),
    ("True", FIXED, "a constant"),
    ("None", FIXED, "a constant"),
    ("int(time.time())", GUESSABLE, "time.time()"),
    ("str(round(time.time() * 1000))", GUESSABLE, "time.time()"),
    ("float(os.getpid())", FIXED, "the process id"),
    ("int(uuid.uuid4())", FRESH, "uuid4"),
    ('json.dumps({"host": socket.gethostname(), "pid": os.getpid()})', FIXED, "the host name and the process id"),
    ("str((socket.gethostname(), os.getpid()))", FIXED, "the host name and the process id"),
    ('json.dumps({"owner": secrets.token_hex(8), "at": time.time()})', FRESH, "secrets"),
    ('"locked"', FIXED, "a constant"),
    ("socket.gethostname()", FIXED, "the host name"),
    ("socket.getfqdn()", FIXED, "the host name"),
    ("platform.node()", FIXED, "the host name"),
    ("os.uname().nodename", FIXED, "the host name"),
    ('os.environ["HOSTNAME"]', FIXED, "the host name"),
    ('os.environ.get("HOSTNAME")', FIXED, "the host name"),
    ("os.getpid()", FIXED, "the process id"),
    ("str(os.getpid())", FIXED, "the process id"),
    ("threading.get_ident()", FIXED, "the thread id"),
    ("threading.current_thread().name", FIXED, "the thread"),
    ("getpass.getuser()", FIXED, "the user name"),
    ("job", FIXED, "the lease's own name"),
    ("WORKER_ID", FIXED, "a module-level value made once per process"),
    ('f"{socket.gethostname()}:{os.getpid()}"', FIXED, "the host name and the process id"),
    ('"%s-%s" % (socket.gethostname(), os.getpid())', FIXED, "the host name and the process id"),
    ('"-".join([socket.gethostname(), str(os.getpid())])', FIXED, "the host name and the process id"),
    ("self.app.oid", FIXED, "Celery's `app.oid` (one value per worker process)"),
    ("time.time()", GUESSABLE, "time.time()"),
    ("time.time_ns()", GUESSABLE, "time.time_ns()"),
    ("time.monotonic()", GUESSABLE, "time.monotonic()"),
    ("datetime.datetime.now()", GUESSABLE, "datetime.now()"),
    ("datetime.datetime.utcnow().isoformat()", GUESSABLE, "datetime.utcnow()"),
    ("uuid.uuid1()", GUESSABLE, "uuid1 (the host and the time)"),
    ("random.random()", GUESSABLE, "the random module"),
    ("next(itertools.count())", GUESSABLE, "a counter"),
    ("secrets.token_hex(16)", FRESH, "secrets"),
    ("secrets.token_urlsafe()", FRESH, "secrets"),
    ("uuid.uuid4().hex", FRESH, "uuid4"),
    ("str(uuid4())", FRESH, "uuid4"),
    ("os.urandom(16).hex()", FRESH, "os.urandom"),
    ("random.SystemRandom().getrandbits(128)", FRESH, "SystemRandom"),
    ('f"{socket.gethostname()}-{uuid.uuid4()}"', FRESH, "uuid4"),
    ("token", UNKNOWN, ""),
    ("make_token()", UNKNOWN, ""),
    # A setting with a fallback is as weak as the fallback; a fresh side, or none known, is unknown.
    (
        'os.environ.get("WORKER_ID") or f"{socket.gethostname()}:{os.getpid()}"',
        FIXED,
        "the host name and the process id, the fallback of a setting",
    ),
    ('os.getenv("WORKER") or os.environ["ID"] or time.time()', GUESSABLE, "time.time(), the fallback of a setting"),
    ('os.environ.get("WORKER_ID") or secrets.token_hex(8)', UNKNOWN, ""),
    ('os.environ.get("WORKER_ID") or token', UNKNOWN, ""),
    # Alone, the variable is one value per process.
    ('os.environ.get("WORKER_ID")', FIXED, "an environment variable (one value per process)"),
    ('os.environ["WORKER_ID"]', FIXED, "an environment variable (one value per process)"),
    # Each element of a joined generator: `random.choice` per character is still the random module.
    ('"".join(random.choice("abcdef") for _ in range(22))', GUESSABLE, "the random module"),
    ('"".join([secrets.choice("abcdef") for _ in range(22)])', FRESH, "secrets"),
    ('"".join(str(c) for c in job)', UNKNOWN, ""),
]


def _origin_of(expression: str):
    code = HEADER + textwrap.dedent(
        f"""
        def run(self, job, token):
            if r.set(f"lock:{{job}}", {expression}, nx=True, ex=30):
                r.delete(f"lock:{{job}}")
        """
    )
    model = build_model(cst.parse_module(code))
    ((_, _, origin),) = list(model.token_origins())
    return origin


@pytest.mark.parametrize(("expression", "kind", "reason"), CASES, ids=[c[0] for c in CASES])
def test_origin(expression, kind, reason):
    origin = _origin_of(expression)
    assert (origin.kind, origin.reason) == (kind, reason)


def test_counter_in_a_local_loop():
    code = HEADER + textwrap.dedent(
        """
        def run(job):
            attempt = 0
            while True:
                attempt += 1
                if r.set(f"lock:{job}", attempt, nx=True, ex=30):
                    break
            r.delete(f"lock:{job}")
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert (origin.kind, origin.reason) == (GUESSABLE, "a counter")


def test_parameter_follows_every_caller():
    code = HEADER + textwrap.dedent(
        """
        def locked(key, owner):
            if r.set(key, owner, nx=True, ex=30):
                r.delete(key)

        def a():
            locked("lock:a", socket.gethostname())

        def b():
            locked("lock:b", platform.node())
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert (origin.kind, origin.reason) == (FIXED, "the host name")


def test_parameter_with_one_fresh_caller_is_unknown():
    code = HEADER + textwrap.dedent(
        """
        def locked(key, owner):
            if r.set(key, owner, nx=True, ex=30):
                r.delete(key)

        def a():
            locked("lock:a", socket.gethostname())

        def b():
            locked("lock:b", secrets.token_hex(16))
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert origin.kind == UNKNOWN


def _only_origin(body: str):
    code = HEADER + textwrap.dedent(body)
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    return origin.kind, origin.reason


def test_a_helper_without_arguments_is_what_it_returns():
    assert _only_origin(
        """
        def owner():
            return f"{socket.gethostname()}-{os.getpid()}"

        def run(job):
            if r.set(f"lock:{job}", owner(), nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    ) == (FIXED, "the host name and the process id")
    assert _only_origin(
        """
        def fresh():
            return secrets.token_hex(16)

        def run(job):
            if r.set(f"lock:{job}", fresh(), nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    )[0] == FRESH


def test_a_method_and_a_property_are_what_they_return():
    assert _only_origin(
        """
        class Lock:
            def _me(self):
                return threading.get_ident()

            def run(self, job):
                if r.set(f"lock:{job}", self._me(), nx=True, ex=30):
                    r.delete(f"lock:{job}")
        """
    ) == (FIXED, "the thread id")
    assert _only_origin(
        """
        class Lock:
            @property
            def now(self):
                return time.time()

            def run(self, job):
                if r.set(f"lock:{job}", self.now, nx=True, ex=30):
                    r.delete(f"lock:{job}")
        """
    ) == (GUESSABLE, "time.time()")


def test_a_helper_with_arguments_is_what_it_returns_from_what_the_call_passes():
    helper = """
        def b(value, suffix=""):
            return value.encode() + suffix

        def owner(base):
            return f"{base}-{os.getpid()}"

        def named(prefix):
            return f"{prefix}-{os.getpid()}"

        def run(job, given):
            if r.set(f"lock:{job}", VALUE, nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    assert _only_origin(helper.replace("VALUE", 'owner("x")')) == (FIXED, "the process id")
    assert _only_origin(helper.replace("VALUE", "b(uuid.uuid1().hex)")) == (GUESSABLE, "uuid1 (the host and the time)")
    assert _only_origin(helper.replace("VALUE", "b(secrets.token_hex(16))"))[0] == FRESH
    # What the caller passes is not known: neither is the answer.
    assert _only_origin(helper.replace("VALUE", "owner(given)"))[0] == UNKNOWN
    assert _only_origin(helper.replace("VALUE", "b(given)"))[0] == UNKNOWN
    # A part named for a prefix names the holder; it holds no token, whatever the caller passes.
    assert _only_origin(helper.replace("VALUE", "named(given)")) == (FIXED, "the process id")


def test_a_clock_moved_by_a_number_is_the_clock():
    code = """
        def run(job, timeout):
            if r.set(f"lock:{job}", VALUE, nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    assert _only_origin(code.replace("VALUE", "time.time() + timeout")) == (GUESSABLE, "time.time()")
    assert _only_origin(code.replace("VALUE", "int(time.time() * 1000) + timeout")) == (GUESSABLE, "time.time()")
    # A fresh part still makes it fresh; a concatenation with an unknown text stays unknown.
    assert _only_origin(code.replace("VALUE", "time.time() + secrets.randbelow(10**9)"))[0] == FRESH
    assert _only_origin(code.replace("VALUE", 'f"{time.time()}{timeout}"'))[0] == UNKNOWN


def test_a_helper_with_returns_of_two_kinds_is_unknown():
    assert _only_origin(
        """
        def owner():
            if random.random() > 2:
                return secrets.token_hex(16)
            return os.getpid()

        def run(job):
            if r.set(f"lock:{job}", owner(), nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    )[0] == UNKNOWN


SETTINGS_CLASSES = """
import dataclasses


@dataclasses.dataclass
class Settings:
    owner: str = f"{socket.gethostname()}:{os.getpid()}"
    started: float = dataclasses.field(default_factory=lambda: time.time())
    fresh: str = dataclasses.field(default_factory=lambda: secrets.token_hex(8))
    given: str = dataclasses.field(default_factory=make_owner)
    plain: str = "worker"
    unset: str


SETTINGS = Settings()
"""


@pytest.mark.parametrize(
    ("expression", "kind", "reason"),
    [
        ("SETTINGS.owner", FIXED, "`Settings.owner`, a setting made once per `Settings` (its default is the host name and the process id)"),
        ("SETTINGS.started", FIXED, "`Settings.started`, a setting made once per `Settings` (its default is time.time())"),
        ("Settings().plain", FIXED, "`Settings.plain`, a setting made once per `Settings` (its default is a constant)"),
        ("config.owner", FIXED, "`Settings.owner`, a setting made once per `Settings` (its default is the host name and the process id)"),
        ("quoted.owner", FIXED, "`Settings.owner`, a setting made once per `Settings` (its default is the host name and the process id)"),
        # A fresh default is still one per settings object, but not reported: what callers pass is not known.
        ("SETTINGS.fresh", UNKNOWN, ""),
        ("SETTINGS.given", UNKNOWN, ""),
        ("SETTINGS.unset", UNKNOWN, ""),
        ("other.owner", UNKNOWN, ""),
    ],
)
def test_a_setting_of_a_class_of_the_module(expression, kind, reason):
    code = HEADER + SETTINGS_CLASSES + textwrap.dedent(
        f"""
        def run(job, config: Settings, quoted: "Settings", other):
            if r.set(f"lock:{{job}}", {expression}, nx=True, ex=30):
                r.delete(f"lock:{{job}}")
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert (origin.kind, origin.reason) == (kind, reason)


def test_a_class_attribute_is_made_once_per_process():
    code = HEADER + textwrap.dedent(
        """
        class Sync:
            MACHINE = make_machine_id()
            PREFIX = "sync"

            def take(self, job):
                owner = "%s-%s" % (self.MACHINE, os.getpid())
                if r.set(f"lock:{job}", owner, nx=True, ex=30):
                    r.delete(f"lock:{job}")

            def mark(self, job):
                if r.set(f"lock:{job}:b", self.PREFIX, nx=True, ex=30):
                    r.delete(f"lock:{job}:b")
        """
    )
    found = [(o.kind, o.reason) for _, _, o in build_model(cst.parse_module(code)).token_origins()]
    assert found == [
        (FIXED, "a class attribute made once per process and the process id"),
        (FIXED, "a class-level constant"),
    ]


def test_a_value_made_in_init_either_way_is_made_once_per_instance():
    code = HEADER + textwrap.dedent(
        """
        class Lease:
            def __init__(self, name, owner=None):
                self.name = name
                if owner is None:
                    self.owner = secrets.token_hex(8)
                else:
                    self.owner = owner

            def take(self):
                if r.set(self.name, self.owner, nx=True, ex=30):
                    r.delete(self.name)
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert (origin.kind, origin.reason) == (FIXED, "a value made once per instance in `__init__`")


def test_a_property_of_an_object_of_a_module_class_is_what_it_returns():
    code = HEADER + textwrap.dedent(
        """
        class Held:
            def __init__(self, job):
                self.job = job

            @property
            def stamp(self):
                return json.dumps({"job": self.job, "at": time.time()})


        def run(job):
            held = Held(job)
            if r.set(f"lock:{job}", held.stamp, nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    )
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert (origin.kind, origin.reason) == (GUESSABLE, "time.time()")


@pytest.mark.parametrize(
    "elsewhere",
    [
        "TICKET = Ticket(owner=secrets.token_hex(16))",
        "TICKET = Ticket(secrets.token_hex(16))",
        "def renew(t):\n    t.owner = secrets.token_hex(16)",
    ],
)
def test_a_default_the_module_replaces_is_no_origin(elsewhere):
    code = HEADER + textwrap.dedent(
        """
        import dataclasses


        @dataclasses.dataclass
        class Ticket:
            owner: str = "worker"


        def run(job, ticket: Ticket):
            if r.set(f"lock:{job}", ticket.owner, nx=True, ex=30):
                r.delete(f"lock:{job}")
        """
    ) + "\n" + elsewhere + "\n"
    ((_, _, origin),) = list(build_model(cst.parse_module(code)).token_origins())
    assert origin.kind == UNKNOWN

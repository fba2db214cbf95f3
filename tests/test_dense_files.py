"""Lease-dense files: the model's and the fixes' work grows in step with the file.

The work is counted, not timed: the lines of leaselint's code run, per function (comprehensions
included), while a module of n units and one of 2n units are checked. Linear work doubles; a scan of
the module (or of a lease) for each event, call or fix quadruples. `benchmarks/dense.py` times the
same growth on generated files of 125 KB to 2 MB.
"""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter

import pytest

from leaselint import parsing
from leaselint.check import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText

HEAD = '''\
import secrets

import redis

r = redis.Redis()
SHARED = "jobs:busy"
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
'''

# One of each shape whose fix or pairing asked about the whole module: a constant token, a
# client-side check, a pipeline after multi(), a helper pair whose callers pass the token, a key
# written beside the claim, one key shared by a function of every unit, a checked release whose
# answer is dropped, a lock object, and a lock class.
UNIT = '''

def claim_{i}(job):
    if r.set("unit{i}:%s" % job, "1", nx=True, ex=30):
        try:
            work(job)
        finally:
            r.delete("unit{i}:%s" % job)


def check_{i}(job, token):
    key = "lock:check{i}:%s" % job
    if not r.set(key, token, nx=True, ex=30):
        return
    try:
        work(job)
    finally:
        if r.get(key) == token:
            r.delete(key)


def piped_{i}(job, token):
    key = "lock:pipe{i}:" + job
    if r.set(key, token, nx=True, px=5000):
        try:
            work(job)
        finally:
            pipe = r.pipeline()
            pipe.multi()
            pipe.delete(key)
            pipe.execute()


def acquire_{i}(name):
    return r.set("lock:helper{i}:%s" % name, "1", nx=True, ex=30)


def release_{i}(name):
    r.delete("lock:helper{i}:%s" % name)


def use_{i}(name):
    if acquire_{i}(name):
        try:
            work(name)
        finally:
            release_{i}(name)


def beside_{i}(job, token):
    if r.set(f"claim{i}:{{job}}", 1, nx=True, ex=30):
        r.set(f"claim{i}:{{job}}:owner", token, ex=30)
        try:
            work(job)
        finally:
            r.delete(f"claim{i}:{{job}}", f"claim{i}:{{job}}:owner")


def shared_{i}(job):
    if r.set(SHARED, "1", nx=True, ex=30):
        try:
            work(job)
        finally:
            r.delete(SHARED)


def evaluated_{i}(job):
    key = f"lock:eval{i}:{{job}}"
    token = secrets.token_hex(16)
    if r.set(key, token, nx=True, ex=30):
        try:
            work(job)
        finally:
            ok = r.eval(RELEASE, 1, key, token)
            if not ok:
                pass


def locked_{i}(job):
    lock = r.lock("lock:obj{i}:%s" % job, timeout=30)
    if lock.acquire(blocking=False):
        try:
            work(job)
        finally:
            lock.release()


class Lease{i}:
    def __init__(self, client, name):
        self.client = client
        self.key = "lease{i}:%s" % name

    def acquire(self):
        return self.client.set(self.key, "1", nx=True, ex=30)

    def release(self):
        self.client.delete(self.key)
'''

def dense(units: int) -> str:
    return HEAD + "".join(UNIT.format(i=i) for i in range(units))


def lines_run(text: str, settings: Settings) -> tuple[Counter, int]:
    """Lines of leaselint's own code run while `text` is checked, per code object; and the findings."""
    from leaselint import rules

    roots = (os.path.dirname(parsing.__file__), os.path.dirname(rules.__file__))
    counts: Counter = Counter()

    def local(frame, event, arg):
        if event == "line":
            counts[frame.f_code] += 1
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(roots) else None

    sys.settrace(calls)
    try:
        result = lint_text(SourceText(text), "dense.py", settings)
    finally:
        sys.settrace(None)
    return counts, len(result.diagnostics)


@pytest.fixture
def big_stack():
    """Checks run on this thread, as on the parsing thread (deep libcst trees need the limit)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(parsing.DEEP_RECURSION_LIMIT)
    active = getattr(parsing._deep, "active", False)
    parsing._deep.active = True
    yield
    parsing._deep.active = active
    sys.setrecursionlimit(old)


def test_work_per_function_grows_linearly_with_the_module(big_stack):
    """Every function of the model, the rules and the fixes (counting the fixes, as the default report
    does) runs twice the lines for twice the units: none scans the module or a lease per event."""
    settings = Settings(count_fixes=True)
    lines_run(dense(1), settings)  # once first: positions are made lazily from the second module on
    small, found_small = lines_run(dense(4), settings)
    large, found_large = lines_run(dense(8), settings)
    assert found_large == 2 * found_small > 0
    grown = {
        f"{os.path.basename(code.co_filename)}:{code.co_firstlineno} {code.co_name}": (small[code], count)
        for code, count in large.items()
        if count >= 100 and count > 2.5 * small[code]
    }
    assert not grown, grown


def test_a_file_past_1_mb_is_walked_for_long_and_or_chains_only_when_it_holds_that_many_words(monkeypatch):
    walked = []
    real_walk = ast.walk
    monkeypatch.setattr(ast, "walk", lambda tree: walked.append(tree) or real_walk(tree))
    plain = "x = 1\n" * 200_000
    assert len(plain) > parsing.FLAT_SAFE_TEXT
    assert parsing._python_parse(plain) is None
    assert walked == []
    chain = "x = " + " or ".join(["a"] * (parsing.MAX_BOOL_OPERANDS + 1)) + "\n" + "# padding\n" * 60_000
    assert len(chain) > parsing.FLAT_SAFE_TEXT
    with pytest.raises(parsing.ParseFailure, match="100001 operands of one `and`/`or`"):
        parsing._python_parse(chain)
    assert len(walked) == 1

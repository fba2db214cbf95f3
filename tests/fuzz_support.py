"""Strategies and the property shared by tests/test_fuzz.py (a fixed CI budget) and scripts/fuzz.py."""

from __future__ import annotations

import ast

from hypothesis import strategies as st

from leaselint.prefilter import CLAIM_WORDS, NOTHING, verdict
from leaselint.parsing import ParseFailure, parse, worth_parsing
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText

RECEIVERS = ["r", "redis", "client", "self.redis", "self.client", "conn", "cache"]
KEYS = ['f"lock:{job}"', '"lock:%s" % job', '"lock:{}".format(job)', '"lock:" + job', "key", "self.key", '"lock:job"']
TOKENS = ["token", "secrets.token_hex(16)", '"1"', "socket.gethostname()", "str(uuid.uuid4())"]
CLAIMS = [
    "{r}.set({k}, {t}, nx=True, ex=30)",
    "{r}.set({k}, {t}, nx=True, px=30_000)",
    "{r}.setnx({k}, {t})",
    '{r}.execute_command("SET", {k}, {t}, "NX", "PX", 30000)',
]
RELEASES = ["{r}.delete({k})", "{r}.unlink({k})", "{r}.getdel({k})", '{r}.execute_command("DEL", {k})']
COMMENTS = ["", "  # release", "  # noqa", "  # type: ignore", "  # noqa: LL002"]


@st.composite
def lease_programs(draw) -> str:
    """A claim and a blind release, mutated: receivers, keys, class or async wrappers, try/finally,
    comments, odd formatting, newline styles."""
    receiver = draw(st.sampled_from(RECEIVERS))
    key = draw(st.sampled_from(KEYS))
    token = draw(st.sampled_from(TOKENS))
    claim = draw(st.sampled_from(CLAIMS)).format(r=receiver, k=key, t=token)
    release = draw(st.sampled_from(RELEASES)).format(r=receiver, k=key)
    is_async = draw(st.booleans())
    if is_async:
        claim, release = f"await {claim}", f"await {release}"
    comment = draw(st.sampled_from(COMMENTS))
    shape = draw(st.sampled_from(["if", "if-not-return", "try-finally", "while", "two-functions", "one-line"]))
    if draw(st.booleans()):
        claim = f"({claim})"
    if draw(st.booleans()):
        release = release.replace("(", "(\n            ", 1)
    body = {
        "if": f"if {claim}:\n    work(job)\n    {release}{comment}\n",
        "if-not-return": f"if not {claim}:\n    return\ntry:\n    work(job)\nfinally:\n    {release}{comment}\n",
        "try-finally": f"if {claim}:\n    try:\n        work(job)\n    finally:\n        {release}{comment}\n",
        "while": f"while not {claim}:\n    sleep(0.1)\ntry:\n    work(job)\nfinally:\n    {release}{comment}\n",
        "two-functions": None,
        "one-line": f"if {claim}:\n    try: work(job)\n    finally: {release}{comment}\n",
    }[shape]
    head = "async def" if is_async else "def"
    setup = "    token = secrets.token_hex(16)\n    key = f\"lock:{job}\"\n"
    # Named like a store method, with the key as its parameter: a store API of its own, or a lease.
    name, param = draw(st.sampled_from([("run", "job"), ("add", "job"), ("set", "key"), ("_add", "key, job")]))
    if param != "job":
        setup = setup.replace("    key = ", "    other = ")
    if body is None:
        function = (
            f"{head} acquire(self, job):\n{setup}    return {claim}\n\n\n"
            f"{head} release(self, job):\n    key = f\"lock:{{job}}\"\n    {release}{comment}\n"
        )
    else:
        function = f"{head} {name}(self, {param}):\n{setup}" + "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    imports = draw(st.sampled_from(["import redis\n", "import redis.asyncio as redis_async\n", "from redis import Redis\n", ""]))
    module_client = draw(st.sampled_from(["r = redis.Redis()\n", "", "client = Redis()\n"]))
    if draw(st.booleans()):
        init = "    def __init__(self, redis):\n        self.redis = redis\n        self.client = redis\n        self.key = 'lock:x'\n\n"
        function = "class Worker:\n" + init + "".join(f"    {line}\n" if line.strip() else "\n" for line in function.splitlines())
    text = imports + "\n" + module_client + "\n\n" + function
    if draw(st.booleans()):
        text = text.replace("    ", "\t")
    if draw(st.booleans()):
        text = "# -*- coding: utf-8 -*-\n" + text
    if draw(st.booleans()):
        text = text.replace("\n\n\n", "\n\n\n# a comment\n\n", 1)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return text.replace("\n", newline)


def check_program(text: str) -> None:
    """No internal error; every fixed text parses, is clean of what it fixed, and fixing it again changes
    nothing; a text with a finding passes every stage of the prefilter."""
    check_prefilter(text)
    for unsafe in (False, True):
        settings = Settings(fix=True, unsafe_fixes=unsafe)
        result = lint_text(SourceText(text), "fuzz.py", settings)
        assert result.internal_errors == [], (text, result.internal_errors)
        if result.fixed_text is None:
            continue
        try:
            parse(result.fixed_text)
        except ParseFailure as exc:  # pragma: no cover - a failure is the finding
            raise AssertionError(f"fixed text does not parse: {exc}\n{result.fixed_text}") from None
        again = lint_text(SourceText(result.fixed_text), "fuzz.py", settings)
        assert again.internal_errors == [], (result.fixed_text, again.internal_errors)
        assert again.fixed_text is None, (text, result.fixed_text, again.fixed_text)


def check_prefilter(text: str) -> None:
    findings = lint_text(SourceText(text), "fuzz.py", Settings()).diagnostics
    lease_findings = [(d.code, d.start.line) for d in findings if d.code not in ("LL000", "LL100")]
    if lease_findings:
        found = verdict(text.encode("utf-8", "surrogatepass"), noqa_rule=True)
        assert found != NOTHING, (text, lease_findings)
        assert found != CLAIM_WORDS or worth_parsing(text), (text, lease_findings)


def python_parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True

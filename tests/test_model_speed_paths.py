"""The model's own fast paths agree with libcst: positions for every node, and the visit order."""

from __future__ import annotations

import os
import sysconfig
import textwrap

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from leaselint.model.positions import positions
from leaselint.rules import ALL_RULES

STDLIB = sysconfig.get_paths()["stdlib"]
STDLIB_FILES = ["textwrap.py", "dataclasses.py", "argparse.py", "asyncio/base_events.py", "typing.py"]

ODD_TEXTS = {
    "empty": "",
    "newline": "\n",
    "comment-only": "# nothing\n",
    "no-trailing-newline": "x = 1\nif x:\n    y = (1,\n         2)",
    "crlf": "import os\r\n\r\nif os:\r\n    x = [1,\r\n         2]\r\n",
    "cr": "x = 1\rif x:\r    pass\r",
    "tabs": "if True:\n\tx = 1\n\tif x:\n\t\ty = 2  # two\n",
    "continuation": "x = 1 + \\\n    2\nwith open('a') as f, \\\n        open('b') as g:\n    pass\n",
    "form-feed": "x = 1\n\f\ndef f():\n    return 1\n",
    "strings": 'x = """a\nb\r\nc"""\ny = f"{x!r:>{10}}" \'z\'\n',
    "decorated": "@a\n@b(1)\nclass C(B, metaclass=M):\n    @property\n    async def f(self, /, a, *b, c=1, **d) -> int:\n        return await g()\n",
    "try": "try:\n    pass\nexcept (A, B) as e:\n    raise\nelse:\n    pass\nfinally:\n    pass\n",
    "trystar": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "match": "match x:\n    case [1, *rest] if rest:\n        pass\n    case {'a': 1, **kw}:\n        pass\n    case P(a=1) | None:\n        pass\n",
    "semicolons": "a = 1; b = 2\nif a: b = 3; c = 4\nwhile b: pass\nelse: pass\n",
    "comprehensions": "x = [a for a in b if a]\ny = {k: v for k, v in z}\nz = (lambda q=1: q)(*x, **y)\nw = a if b else c\n",
    "global": "def f():\n    global x\n    nonlocal_ = 1\n    del x[0], y\n    assert x, 'm'\n    yield from z\n",
    "type-alias": "type X[T] = list[T]\ndef f[T: int](x: T) -> T:\n    return x\n",
}


def _case_texts():
    for rule in ALL_RULES:
        for kind in ("VALID", "INVALID"):
            for number, case in enumerate(getattr(rule, kind)):
                yield f"{rule.code}-{kind.lower()}-{number}", textwrap.dedent(case.code)
                fixed = getattr(case, "fixed", None)
                if fixed:
                    yield f"{rule.code}-{kind.lower()}-{number}-fixed", textwrap.dedent(fixed)


def _stdlib_texts():
    for name in STDLIB_FILES:
        path = os.path.join(STDLIB, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                yield f"stdlib-{name}", file.read()


def _texts():
    yield from ODD_TEXTS.items()
    yield from _case_texts()
    yield from _stdlib_texts()


def _parse(text: str):
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError:
        pytest.skip("this libcst does not parse it")


TEXTS = list(_texts())


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_positions_match_libcst(name, text):
    module = _parse(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = positions(module)
    assert len(found) == len(expected)
    for node, where in expected.items():
        assert node in found
        assert found[node] == where, (type(node).__name__, found[node], where)
        assert found.get(node) == where
    assert found.get(cst.Name("elsewhere")) is None
    # What the runner's error reporting reads: a dict of nodes to ranges.
    node, where = next(iter(found.items()))
    assert isinstance(found, dict) and isinstance(node, cst.CSTNode) and where.start.line >= 1

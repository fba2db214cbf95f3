"""Turning text into a libcst tree, safely and fast: `parse(text)`.

libcst's native parser runs on a thread with a large stack after CPython's parser has accepted the
text's nesting; libcst's per-node checks that its grammar already guarantees are set aside while it
parses (when its internals are what this reads); the garbage collector runs less often meanwhile.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
import threading
import warnings
from contextlib import contextmanager

# libcst's parser is native code that recurses once per level of nesting, on the thread's own stack:
# too deep a file overflows it and kills the process (a 7,000-term `1+1+...` on the usual 8 MiB).
# So every parse runs on a thread with a large stack (reserved, only touched as used), and libcst
# gets a text only after CPython's parser, which guards its own recursion, has accepted its nesting,
# or when the text is small and its counts show its nesting is shallow (`shallow`).
STACK_BYTES = 512 * 1024 * 1024
# CPython caps a parse tree's depth at about three times the recursion limit: at this limit no
# construct it nests reaches the stack's size in libcst.
GATE_RECURSION_LIMIT = 1000
# libcst, the lease model and the rules walk the tree in Python: room for the depth the gate allows.
DEEP_RECURSION_LIMIT = 60_000
# Below this many characters no nesting at all reaches the stack's size in libcst, so code that
# CPython rejects (newer syntax than the running interpreter's) can still be given to libcst.
SMALL_TEXT = 64_000
# `a or b or ...` is flat for CPython and nested for libcst: past this size, count the operands.
FLAT_SAFE_TEXT = 1_000_000
MAX_BOOL_OPERANDS = 100_000
TOO_DEEP = "too deeply nested to check"
NO_ROUND_TRIP = " (no automatic fix: libcst does not reproduce this file's text exactly)"


class ParseFailure(Exception):
    def __init__(self, message: str, line: int = 1, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


_deep = threading.local()


_big_stack: dict = {}


class _BigStack:
    """One long-lived thread with STACK_BYTES of stack per process, running one call at a time (a
    new thread per file costs ~2 ms)."""

    def __init__(self) -> None:
        from queue import SimpleQueue

        self.calls: SimpleQueue = SimpleQueue()
        previous = threading.stack_size(STACK_BYTES)
        try:
            # A daemon: it waits for calls forever and must not hold the interpreter open.
            threading.Thread(target=self._serve, name="leaselint-parse", daemon=True).start()
        finally:
            threading.stack_size(previous)

    def _serve(self) -> None:
        while True:
            function, args, kwargs, done, box = self.calls.get()
            try:
                box.append((True, function(*args, **kwargs)))
            except BaseException as exc:
                box.append((False, exc))
            finally:
                done.release()
                # Hold nothing of a finished call (a tree, a traceback) until the next one.
                function = args = kwargs = done = box = None

    def run(self, function, args, kwargs):
        done = threading.Lock()
        done.acquire()
        box: list = []
        self.calls.put((function, args, kwargs, done, box))
        done.acquire()
        if not box:
            raise RuntimeError("the parsing thread could not hand back its result")
        ok, value = box[0]
        if ok:
            return value
        raise value


def _big_stack_thread() -> _BigStack:
    pid = os.getpid()
    thread = _big_stack.get(pid)
    if thread is None:
        thread = _BigStack()
        _big_stack.clear()
        _big_stack[pid] = thread
    return thread


def on_big_stack(function):
    """Run `function` on the thread with STACK_BYTES of stack (inline when already on it)."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        if getattr(_deep, "active", False):
            return function(*args, **kwargs)

        def target(*args, **kwargs):
            _deep.active = True
            return function(*args, **kwargs)

        try:
            thread = _big_stack_thread()
        except (ValueError, RuntimeError):
            return function(*args, **kwargs)
        return thread.run(target, args, kwargs)

    return run


# Parsing makes many objects that live until the file is done: the cyclic collector's default
# (a pass every 700 new objects, each promoting the tree being built) costs a tenth of a parse-heavy
# run. The model's few cycles die young and are still collected.
PARSING_GC_THRESHOLD = (20_000, 20, 1000)


def _collect_less() -> None:
    gc.set_threshold(*PARSING_GC_THRESHOLD)


def _start_worker() -> None:
    """A worker process parses until it ends: fewer collections, and libcst's parser trusted."""
    _collect_less()
    _run_trusts[0] = True


@contextmanager
def collecting_less():
    """PARSING_GC_THRESHOLD for the block, the caller's thresholds after it."""
    previous = gc.get_threshold()
    _collect_less()
    try:
        yield
    finally:
        gc.set_threshold(*previous)


# libcst's node checks that its tokenizer and grammar already guarantee for a tree its parser makes:
# spaces around keywords, balanced parentheses, the lexical form of names, numbers, strings, comments
# and indents. Other checks reject text the grammar lets through (bytes beside a str literal, a bare
# `except:` before another handler, an argument after `**`), and stay.
GRAMMAR_CHECKS = frozenset({
    "_BaseParenthesizedNode", "Name", "SimpleWhitespace", "Newline", "Comment", "Integer", "Float",
    "Imaginary", "SimpleString", "FormattedString", "AsName", "Asynchronous", "Await", "BaseSimpleComp",
    "CompFor", "CompIf", "DictComp", "BooleanOperation", "Comparison", "ComparisonTarget", "Del", "For",
    "If", "While", "Return", "Yield", "From", "IfExp", "UnaryOperation", "_BaseTwoTokenOp", "IndentedBlock",
})
# The node classes all of whose checks are in GRAMMAR_CHECKS, and the others that would inherit
# the stand-in from one of them (made at the first parse); and the thread that parses: nodes that
# another thread makes meanwhile are checked.
_trusted: list = []
_parsing_thread = [0]
# The parsing thread while the checks are set aside, else None: the `__init__` of a trusted class
# (`_slot_init`) then skips its stand-in's call for that thread.
_skipping = [None]


def _made_by_parser(node) -> None:
    """Stands in for libcst's node check (`__post_init__`) in the classes whose checks the grammar
    guarantees, while libcst's own parser builds trees."""
    if threading.get_ident() != _parsing_thread[0]:
        node._validate()


def _trusted_classes(base) -> frozenset:
    from leaselint.model.traverse import _subclasses

    return frozenset(
        cls
        for cls in _subclasses(base)
        if all(
            k.__module__.startswith("libcst.") and k.__name__ in GRAMMAR_CHECKS
            for k in cls.__mro__
            if "_validate" in k.__dict__ and k is not base
        )
    )


def _heirs(base, trusted: frozenset) -> tuple:
    """The classes that are not trusted but have a trusted class above them: they keep libcst's check."""
    from leaselint.model.traverse import _subclasses

    return tuple(
        cls for cls in _subclasses(base) if cls not in trusted and any(k in trusted for k in cls.__mro__[1:])
    )


# libcst's node check while it is set aside, and whether a run of many files holds it aside.
_set_aside: list = []
_run_trusts = [False]


@contextmanager
def trusting_parser():
    """libcst checks every node as it is made (`CSTNode.__post_init__`), which is for trees built by
    hand: the nodes its parser makes pass most checks by its grammar, and those checks are a tenth of
    a parse. Within the block the classes whose checks are all such (GRAMMAR_CHECKS) skip them (each
    class has its own stand-in, so a node costs one call), and all are made again after it, unless a
    run (`trusting_run`) holds them aside until its end: setting a class attribute empties the type
    caches of all of libcst's node classes. One thread parses at a time in a process (the parsing
    thread, a worker). When libcst's internals are not what this expects, libcst parses with all its
    checks (`node_checks_aside`)."""
    _parsing_thread[0] = threading.get_ident()
    if _set_aside:
        _skipping[0] = _parsing_thread[0]
        yield
        return
    node = _node_class()
    if node is None:
        yield
        return
    if not _fast_inits:
        fast_inits()
    check = node.__dict__["__post_init__"]
    _set_aside.append(check)
    trusted, heirs = _trust(node)
    for cls in trusted:
        cls.__post_init__ = _made_by_parser
    for cls in heirs:
        cls.__post_init__ = check
    _skipping[0] = _parsing_thread[0]
    try:
        yield
    finally:
        if not _run_trusts[0]:
            _checked_again()


def _trust(node) -> tuple:
    """(the trusted classes, their heirs that keep libcst's check), made once."""
    if not _trusted:
        trusted = _trusted_classes(node) - {node}
        _trusted.append((trusted, _heirs(node, trusted)))
    return _trusted[0]


# What libcst's node check reads today: it calls `_validate`, which every node class has.
_POST_INIT_NAMES = ("_validate",)
_node_classes: list = []


def _node_class():
    """libcst's private base node class, when it is where and what the speed-up expects; else None
    (once per process), and libcst's own checks run."""
    if not _node_classes:
        _node_classes.append(_find_node_class())
    return _node_classes[0]


def _find_node_class():
    try:
        from libcst._nodes.base import CSTNode
    except ImportError:
        return None
    check = CSTNode.__dict__.get("__post_init__")
    code = getattr(check, "__code__", None)
    if code is None or code.co_names != _POST_INIT_NAMES or not callable(getattr(CSTNode, "_validate", None)):
        return None
    if CSTNode is not getattr(__import__("libcst"), "CSTNode", None):
        return None
    return CSTNode


# libcst's node classes are frozen dataclasses with slots: the `__init__` dataclasses writes sets each
# field with `object.__setattr__`, which looks the field's name up through the class first. Setting
# it through the slot's own descriptor is the same write, found once: the node-making part of a
# parse (a sixth of it) costs less. Installed once per process, class by class, only where the new
# `__init__` takes exactly the arguments of the old one; libcst's own stays on every other class.
_fast_inits: list = []


def fast_inits() -> bool:
    """Whether libcst's node classes make their nodes with `_slot_init` (see above)."""
    if not _fast_inits:
        _fast_inits.append(_install_inits())
    return _fast_inits[0]


def _install_inits() -> bool:
    import dataclasses
    import inspect

    base = _node_class()
    factory = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", None)
    if base is None or factory is None:
        return False
    from leaselint.model.traverse import _subclasses

    made = {}
    trusted, heirs = _trust(base)
    # A trusted class whose `__init__` an heir inherits (an heir with no `__init__` of its own)
    # keeps the call: the heir's own check runs through it.
    inherited = {next(k for k in heir.__mro__ if "__init__" in k.__dict__) for heir in heirs if "__init__" not in heir.__dict__}
    for cls in _subclasses(base):
        try:
            init = _slot_init(cls, dataclasses, factory, cls in trusted and cls not in inherited)
            if init is not None and _same_signature(inspect.signature(cls.__dict__["__init__"]), inspect.signature(init), factory):
                made[cls] = init
        except Exception:  # a class shaped otherwise keeps libcst's own __init__
            continue
    for cls, init in made.items():
        init.libcst_own = cls.__dict__["__init__"]  # type: ignore[attr-defined]
        cls.__init__ = init
    return bool(made)


def _plain_inits() -> None:
    """libcst's own `__init__` on every node class again (for tests)."""
    base = _node_class()
    if base is None:
        return
    from leaselint.model.traverse import _subclasses

    for cls in _subclasses(base):
        own = getattr(cls.__dict__.get("__init__"), "libcst_own", None)
        if own is not None:
            cls.__init__ = own


def _slot_init(cls, dataclasses, factory, trusted: bool = False):
    """An `__init__` for a frozen slotted dataclass that writes its fields through their slots and
    calls `__post_init__`, as the generated one does; None for any other class. For a `trusted`
    class, the call is skipped on the thread `_skipping` names (its stand-in would do nothing)."""
    params = getattr(cls, "__dataclass_params__", None)
    original = cls.__dict__.get("__init__")
    if params is None or not params.frozen or original is None or "__post_init__" not in original.__code__.co_names:
        return None
    fields = [f for f in dataclasses.fields(cls) if f.init]
    if any(f.kw_only for f in fields) or len(fields) != original.__code__.co_argcount - 1:
        return None
    names = {"_factory": factory, "_skipping": _skipping, "_ident": threading.get_ident}
    heads, lines = [], []
    for number, f in enumerate(fields):
        slot = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if type(slot).__name__ != "member_descriptor":
            return None
        names[f"_set{number}"] = slot.__set__
        value = f.name
        if f.default is not dataclasses.MISSING:
            names[f"_default{number}"] = f.default
            heads.append(f"{f.name}=_default{number}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_make{number}"] = f.default_factory
            heads.append(f"{f.name}=_factory")
            value = f"_make{number}() if {f.name} is _factory else {f.name}"
        else:
            heads.append(f.name)
        lines.append(f"    _set{number}(self, {value})")
    check = "    if _skipping[0] != _ident(): self.__post_init__()" if trusted else "    self.__post_init__()"
    source = f"def __init__(self, {', '.join(heads)}):\n" + "\n".join([*lines, check]) + "\n"
    exec(compile(source, f"<leaselint: {cls.__name__}.__init__>", "exec"), names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _same_signature(old, new, factory) -> bool:
    """The same parameters in order, of the same kinds, with the same defaults (a factory's marker)."""
    if list(old.parameters) != list(new.parameters):
        return False
    for name, a in old.parameters.items():
        b = new.parameters[name]
        if a.kind is not b.kind or (a.default is not b.default and not (a.default is factory and b.default is factory)):
            return False
    return True


def node_checks_aside() -> bool:
    """Whether the parser's speed-up can set libcst's node checks aside (see `fast_path_notes`)."""
    return _node_class() is not None


def fast_path_notes() -> list[str]:
    """What runs at libcst's own pace because its internals differ from what leaselint's speed-ups
    expect (for --verbose): the same results, more slowly."""
    from leaselint.model import positions

    import libcst

    version = getattr(libcst, "__version__", None) or _libcst_version()
    notes = []
    if not node_checks_aside():
        notes.append(f"libcst {version}: its node checks run in full (its internals differ from what leaselint expects)")
    if not fast_inits():
        notes.append(f"libcst {version}: its nodes are made by its own __init__ (its classes differ from what leaselint expects)")
    notes.extend(f"libcst {version}: {note}" for note in positions.fast_path_notes())
    return notes


def _libcst_version() -> str:
    try:
        from importlib.metadata import version

        return version("libcst")
    except Exception:
        return "(version unknown)"


def _checked_again() -> None:
    if _set_aside:
        _skipping[0] = None
        _set_aside.pop()
        trusted, heirs = _trusted[0]
        for cls in (*trusted, *heirs):
            if "__post_init__" in cls.__dict__:
                del cls.__post_init__


@contextmanager
def trusting_run():
    """libcst's node checks stay aside from the block's first parse to its end (libcst is not
    imported for a run that parses nothing)."""
    if _run_trusts[0]:
        yield
        return
    _run_trusts[0] = True
    try:
        yield
    finally:
        _run_trusts[0] = False
        _checked_again()


@contextmanager
def recursion_limit(limit: int):
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@on_big_stack
def parse(text: str, strict: bool = False):
    """The libcst module of `text`, or ParseFailure saying why there is none. Never executes the code.

    `strict` (for fixed text): Python's own parser must accept it too, so that a fix cannot write what
    libcst reads but Python rejects (a keyword argument given twice).
    """
    import libcst as cst

    # A small, shallow text goes to libcst first: CPython's verdict could only change the outcome
    # if libcst fails, and is asked then (for its message).
    later = not strict and len(text) <= SMALL_TEXT and _last_tree[0] is not text and shallow(text)
    python_error = None if later else _python_parse(text)
    if python_error is None and strict:
        python_error = _python_compile(text)
    if python_error is not None and (strict or len(text) > SMALL_TEXT):
        raise python_error
    try:
        with recursion_limit(DEEP_RECURSION_LIMIT), trusting_parser():
            return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        if later:
            python_error = _python_parse(text)
        if python_error is not None:
            raise python_error from None
        message = exc.message.replace("parser error: ", "")
        raise ParseFailure(
            f"cannot parse: libcst does not handle this code, which Python accepts ({message})",
            exc.raw_line,
            exc.raw_column,
        ) from None
    except RecursionError:
        raise ParseFailure(TOO_DEEP) from None
    except Exception as exc:  # libcst raises a few other types on odd input
        if later:
            python_error = _python_parse(text)
        raise python_error or ParseFailure(f"cannot parse: {exc}") from None


# CPython refuses nesting past the depth of its parser (6,000 rule levels: a bracket or a `lambda`
# costs up to some 30 of them, an operator, a dot or a keyword a few), past about 3,000 levels of its
# tree, and past 200 levels of brackets. Weighted counts that over-estimate the first keep a text far
# from all three; `tests/test_speed_paths.py` holds the constructs measured.
PARSER_DEPTH = 6000
HEAVY_WEIGHT = 40  # ( [ { lambda: a trip through the whole precedence chain
LIGHT_WEIGHT = 4  # operators, dots, not, await, if, yield
BLOCK_RESERVE = 1000  # up to 100 nested blocks
_LIGHT_CHARACTERS = "-+~*/%@&|^<>."
_LIGHT_WORDS = ("not", "await", "if", "yield")


def shallow(text: str) -> bool:
    """True when no nesting in `text` can come near CPython's limits, by counts that over-estimate it
    (brackets and operators in strings and comments count too)."""
    heavy = text.count("(") + text.count("[") + text.count("{") + text.count("lambda")
    budget = PARSER_DEPTH - BLOCK_RESERVE - heavy * HEAVY_WEIGHT
    if budget <= 0:
        return False
    light = sum(map(text.count, _LIGHT_CHARACTERS)) + sum(map(text.count, _LIGHT_WORDS))
    return light * LIGHT_WEIGHT < budget


def _python_compile(text: str) -> ParseFailure | None:
    """What only the compiler checks (a keyword argument repeated, `return` outside a function).
    Compiling runs nothing."""
    try:
        with recursion_limit(GATE_RECURSION_LIMIT), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "<fixed>", "exec", dont_inherit=True)
    except SyntaxError as error:
        return ParseFailure(f"syntax error: {error.msg}", error.lineno or 1, max((error.offset or 1) - 1, 0))
    except (ValueError, RecursionError, MemoryError) as error:
        return ParseFailure(f"cannot compile: {error}")
    return None


def _python_parse(text: str) -> ParseFailure | None:
    """CPython's verdict, without compiling or running anything: None when it accepts the text.

    Nesting too deep for CPython raises ParseFailure at once; an ordinary syntax error is returned,
    for the caller to report unless libcst (which may know newer syntax) accepts the text.
    """
    try:
        tree = _python_tree(text)
    except SyntaxError as error:
        failure = ParseFailure(f"syntax error: {error.msg}", error.lineno or 1, max((error.offset or 1) - 1, 0))
        if "too many nested" in error.msg or "too complex" in error.msg:
            raise ParseFailure(f"{TOO_DEEP}: {error.msg}", failure.line, failure.column) from None
        return failure
    except ValueError as error:  # Python 3.11: "source code string cannot contain null bytes"
        return ParseFailure(f"syntax error: {error}")
    except (RecursionError, MemoryError):
        raise ParseFailure(f"{TOO_DEEP}: Python's own parser gives up on it too") from None
    # So many operands need as many `and`/`or` words: the walk only when the text holds them.
    if len(text) > FLAT_SAFE_TEXT and text.count("or") + text.count("and") >= MAX_BOOL_OPERANDS:
        import ast

        for node in ast.walk(tree):
            if isinstance(node, ast.BoolOp) and len(node.values) > MAX_BOOL_OPERANDS:
                raise ParseFailure(f"{TOO_DEEP}: {len(node.values)} operands of one `and`/`or`", node.lineno)
    return None


# The last text CPython parsed and its tree: the prefilter's look and the parse gate share it.
_last_tree: list = [None, None]


def _python_tree(text: str):
    if _last_tree[0] is text:
        return _last_tree[1]
    import ast

    _last_tree[:] = [None, None]
    with recursion_limit(GATE_RECURSION_LIMIT), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `1()` and friends: CPython's warnings are not findings
        tree = ast.parse(text)
    _last_tree[:] = [text, tree]
    return tree


@on_big_stack
def worth_parsing(text: str) -> bool:
    """The prefilter's look at CPython's tree (for a file whose bytes hold only a claim's words):
    False when the model could find no lease in it. Any doubt (CPython cannot parse it) says True."""
    from leaselint.prefilter import may_read_then_write, second_look

    try:
        tree = _python_tree(text)
        with recursion_limit(GATE_RECURSION_LIMIT):
            return second_look(tree, may_read_then_write(text))
    except Exception:
        return True

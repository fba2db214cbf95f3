"""Node positions as libcst's PositionProvider gives them, from one cheap code generation."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

try:  # libcst's private code generation state: the cheap position pass is built on it.
    from libcst._nodes.internal import CodegenState
except ImportError:  # pragma: no cover - exercised by tests that hide it
    CodegenState = None  # type: ignore[assignment,misc]

_NEWLINE = re.compile(r"\r\n?|\n")
_LINE_FEED = re.compile(r"\n")


def head(statement: cst.CSTNode) -> cst.CSTNode:
    """The node where `statement`'s text begins: its first decorator, if it has one (libcst's range
    of a decorated definition starts at `def`/`class`). Lines inserted before a statement go there."""
    return (getattr(statement, "decorators", None) or (statement,))[0]


class Positions(dict):
    """node -> CodeRange, as a dict of nodes. Stored by id(node) (libcst hashes nodes in Python) as
    (node, tokens before its start, tokens before its end); a node's CodeRange is made when first
    asked for."""

    __slots__ = ("ranges", "code", "offsets", "line_starts", "aliases")

    def __init__(self, found: dict, tokens: list[str], popped: bool = False) -> None:
        super().__init__(found)
        # id of a node the model made -> the module's node whose place it stands at (walk.py's
        # store calls handed to a runner: `asyncio.to_thread(r.delete, key)`).
        self.aliases: dict[int, cst.CSTNode] = {}
        self.ranges: dict[int, CodeRange] = {}
        # Where each token begins in the code (and where the code ends).
        self.offsets = list(accumulate(map(len, tokens), initial=0))
        # The module's code, as `module.code` gives it: the tokens the positions were counted on.
        code = "".join(tokens)
        self.code = code[: self.offsets[-2]] if popped else code
        # Where each line of the code begins, lines split as libcst splits them.
        self.line_starts = _line_starts(code, tokens)

    def _position(self, token: int) -> CodePosition:
        offset = self.offsets[token]
        line = bisect_right(self.line_starts, offset)
        return CodePosition(line, offset - self.line_starts[line - 1])

    def alias(self, made: cst.CSTNode, original: cst.CSTNode) -> None:
        """`made` (a node the model made) is at `original`'s place."""
        self.aliases[id(made)] = self.aliases.get(id(original), original)

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        node = self.aliases.get(id(node), node)
        key = id(node)
        where = self.ranges.get(key)
        if where is None:
            try:
                _, start, end = dict.__getitem__(self, key)
            except KeyError:
                raise KeyError(node) from None
            where = self.ranges[key] = CodeRange(self._position(start), self._position(end))
        return where

    def __contains__(self, node: object) -> bool:
        return dict.__contains__(self, id(self.aliases.get(id(node), node)))

    def __iter__(self):
        return (value[0] for value in dict.values(self))

    def start_line(self, node: cst.CSTNode) -> int:
        node = self.aliases.get(id(node), node)
        return bisect_right(self.line_starts, self.offsets[dict.__getitem__(self, id(node))[1]])

    def line_span(self, node: cst.CSTNode) -> tuple[int, int]:
        """The lines the node's range starts and ends on."""
        where = self[node]
        return where.start.line, where.end.line

    def get(self, node, default=None):
        return self[node] if node in self else default

    def keys(self):
        return list(self)

    def values(self):
        return [self[node] for node in self]

    def items(self):
        return [(node, self[node]) for node in self]


def _line_starts(code: str, tokens: list[str]) -> list[int]:
    """The offset of each line's start in the joined tokens. libcst counts the newlines of each token
    apart (a carriage return ending one token and a line feed starting the next are two), so a text
    with carriage returns is split token by token."""
    if "\r" not in code:
        return [0, *(match.end() for match in _LINE_FEED.finditer(code))]
    starts, offset = [0], 0
    for token in tokens:
        if "\n" in token or "\r" in token:
            starts.extend(offset + match.end() for match in _NEWLINE.finditer(token))
        offset += len(token)
    return starts


class _State(CodegenState if CodegenState is not None else object):  # type: ignore[misc]
    """Code generation that records each node's range like libcst's PositionProvidingCodegenState:
    a syntactic range where the node asks for one, else the range of all it generated. Ranges are
    kept as token counts, made offsets once the code is whole; tokens are added by the list itself."""

    __slots__ = ("add_token", "starts", "records", "found", "popped")

    def __init__(self, module: cst.Module, found: dict) -> None:
        super().__init__(module.default_indent, module.default_newline)
        self.add_token = self.tokens.append
        self.starts: list = []
        self.records: list = []
        self.found = found
        self.popped = False

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        key = id(node)
        found = self.found
        if key not in found:
            found[key] = (node, start, len(self.tokens))

    def pop_trailing_newline(self) -> None:
        # The module's range still counts the newline, as libcst's does: it leaves the code at the end.
        self.popped = bool(self.tokens)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        self.records.append((node, start_node, end_node, len(self.tokens)))
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> bool:
        node, start_node, end_node, start = self.records.pop()
        found = self.found
        if start_node is not None:
            start = found[id(start_node)][1]
        end = found[id(end_node)][2] if end_node is not None else len(self.tokens)
        found[id(node)] = (node, start, end)
        return False


class _Brackets:
    """What libcst's `_parenthesize` does for `_State`, as a plain context manager: the node's left
    brackets, its syntactic range, its right brackets."""

    __slots__ = ("node", "state", "start")

    def __init__(self, node, state: _State) -> None:
        self.node = node
        self.state = state

    def __enter__(self) -> None:
        state = self.state
        for lpar in self.node.lpar:
            lpar._codegen(state)
        self.start = len(state.tokens)

    def __exit__(self, *exc) -> bool:
        state, node = self.state, self.node
        state.found[id(node)] = (node, self.start, len(state.tokens))
        for rpar in node.rpar:
            rpar._codegen(state)
        return False


# What libcst's bracket writer reads, in order: when it reads anything else, it is left alone.
_PARENTHESIZE_NAMES = ("lpar", "_codegen", "record_syntactic_position", "rpar")
_brackets: list = []


def brackets_fast_path() -> bool:
    """libcst writes a node's brackets through a generator-based context manager
    (`_BaseParenthesizedNode._parenthesize`), half of a position pass's cost. For `_State` it is
    replaced, once per process, by `_Brackets`; other code generation keeps libcst's own. When the
    method is not there or reads other names than it does today, nothing is replaced (the same
    positions, at libcst's own pace)."""
    if not _brackets:
        _brackets.append(_install_brackets())
    return _brackets[0]


def _original_parenthesize():
    """libcst's bracket writer (also when leaselint's stands in for it), or None."""
    try:
        from libcst._nodes.expression import _BaseParenthesizedNode
    except ImportError:
        return None
    current = _BaseParenthesizedNode.__dict__.get("_parenthesize")
    return getattr(current, "libcst_own", current)


def _install_brackets() -> bool:
    original = _original_parenthesize()
    try:
        from libcst._nodes.expression import _BaseParenthesizedNode

        names = original.__wrapped__.__code__.co_names  # type: ignore[union-attr]
    except (ImportError, AttributeError):
        return False
    if names != _PARENTHESIZE_NAMES:
        return False

    def parenthesize(node, state):
        if type(state) is _State:
            return _Brackets(node, state)
        return original(node, state)

    parenthesize.libcst_own = original  # type: ignore[attr-defined]
    _BaseParenthesizedNode._parenthesize = parenthesize
    return True


# Leaves whose code is one token, their `value` (a newline's default when None): what their
# `_codegen_impl` reads, and libcst's `_codegen` around it. Spaces are four nodes in ten of a tree.
_LEAF_NAMES = {"SimpleWhitespace": ("add_token", "value"), "Newline": ("value", "add_token", "default_newline")}
_CODEGEN_NAMES = ("before_codegen", "_codegen_impl", "after_codegen")
# A name without brackets is one token too (its `value`), written inside libcst's bracket writer.
_NAME_NAMES = ("_parenthesize", "add_token", "value")
_leaves: list = []


def leaves_fast_path() -> bool:
    """libcst generates each node through `CSTNode._codegen`, which calls the state's hooks around
    the node's own `_codegen_impl`: three calls for a node. For `_State`, a node records its range
    around its `_codegen_impl` without the hooks, and SimpleWhitespace, Newline and a Name without
    brackets write their token and record their range in one; other code generation keeps libcst's
    own steps. When libcst's methods read other names than they do today, nothing is replaced (a
    Name's alone, when only its own differs)."""
    if not _leaves:
        _leaves.append(_install_leaves())
    return _leaves[0]


def _libcst_codegen():
    """libcst's own `CSTNode._codegen` (also when leaselint's stands in for it)."""
    from libcst._nodes.base import CSTNode

    current = CSTNode.__dict__["_codegen"]
    return getattr(current, "libcst_own", current)


def _install_leaves() -> bool:
    from libcst._nodes.base import CSTNode
    from libcst._nodes import whitespace

    try:
        original = _libcst_codegen()
        if original.__code__.co_names != _CODEGEN_NAMES:
            return False
        classes = [getattr(whitespace, name) for name in _LEAF_NAMES]
        if any(
            getattr(cls._codegen, "libcst_own", cls._codegen) is not original
            or cls._codegen_impl.__code__.co_names != _LEAF_NAMES[cls.__name__]
            for cls in classes
        ):
            return False
    except (AttributeError, KeyError):
        return False

    def node_codegen(node, state, **kwargs):
        if type(state) is not _State:
            state.before_codegen(node)
            node._codegen_impl(state, **kwargs)
            state.after_codegen(node)
            return
        tokens = state.tokens
        start = len(tokens)
        node._codegen_impl(state, **kwargs)
        key = id(node)
        found = state.found
        if key not in found:
            found[key] = (node, start, len(tokens))

    def space(node, state, **kwargs):
        if type(state) is not _State:
            return original(node, state, **kwargs)
        tokens = state.tokens
        start = len(tokens)
        tokens.append(node.value)
        key = id(node)
        if key not in state.found:
            state.found[key] = (node, start, start + 1)

    def newline(node, state, **kwargs):
        if type(state) is not _State:
            return original(node, state, **kwargs)
        tokens = state.tokens
        start = len(tokens)
        value = node.value
        tokens.append(state.default_newline if value is None else value)
        key = id(node)
        if key not in state.found:
            state.found[key] = (node, start, start + 1)

    def name(node, state, **kwargs):
        if type(state) is not _State or node.lpar or node.rpar:
            return node_codegen(node, state, **kwargs)
        tokens = state.tokens
        start = len(tokens)
        tokens.append(node.value)
        state.found[id(node)] = (node, start, start + 1)

    fast = [(CSTNode, node_codegen), *zip(classes, (space, newline))]
    if "_codegen" not in cst.Name.__dict__ and cst.Name._codegen_impl.__code__.co_names == _NAME_NAMES:
        fast.append((cst.Name, name))
    for cls, codegen in fast:
        codegen.libcst_own = original  # type: ignore[attr-defined]
        cls._codegen = codegen
    return True


def _plain_leaves() -> None:
    """libcst's own `_codegen` for every node again (for tests)."""
    from libcst._nodes import whitespace
    from libcst._nodes.base import CSTNode

    for cls in (*(getattr(whitespace, name) for name in _LEAF_NAMES), cst.Name):
        if "_codegen" in cls.__dict__:
            del cls._codegen
    CSTNode._codegen = _libcst_codegen()


class ProvidedPositions(dict):
    """node -> CodeRange from libcst's own PositionProvider, with Positions' other reads: what the
    positions are when libcst's code generation is not what the cheap pass expects."""

    def __init__(self, module: cst.Module) -> None:
        ranges = cst.metadata.MetadataWrapper(module, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
        super().__init__((id(node), (node, where)) for node, where in ranges.items())
        self.code = module.code
        self.aliases: dict[int, cst.CSTNode] = {}

    def alias(self, made: cst.CSTNode, original: cst.CSTNode) -> None:
        self.aliases[id(made)] = self.aliases.get(id(original), original)

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        node = self.aliases.get(id(node), node)
        try:
            return dict.__getitem__(self, id(node))[1]
        except KeyError:
            raise KeyError(node) from None

    def __contains__(self, node: object) -> bool:
        return dict.__contains__(self, id(self.aliases.get(id(node), node)))

    def __iter__(self):
        return (value[0] for value in dict.values(self))

    def start_line(self, node: cst.CSTNode) -> int:
        return self[node].start.line

    def line_span(self, node: cst.CSTNode) -> tuple[int, int]:
        where = self[node]
        return where.start.line, where.end.line

    def get(self, node, default=None):
        return self[node] if node in self else default

    def keys(self):
        return list(self)

    def values(self):
        return [self[node] for node in self]

    def items(self):
        return [(node, self[node]) for node in self]


# The cheap pass is used while it works: None until the first module, then True or False.
_cheap: list = []


def cheap_positions() -> bool:
    """libcst's code generation is what the cheap pass is built on (its state class is there)."""
    return CodegenState is not None and _cheap[:1] != [False]


def fast_path_notes() -> list[str]:
    """The position speed-ups that do not run with this libcst (for --verbose)."""
    notes = []
    if not cheap_positions():
        notes.append("positions come from its PositionProvider (its code generation state differs)")
    else:
        if not brackets_fast_path():
            notes.append("brackets are written by its own context manager")
        if not leaves_fast_path():
            notes.append("nodes, spaces and newlines are written through its own per-node hooks")
    return notes


def positions(module: cst.Module, text: str | None = None):
    """Every node's CodeRange, identical to libcst's PositionProvider (and that provider's when the
    cheap pass cannot run on this libcst). With the module's `text`, each top-level statement's
    ranges are made when a node of it is first asked for (LazyPositions)."""
    if not cheap_positions():
        return ProvidedPositions(module)
    if text is not None and _cheap:
        heads = _statement_heads(module, text)
        if heads is not None:
            return LazyPositions(module, text, heads)
    if not _brackets:
        brackets_fast_path()
    if not _leaves:
        leaves_fast_path()
    found: dict = {}
    try:
        state = _State(module, found)
        module._codegen(state)
    except Exception:
        if _cheap:
            raise  # it worked before: this module's own trouble
        _cheap.append(False)
        return ProvidedPositions(module)
    if not _cheap:
        _cheap.append(True)
    return Positions(found, state.tokens, state.popped)


# A line that begins with code at column 0 (a closing bracket begins no statement): where each
# top-level statement, decorator and clause of one (`else:`, `except:`) begins, and nowhere else
# when as many such lines are found as those and the lines of plain strings that begin so.
_CODE_LINE = re.compile(r"^[^ \t\n#)\]}]", re.M)
_NEXT_CODE_LINE = re.compile(r"\n[^ \t\n#)\]}]")
_NOT_CODE_START = " \t\n#)]}"


def _code_lines(statement: cst.CSTNode) -> int | None:
    """How many lines of a top-level statement begin with code at column 0; None when not known."""
    kind = type(statement)
    if kind is cst.SimpleStatementLine:
        # A docstring or a constant (`SCRIPT = """...`): the string's lines are the text's.
        body = statement.body  # type: ignore[attr-defined]
        value = getattr(body[0], "value", None) if len(body) == 1 else None
        if type(value) is cst.SimpleString and "\n" in value.value:
            return 1 + len(_NEXT_CODE_LINE.findall(value.value))
        return 1
    if kind is cst.With or kind is cst.Match:
        return 1
    if kind is cst.FunctionDef or kind is cst.ClassDef:
        return len(statement.decorators) + 1  # type: ignore[union-attr]
    if kind is cst.If:
        count, orelse = 1, statement.orelse  # type: ignore[union-attr]
        while type(orelse) is cst.If:
            count, orelse = count + 1, orelse.orelse  # type: ignore[union-attr]
        return count + (orelse is not None)
    if kind is cst.Try or kind is cst.TryStar:
        return 1 + len(statement.handlers) + (statement.orelse is not None) + (statement.finalbody is not None)  # type: ignore[union-attr]
    if kind is cst.For or kind is cst.While:
        return 1 + (statement.orelse is not None)  # type: ignore[union-attr]
    return None


def _statement_heads(module: cst.Module, text: str) -> list[int] | None:
    """The offset in `text` of each top-level statement's first line of code (its first decorator or
    its keyword line), or None when that cannot be told from the text alone. Every such line begins
    with code at column 0, so when the text has exactly as many lines that do, they are these lines
    (a line of a bracket, a string or a continuation that begins at column 0 makes one more)."""
    if not module.body or "\r" in text or "\f" in text:
        return None
    counts = []
    for statement in module.body:
        count = _code_lines(statement)
        if count is None:
            return None
        counts.append(count)
    # The lines after a line feed (a search that skips to each line feed), and the first line.
    starts = [match.start() + 1 for match in _NEXT_CODE_LINE.finditer(text)]
    if text[0] not in _NOT_CODE_START:
        starts.insert(0, 0)
    if len(starts) != sum(counts):
        return None
    heads, index = [], 0
    for count in counts:
        heads.append(starts[index])
        index += count
    return heads


class LazyPositions(Positions):
    """Positions made one top-level statement at a time, when a node of it is first asked for: most
    of a module is no lease's code. A statement's code is generated alone and must be the text at
    its place (found by `_statement_heads`); otherwise, and for a node of no statement (the module,
    its header and footer), the whole module's pass is made as Positions makes it. `owner` maps a
    node's id to its top-level statement (the walker fills it for the calls and statements it
    records); another node is looked for in the statements not made yet."""

    __slots__ = ("module", "heads", "index", "owner", "pending", "tokens", "full", "whole", "absent")

    def __init__(self, module: cst.Module, text: str, heads: list[int]) -> None:
        dict.__init__(self)
        self.ranges = {}
        self.aliases = {}
        self.module = module
        self.heads = heads
        self.index = {id(statement): k for k, statement in enumerate(module.body)}
        self.owner: dict[int, cst.CSTNode] = {}
        # Ids of nodes in no statement not made yet (the model's own nodes). The module's nodes all
        # live while these are asked about, so none of them can have one of these ids.
        self.absent: set[int] = set()
        self.pending = [True] * len(heads)
        self.tokens: list[str] = []
        self.offsets = []
        self.code = text
        # libcst writes a last newline and takes it off again: positions count it, as in Positions.
        self.full = text if module.has_trailing_newline or not text else text + module.default_newline
        self.line_starts = _line_starts(self.full, [])
        self.whole = False

    def _make(self, k: int) -> None:
        self.pending[k] = False
        tokens = self.tokens
        first = len(tokens)
        found: dict = {}
        state = _State(self.module, found)
        state.tokens = tokens
        state.add_token = tokens.append
        try:
            self.module.body[k]._codegen(state)
        except Exception:
            self._make_whole()
            return
        code = "".join(tokens[first:])
        head = _CODE_LINE.search(code)
        base = self.heads[k] - (head.start() if head is not None else 0)
        if head is None or base < 0 or not self.full.startswith(code, base):
            self._make_whole()
            return
        self.offsets.extend(accumulate(map(len, tokens[first:]), initial=base))
        tokens.append("")  # the next statement's tokens begin after this one's end
        dict.update(self, found)

    def _make_whole(self) -> None:
        """The whole module's positions, as Positions makes them."""
        self.whole = True
        made = positions(self.module)
        dict.clear(self)
        self.ranges = {}
        if isinstance(made, Positions):
            dict.update(self, dict.items(made))
            self.offsets, self.line_starts, self.code = made.offsets, made.line_starts, made.code
        else:  # libcst's PositionProvider: every range is known already
            for node, where in made.items():
                dict.__setitem__(self, id(node), (node, None, None))
                self.ranges[id(node)] = where
            self.code = made.code

    def _cover(self, node: object) -> bool:
        """Make the statement that holds `node`; whether the node has positions now."""
        key = id(node)
        if key in self.absent:
            return False
        top = self.owner.get(key)
        k = self.index.get(id(top) if top is not None else key)
        if k is None:
            k = self._search(node)
        if k is None or not self.pending[k]:
            if not self.whole and (node is self.module or k is not None or self._outside_body(node)):
                self._make_whole()
        else:
            self._make(k)
        return dict.__contains__(self, key)

    def _search(self, node: object) -> int | None:
        """The statement not made yet that holds `node`. Only statements whose text holds a line of
        the node's code are walked (a node's code is the text at its place: libcst writes back the
        text it parsed, and texts with a form feed or a carriage return are not made lazily): a node
        the model made (a key a summarised call stands for) is in none, and is remembered as absent."""
        from leaselint.model.keys import code_of
        from leaselint.model.traverse import nodes

        try:
            probe = next((line.strip() for line in code_of(node).split("\n") if line.strip()), "")  # type: ignore[arg-type]
        except Exception:
            probe = ""
        heads, text, last = self.heads, self.full, len(self.heads) - 1
        for k, statement in enumerate(self.module.body):
            if not self.pending[k]:
                continue
            if probe and text.find(probe, heads[k], heads[k + 1] if k < last else len(text)) < 0:
                continue
            if any(found is node for found in nodes(statement)):
                return k
        self.absent.add(id(node))
        return None

    def _outside_body(self, node: object) -> bool:
        from leaselint.model.traverse import nodes

        module = self.module
        return any(found is node for part in (*module.header, *module.footer) for found in nodes(part))

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        node = self.aliases.get(id(node), node)
        key = id(node)
        where = self.ranges.get(key)
        if where is not None:
            return where
        if not dict.__contains__(self, key) and (self.whole or not self._cover(node)):
            raise KeyError(node)
        return Positions.__getitem__(self, node)

    def __contains__(self, node: object) -> bool:
        node = self.aliases.get(id(node), node)
        return dict.__contains__(self, id(node)) or (not self.whole and self._cover(node))

    def start_line(self, node: cst.CSTNode) -> int:
        node = self.aliases.get(id(node), node)
        key = id(node)
        if not dict.__contains__(self, key) and not self.whole:
            self._cover(node)
        if key in self.ranges:
            return self.ranges[key].start.line
        return Positions.start_line(self, node)

    def line_span(self, node: cst.CSTNode) -> tuple[int, int]:
        """As Positions', without making the statement when it is a top-level statement line whose
        text is one line (the lines after it up to the next statement's are blank or comments, and
        no string or backslash carries it on): its range starts and ends on its head's line."""
        node = self.aliases.get(id(node), node)
        k = None if self.whole or dict.__contains__(self, id(node)) else self.index.get(id(node))
        if k is not None and self.pending[k] and type(node) is cst.SimpleStatementLine:
            start = self.heads[k]
            end = self.heads[k + 1] if k + 1 < len(self.heads) else len(self.full)
            first, _, rest = self.full[start:end].partition("\n")
            if (
                not first.rstrip().endswith("\\")
                and '"""' not in first
                and "'''" not in first
                and all(not line.strip() or line.lstrip().startswith("#") for line in rest.split("\n"))
            ):
                line = bisect_right(self.line_starts, start)
                return line, line
        return Positions.line_span(self, node)

    def get(self, node, default=None):
        return self[node] if node in self else default

    def __iter__(self):
        if not self.whole:
            self._make_whole()
        return Positions.__iter__(self)

    def keys(self):
        return list(self)

    def values(self):
        return [self[node] for node in self]

    def items(self):
        return [(node, self[node]) for node in self]

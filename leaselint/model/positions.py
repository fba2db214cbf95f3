"""Node positions as libcst's PositionProvider gives them, from one cheap code generation."""

from __future__ import annotations

import re

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")


def head(statement: cst.CSTNode) -> cst.CSTNode:
    """The node where `statement`'s text begins: its first decorator, if it has one (libcst's range
    of a decorated definition starts at `def`/`class`). Lines inserted before a statement go there."""
    return (getattr(statement, "decorators", None) or (statement,))[0]


class Positions(dict):
    """node -> CodeRange, as a dict of nodes. Stored by id(node) (libcst hashes nodes in Python) as
    (node, start line, start column, end line, end column); a node's CodeRange is made when first
    asked for."""

    __slots__ = ("ranges", "code")

    def __init__(self, found: dict, code: str = "") -> None:
        super().__init__(found)
        self.ranges: dict[int, CodeRange] = {}
        # The module's code, as `module.code` gives it: the tokens the positions were counted on.
        self.code = code

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        key = id(node)
        where = self.ranges.get(key)
        if where is None:
            try:
                _, line, column, end_line, end_column = dict.__getitem__(self, key)
            except KeyError:
                raise KeyError(node) from None
            where = self.ranges[key] = CodeRange(CodePosition(line, column), CodePosition(end_line, end_column))
        return where

    def __contains__(self, node: object) -> bool:
        return dict.__contains__(self, id(node))

    def __iter__(self):
        return (value[0] for value in dict.values(self))

    def start_line(self, node: cst.CSTNode) -> int:
        return dict.__getitem__(self, id(node))[1]

    def get(self, node, default=None):
        return self[node] if dict.__contains__(self, id(node)) else default

    def keys(self):
        return list(self)

    def values(self):
        return [self[node] for node in self]

    def items(self):
        return [(node, self[node]) for node in self]


class _State(CodegenState):
    """Code generation that records each node's range like libcst's PositionProvidingCodegenState:
    a syntactic range where the node asks for one, else the range of all it generated."""

    __slots__ = ("line", "column", "starts", "records", "found")

    def __init__(self, module: cst.Module, found: dict) -> None:
        super().__init__(module.default_indent, module.default_newline)
        self.line = 1
        self.column = 0
        self.starts: list = []
        self.records: list = []
        self.found = found

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        line, column = self.starts.pop()
        key = id(node)
        found = self.found
        if key not in found:
            found[key] = (node, line, column, self.line, self.column)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        self.records.append((node, start_node, end_node, self.line, self.column))
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> bool:
        node, start_node, end_node, line, column = self.records.pop()
        found = self.found
        if start_node is not None:
            start = found[id(start_node)]
            line, column = start[1], start[2]
        if end_node is not None:
            end = found[id(end_node)]
            found[id(node)] = (node, line, column, end[3], end[4])
        else:
            found[id(node)] = (node, line, column, self.line, self.column)
        return False


def positions(module: cst.Module) -> Positions:
    """Every node's CodeRange, identical to libcst's PositionProvider."""
    found: dict = {}
    state = _State(module, found)
    module._codegen(state)
    return Positions(found, "".join(state.tokens))

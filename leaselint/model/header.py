"""Where a module's new constants go: after its docstring and leading imports."""

from __future__ import annotations

import libcst as cst

from leaselint.diagnostics import Position
from leaselint.model.positions import head
from leaselint.model.walk import dotted


def header_facts(module: cst.Module, positions) -> tuple[Position, bool, list]:
    """Where new module constants go (after the leading imports), and those imports by module name."""
    body = list(module.body)
    index = 0
    if body and is_docstring(body[0]):
        index = 1
    leading: list[tuple[str, Position, Position, bool]] = []
    last_import = None
    while index < len(body):
        statement = body[index]
        if isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        ):
            first, last = positions.line_span(statement)
            last_import = last
            leading.append(
                (
                    _imported_module(statement.body[0]),
                    Position(first, 0),
                    Position(last + 1, 0),
                    isinstance(statement.body[0], cst.ImportFrom),
                )
            )
            index += 1
            continue
        break
    if last_import is not None:
        return Position(last_import + 1, 0), True, leading
    if index < len(body):
        return Position(positions[head(body[index])].start.line, 0), False, leading
    return Position(len(positions.code.splitlines()) + 1, 0), False, leading


def _imported_module(statement: cst.CSTNode) -> str:
    if isinstance(statement, cst.Import):
        return dotted(statement.names[0].name)
    if isinstance(statement, cst.ImportFrom):
        return "." * len(statement.relative) + (dotted(statement.module) if statement.module else "")
    return ""


def is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )

"""Rows of a lock table through SQL (DB-API drivers, SQLAlchemy connections).

`cursor.execute("INSERT INTO locks (name, owner, expires_at) VALUES (%s, %s, %s)", (...))` claims a
row under its key column; `DELETE FROM locks WHERE name = %s` releases it, blind unless the WHERE
names a holder's column too; the cursor's `rowcount` is the answer. The statement's text is read as
far as the columns and placeholders go (a table written as `{self._table}` stays as written).
"""

from __future__ import annotations

import re

import libcst as cst

from leaselint.model.documents import Document, _timed
from leaselint.model.keys import _dict_items, literal_string
from leaselint.model.scope import Scope
from leaselint.model.traverse import nodes
from leaselint.model.walk import CallSite

_SQL_INSERT = re.compile(
    r"^\s*INSERT\s+(?:IGNORE\s+|OR\s+IGNORE\s+)?INTO\s+(?P<table>[^\s(]+)(?:\s+(?:AS\s+)?\w+)?\s*\(",
    re.IGNORECASE,
)
_SQL_VALUES = re.compile(r"\s*VALUES\s*\(", re.IGNORECASE)


def _group(text: str, start: int) -> int:
    """The index just after the `)` that closes the `(` before `start`, or -1."""
    depth = 1
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def _split_top(text: str) -> list[str]:
    """`a, f(b, c), d` -> ["a", "f(b, c)", "d"]."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return parts


def _sql_timed(name: str) -> bool:
    """A column that holds a time (`expires_at`, `ttl`); `lease` and `lease_id` hold a holder's id."""
    return _timed(name) and name.lower() not in ("lease", "lease_id", "leaseid")
_SQL_DELETE = re.compile(r"^\s*DELETE\s+FROM\s+(?P<table>[^\s(]+)(?:\s+\w+)?\s+WHERE\s+(?P<where>.*)$", re.IGNORECASE | re.DOTALL)
_SQL_UPDATE = re.compile(
    r"^\s*UPDATE\s+(?P<table>[^\s(]+)(?:\s+\w+)?\s+SET\s+(?P<set>.*?)\s+WHERE\s+(?P<where>.*)$", re.IGNORECASE | re.DOTALL
)
# `name = %s`, `name=?`, `name = :name`, `name = %(name)s`, `name = $1`
_SQL_EQUALS = re.compile(r"(?:\w+\.)?(?P<column>\w+)\s*(?P<op>=|<=|>=|<|>)\s*(?P<value>%s|\?|:\w+|%\(\w+\)s|\$\d+)", re.IGNORECASE)
_SQL_PLACEHOLDER = re.compile(r"%s|\?|(?<![:\w]):\w+|%\(\w+\)s|\$\d+")
# Columns that hold the holder's token, and words that say a table holds locks.
_SQL_TOKEN_WORDS = ("owner", "holder", "worker", "locked_by", "token", "lease", "principal", "node")
SQL_LOCK_WORDS = ("lock", "lease", "mutex", "semaphore", "leader")


def _placeholder_values(placeholders: list[str], params: cst.BaseExpression | None) -> list:
    """The argument node each placeholder takes from `params` (a tuple, list or dict literal)."""
    named = _dict_items(params) if params is not None else None
    items = [e.value for e in params.elements] if type(params) in (cst.Tuple, cst.List) else None  # type: ignore[union-attr]
    found, index = [], 0
    for placeholder in placeholders:
        if placeholder in ("%s", "?"):
            found.append(items[index] if items is not None and index < len(items) else None)
            index += 1
        elif placeholder.startswith("$"):
            position = int(placeholder[1:]) - 1
            found.append(items[position] if items is not None and position < len(items) else None)
        else:
            name = placeholder[2:-2] if placeholder.startswith("%(") else placeholder[1:]
            found.append(named.get(name) if named is not None else None)
    return found


def _token_column(columns, key_column: str) -> str | None:
    return next(
        (c for c in columns if c != key_column and not _sql_timed(c) and any(w in c.lower() for w in _SQL_TOKEN_WORDS)), None
    )


def sql_claim(text: str, params: cst.BaseExpression | None, named_for_lock: bool) -> Document | None:
    """`INSERT INTO locks (name, owner, expires_at) VALUES (%s, %s, %s)`: a row made under a unique
    key column (the first that is neither a token nor a time), in a table named for a lock or with a
    holder's column (`owner`, `lease`); `named_for_lock`: the function says it locks."""
    found = _SQL_INSERT.match(text)
    if found is None:
        return _update_claim(text, params)
    table = found["table"]
    end = _group(text, found.end())
    values_at = _SQL_VALUES.match(text, end) if end > 0 else None
    values_end = _group(text, values_at.end()) if values_at is not None else -1
    if values_end < 0:
        return None
    columns = [c.strip('"`[] \n\t') for c in _split_top(text[found.end() : end - 1])]
    values = _split_top(text[values_at.end() : values_end - 1])  # type: ignore[union-attr]
    if len(columns) != len(values):
        return None
    key_column = next((c for c in columns if not _sql_timed(c) and not any(w in c.lower() for w in _SQL_TOKEN_WORDS)), None)
    if key_column is None:
        return None
    token_column = _token_column(columns, key_column)
    if not (any(w in table.lower() for w in SQL_LOCK_WORDS) or token_column is not None or named_for_lock):
        return None
    # Every placeholder takes an argument, a bare one (`%s`) gives its column the argument's node.
    inside = [[m.group(0) for m in _SQL_PLACEHOLDER.finditer(v)] for v in values]
    nodes = iter(_placeholder_values([p for found in inside for p in found], params))
    by_column: dict[str, cst.BaseExpression] = {}
    for column, value, found in zip(columns, values, inside):
        taken = [next(nodes) for _ in found]
        if len(found) == 1 and _SQL_PLACEHOLDER.fullmatch(value) and taken[0] is not None:
            by_column[column] = taken[0]
    key = by_column.get(key_column)
    if key is None:
        return None
    rest = text[values_end:]
    lifetime = any(_sql_timed(c) for c in columns) or bool(re.search(r"\bexpir|\bttl\b|interval", rest, re.IGNORECASE))
    return Document(
        key_field=key_column,
        key=key,
        token_field=token_column,
        token=by_column.get(token_column) if token_column else None,
        has_lifetime=lifetime,
        fields=by_column,
        model=f"table {table}",
    )


def sql_release(text: str, params: cst.BaseExpression | None) -> Document | None:
    """`DELETE FROM locks WHERE name = %s [AND owner = %s]`: its key column's argument, checked when
    it compares a holder's column too (the pairing reads the claim's), for an expiry alone a sweep."""
    found = _SQL_DELETE.match(text)
    if found is None:
        return _update_release(text, params)
    table = found["table"]
    where = re.split(r"\bRETURNING\b", found["where"], flags=re.IGNORECASE)[0]
    if re.search(r"\bOR\b", where, re.IGNORECASE):
        return None
    conditions = list(_SQL_EQUALS.finditer(where))
    placeholders = [m.group(0) for m in _SQL_PLACEHOLDER.finditer(where)]
    if not conditions or len(conditions) != len(placeholders):
        return None
    nodes = _placeholder_values(placeholders, params)
    fields = {}
    expired_only = False
    for match, node in zip(conditions, nodes):
        if match["op"] != "=":
            expired_only = expired_only or _sql_timed(match["column"])
            continue
        if node is not None:
            fields[match["column"]] = node
    key_column = next((c for c in fields if not _sql_timed(c) and not any(w in c.lower() for w in _SQL_TOKEN_WORDS)), None)
    if key_column is None:
        return None
    return Document(
        key_field=key_column,
        key=fields[key_column],
        fields=fields,
        model=f"table {table}",
        checked=any(c != key_column and not _sql_timed(c) for c in fields),
        expired_only=expired_only,
    )


_SQL_SET = re.compile(r"(?:\w+\.)?(?P<column>\w+)\s*=\s*(?P<value>.+)", re.IGNORECASE | re.DOTALL)


def _update_parts(text: str, params: cst.BaseExpression | None):
    """(table, {SET column: its value's text}, {SET column: its argument}, WHERE text, {WHERE column
    compared with `=`: its argument}) of `UPDATE t SET a = %s, b = NULL WHERE k = %s AND ...`."""
    found = _SQL_UPDATE.match(text)
    if found is None:
        return None
    where = re.split(r"\bRETURNING\b", found["where"], flags=re.IGNORECASE)[0]
    if re.search(r"\bOR\b", where, re.IGNORECASE):
        return None
    assigned = {m["column"]: m["value"].strip() for m in (_SQL_SET.fullmatch(p.strip()) for p in _split_top(found["set"])) if m}
    placeholders = [m.group(0) for m in _SQL_PLACEHOLDER.finditer(found["set"] + " WHERE " + where)]
    values = iter(_placeholder_values(placeholders, params))
    set_nodes = {}
    for column, value in assigned.items():
        taken = [next(values, None) for _ in _SQL_PLACEHOLDER.finditer(value)]
        if len(taken) == 1 and _SQL_PLACEHOLDER.fullmatch(value):
            set_nodes[column] = taken[0]
    compared = {}
    for match in _SQL_EQUALS.finditer(where):
        node = next(values, None)
        if match["op"] == "=" and node is not None:
            compared[match["column"]] = node
    return found["table"], assigned, set_nodes, where, compared


_SQL_LITERAL = re.compile(r"NULL|TRUE|FALSE|-?\d+|'[^']*'", re.IGNORECASE)


def _sql_free(where: str, column: str) -> str | None:
    """The value the WHERE asks `column` to hold when free: `IS NULL`, `= 0`, `= FALSE`, `= 'free'`."""
    if re.search(rf"\b{column}\s+IS\s+NULL\b", where, re.IGNORECASE):
        return "NULL"
    found = re.search(rf"\b{column}\s*=\s*(FALSE|0|'')(?![\w.])", where, re.IGNORECASE)
    return found.group(1).upper() if found else None


def _update_claim(text: str, params: cst.BaseExpression | None) -> Document | None:
    """`UPDATE jobs SET owner = %s WHERE id = %s AND owner IS NULL` (or `SET locked = 1 ... AND locked
    = 0`): a holder's column set only where it is free, a conditional create of the row's claim."""
    parts = _update_parts(text, params)
    if parts is None:
        return None
    table, assigned, set_nodes, where, compared = parts
    # The holder's column: one the WHERE asks to be free, set to an argument or another value.
    token_column = next(
        (
            c
            for c, v in assigned.items()
            if not _sql_timed(c) and _sql_free(where, c) is not None and (set_nodes.get(c) is not None or (
                _SQL_LITERAL.fullmatch(v) is not None and v.upper() != _sql_free(where, c)))
        ),
        None,
    )
    key_column = next((c for c in compared if c != token_column and not _sql_timed(c)), None)
    if token_column is None or key_column is None:
        return None
    token = set_nodes.get(token_column)
    return Document(
        key_field=key_column,
        key=compared[key_column],
        token_field=token_column,
        token=token,
        has_lifetime=any(_sql_timed(c) for c in assigned),
        fields={key_column: compared[key_column], **({token_column: token} if token is not None else {})},
        model=f"table {table}",
        free=_sql_free(where, token_column),
    )


def _update_release(text: str, params: cst.BaseExpression | None) -> Document | None:
    """`UPDATE jobs SET owner = NULL WHERE id = %s [AND owner = %s]` (or `SET locked = 0`): a column
    set back to a free value, checked when the WHERE compares a holder's column too."""
    parts = _update_parts(text, params)
    if parts is None:
        return None
    table, assigned, _, where, compared = parts
    if any(_sql_free(where, c) not in (None, v.upper()) for c, v in assigned.items()):
        return None  # it takes a free column: a claim
    cleared = frozenset((c, v.upper()) for c, v in assigned.items() if v.upper() in ("NULL", "FALSE", "0", "''") and not _sql_timed(c))
    key_column = next((c for c in compared if not _sql_timed(c) and c not in assigned), None)
    if not cleared or key_column is None:
        return None
    return Document(
        key_field=key_column,
        key=compared[key_column],
        fields=compared,
        model=f"table {table}",
        checked=any(c != key_column and not _sql_timed(c) for c in compared),
        cleared=cleared,
    )


class SqlMixin:
    """The Classifier's part that reads SQL statements (see classify.py)."""

    def rowcount_read(self, site: CallSite) -> bool:
        """The function reads the cursor's `rowcount` after the call (`cur.rowcount == 1`)."""
        receiver = site.call.func.value  # type: ignore[union-attr]
        text = self.resolver.code(receiver).strip()
        line = self.positions[site.call].start.line
        for node in nodes(site.scope.node, trivia=False):
            if (
                type(node) is cst.Attribute
                and node.attr.value == "rowcount"
                and self.resolver.code(node.value).strip() == text
                and self.positions[node].start.line >= line
            ):
                return True
        return False

    def sql_parts(self, call: cst.Call, scope: Scope) -> tuple[str | None, cst.BaseExpression | None]:
        """(the statement's text, its parameters) of `execute(sql, params)`: the text a literal, an
        f-string (its expressions kept as `{...}`), `text(...)` of one, or a name set once to one; the
        parameters a literal, or a name set once to one."""
        args = [a for a in call.args if not a.star]
        if not args or len(args) > 2 or args[0].keyword not in (None,) and args[0].keyword.value not in ("operation", "query", "sql", "statement"):
            return None, None
        text = self._sql_text(args[0].value, scope, 0)
        params = args[1].value if len(args) == 2 else None
        if type(params) is cst.Name:
            found = self.resolver.single_value(params.value, scope)
            params = found[0] if found is not None else params
        return text, params

    def _sql_text(self, node: cst.BaseExpression, scope: Scope, depth: int) -> str | None:
        if depth > 3:
            return None
        if type(node) is cst.Name:
            found = self.resolver.single_value(node.value, scope)
            return self._sql_text(found[0], found[1], depth + 1) if found is not None else None
        if type(node) is cst.Attribute and self.resolver.is_self(node.value, scope):
            # `cur.execute(self._sql_insert, ...)`, the statement set once in `__init__`.
            values = self.resolver.self_attr_values(node.attr.value, scope)
            if len(values) == 1 and values[0][0] is not None:
                return self._sql_text(values[0][0], values[0][1], depth + 1)
            return None
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "format":
            # psycopg's `sql.SQL("INSERT INTO {} ...").format(table)`: the table stays `{}`.
            inner = node.func.value
            if type(inner) is cst.Call:
                return self._sql_text(inner, scope, depth + 1)
            return None
        if type(node) is cst.Call and type(node.func) in (cst.Name, cst.Attribute) and len(node.args) == 1:
            name = node.func.value if type(node.func) is cst.Name else node.func.attr.value
            return self._sql_text(node.args[0].value, scope, depth + 1) if name in ("text", "SQL") else None
        if type(node) is cst.FormattedString:
            parts = []
            for part in node.parts:
                if type(part) is cst.FormattedStringText:
                    parts.append(part.value)
                else:
                    parts.append("{" + self.resolver.code(part.expression) + "}")
            return "".join(parts)
        if type(node) is cst.ConcatenatedString:
            left, right = self._sql_text(node.left, scope, depth + 1), self._sql_text(node.right, scope, depth + 1)
            return left + right if left is not None and right is not None else None
        return literal_string(node)


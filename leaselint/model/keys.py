"""When two expressions name the same key (or the same client).

An expression is reduced to a hashable shape. Strings built with f-strings,
`%`, `.format` and `+` reduce to the same sequence of literal text and parts;
names reduce to their single assignment, `self.attr` to what `__init__` put
there, and calls to their callee and arguments.
"""

from __future__ import annotations

import re
from typing import Hashable

import libcst as cst

from leaselint.model.scope import Scope, mentions
from leaselint.source import LineIndex

Shape = Hashable

_MAX_DEPTH = 12
_PERCENT = re.compile(r"%(?:\((?P<name>\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrifxXoeEgGcab]|%%")
_BRACES = re.compile(r"\{\{|\}\}|\{(?P<field>[^{}]*)\}")
_WHITESPACE = re.compile(r"\s+")
_FIELD_END = re.compile(r"[!:]")
# The node classes `_string_parts` can read as a built string.
_STRING_KINDS = frozenset(
    {cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.BinaryOperation, cst.Call}
)


def literal_string(node: cst.BaseExpression) -> str | None:
    """The value of a plain string literal (or implicit concatenation of them)."""
    kind = type(node)
    if kind is cst.SimpleString:
        text = node.value
        quote = text[0]
        if quote in "'\"":  # no prefix: the text between the quotes, when it holds nothing to read
            inner = text[3:-3] if len(text) >= 6 and text[1] == text[2] == quote else text[1:-1]
            if "\\" not in inner and "\r" not in inner and "\0" not in inner:
                return inner
        try:
            value = node.evaluated_value
        except (SyntaxError, ValueError):  # libcst reads it, Python does not: a NUL, `"\N{NOPE}"`
            return None
        return value.decode("latin-1") if type(value) is bytes else value
    if kind is cst.ConcatenatedString:
        left, right = literal_string(node.left), literal_string(node.right)
        if left is not None and right is not None:
            return left + right
    return None


_CODE: dict[int, tuple[cst.CSTNode, str]] = {}
_CODE_SIZE = 4096


def code_of(node: cst.CSTNode) -> str:
    # Nodes do not change: the rules and fixes ask for the same few again and again.
    found = _CODE.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    if len(_CODE) >= _CODE_SIZE:
        _CODE.clear()
    code = cst.Module(body=[]).code_for_node(node)
    _CODE[id(node)] = (node, code)
    return code


# Expressions whose code is their value, between their parentheses.
_TOKENS = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString})


class NodeCode:
    """`code_of` for the nodes of one module: an expression on one line is read from the module's code
    (the positions were counted on it), without generating its code again."""

    def __init__(self, positions) -> None:
        self.positions = positions
        self.code: str = positions.code
        self._index: LineIndex | None = None

    @property
    def index(self) -> LineIndex:
        """Offsets in the module's code (the fixer shares it when the linted text is that code)."""
        if self._index is None:
            self._index = LineIndex(self.code)
        return self._index

    def __call__(self, node: cst.CSTNode) -> str:
        # Expressions only: their range is their code less their parentheses (a starred element's
        # range also leaves out its comma).
        if not isinstance(node, cst.BaseExpression) or type(node) is cst.StarredElement:
            return code_of(node)
        lpar, rpar = node.lpar, node.rpar
        if type(node) in _TOKENS and not lpar and not rpar:
            return node.value
        try:
            where = self.positions[node]
        except KeyError:
            return code_of(node)
        start = self.positions[lpar[0]].start if lpar else where.start
        end = self.positions[rpar[-1]].end if rpar else where.end
        if start.line != end.line:
            # Continuation lines: code_of leaves out the indentation of the block.
            return code_of(node)
        offset = self.index.starts[start.line - 1]
        return self.code[offset + start.column : offset + end.column]


class Resolver:
    """Reduces expressions to shapes inside the scopes of one module."""

    def __init__(self, module_scope: Scope, code=code_of) -> None:
        self.module_scope = module_scope
        self.code = code
        # Parameters being resolved through their own rebinding: inside it they are themselves.
        self._frozen: set[str] = set()
        # (name, id of the scope that binds it) -> (shape, how many levels deeper it went): see _name_shape.
        self._names: dict[tuple[str, int], tuple[Shape, int]] = {}
        # The deepest level `shape` reached since _name_shape last reset it.
        self._deepest = 0
        # (id of the class or None, name) -> the scope of a module function or method: key makers.
        self.functions: dict[tuple[int | None, str], Scope] = {}
        self._makers: dict[int, cst.BaseExpression | None] = {}

    # Names and attributes -------------------------------------------------

    def single_value(self, name: str, scope: Scope) -> tuple[cst.BaseExpression, Scope] | None:
        """The one expression a name was assigned, looking outward from scope."""
        current: Scope | None = scope
        while current is not None:
            if name in current.params:
                return None
            values = current.bindings.get(name)
            if values:
                if len(values) == 1 and values[0] is not None and not isinstance(values[0], cst.AugAssign):
                    return values[0], current
                if _same_values(values, self.code):
                    return values[0], current  # `key = "job"` again, further down: still that value
                return None
            current = current.parent
        return None

    def value_unless_none(self, name: str, scope: Scope) -> tuple[cst.BaseExpression, Scope] | None:
        """The one expression a name was assigned, or the one that is not None (`lock = None`, then
        `lock = cache.lock(...)` in a `try` whose `except` sets it back to None)."""
        found = self.single_value(name, scope)
        if found is not None:
            return found
        where = self.defining_scope(name, scope)
        if where is None or name in where.params:
            return None
        made = not_none(where.bindings.get(name, ()))
        return (made, where) if made is not None else None

    def defining_scope(self, name: str, scope: Scope) -> Scope | None:
        current: Scope | None = scope
        while current is not None:
            if name in current.params or name in current.bindings:
                return current
            current = current.parent
        return None

    def self_attr_values(self, attr: str, scope: Scope) -> list[tuple[cst.BaseExpression | None, Scope]]:
        cls = scope.cls
        if cls is None:
            method = self._enclosing_method(scope)
            cls = method.cls if method is not None else None
        if cls is None:
            return []
        values = cls.attrs.get(attr)
        if values:
            return values
        class_values = cls.bindings.get(attr, [])
        return [(value, self.module_scope) for value in class_values]

    def is_self(self, node: cst.BaseExpression, scope: Scope) -> bool:
        if type(node) is not cst.Name:
            return False
        if scope.self_name is not None or scope.cls is not None:
            return scope.self_name == node.value
        # A function inside a method (a retried `_acquire()`): the method's `self`, unless rebound.
        method = self._enclosing_method(scope)
        return method is not None and method.self_name == node.value and self.defining_scope(node.value, scope) is method

    @staticmethod
    def _enclosing_method(scope: Scope) -> Scope | None:
        current = scope.parent
        while current is not None and current.parent is not None:
            if current.self_name is not None:
                return current
            if current.cls is not None:
                return None
            current = current.parent
        return None

    # Shapes ---------------------------------------------------------------

    def client_shape(self, node: cst.BaseExpression, scope: Scope) -> Shape:
        """The shape of a call's receiver. A name bound more than once to the same call
        (`client = get_client()` in each branch) is that call's client: a client maker hands back
        one store, where a key or token maker may not."""
        shape = self.shape(node, scope)
        if type(node) is cst.Name and shape == ("name", node.value):
            where = self.defining_scope(node.value, scope)
            values = where.bindings.get(node.value, ()) if where is not None and node.value not in where.params else ()
            if len(values) > 1 and all(v is not None and not isinstance(v, cst.AugAssign) for v in values):
                text = self.code(values[0])
                if all(self.code(v) == text for v in values[1:]):
                    return self.shape(values[0], where)  # type: ignore[arg-type]
        return shape

    def shape(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> Shape:
        if depth > self._deepest:
            self._deepest = depth
        if depth > _MAX_DEPTH:
            return ("code", self.code(node))
        kind = type(node)
        if kind is cst.Name:
            return self._name_shape(node.value, scope, depth)
        if kind in _STRING_KINDS:
            parts = self._string_parts(node, scope, depth)
            if parts is not None:
                return _join(parts)
        if kind is cst.Attribute:
            if self.is_self(node.value, scope):
                return self._self_attr_shape(node.attr.value, scope, depth)
            return ("attr", self.shape(node.value, scope, depth + 1), node.attr.value)
        if kind is cst.Call:
            if _is_name(node.func, "str") and len(node.args) == 1:
                return self.shape(node.args[0].value, scope, depth + 1)
            made = self._made_key(node, scope, depth)
            if made is not None:
                return made
            args = tuple(
                (arg.keyword.value if arg.keyword else None, self.shape(arg.value, scope, depth + 1))
                for arg in node.args
            )
            return ("call", self.shape(node.func, scope, depth + 1), args)
        if kind is cst.Integer or kind is cst.Float:
            return ("str", (node.value,))
        if kind is cst.Await:
            return self.shape(node.expression, scope, depth + 1)
        return ("code", _WHITESPACE.sub("", self.code(node)))

    def _name_shape(self, name: str, scope: Scope, depth: int) -> Shape:
        if name in self._frozen:
            return ("name", name)
        where = self.defining_scope(name, scope)
        if where is None:
            return ("name", name)
        if name in where.declared_global:
            # `global _client` in the function: its own one value where it binds one, else the
            # module's (one client for every function that reads it).
            values = [v for v in where.bindings.get(name, []) if not (type(v) is cst.Name and v.value == "None")]
            single = len(values) == 1 and values[0] is not None and type(values[0]) is not cst.AugAssign
            if not (single or (values and _same_values(values, self.code))):
                where = self.module_scope  # (set back to None here, or to several values)
        if self._frozen:
            return self._bound_name_shape(name, where, depth)
        # A name's shape depends only on the scope that binds it, unless it runs into the depth limit:
        # kept with how deep it went, it holds wherever that limit is not reached.
        key = (name, id(where))
        found = self._names.get(key)
        if found is not None and depth + found[1] <= _MAX_DEPTH:
            self._deepest = max(self._deepest, depth + found[1])
            return found[0]
        outer = self._deepest
        self._deepest = depth
        shape = self._bound_name_shape(name, where, depth)
        reach = self._deepest - depth
        self._deepest = max(outer, self._deepest)
        if depth + reach <= _MAX_DEPTH:
            self._names[key] = (shape, reach)
        return shape

    def _bound_name_shape(self, name: str, where: Scope, depth: int) -> Shape:
        """The shape of `name` as `where`, the innermost scope binding it, binds it."""
        if name in where.params:
            # `lockname = "lock:" + lockname`: the parameter, rebuilt once from itself.
            values = where.bindings.get(name, [])
            if len(values) == 1 and isinstance(values[0], cst.BaseExpression) and mentions(values[0], name):
                self._frozen.add(name)
                try:
                    return self.shape(values[0], where, depth + 1)
                finally:
                    self._frozen.discard(name)
            return ("name", name)
        values = where.bindings[name]
        if (len(values) == 1 and values[0] is not None and type(values[0]) is not cst.AugAssign) or _same_values(
            values, self.code
        ):
            return self.shape(values[0], where, depth + 1)
        # `held = None`, then `held = lock_key` once claimed: a key only where it is not None.
        made = not_none(values)
        return self.shape(made, where, depth + 1) if made is not None else ("name", name)

    def _self_attr_shape(self, attr: str, scope: Scope, depth: int) -> Shape:
        values = self.self_attr_values(attr, scope)
        if not values:
            returned = self._property_return(attr, scope)
            if returned is not None:
                return self.shape(returned[0], returned[1], depth + 1)
        shapes = {self.shape(v, where, depth + 1) if v is not None else None for v, where in values}
        if len(shapes) == 1 and None not in shapes:
            return shapes.pop()
        return ("self", attr)

    # Key makers -----------------------------------------------------------

    def _made_key(self, call: cst.Call, scope: Scope, depth: int) -> Shape | None:
        """`self.lock_name(job)` where the method only returns a built string (`f"lock:{job_id}"`): the
        string's shape, its parameters standing for the call's arguments; None for any other call."""
        func = call.func
        if type(func) is cst.Name:
            if self.defining_scope(func.value, scope) is not None:
                return None
            found = self.functions.get((None, func.value))
            skip = 0
        elif type(func) is cst.Attribute and self.is_self(func.value, scope):
            method = scope if scope.cls is not None else self._enclosing_method(scope)
            found = self.functions.get((id(method.cls), func.attr.value)) if method is not None else None
            skip = 1
        else:
            return None
        if found is None or found.is_static and skip:
            return None
        returned = self._maker_return(found)
        if returned is None:
            return None
        params = found.params[skip:]
        given: dict[str, Shape] = {}
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            name = arg.keyword.value if arg.keyword is not None else (params[index] if index < len(params) else None)
            if name is None or name not in params:
                return None
            given[name] = self.shape(arg.value, scope, depth + 1)
        shape = self.shape(returned, found, depth + 1)
        if shape[0] != "str" or not set(params) & free_names(shape) <= set(given):
            return None
        return _join([_substitute(part, given) for part in shape[1]])

    def _property(self, attr: str, scope: Scope) -> Scope | None:
        """The property `attr` of the class `scope` is a method of (or inside one)."""
        method = scope if scope.cls is not None else self._enclosing_method(scope)
        found = self.functions.get((id(method.cls), attr)) if method is not None else None
        if found is None or not any(
            _decorator_name(d.decorator) in ("property", "cached_property") for d in found.node.decorators
        ):
            return None
        return found

    def _property_return(self, attr: str, scope: Scope) -> tuple[cst.BaseExpression, Scope] | None:
        """`@property def redis(self): return self._conn`: what the property returns, in its scope."""
        found = self._property(attr, scope)
        if found is None:
            return None
        returned = self._single_return(found)
        return (returned, found) if returned is not None else None

    def property_returns(self, attr: str, scope: Scope) -> list[tuple[cst.BaseExpression, Scope]]:
        """`@property def memcache(self): if self._mc is None: self._mc = Client(); return self._mc`:
        every expression the property returns, in its scope."""
        found = self._property(attr, scope)
        if found is None:
            return []
        returned = []
        stack = [found.node.body]
        while stack:
            node = stack.pop()
            kind = type(node)
            if kind is cst.Return:
                if node.value is not None:
                    returned.append((node.value, found))
            elif kind not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                stack.extend(node.children)
        return returned

    def _single_return(self, function: Scope) -> cst.BaseExpression | None:
        """The expression of a function whose body (past a docstring) is one `return <expression>`."""
        body = getattr(function.node, "body", None)
        statements = list(getattr(body, "body", ()))
        if statements and _is_docstring(statements[0]):
            statements = statements[1:]
        if len(statements) == 1 and type(statements[0]) is cst.SimpleStatementLine:
            line = statements[0].body
            if len(line) == 1 and type(line[0]) is cst.Return:
                return line[0].value
        return None

    def _maker_return(self, function: Scope) -> cst.BaseExpression | None:
        """The expression of a function whose body (past a docstring) is one `return <string>`."""
        key = id(function)
        if key not in self._makers:
            found = None
            value = self._single_return(function)
            if value is not None and (type(value) in _STRING_KINDS and type(value) is not cst.Call or _is_format(value)):
                found = value
            self._makers[key] = found
        return self._makers[key]

    # Strings --------------------------------------------------------------

    def _string_parts(self, node: cst.BaseExpression, scope: Scope, depth: int) -> list | None:
        """Literal text and shapes of the parts of a built string, or None."""
        kind = type(node)
        if kind is cst.SimpleString:
            text = literal_string(node)
            # A string Python cannot evaluate is no literal text: its shape is its code.
            return [text] if text is not None else None
        if kind is cst.FormattedString:
            parts: list = []
            for part in node.parts:
                if type(part) is cst.FormattedStringText:
                    parts.append(part.value)
                else:
                    parts.append(self.shape(part.expression, scope, depth + 1))
            return parts
        if kind is cst.ConcatenatedString:
            text = literal_string(node)
            if text is not None:
                return [text]
            left = self._string_parts(node.left, scope, depth)
            right = self._string_parts(node.right, scope, depth)
            if left is not None and right is not None:
                return left + right
            return None
        if kind is cst.BinaryOperation:
            operator = type(node.operator)
            if operator is cst.Add:
                left = self._string_parts(node.left, scope, depth)
                right = self._string_parts(node.right, scope, depth)
                if left is None and right is None:
                    # `LOCK_PREFIX + name`: a name that stands for text is text.
                    left_shape = self.shape(node.left, scope, depth + 1)
                    right_shape = self.shape(node.right, scope, depth + 1)
                    if left_shape[0] != "str" and right_shape[0] != "str":
                        return None
                    return [left_shape, right_shape]
                left = left if left is not None else [self.shape(node.left, scope, depth + 1)]
                right = right if right is not None else [self.shape(node.right, scope, depth + 1)]
                return left + right
            if operator is cst.Modulo:
                template = self._template(node.left, scope, depth)
                if template is not None:
                    return self._percent_parts(template, node.right, scope, depth)
            return None
        if kind is cst.Call and type(node.func) is cst.Attribute:
            if node.func.attr.value == "format":
                template = self._template(node.func.value, scope, depth)
                if template is not None:
                    return self._format_parts(template, node.args, scope, depth)
        return None

    def _template(self, node: cst.BaseExpression, scope: Scope, depth: int) -> str | None:
        """A format's text: a literal, or a name or attribute that stands for one (`KEY % name`)."""
        text = literal_string(node)
        if text is not None or type(node) not in (cst.Name, cst.Attribute):
            return text
        shape = self.shape(node, scope, depth + 1)
        if shape[0] == "str" and len(shape[1]) == 1 and isinstance(shape[1][0], str):
            return shape[1][0]
        return None

    def _percent_parts(self, template: str, right: cst.BaseExpression, scope: Scope, depth: int) -> list | None:
        if isinstance(right, cst.Tuple):
            args = [element.value for element in right.elements]
        else:
            args = [right]
        named = _dict_items(right)
        parts: list = []
        position, index = 0, 0
        for match in _PERCENT.finditer(template):
            parts.append(template[position : match.start()])
            position = match.end()
            if match.group(0) == "%%":
                parts.append("%")
                continue
            name = match.group("name")
            if name is not None:
                if named is None or name not in named:
                    return None
                parts.append(self.shape(named[name], scope, depth + 1))
            else:
                if index >= len(args):
                    return None
                parts.append(self.shape(args[index], scope, depth + 1))
                index += 1
        parts.append(template[position:])
        return parts

    def _format_parts(self, template: str, args, scope: Scope, depth: int) -> list | None:
        positional = [a.value for a in args if a.keyword is None and not a.star]
        keywords = {a.keyword.value: a.value for a in args if a.keyword is not None}
        parts: list = []
        position, auto = 0, 0
        for match in _BRACES.finditer(template):
            parts.append(template[position : match.start()])
            position = match.end()
            token = match.group(0)
            if token in ("{{", "}}"):
                parts.append(token[0])
                continue
            field_name = _FIELD_END.split(match.group("field"), maxsplit=1)[0]
            if field_name == "":
                field_name = str(auto)
                auto += 1
            if field_name.isdecimal():  # int() refuses `²`, which isdigit() accepts
                index = int(field_name)
                if index >= len(positional):
                    return None
                parts.append(self.shape(positional[index], scope, depth + 1))
            elif field_name in keywords:
                parts.append(self.shape(keywords[field_name], scope, depth + 1))
            else:
                return None
        parts.append(template[position:])
        return parts


def not_none(values) -> cst.BaseExpression | None:
    """The one value of a name's bindings that is not `None` (`lock = None`, then `lock = make()`),
    when there is exactly one and it is a plain assignment."""
    made = [v for v in values if not (type(v) is cst.Name and v.value == "None")]
    if len(made) == 1 and isinstance(made[0], cst.BaseExpression):
        return made[0]
    return None


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        type(statement) is cst.SimpleStatementLine
        and len(statement.body) == 1
        and type(statement.body[0]) is cst.Expr
        and type(statement.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )


def _decorator_name(node: cst.BaseExpression) -> str:
    """`property`, `functools.cached_property`: the decorator's last name."""
    if type(node) is cst.Attribute:
        return node.attr.value
    return node.value if type(node) is cst.Name else ""


def _is_format(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "format"


def _substitute(part, given: dict):
    """A part of a string shape with each parameter (`("name", p)`) written as what the call gave."""
    if isinstance(part, tuple) and len(part) == 2 and part[0] == "name" and part[1] in given:
        return given[part[1]]
    if isinstance(part, tuple):
        return tuple(_substitute(inner, given) for inner in part)
    return part


def _join(parts: list) -> Shape:
    """Merge adjacent literal text; a lone non-literal part is its own shape."""
    merged: list = []
    for part in parts:
        if isinstance(part, tuple) and part and part[0] == "str":
            for inner in part[1]:
                _append(merged, inner)
        else:
            _append(merged, part)
    if len(merged) == 1 and not isinstance(merged[0], str):
        return merged[0]
    return ("str", tuple(merged))


def _append(merged: list, part) -> None:
    if isinstance(part, str):
        if not part:
            return
        if merged and isinstance(merged[-1], str):
            merged[-1] += part
            return
    merged.append(part)


def _dict_items(node: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    if not isinstance(node, cst.Dict):
        return None
    items: dict[str, cst.BaseExpression] = {}
    for element in node.elements:
        if isinstance(element, cst.DictElement):
            key = literal_string(element.key)
            if key is not None:
                items[key] = element.value
    return items


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name


def extends(longer: Shape, shorter: Shape) -> bool:
    """`longer` is `shorter` with more text after it (`claim:x:owner` extends `claim:x`)."""
    long_parts, short_parts = _as_parts(longer), _as_parts(shorter)
    if not short_parts or len(long_parts) < len(short_parts) or long_parts == short_parts:
        return False
    for index, part in enumerate(short_parts):
        other = long_parts[index]
        last = index == len(short_parts) - 1
        if part == other:
            continue
        if last and isinstance(part, str) and isinstance(other, str) and other.startswith(part):
            return True
        return False
    return len(long_parts) > len(short_parts)


def _as_parts(shape: Shape) -> tuple:
    if isinstance(shape, tuple) and shape and shape[0] == "str":
        return shape[1]
    return (shape,)


def free_names(shape: Shape) -> set[str]:
    """The unresolved names a shape depends on (parameters, names bound more than once)."""
    names: set[str] = set()
    stack = [shape]
    while stack:
        part = stack.pop()
        if type(part) is tuple:
            if len(part) == 2 and part[0] == "name" and type(part[1]) is str:
                names.add(part[1])
            else:
                stack.extend(part)
    return names


def _same_values(values: list, code) -> bool:
    """Every binding is the same expression, written the same and calling nothing (a literal, a
    name, an f-string of names): the name holds that value wherever it is read."""
    if any(v is None or isinstance(v, cst.AugAssign) for v in values):
        return False
    first = values[0]
    if any(isinstance(n, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr)) for n in _walk_nodes(first)):
        return False
    text = code(first)
    return all(code(v) == text for v in values[1:])


def _walk_nodes(node: cst.CSTNode):
    from leaselint.model.traverse import nodes

    return nodes(node, trivia=False)


def abstract(method) -> bool:
    """No method, or one whose body only raises NotImplementedError (or is `...`, `pass`)."""
    if method is None:
        return True
    body = [st for st in getattr(getattr(method.node, "body", None), "body", ()) if not _is_docstring(st)]
    if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or len(body[0].body) != 1:
        return False
    small = body[0].body[0]
    if type(small) is cst.Pass or (type(small) is cst.Expr and type(small.value) is cst.Ellipsis):
        return True
    if type(small) is cst.Raise and small.exc is not None:
        exc = small.exc.func if type(small.exc) is cst.Call else small.exc
        return type(exc) is cst.Name and exc.value == "NotImplementedError"
    return False

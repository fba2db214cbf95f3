"""Parts of calls and their scripts the classifier reads: arguments, tests, Lua texts, lock lookups."""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

import libcst as cst

from leaselint.lua import (  # noqa: F401 (read by claims and releases)
    DELETES,
    compares_argument,
    lua_answers,
    lua_claim,
    lua_member_claim,
    lua_member_release,
    lua_plain,
    lua_read_then_write,
)
from leaselint.model import stores
from leaselint.model.events import Claim, Event
from leaselint.model.keys import literal_string
from leaselint.model.scope import contains, contains_call_or_name
from leaselint.model.stores import Arg, Store
from leaselint.model.traverse import nodes
from leaselint.model.walk import CallSite


# Why no fix edits a call whose arguments are spread from a dict (`put_item(**args)`).
SPREAD = "the call's arguments come from a dict (`**args`)"


def get_arg(call: cst.Call, where: Arg) -> cst.BaseExpression | None:
    if where.keyword is not None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == where.keyword:
                return arg.value
    if where.index is not None:
        position = 0
        for arg in call.args:
            if arg.keyword is not None:
                continue
            if arg.star:
                return None
            if position == where.index:
                return arg.value
            position += 1
    return None


def positional_args(call: cst.Call) -> list[cst.BaseExpression]:
    values = []
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            break
        values.append(arg.value)
    return values


def _is_true(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _flag_set(node: cst.BaseExpression | None, name: str | None) -> bool:
    if name is None:
        return _is_true(node)
    if isinstance(node, cst.Attribute):
        return node.attr.value == name
    return isinstance(node, cst.Name) and node.value == name


def _is_none(node: cst.BaseExpression | None) -> bool:
    return node is None or (isinstance(node, cst.Name) and node.value == "None")


_EVENT_FIELDS = tuple(f.name for f in dataclasses.fields(Event))
# A script that deletes a hash field: `hdel` of KEYS[1] and the field ARGV[1].
FIELD_SCRIPT = re.compile(r"""['"]hdel['"]\s*,\s*KEYS\[1\]\s*,\s*ARGV\[1\]""", re.IGNORECASE)


def _compares_by(call: cst.Call, keyword: str) -> bool:
    """`delete(key, cas=cas_id)` (or `delete(key, cas_id)`) compares; `cas=0`, the default, does not."""
    given = get_arg(call, Arg(1, keyword))
    return given is not None and not (isinstance(given, cst.Integer) and given.value == "0")


def _returned(body: cst.CSTNode) -> list[cst.BaseExpression]:
    """The values a function's own `return` statements give (not those of functions inside it)."""
    found = []
    stack = [body]
    while stack:
        node = stack.pop()
        if type(node) is cst.Return:
            if node.value is not None:
                found.append(node.value)
            continue
        if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(node.children)
    return found


def _list_built(values: list) -> list[cst.BaseExpression] | None:
    """The items of a list made with `x = [...]` and grown with `x += [...]` alone, or None."""
    if len(values) < 2 or not isinstance(values[0], (cst.List, cst.Tuple)):
        return None
    items: list[cst.BaseExpression] = []
    for value in values:
        if isinstance(value, cst.AugAssign):
            if not isinstance(value.operator, cst.AddAssign) or not isinstance(value.value, (cst.List, cst.Tuple)):
                return None
            value = value.value
        elif not isinstance(value, (cst.List, cst.Tuple)):
            return None
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        items.extend(e.value for e in value.elements)
    return items


def _absence_test(test: cst.BaseExpression, call: cst.Call, name: str | None) -> bool:
    """A test that holds when the read answered nothing: `not x`, `x is None`, `x in (mine, None)`."""

    def is_read(node: cst.CSTNode) -> bool:
        return node is call or (name is not None and isinstance(node, cst.Name) and node.value == name)

    for node in nodes(test, trivia=False):
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not) and is_read(node.expression):
            return True
        if isinstance(node, cst.Comparison) and (
            is_read(node.left) or any(is_read(c.comparator) for c in node.comparisons)
        ):
            if any(isinstance(n, cst.Name) and n.value == "None" for n in nodes(node, trivia=False)):
                return True
    return False


def _block_of(tree: cst.CSTNode, statement: cst.CSTNode) -> cst.IndentedBlock | None:
    """The indented block under `tree` that holds `statement` itself."""
    for node in nodes(tree, trivia=False):
        if type(node) is cst.IndentedBlock and statement in node.body:
            return node
    return None


def _in_block_after(guard: cst.CSTNode, statement: cst.CSTNode, scope_node: cst.CSTNode) -> bool:
    """`statement` comes after `guard` in the same block (not under a condition of its own)."""
    return contains(
        scope_node,
        lambda node: type(node) in (cst.IndentedBlock, cst.Module)
        and guard in node.body
        and statement in node.body
        and node.body.index(guard) < node.body.index(statement),
    )


def _polarity(test: cst.BaseExpression, call: cst.Call, name: str | None, inverted: bool = False) -> tuple[bool, bool] | None:
    """(true when the key is absent, exact) for a test that is only the read: `r.exists(k)`,
    `not r.get(k)`, `r.get(k) is None`, `value is not None`; None for any other test. Exact: a
    compare with None (the truth of a stored value also says absent for a stored "" or 0).
    `inverted`: the call answers whether the key is free (a helper's `return r.get(k) is None`)."""
    negated = inverted
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negated, test = not negated, test.expression
    if isinstance(test, cst.Await):
        test = test.expression
    if isinstance(test, cst.BooleanOperation) and negated == inverted:
        # `if limited or r.exists(k): return`: past it, the key is absent; `if ready and not
        # r.exists(k):` runs only where it is absent. (Not `a or not r.exists(k)`, true either way.)
        either = type(test.operator) is cst.Or
        for operand in (test.left, test.right):
            found = _polarity(operand, call, name, inverted)
            if found is not None and found[0] != either:
                return found
        return None
    if test is call or (name is not None and isinstance(test, cst.Name) and test.value == name):
        return negated, False
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        left, target = test.left, test.comparisons[0]
        if isinstance(left, cst.Await):  # `await r.get(k) is None`
            left = left.expression
        read = left is call or (name is not None and isinstance(left, cst.Name) and left.value == name)
        if read and isinstance(target.comparator, cst.Name) and target.comparator.value == "None":
            if isinstance(target.operator, (cst.Is, cst.Equal)):
                return not negated, True
            if isinstance(target.operator, (cst.IsNot, cst.NotEqual)):
                return negated, True
    return None


def _deliberate(site: CallSite) -> str:
    """A force path: "guard" under an `if force:`, "name" in a function named for it, or ""."""
    if any(_forces(guard.test, in_body) for guard, in_body in zip(site.guards, site.in_body)):
        return "guard"
    name = site.scope.name.lower().lstrip("_")
    if name in stores.FORCE_NAMES or name.startswith("admin") or any(w in name for w in stores.FORCE_WORDS):
        return "name"
    return ""


def _forces(test: cst.BaseExpression, in_body: bool) -> bool:
    """The branch runs only when a force flag is set: `if force:` (its body), `if not force:` (its
    `else`), `if force and ...:`; not `if ... or force:`, which runs without it too."""
    kind = type(test)
    if kind is cst.UnaryOperation and type(test.operator) is cst.Not:  # type: ignore[union-attr]
        return _forces(test.expression, not in_body)  # type: ignore[union-attr]
    if kind is cst.BooleanOperation:
        if type(test.operator) is cst.And and in_body:  # type: ignore[union-attr]
            return _forces(test.left, True) or _forces(test.right, True)  # type: ignore[union-attr]
        if type(test.operator) is cst.Or and not in_body:  # type: ignore[union-attr]
            return _forces(test.left, False) or _forces(test.right, False)  # type: ignore[union-attr]
        return False
    if kind in (cst.Name, cst.Attribute):
        return in_body and any(word in found.lower() for found in _names(test) for word in stores.FORCE_WORDS)
    return False


def unforced(node):
    """`{"_id": k} if force else {"_id": k, "owner": t}`: the branch taken without the force flag (the
    other is a forced release, as under `if force:`); the node itself otherwise."""
    if type(node) is cst.IfExp:
        if _forces(node.test, True):
            return node.orelse
        if _forces(node.test, False):
            return node.body
    return node


def _names(node: cst.BaseExpression):
    """The names an `if` test reads (`force`, `self.force`, `not options.force_release`)."""
    kind = type(node)
    if kind is cst.Name:
        yield node.value
    elif kind is cst.Attribute:
        yield node.attr.value
        yield from _names(node.value)
    elif kind is cst.UnaryOperation:
        yield from _names(node.expression)
    elif kind is cst.BooleanOperation:
        yield from _names(node.left)
        yield from _names(node.right)
    elif kind is cst.Comparison:
        yield from _names(node.left)
        for target in node.comparisons:
            yield from _names(target.comparator)
    elif kind is cst.Call:
        yield from _names(node.func)
        for arg in node.args:
            yield from _names(arg.value)


# Why no fix edits a release by a script that returns nothing: its answer is always nil.
SILENT_SCRIPT = "make the script return what it removed"
# Why no fix edits a claim of a slot (a member of a set, sorted set, list or hash).
SLOT_CLAIM = "the script takes a slot of a shared key, not the key itself"


def script_operands(
    call: cst.Call, key_at: Arg, args_at: Arg | None, key_in_list: bool, key_index: int, arg_index: int
) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None]:
    """(KEYS[key_index], ARGV[arg_index]) of a script's call: `eval(LUA, 2, k1, k2, a1)`, or the
    lists of `eval(LUA, keys=[k1, k2], args=[a1])` and of a script object's `s(keys=[...], args=[...])`."""
    if key_index < 1 or arg_index < 1:
        return None, None
    if key_in_list:
        keys = get_arg(call, key_at)
        arguments = get_arg(call, args_at) if args_at is not None else None
        key_items = [e for e in keys.elements] if isinstance(keys, (cst.List, cst.Tuple)) else []
        argument_items = [e for e in arguments.elements] if isinstance(arguments, (cst.List, cst.Tuple)) else []
        if any(isinstance(e, cst.StarredElement) for e in (*key_items, *argument_items)):
            return None, None
        key = key_items[key_index - 1].value if len(key_items) >= key_index else None
        argument = argument_items[arg_index - 1].value if len(argument_items) >= arg_index else None
        return key, argument
    count = get_arg(call, Arg(key_at.index - 1)) if key_at.index else None  # the key count stands before the keys
    if key_at.index is None or not isinstance(count, cst.Integer) or count.evaluated_value < key_index:
        return None, None
    key = get_arg(call, Arg(key_at.index + key_index - 1))
    return key, get_arg(call, Arg(key_at.index + count.evaluated_value + arg_index - 1))


def _first_item(node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        return node.elements[0].value
    return None


def _command_words(call: cst.Call) -> list[str]:
    call = formatted_command(call) or call
    return [(literal_string(a) or "").upper() for a in positional_args(call)]


FORMATTED = "the command is one formatted string (`execute_command(f\"SET {key} {value} NX\")`)"


def formatted_command(call: cst.Call) -> cst.Call | None:
    """`execute_command(f"SET {key} {token} NX PX {ttl}")` as `execute_command("SET", key, token, "NX",
    "PX", ttl)`: the f-string's words, each standing alone (a word glued to an expression, `lock:{k}`,
    is no argument to tell), or None."""
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    string = call.args[0].value
    if type(string) is not cst.FormattedString or string.prefix.lower() not in ("f", "rf", "fr"):
        return None
    args: list = []
    glued = False  # the last token can take no more: an expression, or text with no space after it
    for part in string.parts:
        if type(part) is cst.FormattedStringText:
            text = part.value
            if glued and text[:1] and not text[:1].isspace():
                return None
            if args and text[:1] and not text[:1].isspace() and type(args[-1]) is not str:
                return None
            args.extend(text.split())
            glued = bool(text) and not text[-1:].isspace()
        else:
            if glued or part.format_spec is not None or part.conversion is not None:
                return None
            args.append(part.expression)
            glued = True
    if len(args) < 2 or type(args[0]) is not str:
        return None
    return call.with_changes(
        args=[cst.Arg(cst.SimpleString(repr(a)) if type(a) is str else a) for a in args]
    )


def _from_store(imported: str, store: Store) -> bool:
    """`imported` is one of the store's modules, or inside one."""
    prefixes = _PREFIXES.get(id(store))
    if prefixes is None:
        prefixes = _PREFIXES[id(store)] = tuple(m + "." for m in store.modules)
    return imported in store.modules or imported.startswith(prefixes)


# id(store) -> the store's module names, each with a dot after it (the stores are module constants).
_PREFIXES: dict[int, tuple[str, ...]] = {}


def _last_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return ""


def _code(node: cst.BaseExpression) -> str:
    return cst.Module(body=[]).code_for_node(node).strip()


def _without_submodule(name: str) -> str:
    """`redis.lock.Lock` is also imported as `redis.Lock`."""
    parts = name.split(".")
    return ".".join([parts[0], parts[-1]]) if len(parts) > 2 else name


@lru_cache(maxsize=None)
def _lock_methods() -> dict:
    """Method name -> the first lock spec called as that method (table order)."""
    found: dict = {}
    for spec in stores.LOCKS:
        if spec.method:
            found.setdefault(spec.call, spec)
    return found


@lru_cache(maxsize=None)
def _lock_constructors() -> dict:
    """Qualified constructor name -> the first lock spec it makes (table order)."""
    found: dict = {}
    for spec in stores.LOCKS:
        if not spec.method:
            found.setdefault(spec.call, spec)
            found.setdefault(_without_submodule(spec.call), spec)
    return found


def _other_side(comparison: cst.Comparison, call: cst.Call, name: str | None) -> cst.BaseExpression | None:
    """The operand of a two-sided comparison that does not hold the read."""
    if len(comparison.comparisons) != 1:
        return None
    left, right = comparison.left, comparison.comparisons[0].comparator
    if _holds(left, call, name):
        return None if _holds(right, call, name) else right
    return left if _holds(right, call, name) else None


def _is_result(node: cst.BaseExpression, claim: Claim, walker) -> bool:
    """`ok` where `ok = r.set(...)` is the claim."""
    return isinstance(node, cst.Name) and walker.assigned.get(id(claim.call)) == node.value


def _exits(block: cst.BaseSuite) -> bool:
    """The block ends in `return`, `raise`, `continue` or `break`."""
    last = block.body[-1] if isinstance(block, cst.IndentedBlock) and block.body else block
    if not isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) or not last.body:
        return False
    return isinstance(last.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _leaves_unless_mine(block: cst.BaseSuite, name: str | None) -> bool:
    """The block leaves when the value read belongs to someone else: it holds an `if` comparing the
    read (`name`, or a conversion of it: `int(owner)`) with `!=` or `is not`, whose body leaves. What
    falls through is "absent, or mine": the write after it claims, or refreshes one's own claim."""
    if name is None or not isinstance(block, cst.IndentedBlock):
        return False
    for statement in block.body:
        if type(statement) is not cst.If or not _exits(statement.body):
            continue
        test = statement.test
        if type(test) is not cst.Comparison or len(test.comparisons) != 1:
            continue
        if type(test.comparisons[0].operator) not in (cst.NotEqual, cst.IsNot):
            continue
        operands = (test.left, test.comparisons[0].comparator)
        if any(_is_read_value(operand, name) for operand in operands):
            return True
    return False


def _is_read_value(node: cst.BaseExpression, name: str) -> bool:
    """`name`, or `name` passed through one call (`int(name)`, `name.decode()`)."""
    if type(node) is cst.Name:
        return node.value == name
    if type(node) is cst.Call:
        if type(node.func) is cst.Name and len(node.args) == 1:
            return _is_read_value(node.args[0].value, name)
        if type(node.func) is cst.Attribute and not node.args:
            return _is_read_value(node.func.value, name)
    return False


def _holds(operand: cst.CSTNode, call: cst.Call, name: str | None) -> bool:
    return contains_call_or_name(operand, call, name, variables=True)


_UNKNOWN = object()


def by_default(test: cst.BaseExpression, function: cst.CSTNode) -> bool | None:
    """Whether `test` holds when the function is called with its parameters' defaults (`if timeout
    is not None:` with `timeout=10`); None when leaselint cannot tell."""
    params = getattr(function, "params", None)
    defaults: dict[str, object] = {}
    if params is not None:
        for param in (*params.params, *params.kwonly_params):
            if param.default is not None:
                defaults[param.name.value] = _literal(param.default)
    value = _evaluate(test, defaults)
    return None if value is _UNKNOWN else bool(value)


def _literal(node: cst.BaseExpression) -> object:
    if type(node) is cst.Name and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if type(node) in (cst.Integer, cst.Float):
        try:
            return node.evaluated_value  # type: ignore[union-attr]
        except (ValueError, ArithmeticError):
            return _UNKNOWN
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = _literal(node.expression)
        return -inner if type(inner) in (int, float) else _UNKNOWN  # type: ignore[operator]
    return _UNKNOWN


def _evaluate(node: cst.BaseExpression, defaults: dict[str, object]) -> object:
    kind = type(node)
    if kind is cst.Name:
        return defaults.get(node.value, _literal(node))  # type: ignore[union-attr]
    if kind is cst.UnaryOperation and type(node.operator) is cst.Not:  # type: ignore[union-attr]
        inner = _evaluate(node.expression, defaults)  # type: ignore[union-attr]
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if kind is cst.BooleanOperation:
        left = _evaluate(node.left, defaults)  # type: ignore[union-attr]
        right = _evaluate(node.right, defaults)  # type: ignore[union-attr]
        if type(node.operator) is cst.And:  # type: ignore[union-attr]
            if left is not _UNKNOWN and not left or right is not _UNKNOWN and not right:
                return False
            return _UNKNOWN if _UNKNOWN in (left, right) else True
        if left is not _UNKNOWN and left or right is not _UNKNOWN and right:
            return True
        return _UNKNOWN if _UNKNOWN in (left, right) else False
    if kind is cst.Comparison and len(node.comparisons) == 1:  # type: ignore[union-attr]
        target = node.comparisons[0]  # type: ignore[union-attr]
        left = _evaluate(node.left, defaults)  # type: ignore[union-attr]
        right = _evaluate(target.comparator, defaults)
        if _UNKNOWN in (left, right):
            return _UNKNOWN
        operator = type(target.operator)
        try:
            if operator is cst.Is:
                return left is right
            if operator is cst.IsNot:
                return left is not right
            if operator is cst.Equal:
                return left == right
            if operator is cst.NotEqual:
                return left != right
            if operator is cst.GreaterThan:
                return left > right  # type: ignore[operator]
            if operator is cst.GreaterThanEqual:
                return left >= right  # type: ignore[operator]
            if operator is cst.LessThan:
                return left < right  # type: ignore[operator]
            if operator is cst.LessThanEqual:
                return left <= right  # type: ignore[operator]
        except TypeError:
            return _UNKNOWN
    return _UNKNOWN


# Calls that convert a number and fail on None: a binding made with them runs only on a value passed.
_CONVERSIONS = frozenset({"int", "float", "round", "abs"})


def converted_name(node: cst.BaseExpression) -> str | None:
    """The one name `node` converts or scales by literals alone (`int(ttl)`, `ttl * 1000`), or None."""
    found = next((n for n in _walk_names(node)), None)
    return found if found is not None and conversion_of(node, found) else None


def _walk_names(node: cst.BaseExpression):
    kind = type(node)
    if kind is cst.Name:
        yield node.value
    elif kind is cst.Call and node.args:
        yield from _walk_names(node.args[0].value)
    elif kind is cst.BinaryOperation:
        yield from _walk_names(node.left if type(node.left) not in (cst.Integer, cst.Float) else node.right)


def conversion_of(node: cst.BaseExpression, name: str) -> bool:
    """`node` is `name` converted or scaled by literals alone: `int(name)`, `name * 1000`, `float(name) / 2`."""
    kind = type(node)
    if kind is cst.Name:
        return node.value == name
    if kind is cst.Call:
        return (
            type(node.func) is cst.Name
            and node.func.value in _CONVERSIONS
            and len(node.args) >= 1
            and conversion_of(node.args[0].value, name)
            and all(type(a.value) in (cst.Integer, cst.Float) for a in node.args[1:])
        )
    if kind is cst.BinaryOperation:
        left, right = node.left, node.right
        if type(right) in (cst.Integer, cst.Float):
            return conversion_of(left, name)
        if type(left) in (cst.Integer, cst.Float):
            return conversion_of(right, name)
        return False
    return False


def stored_shape(node) -> bool:
    """A second argument that can only be a stored value: text, or a call (`uuid4().hex`); not a number
    or a name, which may be a lifetime (`setnx_ex(key, 60)`, `set_nx(key, LEASE_SECONDS)`)."""
    return type(node) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Call)


def expiry_after(expiries, event):
    """The `expire` of the event's key on its client in the event's own function, after it (`setnx`,
    then `expire`): the lifetime's second call, or None."""
    for expire in expiries:
        if (
            expire.scope is event.scope
            and expire.key_shape == event.key_shape
            and expire.receiver_shape == event.receiver_shape
            and event.start <= expire.start
        ):
            return expire
    return None

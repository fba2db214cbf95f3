"""Where a claim's stored value comes from: fresh, fixed, guessable or unknown.

Answered once here for every rule: LL001 asks it to tell whether a token it can
reuse exists; the token rules report the fixed and guessable ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from leaselint.model import stores
from leaselint.model.lock_names import name_words
from leaselint.model.keys import literal_string
from leaselint.model.scope import reaching_value, Scope
from leaselint.model.traverse import nodes

FRESH, FIXED, GUESSABLE, UNKNOWN = "fresh", "fixed", "guessable", "unknown"
# A number the store's own counter hands out (`r.incr(k)`): known to all, and handed out again
# when a failover or an eviction loses the counter's last increments.
STORE_COUNTER = "a counter the store increments, which hands a number out again when it loses its last increments"

# Calls by dotted name: (kind, what the message calls it).
CALLS: dict[str, tuple[str, str]] = {
    "uuid.uuid4": (FRESH, "uuid4"),
    "os.urandom": (FRESH, "os.urandom"),
    "socket.gethostname": (FIXED, "the host name"),
    "socket.getfqdn": (FIXED, "the host name"),
    "platform.node": (FIXED, "the host name"),
    "os.getpid": (FIXED, "the process id"),
    "os.getppid": (FIXED, "the process id"),
    "threading.get_ident": (FIXED, "the thread id"),
    "threading.get_native_id": (FIXED, "the thread id"),
    "_thread.get_ident": (FIXED, "the thread id"),
    "getpass.getuser": (FIXED, "the user name"),
    "time.time": (GUESSABLE, "time.time()"),
    "time.time_ns": (GUESSABLE, "time.time_ns()"),
    "time.monotonic": (GUESSABLE, "time.monotonic()"),
    "time.monotonic_ns": (GUESSABLE, "time.monotonic()"),
    "time.perf_counter": (GUESSABLE, "time.perf_counter()"),
    "datetime.datetime.now": (GUESSABLE, "datetime.now()"),
    "datetime.datetime.utcnow": (GUESSABLE, "datetime.utcnow()"),
    "datetime.now": (GUESSABLE, "datetime.now()"),
    "datetime.utcnow": (GUESSABLE, "datetime.utcnow()"),
    "datetime.datetime.today": (GUESSABLE, "datetime.today()"),
    "time.ctime": (GUESSABLE, "time.ctime()"),
    "time.strftime": (GUESSABLE, "time.strftime()"),
    "django.utils.timezone.now": (GUESSABLE, "timezone.now()"),
    "uuid.uuid1": (GUESSABLE, "uuid1 (the host and the time)"),
    "itertools.count": (GUESSABLE, "a counter"),
    # `f"{key}-{id(self)}"`: one value per object, and the same address recurs across processes.
    "id": (FIXED, "an object's `id()`"),
}
# What a reading of the clock is called: it stays guessable when a number is added to it.
CLOCKS = frozenset(
    reason for name, (kind, reason) in CALLS.items() if name.startswith(("time.", "datetime.", "django.utils.timezone."))
)
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide)

# Every call of these modules: (kind, what the message calls it).
MODULES: dict[str, tuple[str, str]] = {
    "secrets": (FRESH, "secrets"),
    "random": (GUESSABLE, "the random module"),
}
# Attribute reads that name a fixed identity.
ATTRIBUTES: dict[str, tuple[str, str]] = {
    "nodename": (FIXED, "the host name"),
    "oid": (FIXED, "Celery's `app.oid` (one value per worker process)"),
}
HOST_VARIABLES = {"HOSTNAME", "HOST", "COMPUTERNAME", "POD_NAME"}
_ENVIRONMENT = "an environment variable (one value per process)"
# Settings that name the host, on an object of settings (`CONF.host`, `settings.HOSTNAME`).
_HOST_SETTINGS = frozenset({"host", "hostname", "host_name", "node_name", "nodename", "pod_name"})


def _names_config(node) -> bool:
    """`CONF`, `cfg.CONF`, `settings`, `self.config`: an object of settings, by its last name."""
    last = node.value if type(node) is cst.Name else node.attr.value if type(node) is cst.Attribute else ""
    return last.lower() in stores.CONFIG_OBJECTS
# Calls that keep the origin of their receiver or single argument.
PASS_THROUGH = {
    "str", "bytes", "hex", "encode", "decode", "format", "lower", "upper", "strip", "next",
    # Wrappings of a number: `int(time.time())`, `round(time.time() * 1000)`.
    "int", "float", "round", "repr",
    # A time written out: `now.strftime("%c")`, `now.isoformat()`.
    "strftime", "isoformat", "timestamp",
}

# Calls that write their first argument out as text or bytes: the value is as good as that argument.
SERIALIZERS = {"json.dumps", "pickle.dumps", "marshal.dumps", "msgpack.packb", "orjson.dumps"}

_RANK = {FRESH: 3, UNKNOWN: 2, GUESSABLE: 1, FIXED: 0}


def _names_a_prefix(node: cst.BaseExpression) -> bool:
    """`lock_prefix`, `self.namespace`: a name for the part of a value that says whose it is."""
    name = node.value if type(node) is cst.Name else node.attr.value if type(node) is cst.Attribute else ""
    lowered = name.lower()
    return "prefix" in lowered or "namespace" in lowered


@dataclass(frozen=True)
class Origin:
    kind: str
    reason: str = ""
    node: cst.CSTNode | None = None
    # For a parameter: the argument each caller passes (a fixed value is reported at each call).
    arguments: tuple = ()
    # The arguments are the values themselves, written at the calls (`lock(key, app.oid)`): reported
    # there; otherwise at the claim, the arguments as where the value is made.
    at_calls: bool = False
    # A second weakness of the same value: made once per instance, and guessable too (`uuid1()`).
    also: "Origin | None" = None
    # For a value made once per process or per instance: the kind of what makes it (`uuid4()`: fresh).
    made: str | None = None


class Origins:
    """Answers `origin(expr, scope)` for one module."""

    def __init__(
        self,
        imports: dict[str, str],
        resolver,
        name_calls=None,
        functions=None,
        self_calls=None,
        classes=None,
        one_use=frozenset(),
    ) -> None:
        self.imports = imports
        self.resolver = resolver
        self.name_calls = name_calls or {}
        # The module's own functions by name: a value made by one is what it returns.
        self.functions = functions or {}
        # (id of a class, method name) -> the `self.method(...)` calls made inside the class.
        self.self_calls = self_calls or {}
        # The module's classes by name: a setting read from one of their objects (`config.owner`).
        self.classes = classes or {}
        # Ids of calls whose object is used once where it is made (walk.Walker.one_use).
        self.one_use = one_use
        # (id of a class, attribute) -> whether the module gives it another value (_set_elsewhere).
        self._given: dict = {}
        # id of a function scope -> the call (and its scope) whose arguments its parameters stand for,
        # while what the function returns is worked out for that call.
        self._calls: dict[int, tuple[cst.Call, Scope]] = {}
        # Another module's value or helper (`from .ids import WORKER`, `worker_id()`), by the name
        # or attribute that reaches it: (kind, reason, made) from that module's summary, or None.
        self.imported_value = None

    def dotted(self, node: cst.BaseExpression) -> str | None:
        """A call target as the dotted name its import gives (`token_hex` -> `secrets.token_hex`)."""
        parts: list[str] = []
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, cst.Name):
            return None
        head = self.imports.get(node.value, node.value)
        return ".".join([head, *reversed(parts)])

    def origin(self, node: cst.BaseExpression, scope: Scope, key_shape=None, depth: int = 0) -> Origin:
        if depth > 10:
            return Origin(UNKNOWN)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)):
            return Origin(FIXED, "a constant", node)
        if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
            return Origin(FIXED, "a constant", node)
        if key_shape is not None and self._names_the_lease(node, scope, key_shape):
            return Origin(FIXED, "the lease's own name", node)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
            return self._arithmetic(node, scope, key_shape, depth)
        if isinstance(node, (cst.FormattedString, cst.BinaryOperation)):
            return self._combine(self._parts(node), scope, key_shape, depth, node)
        if isinstance(node, (cst.Tuple, cst.List)) and node.elements:
            # `(socket.gethostname(), os.getpid())`, as a value or inside `json.dumps(...)`.
            parts = [e.value for e in node.elements if not isinstance(e, cst.StarredElement)]
            return self._combine(parts, scope, key_shape, depth, node)
        if isinstance(node, cst.Dict) and node.elements:
            parts = [e.value for e in node.elements if isinstance(e, cst.DictElement)]
            return self._combine(parts, scope, key_shape, depth, node) if parts else Origin(UNKNOWN)
        if isinstance(node, cst.Name):
            return self._name(node, scope, key_shape, depth)
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            return self._fallback(node, scope, key_shape, depth)
        if isinstance(node, cst.Attribute):
            return self._attribute(node, scope, key_shape, depth)
        if isinstance(node, cst.Subscript):
            name = self.dotted(node.value)
            if name in ("os.environ",) and node.slice:
                index = node.slice[0].slice
                if isinstance(index, cst.Index) and literal_string(index.value) in HOST_VARIABLES:
                    return Origin(FIXED, "the host name", node)
                return Origin(FIXED, _ENVIRONMENT, node)
            return Origin(UNKNOWN)
        if isinstance(node, cst.Call):
            return self._call(node, scope, key_shape, depth)
        return Origin(UNKNOWN)

    def _names_the_lease(self, node: cst.BaseExpression, scope: Scope, key_shape) -> bool:
        """The value is the key, or one of the parts the key is built from (the job's name)."""
        shape = self.resolver.shape(node, scope)
        if shape == key_shape:
            return True
        parts = key_shape[1] if isinstance(key_shape, tuple) and key_shape and key_shape[0] == "str" else ()
        return any(part == shape for part in parts if not isinstance(part, str))

    def _parts(self, node: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(node, cst.FormattedString):
            return [p.expression for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
        if isinstance(node, cst.BinaryOperation):
            right = node.right
            items = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
            return [node.left, *items]
        return [node]

    def _arithmetic(self, node: cst.BinaryOperation, scope: Scope, key_shape, depth: int) -> Origin:
        """`time.time() + timeout`: a reading of the clock moved by a number is still the clock, as
        guessable whatever the number (a lifetime, a setting); other sums are as good as their parts."""
        parts = self._parts(node)
        origins = [self.origin(part, scope, key_shape, depth + 1) for part in parts]
        clock = next((o for o in origins if o.kind == GUESSABLE and o.reason in CLOCKS), None)
        if clock is not None and all(o.kind in (UNKNOWN, GUESSABLE, FIXED) for o in origins):
            return Origin(GUESSABLE, clock.reason, node)
        return self._combine(parts, scope, key_shape, depth, node)

    def _combine(self, parts, scope: Scope, key_shape, depth: int, node) -> Origin:
        """A value built from parts is as good as its best part: one fresh part makes it fresh. A part
        named for a prefix or a namespace (`lock_prefix + host`) names, it holds no token."""
        named = [part for part in parts if not _names_a_prefix(part)]
        if named and len(named) < len(parts):
            parts = named
        origins = [self.origin(part, scope, key_shape, depth + 1) for part in parts]
        origins = [o for o in origins if o.reason != "a constant"] or origins
        if not origins:
            return Origin(FIXED, "a constant", node)
        best = max(origins, key=lambda o: _RANK[o.kind])
        if best.kind == FIXED:
            reasons = sorted({o.reason for o in origins})
            return Origin(FIXED, " and ".join(reasons), node)
        return Origin(best.kind, best.reason, node if best.kind != FRESH else best.node)

    def _name(self, node: cst.Name, scope: Scope, key_shape, depth: int) -> Origin:
        where = self.resolver.defining_scope(node.value, scope)
        if where is not None and any(isinstance(v, cst.AugAssign) for v in where.bindings.get(node.value, [])):
            return Origin(GUESSABLE, "a counter", node)
        if where is not None and node.value in where.params and id(where) in self._calls:
            return self._passed(node.value, where, key_shape, depth)
        if where is not None and node.value in where.params:
            default = self._made_when_absent(node.value, where, key_shape, depth)
            if default is not None:
                return default
            return self._parameter(node.value, where, depth)
        found = self.resolver.single_value(node.value, scope)
        if found is None and where is scope:
            # Bound more than once: the value it was last given before this read, in straight-line code.
            reached = reaching_value(scope.node, node, node.value)
            found = (reached, scope) if reached is not None else None
        if found is None and where is not None and where.parent is not None:
            return self._every_binding(node.value, where, key_shape, depth)
        if found is None:
            return self._imported(node, constant=True, scope=scope)
        value, where = found
        inner = self.origin(value, where, key_shape, depth + 1)
        if where.parent is None and scope.parent is not None:
            if inner.reason == "a constant":
                return Origin(FIXED, "a module-level constant", value)
            return Origin(FIXED, "a module-level value made once per process", value, made=inner.kind)
        return inner

    def _every_binding(self, name: str, function: Scope, key_shape, depth: int) -> Origin:
        """A name a function binds more than once, in branches (`n = 1` or `n = held + 1`): guessable
        when every value it can be given is fixed or guessable and one is guessable, fixed when every
        one is fixed; unknown otherwise, and where a value reads the name itself (`n = n + 1`)."""
        values = function.bindings.get(name, [])
        if not 1 < len(values) <= 4 or any(v is None for v in values):
            return Origin(UNKNOWN)
        if any(type(n) is cst.Name and n.value == name for v in values for n in nodes(v, trivia=False)):
            return Origin(UNKNOWN)
        origins = [self.origin(v, function, key_shape, depth + 1) for v in values]
        if any(o.kind not in (FIXED, GUESSABLE) for o in origins):
            return Origin(UNKNOWN)
        return max(origins, key=lambda o: _RANK[o.kind])

    def _made_when_absent(self, name: str, function: Scope, key_shape, depth: int) -> Origin | None:
        """`def acquire(self, token=None): if token is None: token = uuid.uuid1().hex`: an optional
        parameter the function fills in itself (also `token = token or ...`) is, for every caller
        that passes none, what it is filled with, when that is fixed or guessable."""
        if _default_of(function.node, name) is None:
            return None
        made = []
        for value in function.bindings.get(name, []):
            if value is None:
                return None
            if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
                # `token = token or self.token or uuid.uuid1().hex`: the caller's, then the object's last
                # one (kept from this very parameter), then one made here.
                parts = _or_operands(value)
                if isinstance(parts[0], cst.Name) and parts[0].value == name:
                    rest = [p for p in parts[1:] if not self._kept_from(p, name, function)]
                    value = rest[0] if len(rest) == 1 else value
            elif isinstance(value, cst.IfExp):
                # `owner = socket.gethostname() if not owner else owner`: the other branch fills it in.
                if isinstance(value.orelse, cst.Name) and value.orelse.value == name:
                    value = value.body
                elif isinstance(value.body, cst.Name) and value.body.value == name:
                    value = value.orelse
            if any(type(n) is cst.Name and n.value == name for n in nodes(value, trivia=False)):
                continue  # what the caller passed, reworked (`token = encoder.encode(token)`)
            made.append(value)
        if len(made) != 1:
            return None
        inner = self.origin(made[0], function, key_shape, depth + 1)
        if inner.kind not in (FIXED, GUESSABLE):
            return None
        return Origin(inner.kind, f"{inner.reason}, made when the caller passes no `{name}`", inner.node or made[0])

    def _kept_from(self, node: cst.BaseExpression, name: str, function: Scope) -> bool:
        """`self.token`, set in its class only by this function from its parameter `name`, from an
        optional parameter of another method, or to None: a value some caller passed, or nothing."""
        if not isinstance(node, cst.Attribute) or not self.resolver.is_self(node.value, function):
            return False
        values = self.resolver.self_attr_values(node.attr.value, function)

        def kept(value, where) -> bool:
            if not isinstance(value, cst.Name):
                return False
            if value.value == "None" or (value.value == name and where is function):
                return True
            # `self.token = token` in `__init__(self, token=None)`: a caller's, or nothing.
            default = _default_of(where.node, value.value) if value.value in where.params else None
            return isinstance(default, cst.Name) and default.value == "None"

        return bool(values) and all(kept(v, where) for v, where in values)

    def _passed(self, name: str, function: Scope, key_shape, depth: int) -> Origin:
        """A parameter of a function whose answer is being worked out for one call: what that call
        passes (its default where it passes nothing)."""
        call, caller = self._calls[id(function)]
        index = function.params.index(name) - (1 if function.cls is not None and not function.is_static else 0)
        argument = _argument(call, index, name) if index >= 0 else None
        if argument is None and not any(arg.star for arg in call.args):
            argument = _default_of(function.node, name)
            caller = self.resolver.module_scope
        if argument is None:
            return Origin(UNKNOWN)
        return self.origin(argument, caller, key_shape, depth + 1)

    def _parameter(self, name: str, function: Scope, depth: int) -> Origin:
        """A parameter is as good as what every caller in the module passes for it: a module function's
        callers, or a method's `self.method(...)` callers in its class (`token = uuid.uuid1().hex;
        self._do_acquire(token)`)."""
        if function.cls is None:
            calls = self.name_calls.get(function.name, [])
            index = function.params.index(name)
        elif function.self_name and name != function.self_name:
            calls = self.self_calls.get((id(function.cls), function.name), [])
            index = function.params.index(name) - 1
        else:
            calls = []
        if not calls or not isinstance(function.node, cst.FunctionDef):
            return Origin(UNKNOWN)
        origins, written = [], True
        for call, caller in calls:
            argument = _argument(call, index, name)
            if argument is None:
                return Origin(UNKNOWN)
            found = self.origin(argument, caller, None, depth + 1)
            origins.append(found)
            written = written and not found.arguments and any(n is found.node for n in nodes(argument, trivia=False))
        kinds = {o.kind for o in origins}
        if len(kinds) != 1 or kinds & {UNKNOWN, FRESH}:
            return Origin(UNKNOWN)
        first = origins[0]
        arguments = tuple(o.arguments or ((o.node,) if o.node is not None else ()) for o in origins)
        return Origin(first.kind, first.reason, first.node, tuple(a for group in arguments for a in group), at_calls=written)

    def _used_once(self, cls) -> bool:
        """The module makes objects of the class, and each only for one use where it is made (`with
        Mutex(key):`, `Mutex(key).run(job)`): a value made per instance is made per lease."""
        if cls is None:
            return False
        made = self.name_calls.get(cls.name, [])
        return bool(made) and all(id(call) in self.one_use for call, _ in made)

    def _attribute(self, node: cst.Attribute, scope: Scope, key_shape, depth: int) -> Origin:
        if self.resolver.is_self(node.value, scope) and scope.cls is not None:
            method = scope.cls.methods.get(node.attr.value)
            if method is not None and _is_property(method.node):
                found = self._returned(method, scope, key_shape, depth, node)
                return found if found is not None else Origin(UNKNOWN)
        if self.resolver.is_self(node.value, scope):
            values = self.resolver.self_attr_values(node.attr.value, scope)
            if any(isinstance(value, cst.AugAssign) for value, _ in values):
                return Origin(GUESSABLE, "a counter", node)
            if len(values) == 1 and values[0][0] is not None:
                value, where = values[0]
                inner = self.origin(value, where, key_shape, depth + 1)
                if where is not scope and where.name == "__init__" and self._used_once(scope.cls):
                    return inner  # each use makes its own object: one per lease
                if where is not scope and where.name == "__init__":
                    also = inner if inner.kind == GUESSABLE else None
                    return Origin(FIXED, "a value made once per instance in `__init__`", value, also=also, made=inner.kind)
                if where.parent is None and scope.cls is not None and node.attr.value in scope.cls.bindings:
                    # Set in the class body: made once per process, as a module-level value is.
                    if inner.reason == "a constant":
                        return Origin(FIXED, "a class-level constant", value)
                    return Origin(FIXED, "a class attribute made once per process", value, made=inner.kind)
                return inner
            if len(values) > 1 and all(v is not None and where is not scope and where.name == "__init__" for v, where in values):
                # `if id is None: self._id = urandom(...) else: self._id = id`: each way, once per instance.
                kinds = {self.origin(v, where, key_shape, depth + 1).kind for v, where in values}
                made = next((kind for kind in (FRESH, GUESSABLE) if kind in kinds), UNKNOWN)
                return Origin(FIXED, "a value made once per instance in `__init__`", values[0][0], made=made)
            if len(values) > 1 and scope.self_name is not None:
                # Set in `__init__` and again here before the read (`self.token = "w1"`, then the claim).
                reached = reaching_value(scope.node, node, node.attr.value, scope.self_name)
                if reached is not None:
                    return self.origin(reached, scope, key_shape, depth + 1)
            return Origin(UNKNOWN)
        known = ATTRIBUTES.get(node.attr.value)
        if known is not None:
            return Origin(known[0], known[1], node)
        if node.attr.value.lower() in _HOST_SETTINGS and _names_config(node.value):
            # `CONF.host`, `settings.HOSTNAME`: the host's name, set once for the process.
            return Origin(FIXED, "the host name (a setting)", node)
        dotted = self.dotted(node)
        if dotted is not None and (dotted + ".").startswith("request.user."):
            # `request.user.id`: every tab and attempt of one user stores the same value.
            return Origin(FIXED, "the requesting user", node)
        info = self._class_of(node.value, scope, 0)
        if info is not None:
            method = info.methods.get(node.attr.value)
            if method is not None and _is_property(method.node):
                # `h.value` where `Held.value` is a property: what it returns.
                found = self._returned(method, scope, key_shape, depth, node)
                if found is not None:
                    return found
            found = self._field(info, node.attr.value, key_shape, depth)
            if found is not None:
                return found
        if isinstance(node.value, cst.Call):
            inner = self.origin(node.value, scope, key_shape, depth + 1)
            if inner.kind != UNKNOWN:
                return Origin(inner.kind, inner.reason, node)
        if node.attr.value in ("hex", "int", "bytes"):
            return self.origin(node.value, scope, key_shape, depth + 1)
        found = self._imported(node, constant=True, scope=scope)
        if found.kind == UNKNOWN and info is None and _names_config(node.value):
            # `settings.WORKER_NAME`, `CONF.worker_id`: one value for the whole process (an object of
            # the module's own settings class says what each of its fields holds instead).
            return Origin(FIXED, "a setting (one value per process)", node)
        return found

    def _imported(self, node: cst.BaseExpression, constant: bool = False, scope: Scope | None = None) -> Origin:
        """A value another module of the project makes, as its summary says (`WORKER` of `.ids`).
        `constant`: read as a value, an imported name in capitals (`LOCK_VALUE`, `config.OWNER`) is
        another module's module-level value, made once per process whatever it is."""
        found = self.imported_value(node) if self.imported_value is not None else None
        if found is None:
            name = _imported_capitals(node, self.imports) if constant else None
            head = node.value if type(node) is cst.Attribute else node
            if name is not None and type(head) is cst.Name and scope is not None:
                # `session.ID` where a parameter `session` shadows the imported module: not it.
                if self.resolver.defining_scope(head.value, scope) is not self.resolver.module_scope:
                    name = None
            if name is None:
                return Origin(UNKNOWN)
            return Origin(FIXED, f"`{name}`, another module's value made once per process", node)
        kind, reason, made = found
        return Origin(kind, reason, node, made=made)

    def _fallback(self, node: cst.BooleanOperation, scope: Scope, key_shape, depth: int) -> Origin:
        """`os.environ.get("WORKER_ID") or f"{host}:{pid}"`: a setting with a fixed or guessable
        fallback is as weak as the fallback (a setting is one value per process too); a fresh side
        makes the value unknown."""
        parts = _or_operands(node)
        weak = None
        for part in parts:
            if self._is_setting(part):
                continue
            origin = self.origin(part, scope, key_shape, depth + 1)
            if origin.kind not in (FIXED, GUESSABLE):
                return Origin(UNKNOWN)
            if weak is None or _RANK[origin.kind] > _RANK[weak.kind]:
                weak = origin
        if weak is None:
            return Origin(UNKNOWN)
        return Origin(weak.kind, f"{weak.reason}, the fallback of a setting", weak.node)

    def _is_setting(self, node: cst.BaseExpression) -> bool:
        """A read of the environment or of a settings object's attribute."""
        if isinstance(node, cst.Call):
            return self.dotted(node.func) in ("os.environ.get", "os.getenv")
        if isinstance(node, cst.Subscript):
            return self.dotted(node.value) == "os.environ"
        return False

    def _class_of(self, node: cst.BaseExpression, scope: Scope, depth: int):
        """The module's class an object is made by: `Settings()`, a parameter annotated with the
        class, or `self.config` set from one in `__init__`."""
        if depth > 4 or not self.classes:
            return None
        if isinstance(node, cst.Call):
            name = node.func.value if isinstance(node.func, cst.Name) else None
            return self.classes.get(name) if name is not None else None
        if isinstance(node, cst.Name):
            where = self.resolver.defining_scope(node.value, scope)
            if where is not None and node.value in where.params:
                annotation = _annotation(where.node, node.value)
                return self.classes.get(annotation) if annotation is not None else None
            found = self.resolver.single_value(node.value, scope)
            return self._class_of(found[0], found[1], depth + 1) if found is not None else None
        if isinstance(node, cst.Attribute) and self.resolver.is_self(node.value, scope):
            values = self.resolver.self_attr_values(node.attr.value, scope)
            if len(values) == 1 and values[0][0] is not None:
                return self._class_of(values[0][0], values[0][1], depth + 1)
        return None

    def _set_elsewhere(self, info, name: str) -> bool:
        """The module gives the class's objects something else than the default: a construction with
        arguments (`Ticket(key, owner=token)`), or an assignment of the attribute (`t.owner = ...`)."""
        found = self._given.get((id(info), name))
        if found is None:
            found = False
            module = self.resolver.module_scope.node
            for node in nodes(module, trivia=False):
                kind = type(node)
                if kind is cst.Call and isinstance(node.func, cst.Name) and node.func.value == info.name:
                    if any(arg.keyword is None or arg.keyword.value == name for arg in node.args):
                        found = True
                        break
                elif kind in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign):
                    target = node.target
                    if isinstance(target, cst.Attribute) and target.attr.value == name:
                        found = True
                        break
            self._given[(id(info), name)] = found
        return found

    def _field(self, info, name: str, key_shape, depth: int) -> Origin | None:
        """A class's setting with a fixed or guessable default (`owner: str = field(default_factory=
        lambda: f"{socket.gethostname()}:{os.getpid()}")`): one value per settings object."""
        values = info.bindings.get(name, [])
        held = info.attrs.get(name, [])
        if not values and len(held) == 1 and held[0][0] is not None and held[0][1].name == "__init__":
            # `self.value = f"{prefix}-{getfqdn()}-{getpid()}"` in the class's `__init__`.
            inner = self.origin(held[0][0], held[0][1], key_shape, depth + 1)
            if inner.kind not in (FIXED, GUESSABLE):
                return None
            reason = f"`{info.name}.{name}`, made once per `{info.name}` object (from {inner.reason})"
            return Origin(FIXED, reason, inner.node or held[0][0])
        if len(values) != 1 or values[0] is None or self._set_elsewhere(info, name):
            return None
        value = _field_default(values[0])
        if value is None:
            return None
        inner = self.origin(value, self.resolver.module_scope, key_shape, depth + 1)
        if inner.kind not in (FIXED, GUESSABLE):
            return None
        default = inner.reason.removesuffix(", the fallback of a setting")
        reason = f"`{info.name}.{name}`, a setting made once per `{info.name}` (its default is {default})"
        return Origin(FIXED, reason, inner.node or value)

    def _returned(
        self, function: Scope | None, scope: Scope, key_shape, depth: int, node, call: cst.Call | None = None
    ) -> Origin | None:
        """What a function of the project returns, when every `return` gives a value of one kind (a
        helper or a `@property` making the worker's id, `b(uuid.uuid1().hex)`): its origin, as made at
        the call; with `call`, its parameters stand for what the call passes."""
        if function is None or not isinstance(function.node, cst.FunctionDef) or id(function) in self._calls:
            return None
        if call is None and len(function.params) != (1 if function.cls is not None and not function.is_static else 0):
            return None  # it takes arguments: what it returns depends on them
        returns = [n for n in nodes(function.node.body, trivia=False) if type(n) is cst.Return]
        if not returns or any(r.value is None for r in returns) or len(returns) > 4:
            return None
        if call is not None:
            self._calls[id(function)] = (call, scope)
        try:
            found = [self.origin(r.value, function, key_shape, depth + 1) for r in returns]  # type: ignore[arg-type]
        finally:
            self._calls.pop(id(function), None)
        if len({o.kind for o in found}) != 1 or found[0].kind == UNKNOWN:
            return None
        inner = found[0]
        return Origin(inner.kind, inner.reason, inner.node if inner.node is not None else node)

    def _call(self, node: cst.Call, scope: Scope, key_shape, depth: int) -> Origin:
        func = node.func
        helper = None
        if isinstance(func, cst.Attribute) and scope.cls is not None and self.resolver.is_self(func.value, scope):
            helper = scope.cls.methods.get(func.attr.value)
        elif isinstance(func, cst.Name) and func.value not in self.imports:
            helper = self.functions.get(func.value)
        found = self._returned(helper, scope, key_shape, depth, node, node if node.args else None)
        if found is not None:
            return found
        name = self.dotted(node.func)
        if name is not None:
            if name in CALLS:
                kind, reason = CALLS[name]
                return Origin(kind, reason, node)
            head = name.split(".")[0]
            if head in MODULES and name != "random.SystemRandom" and "SystemRandom" not in name:
                kind, reason = MODULES[head]
                return Origin(kind, reason, node)
            if "SystemRandom" in name:
                return Origin(FRESH, "SystemRandom", node)
            if name in ("threading.current_thread", "os.uname"):
                return Origin(FIXED, "the thread" if "thread" in name else "the host name", node)
            if name in SERIALIZERS and node.args:
                return self.origin(node.args[0].value, scope, key_shape, depth + 1)
            if name in ("os.environ.get", "os.getenv") and node.args:
                if literal_string(node.args[0].value) in HOST_VARIABLES:
                    return Origin(FIXED, "the host name", node)
                if len(node.args) == 1:
                    return Origin(FIXED, _ENVIRONMENT, node)
                # `os.getenv("WORKER_ID", default)`: the variable, or the default where it is unset.
                default = node.args[1].value
                if literal_string(default) is not None:
                    return Origin(FIXED, _ENVIRONMENT, node)
                fallback = self.origin(default, scope, key_shape, depth + 1)
                if fallback.kind in (FIXED, GUESSABLE):
                    return Origin(fallback.kind, f"{fallback.reason}, the fallback of an environment variable", fallback.node)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in stores.counter_methods() and node.args:
            # `int(r.incr(ctr))`: the store's counter, one more than the last holder's.
            return Origin(GUESSABLE, STORE_COUNTER, node)
        if isinstance(func, cst.Attribute) and func.attr.value == "join" and node.args:
            argument = node.args[0].value
            if isinstance(argument, (cst.List, cst.Tuple)):
                return self._combine([e.value for e in argument.elements], scope, key_shape, depth, node)
            if isinstance(argument, (cst.GeneratorExp, cst.ListComp)):
                # `"".join(random.choice(ALPHABET) for _ in range(22))`: as good as each element.
                inner = self.origin(argument.elt, scope, key_shape, depth + 1)
                if inner.kind != UNKNOWN:
                    return Origin(inner.kind, inner.reason, node)
        if isinstance(func, cst.Attribute) and (func.attr.value in PASS_THROUGH or isinstance(func.value, cst.Call)):
            if func.attr.value == "format" and literal_string(func.value) is not None:
                return self._combine([a.value for a in node.args], scope, key_shape, depth, node)
            return self.origin(func.value, scope, key_shape, depth + 1)
        if isinstance(func, cst.Name) and func.value in PASS_THROUGH and len(node.args) == 1:
            return self.origin(node.args[0].value, scope, key_shape, depth + 1)
        if len(node.args) == 1 and node.args[0].star == "" and _encodes(func):
            # `_encode(self._uuid)`, `utils.to_bytes(owner)`: a helper that writes its argument out.
            return self.origin(node.args[0].value, scope, key_shape, depth + 1)
        if not node.args:
            found = self._imported(node.func)
            return found if found.kind != UNKNOWN else self._held_maker(node, scope)
        return Origin(UNKNOWN)

    def _held_maker(self, node: cst.Call, scope: Scope) -> Origin:
        """`self.token_generator()` where `__init__` kept `token_generator or uuid.uuid1`: the call
        makes what the maker it holds by default makes (a caller's own maker is its choice)."""
        func = node.func
        values: list = []
        if isinstance(func, cst.Attribute) and self.resolver.is_self(func.value, scope):
            values = [value for value, _ in self.resolver.self_attr_values(func.attr.value, scope)]
        elif isinstance(func, cst.Name):
            found = self.resolver.single_value(func.value, scope)
            values = [found[0]] if found is not None else []
        if len(values) != 1 or values[0] is None:
            return Origin(UNKNOWN)
        parts = _or_operands(values[0])
        name = self.dotted(parts[-1])
        if name is None or not (name in CALLS or name.split(".")[0] in MODULES):
            return Origin(UNKNOWN)
        if name in CALLS:
            kind, reason = CALLS[name]
        else:
            kind, reason = MODULES[name.split(".")[0]]
        if len(parts) > 1:
            reason += ", the default maker"
        return Origin(kind, reason, node)


_ENCODING_WORDS = frozenset({"encode", "encoded", "decode", "bytes", "str", "b64", "b64encode", "utf8", "serialize", "dumps"})
_MAKING_WORDS = frozenset({"token", "id", "uuid", "new", "make", "gen", "generate", "random", "unique", "owner"})


def _encodes(func: cst.BaseExpression) -> bool:
    """A function named for writing a value out (`_encode`, `to_bytes`, `ensure_str`), not for making one."""
    name = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else ""
    words = set(name_words(name))
    return bool(words & _ENCODING_WORDS) and not words & _MAKING_WORDS


def _or_operands(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of `a or b or c`, left to right (the node itself when it is no `or`)."""
    parts: list[cst.BaseExpression] = []
    pending: list[cst.BaseExpression] = [node]
    while pending:
        part = pending.pop()
        if isinstance(part, cst.BooleanOperation) and isinstance(part.operator, cst.Or):
            pending += [part.right, part.left]
        else:
            parts.append(part)
    return parts


def _default_of(function: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """The default value of a function's parameter, or None when it has none."""
    if not isinstance(function, cst.FunctionDef):
        return None
    p = function.params
    for param in (*p.posonly_params, *p.params, *p.kwonly_params):
        if param.name.value == name:
            return param.default
    return None


def _annotation(function: cst.CSTNode, name: str) -> str | None:
    """The class name a parameter is annotated with (`config: LeaseConfig`, `"LeaseConfig"`)."""
    if not isinstance(function, cst.FunctionDef):
        return None
    p = function.params
    for param in (*p.posonly_params, *p.params, *p.kwonly_params):
        if param.name.value == name and param.annotation is not None:
            annotation = param.annotation.annotation
            if isinstance(annotation, cst.Name):
                return annotation.value
            text = literal_string(annotation)
            return text if text is not None and text.isidentifier() else None
    return None


def _field_default(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """A class attribute's value, or a dataclass field's default (`field(default=x)`,
    `field(default_factory=lambda: x)`)."""
    if not isinstance(value, cst.Call):
        return value
    func = value.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if name not in ("field", "Field"):
        return value
    for arg in value.args:
        if arg.keyword is not None and arg.keyword.value == "default":
            return arg.value
        if arg.keyword is not None and arg.keyword.value == "default_factory":
            factory = arg.value
            return factory.body if isinstance(factory, cst.Lambda) and not factory.params.params else None
    return None


def _is_property(node: cst.CSTNode) -> bool:
    return any(
        isinstance(d.decorator, (cst.Name, cst.Attribute))
        and (d.decorator.value if isinstance(d.decorator, cst.Name) else d.decorator.attr.value)
        in ("property", "cached_property")
        for d in getattr(node, "decorators", ())
    )


def _argument(call: cst.Call, index: int, name: str) -> cst.BaseExpression | None:
    position = 0
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg.value
            continue
        if arg.star:
            return None
        if position == index:
            return arg.value
        position += 1
    return None


def _imported_capitals(node: cst.BaseExpression, imports: dict[str, str]) -> str | None:
    """`LOCK_VALUE` imported by name, or `constants.LOCK_VALUE` of an imported module: a name in
    capitals, not a setting (of a `settings`, `conf` or `config` module, or the environment)."""
    if type(node) is cst.Name and node.value in imports:
        name = node.value
        dotted = imports[name]
    elif type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value in imports:
        name = node.attr.value
        dotted = f"{imports[node.value.value]}.{name}"
    else:
        return None
    parts = {part.lower() for part in dotted.split(".")[:-1]}
    if parts & stores.CONFIG_OBJECTS:
        return None  # a setting, the deployment's choice (as `settings.WORKER_ID` is)
    stripped = name.strip("_")
    if not stripped or not stripped.replace("_", "").isalnum() or not stripped.isupper() or not any(c.isalpha() for c in stripped):
        return None
    return code_of_name(node)


def code_of_name(node: cst.BaseExpression) -> str:
    return node.value if type(node) is cst.Name else f"{node.value.value}.{node.attr.value}"  # type: ignore[union-attr]


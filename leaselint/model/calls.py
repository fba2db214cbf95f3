"""Calls to summarised functions of other modules, read as the claims and releases they make.

`project` is (this module's dotted name, whether it is a package's `__init__`, {absolute function
name: (summary, where)}), made by the project pass (leaselint/project.py) from the summaries of
leaselint/model/summary.py; receivers in it are absolute (`("global", "app.store.r")`).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import libcst as cst

from leaselint.model.call_parts import _deliberate, expiry_after
from leaselint.model.events import Claim, Expire, Read, Release, Write
from leaselint.model.keys import _is_docstring, literal_string, not_none
from leaselint.model.scope import count_names
from leaselint.model.stores import claim_pattern, row_of
from leaselint.model.values import Origin
from leaselint.model.summary import NameTransformer
from leaselint.project import absolute


def bind(call: cst.Call, positional: tuple, keyword: tuple) -> dict | None:
    """Parameter name -> argument node of a call, or None when it cannot be told (`*args`)."""
    bound: dict[str, cst.BaseExpression] = {}
    index = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(positional):
                return None
            bound[positional[index]] = arg.value
            index += 1
        else:
            bound[arg.keyword.value] = arg.value
    return bound


class _Substitute(NameTransformer):
    """The helper's parameters replaced by the caller's arguments."""

    def __init__(self, bound: dict, callee=None) -> None:
        super().__init__()
        self.bound = bound
        # The helper module's own function `name`, as the caller reaches it (`locks._lock_key`), or None.
        self.callee = callee
        self.missing = False

    def variable(self, node: cst.Name) -> cst.BaseExpression:
        if node.value in self.bound:
            return self.bound[node.value]
        if self.is_callee(node):
            # The helper module's key maker (`_lock_key(name)`): named as the caller would call it.
            reached = self.callee(node.value) if self.callee is not None else None
            return reached if reached is not None else node
        self.missing = True
        return node


@lru_cache(maxsize=4096)
def _template(code: str) -> cst.BaseExpression | None:
    """A summary's key code as a node, parsed once per run (nodes are never changed in place)."""
    try:
        return cst.parse_expression(code)
    except Exception:
        return None


def substitute(code: str, bound: dict, callee=None) -> cst.BaseExpression | None:
    node = _template(code)
    if node is None:
        return None
    quick = _quick_substitute(node, bound)
    if quick is not None:
        node = quick
    else:
        change = _Substitute(bound, callee)
        node = node.visit(change)
        if change.missing:
            return None
    if isinstance(node, cst.FormattedString):
        node = _inline_literals(node)
    return cst.ensure_type(node, cst.BaseExpression)


def _quick_substitute(node: cst.BaseExpression, bound: dict) -> cst.BaseExpression | None:
    """What `_Substitute` makes of the commonest keys, a parameter (`name`) or an f-string of
    parameters (`f"lock:{name}"`), without a libcst visit; None for any other key."""
    kind = type(node)
    if kind is cst.Name and not node.lpar:
        return bound.get(node.value)  # type: ignore[attr-defined]
    if kind is not cst.FormattedString:
        return None
    parts = []
    for part in node.parts:  # type: ignore[attr-defined]
        if type(part) is cst.FormattedStringText:
            parts.append(part)
            continue
        expression = part.expression
        if type(part) is not cst.FormattedStringExpression or part.format_spec is not None:
            return None
        if type(expression) is not cst.Name or expression.lpar or expression.value not in bound:
            return None
        parts.append(part.with_changes(expression=bound[expression.value]))
    return node.with_changes(parts=parts)


def _inline_literals(node: cst.FormattedString) -> cst.FormattedString:
    """`f"lock:{'job'}"` -> `f"lock:job"`: a literal argument in an f-string key is written as text
    (a quote inside the braces does not parse before Python 3.12)."""
    parts: list = []
    for part in node.parts:
        if (
            isinstance(part, cst.FormattedStringExpression)
            and isinstance(part.expression, cst.SimpleString)
            and part.conversion is None
            and part.format_spec is None
            and "\\" not in part.expression.value
        ):
            text = part.expression.evaluated_value
            if isinstance(text, str) and not any(q in text for q in "'\"\n"):
                parts.append(cst.FormattedStringText(text.replace("{", "{{").replace("}", "}}")))
                continue
        parts.append(part)
    return node.with_changes(parts=parts)


def _dotted_node(name: str) -> cst.BaseExpression:
    """`app.locks._lock_key` as a node: a function of a module this one does not import, named so
    that it stays apart from this module's own names."""
    head, *rest = name.split(".")
    node: cst.BaseExpression = cst.Name(head)
    for part in rest:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


class SummarisedCalls:
    """Turns a module's calls to summarised functions into events (see Classifier.run)."""

    def __init__(self, classifier, project) -> None:
        self.classifier = classifier
        self.module, self.is_package, self.functions = project[:3]
        walker = classifier.walker
        self.walker = walker
        # Absolute import origin -> the name this module binds it to.
        self.bound_as: dict[str, str] = {}
        for name, dotted in walker.imports.items():
            origin = absolute(walker.import_levels.get(name, 0), dotted, self.module, self.is_package)
            self.bound_as.setdefault(origin, name)

    def callee(self, call: cst.Call) -> str | None:
        func = call.func
        walker = self.walker
        if isinstance(func, cst.Name) and func.value not in walker.imports:
            # The module's own function or class (its summaries are the module's: model/build.py).
            return f"{self.module}.{func.value}" if self._module_level(func.value) else None
        if isinstance(func, cst.Name):
            dotted = walker.imports.get(func.value)
            level = walker.import_levels.get(func.value, 0)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in walker.imports:
            dotted = f"{walker.imports[func.value.value]}.{func.attr.value}"
            level = walker.import_levels.get(func.value.value, 0)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and self._module_level(func.value.value):
            # `CacheUtil.occupy(key)`: a classmethod or staticmethod of the module's own class.
            return f"{self.module}.{func.value.value}.{func.attr.value}"
        else:
            return None
        if dotted is None:
            return None
        return absolute(level, dotted, self.module, self.is_package)

    def _module_level(self, name: str) -> bool:
        """`name` is bound once in the module, at its top, by a `def` or a `class` (asked once per name)."""
        names = self.__dict__.get("_top_definitions")
        if names is None:
            scope = self.classifier.resolver.module_scope
            top = {s.name.value for s in scope.node.body if type(s) in (cst.FunctionDef, cst.ClassDef)}
            counts: dict[str, int] = {}
            for where in (*self.walker.scopes, *self.walker.classes):
                for bound, values in where.bindings.items():
                    if bound in top:
                        counts[bound] = counts.get(bound, 0) + len(values)
                for param in getattr(where, "params", ()):
                    if param in top:
                        counts[param] = counts.get(param, 0) + 1
            names = self.__dict__["_top_definitions"] = {n for n in top if len(scope.bindings.get(n, ())) == 1 and counts.get(n) == 1}
        return name in names

    def _own_method(self, site) -> str | None:
        """`self.setnx_ex(...)` in a method of the module's class (or of a class of the module it
        derives from): that class's method, as the module's summaries name it."""
        func = site.call.func
        resolver = self.classifier.resolver
        if type(func) is not cst.Attribute or not resolver.is_self(func.value, site.scope):
            return None
        method = site.scope if site.scope.cls is not None else resolver._enclosing_method(site.scope)
        cls = method.cls if method is not None else None
        seen: set[str] = set()
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            name = f"{self.module}.{cls.name}.{func.attr.value}"
            if name in self.functions:
                return name
            if func.attr.value in cls.methods:
                return None  # the class's own method, with nothing to hand its callers
            bases = [c for c in self.walker.classes if c.name in cls.bases]
            cls = bases[0] if len(bases) == 1 else None
        return None

    def events(self) -> tuple[list[Claim], list[Release]]:
        claims: list[Claim] = []
        releases: list[Release] = []
        if not self.functions:
            return claims, releases
        known = self._classes_by_method()
        # Calls the store table read already (`self.delete(key)` of a store-shaped wrapper).
        made = {id(event.call) for event in (*self.classifier.claims, *self.classifier.releases)}
        for site in (*self.walker.imported_sites, *self.walker.calls):
            if id(site.call) in made:
                continue
            name = self.callee(site.call)
            found = self.functions.get(name) if name is not None else None
            owner = name.rpartition(".")[0] if name is not None else ""
            if found is None:
                name = self._own_method(site)
                found = self.functions.get(name) if name is not None else None
                owner = self.module if found is not None else owner
            if found is None and type(site.call.func) is cst.Attribute:
                # A method of an object of the project's class (`guard.release(key)`).
                cls = self.class_of(site.call.func.value, site.scope)
                name = f"{cls}.{site.call.func.attr.value}" if cls is not None else None
                found = self.functions.get(name) if name is not None else None
                owner = cls.rpartition(".")[0] if cls is not None else ""
                if found is None and cls is None and not self.classifier.resolver.is_self(site.call.func.value, site.scope):
                    # An object of no known class calling the project's one method of that name.
                    found = self.functions.get(f"*.{site.call.func.attr.value}")
                    if found is None and known:
                        # Or another method of the class that object showed by such a method.
                        cls = known.get(self._object_of(site))
                        found = self.functions.get(f"{cls}.{site.call.func.attr.value}") if cls else None
                    if found is None and not self._made_by_class(site.call.func.value, site.scope):
                        # Or the one method of that name of the classes the module reaches (a factory's),
                        # named for a conditional create (`redis.setNx(k, v)`, where `redis = _get_redis()`).
                        name = self._one_method(site.call.func.attr.value)
                        found = self.functions.get(name) if name is not None else None
                        owner = name.rsplit(".", 2)[0] if name is not None else owner
            if found is None:
                continue
            rest = name[len(self.module) + 1 :].split(".") if name is not None and name.startswith(self.module + ".") else []
            if len(rest) == 2 and self._module_level(rest[0]):
                owner = self.module  # `Gate.take(key)`: a method of the module's own class
            (function, positional, keyword, effects), where = found
            bound = bind(site.call, positional, keyword)
            if bound is None:
                continue
            if type(site.call.func) is cst.Attribute and "self" not in positional and "self" not in keyword:
                bound["self"] = site.call.func.value  # the object a method's read of `self.key` is made on
            self.classifier.sites.setdefault(id(site.call), site)
            for effect in effects:
                if effect[0] in ("value", "script", "returns"):
                    continue  # what a helper makes (values.py reads it), not a store call
                if effect[0] in ("answers", "fails", "answered"):
                    # `lock.release()` of another module's lock class whose release answers a lost lease;
                    # `acquire(key)` of this module, whose claim is a lease here and whose answer it returns.
                    method = site.call.func.attr.value if type(site.call.func) is cst.Attribute else function
                    if effect[0] == "answers":
                        dropped = site.usage in ("statement", "operand")
                    elif effect[0] == "fails":
                        dropped = site.usage == "statement" and not site.call.args  # the default answer only
                    else:
                        dropped = site.usage == "statement"
                    if dropped and not site.scope.is_test:
                        line = f"{where}:{effect[8]}" if where is not None else f"line {effect[8]}"
                        kind = "answers" if effect[0] == "answers" else "fails"
                        self.classifier.summarised_ignored[kind].append((site.call, site.scope, method, line))
                    continue
                via = f"`{function}` ({where}:{effect[8]})" if where is not None else f"`{function}` (line {effect[8]})"
                if effect[0] == "stores":
                    # The helper's own lease stores what this call passes: read only for its token.
                    event = self._event(site, ("claim", *effect[1:]), bound, via, owner)
                    if isinstance(event, Claim) and event.value is not None and not site.scope.is_test:
                        # Its lifetime is the helper's, reported there; a delete of its key here
                        # (inside the `with`) ends it as any release does.
                        event.has_lifetime = True
                        self.classifier.passed_claims.append(event)
                        claims.append(event)
                    continue
                event = self._event(site, effect, bound, via, owner)
                if isinstance(event, Read):
                    self.classifier.reads.append(event)
                elif isinstance(event, Write):
                    if not site.scope.is_test:
                        self.classifier.writes.append(event)  # a claim only after a read (read_claims.py)
                elif isinstance(event, Expire):
                    self.classifier.expiries.append(event)
                elif isinstance(event, Claim):
                    if effect[3] is not None and effect[3][:1] == ("self",) and name is not None:
                        event.wrapper_checked = self._checked_methods(name)
                    claims.append(event)
                elif event is not None:
                    releases.append(event)
        return claims, releases

    def _made_by_class(self, node: cst.BaseExpression, scope) -> bool:
        """`memo = Memo()` of the module's class, or of an imported name in capitals: its class is
        known, whatever summaries say of it."""
        resolver = self.classifier.resolver
        if type(node) is not cst.Name:
            return False
        found = resolver.single_value(node.value, scope)
        value = found[0] if found is not None else None
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return False
        name = value.func.value
        return self._module_level(name) and name[:1].isupper() or (name in self.walker.imports and name[:1].isupper())

    def _checked_methods(self, name: str) -> frozenset:
        """The methods of the class of method `name` whose summaries release with a holder check."""
        prefix = name.rpartition(".")[0] + "."
        return frozenset(
            key[len(prefix) :]
            for key, (entry, _) in self.functions.items()
            if key.startswith(prefix) and "." not in key[len(prefix) :] and any(e[0] == "checked" for e in entry[3])
        )

    def _one_method(self, method: str) -> str | None:
        """The summarised class method named `method`, when it is the only one and the name is one of
        a conditional create by the store table's name pattern."""
        if claim_pattern().fullmatch(method) is None:
            return None
        found = [
            name for name in self.functions if name.endswith("." + method) and name.count(".") >= 2 and name.split(".")[-2][:1].isupper()
        ]
        return found[0] if len(found) == 1 else None

    def _classes_by_method(self) -> dict:
        """Object -> the absolute class it is an instance of, told by a call of that class's one
        distinctive method (`self.store.put_if_empty(...)`: `self.store` is a `RedisStorage`)."""
        known: dict = {}
        ambiguous = set()
        by_short: dict[str, set] = {}  # `RedisStorage` -> {`app.storage.RedisStorage`}
        for name in self.functions:
            owner = name.rpartition(".")[0]
            if not name.startswith("*.") and owner:
                by_short.setdefault(owner.rpartition(".")[2], set()).add(owner)
        for site in self.walker.calls:
            func = site.call.func
            if type(func) is not cst.Attribute:
                continue
            found = self.functions.get(f"*.{func.attr.value}")
            if found is None:
                continue
            short = found[0][0].rpartition(".")[0]  # `RedisStorage` of `RedisStorage.put_if_empty`
            classes = set(by_short.get(short, ()))
            where = self._object_of(site)
            if len(classes) != 1 or where is None:
                continue
            cls = classes.pop()
            if known.get(where, cls) != cls:
                ambiguous.add(where)
            known[where] = cls
        for where in ambiguous:
            del known[where]
        return known

    def _object_of(self, site) -> tuple | None:
        """The object a method is called on, as one name for the module: `self.store` in its class,
        a local in its function, a module global."""
        receiver = site.call.func.value  # type: ignore[union-attr]
        resolver = self.classifier.resolver
        if type(receiver) is cst.Attribute and type(receiver.value) is cst.Name and resolver.is_self(receiver.value, site.scope):
            method = site.scope if site.scope.cls is not None else resolver._enclosing_method(site.scope)
            cls = method.cls if method is not None else None
            return ("self", id(cls.node), receiver.attr.value) if cls is not None else None
        if type(receiver) is cst.Name:
            where = resolver.defining_scope(receiver.value, site.scope)
            return ("name", id(where), receiver.value) if where is not None else None
        return None

    def class_of(self, node: cst.BaseExpression, scope) -> str | None:
        """The absolute name of the imported class whose instance `node` is, when its one binding
        makes it: `guard = Guard(...)` (in the function or the module), `self.guard = Guard(...)`."""
        resolver = self.classifier.resolver
        value = None
        imported = False
        if type(node) is cst.Name:
            where = resolver.defining_scope(node.value, scope)
            annotation = _annotation_of(where.node, node.value) if where is not None and node.value in where.params else None
            if annotation is not None:
                # `client: CacheClient`: its class, where the run knows its methods.
                cls = self.callee(cst.Call(func=annotation))
                return cls if cls is not None and self._has_members(cls) else None
            values = where.bindings.get(node.value) if where is not None else None
            # `client = None` first (or again in an `except`), the object made once between.
            made = not_none(values or ())
            if made is not None:
                value = made
            if value is None and node.value in self.walker.imports and where is resolver.module_scope:
                # `from app.cache import store`: an object another module makes (its summary says of what).
                value, imported = cst.Call(func=node), True
        elif type(node) is cst.Attribute and type(node.value) is cst.Name and resolver.is_self(node.value, scope):
            held = resolver.self_attr_values(node.attr.value, scope)
            if len(held) == 1:
                value = held[0][0]
        awaited = type(value) is cst.Await
        if awaited:
            value = value.expression
        name = self.callee(value) if type(value) is cst.Call else None
        found = self.functions.get(name) if name is not None else None
        made = [(e[2], e[3]) for e in found[0][3] if e[0] == "returns"] if found is not None else []
        # `client = get_client()`, a factory of another module: an object of the class it hands back.
        if made:
            cls = f"{name.rpartition('.')[0]}.{made[0][0]}" if made[0][0] else made[0][1][1]  # type: ignore[union-attr]
            # A class of no summarised method here (re-exported, say): unknown, as an awaited maker's is.
            return cls if self._has_members(cls) else None
        # An awaited maker's object, an imported one of no summarised class, or one a function of no
        # summary makes (`redis = _get_redis()`): unknown (a distinctive method's name may still tell).
        if awaited or imported or name is None:
            return None
        return name if self._has_members(name) else None

    def _has_members(self, name: str) -> bool:
        """Some summarised function's name starts with `name.` (a class of them)."""
        prefixes = self.__dict__.get("_prefixes")
        if prefixes is None:
            prefixes = self.__dict__["_prefixes"] = set()
            for key in self.functions:
                parts = key.split(".")
                prefixes.update(".".join(parts[:i]) for i in range(1, len(parts)))
        return name in prefixes

    def _inside(self, via: str, line: int) -> tuple | None:
        """(start, end) of the module's own store call at `line` of the function `via` names; None
        for a thin wrapper of the store (one statement: `return self.client.delete(key)`), whose
        callers' calls are the store calls to look at."""
        function = via.split("`")[1].rpartition(".")[2]
        events = self.__dict__.get("_own_events")
        if events is None:
            events = self.__dict__["_own_events"] = {}
            for event in (*self.classifier.claims, *self.classifier.releases, *self.classifier.writes, *self.classifier.expiries):
                if event.via is None:
                    events.setdefault((event.start.line, event.scope.name), event)
        event = events.get((line, function))
        if event is None:
            return None
        body = getattr(getattr(event.scope.node, "body", None), "body", ())
        statements = [s for s in body if not _is_docstring(s)]
        if len(statements) == 1 and type(statements[0]) is cst.Try:
            statements = [s for s in statements[0].body.body if not _is_docstring(s)]  # `try:` around its calls
        return (event.start, event.end) if len(statements) > 1 else None

    def _own_claim(self, via: str, line: int) -> Claim | None:
        """The claim the module's own function `via` names makes at `line` (found by its name, class
        and line: the project pass may have summarised this very module)."""
        cls, _, function = via.split("`")[1].rpartition(".")
        for claim in self.classifier.claims:
            if (
                claim.start.line == line
                and claim.via is None
                and claim.scope.name == function
                and (claim.scope.cls.name if claim.scope.cls is not None else "") == cls.rpartition(".")[2]
            ):
                return claim
        return None

    def _expiry_after(self, claim: Claim) -> Expire | None:
        """The function's own `expire` of the key it claimed, after the claim (`setnx`, then `expire`)."""
        return expiry_after(self.classifier.expiries, claim)

    def _receiver(self, reference: tuple, bound: dict, site) -> tuple[cst.BaseExpression | None, object]:
        classifier = self.classifier
        if reference[0] == "param":
            node = bound.get(reference[1])
            if node is None:
                return None, None
            return node, classifier.resolver.shape(node, site.scope)
        if reference[0] == "self":
            # The client the object holds, on the caller's object (`guard.client`), or the object.
            if type(site.call.func) is not cst.Attribute:
                return None, None
            node = site.call.func.value
            if reference[1]:
                node = cst.Attribute(value=node, attr=cst.Name(reference[1]))
            return node, classifier.resolver.shape(node, site.scope)
        kind, origin = reference
        owner, _, last = origin.rpartition(".")
        node = self._reached(owner, last) if owner else None
        if node is None:
            return site.call.func, ("project", kind, origin)
        if kind.startswith("factory"):
            # `redis_client(name="default")`: the factory's call, with the literal arguments it was given.
            node = cst.Call(func=node, args=cst.parse_expression(f"f{kind[7:]}").args) if kind != "factory" else cst.Call(func=node)
        return node, classifier.resolver.shape(node, site.scope)

    def _reached(self, owner: str, name: str) -> cst.BaseExpression | None:
        """How this module reaches function `name` of module `owner`: by its own name, or as an
        attribute of the module's name; None when it imports neither."""
        if owner == self.module:
            return cst.Name(name)  # the module's own client or function
        bound = self.bound_as.get(f"{owner}.{name}")
        if bound is not None:
            return cst.Name(bound)
        module = self.bound_as.get(owner)
        return cst.Attribute(value=cst.Name(module), attr=cst.Name(name)) if module is not None else None

    def _event(self, site, effect: tuple, bound: dict, via: str, owner: str):
        kind, ref, key_code, receiver_ref, value, has_lifetime, returns, lost_when, _ = effect
        if type(has_lifetime) is str:
            # `put_if_empty(key, v, ttl=60)`: the parameter that gives the claim its lifetime.
            given = bound.get(has_lifetime)
            has_lifetime = given is not None and not (type(given) is cst.Name and given.value == "None")
        classifier = self.classifier
        key = substitute(key_code, bound, lambda name: self._reached(owner, name) or _dotted_node(f"{owner}.{name}"))
        if key is None:
            return None
        receiver, receiver_shape = self._receiver(receiver_ref, bound, site)
        if receiver is None:
            return None
        store, spec = row_of(ref)
        key_shape = None
        if kind in ("claim", "answered") and type(key) is cst.Dict and len(key.elements) == 1 and type(key.elements[0]) is cst.DictElement:
            # A document's claim (summary.py's `_document_claim`): the key and the field it is kept in.
            field = literal_string(key.elements[0].key)
            key = key.elements[0].value
            key_shape = ("field", field, classifier.resolver.shape(key, site.scope))
        common = classifier.made_at(
            site, store, receiver, receiver_shape, key, key_shape or classifier.resolver.shape(key, site.scope), via
        )
        if owner == self.module and kind != "checked":
            # A checked release's answer is dropped by the caller: what to change is the caller's call.
            common["inside"] = self._inside(via, effect[8])
        if kind == "claim":
            result_name = self.walker.assigned.get(id(site.call))
            own = self._own_claim(via, effect[8]) if owner == self.module else None
            mine = own is not None and type(value) is not str and own.value is not None
            made = None
            if type(value) is tuple and not mine:
                # A value the function stores of its own (`"1"`): the caller's call stands for it.
                made = Origin(value[1], f"{value[2]} that {via} stores", site.call)
            return Claim(
                **common,
                spec=spec,
                value=bound.get(value) if type(value) is str else own.value if mine else site.call if made else None,  # type: ignore[union-attr]
                value_scope=own.scope if mine else None,  # type: ignore[union-attr]
                value_origin=made,
                expiry_after=self._expiry_after(own) if own is not None and not has_lifetime else None,
                has_lifetime=has_lifetime,
                usage="statement" if site.usage != "expression" else "expression",
                result_name=result_name,
                result_reads=count_names(site.scope.node, result_name) - 1 if result_name else 0,
                caught=site.caught,
                decides=site.scope.is_test and classifier._decides(site.call, site.scope, result_name),
            )
        if kind == "read":
            return Read(**common, spec=spec, derived=value in ("derived", "absent"), absent=value == "absent")
        if kind == "renews":
            ttl = bound.get(value) if type(value) is str else None
            return Expire(**common, ttl=ttl, unit=spec.unit, usage=site.usage, spec=spec, no_fix=f"the renewal is made inside {via}")
        if kind == "writes":
            if type(value) is tuple:
                # A value the helper writes of its own (`"1"`): the caller's call stands for it.
                origin = Origin(value[1], f"{value[2]} that {via} stores", site.call)
                return Write(**common, value=site.call, has_lifetime=bool(has_lifetime), spec=spec, value_origin=origin)
            written = bound.get(value)
            return Write(**common, value=written, has_lifetime=bool(has_lifetime), spec=spec) if written is not None else None
        if kind == "checked" and lost_when and lost_when != spec.lost_when:
            spec = dataclasses.replace(spec, lost_when=lost_when)
        return Release(
            **common,
            spec=spec,
            checked=kind == "checked",
            usage=site.usage,
            deliberate=_deliberate(site),
            reported_home=kind == "leased",
        )


def _annotation_of(function: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """The annotation of parameter `name` of `function`, when it is a name or a dotted name."""
    params = getattr(function, "params", None)
    for param in (*params.posonly_params, *params.params, *params.kwonly_params) if params is not None else ():
        if param.name.value == name and param.annotation is not None:
            found = param.annotation.annotation
            return found if type(found) in (cst.Name, cst.Attribute) else None
    return None

"""Which store's client a call's receiver is: how it was made, imported or named."""

from __future__ import annotations

import libcst as cst

from leaselint.model import stores
from leaselint.model.call_parts import _from_store, _last_name, _returned
from leaselint.model.keys import abstract
from leaselint.model.scope import Scope
from leaselint.model.stores import Store
from leaselint.model.walk import CallSite, dotted


def _test_double(imported: str) -> bool:
    """A stand-in a project falls back to (`pymemcache.test.utils.MockMemcacheClient`)."""
    parts = imported.split(".")
    return bool({"test", "tests", "testing", "mock", "mocks"} & set(parts)) or parts[-1].startswith(("Mock", "Fake"))


class RecognitionMixin:
    """The Classifier's part that tells these (see classify.py)."""

    def _recognised(self, store: Store, site: CallSite) -> bool:
        return self.recognition(store, site.call.func.value, site.scope)[0] > 0  # type: ignore[union-attr]

    def _another_family(self, store: Store, site: CallSite) -> bool:
        """The receiver is made by another store's modules while this store knows it by name alone
        (`cache` from `cachelib` is no redis-py client): its calls are that family's, and a fix
        written for this one would call methods it does not have."""
        receiver = site.call.func.value  # type: ignore[union-attr]
        if self.recognition(store, receiver, site.scope)[0] == 2:
            return False
        return any(other is not store for other in self._made_by_stores(receiver, site.scope))

    def recognition(self, store: Store, receiver: cst.BaseExpression, scope: Scope):
        """How sure it is that `receiver` is a client of `store`, and the call that made it.

        2: imported from the store's modules or made by one of their calls (through assignments);
        1: the receiver's own name is a usual name for such a client (`cache`, `self.redis`), or, for
        module-wide stores, the module imports the store; 0: no sign. Names are not followed
        through assignments: the prefilter, which reads only bytes, must see what the model sees.
        """
        key = (id(store), id(receiver), id(scope))
        found = self.recognitions.get(key)
        if found is None:
            strength, call = self._made_by(store, receiver, scope)
            found = (2, call) if strength == 2 else (self._by_name(store, _last_name(receiver)), None)
            self.recognitions[key] = found
        return found

    def _made_by(self, store: Store, receiver: cst.BaseExpression, scope: Scope):
        """2 and the call that made the receiver when it comes from the store's modules, else 0."""
        key = (id(receiver), id(scope))
        found = self.makers.get(key)
        if found is None:
            found = self.makers[key] = self._makers(receiver, scope, 0)
        for imported, made in found:
            if _from_store(imported, store):
                return 2, made
        return 0, None

    def _made_by_stores(self, receiver: cst.BaseExpression, scope: Scope) -> list:
        """The table's stores whose modules made the receiver (in table order)."""
        key = (id(receiver), id(scope))
        found = self.made_by_stores.get(key)
        if found is None:
            makers = self.makers.get(key)
            if makers is None:
                makers = self.makers[key] = self._makers(receiver, scope, 0)
            found = [store for store in stores.STORES if any(_from_store(imported, store) for imported, _ in makers)]
            self.made_by_stores[key] = found
        return found

    def _makers(self, receiver: cst.BaseExpression, scope: Scope, depth: int, trail: tuple = ()) -> list:
        """(imported name, call) pairs that may have made the receiver, in the order to try them.
        `trail`: the attributes taken of the receiver on the way (`.mc` of `self.backend.mc`), for an
        object of one of the module's own classes (`self.backend = Backend(...)`)."""
        if depth > 4:
            return []
        node = receiver
        made = None
        while isinstance(node, (cst.Subscript, cst.Call, cst.Attribute, cst.Await)):
            if isinstance(node, cst.Await):
                node = node.expression
            elif isinstance(node, cst.Call):
                made = made or node
                node = node.func
            elif isinstance(node, cst.Attribute) and not self.resolver.is_self(node.value, scope):
                if made is None:
                    trail = (node.attr.value, *trail)
                node = node.value
            elif isinstance(node, cst.Attribute):
                found = []
                for value, where in self.resolver.self_attr_values(node.attr.value, scope):
                    if value is not None and not isinstance(value, cst.AugAssign):
                        found.extend(self._makers(value, where, depth + 1, trail if made is None else ()))
                if not found and made is not None and made.func is node:
                    # `self.client()`: a method of the class that makes the client.
                    method = self._method_of(node.attr.value, scope)
                    if method is None or abstract(method):
                        return self._subclass_makers(node.attr.value, scope, depth)
                    return self._made_by_function(method, depth)
                if not found and made is None:
                    # `self.memcache`, a property that makes the client once and hands it back.
                    for value, where in self.resolver.property_returns(node.attr.value, scope):
                        found.extend(self._makers(value, where, depth + 1, trail))
                    real = [maker for maker in found if not _test_double(maker[0])]
                    found = real or found  # `MockMemcacheClient()` when no server is configured
                return found
            else:
                node = node.value
        if not isinstance(node, cst.Name):
            return []
        imported = self.walker.imports.get(node.value)
        if imported is not None:
            if trail and made is None and imported.rpartition(".")[2].lower() in stores.CONFIG_OBJECTS:
                return []  # `settings.redis_inst`: a client the project's settings hold, of any family
            return [(imported, made)]
        value = self.resolver.value_unless_none(node.value, scope)
        if value is not None:
            return self._makers(value[0], value[1], depth + 1, trail if made is None else ())
        if made is None:
            return self._annotated(node.value, scope, trail, depth)
        if made.func is node:
            if trail:
                # `Backend(...).mc`: what the module's own class sets that attribute to.
                return self._class_attr_makers(node.value, trail, depth)
            # `get_redis()`: a function of the module that makes (or hands back) the client.
            function = self._module_functions().get(node.value)
            return self._made_by_function(function, depth) if function is not None else []
        return []

    def _class_attr_makers(self, name: str, trail: tuple, depth: int) -> list:
        """What made `<object of class name>.<trail>`, for a class of this module (one of that name)."""
        classes = [info for info in self.walker.classes if info.name == name]
        if len(classes) != 1 or not trail:
            return []
        found = []
        for value, where in classes[0].attrs.get(trail[0], ()):
            if value is not None and not isinstance(value, cst.AugAssign):
                found.extend(self._makers(value, where, depth + 1, trail[1:]))
        return found

    def _module_functions(self) -> dict:
        if self.functions is None:
            module = self.walker.module_scope
            self.functions = {}
            for scope in self.walker.scopes:
                if scope.parent is module and scope.cls is None and isinstance(scope.node, cst.FunctionDef):
                    self.functions.setdefault(scope.name, scope)
            bound = {name for name, values in module.bindings.items() if len(values) > 1} if module else set()
            self.functions = {name: scope for name, scope in self.functions.items() if name not in bound}
        return self.functions

    def _method_of(self, name: str, scope: Scope) -> Scope | None:
        method = scope if scope.cls is not None else self.resolver._enclosing_method(scope)
        cls = method.cls if method is not None else None
        return cls.methods.get(name) if cls is not None else None

    def _subclass_makers(self, name: str, scope: Scope, depth: int) -> list:
        """A base class's abstract factory method (`self.client = self.get_client_from_url(url)`):
        what the module's subclasses that write it make, when they make clients of one family."""
        method = scope if scope.cls is not None else self.resolver._enclosing_method(scope)
        cls = method.cls if method is not None else None
        if cls is None or not abstract(cls.methods.get(name)):
            return []
        found = []
        for info in self.walker.classes:
            if cls.name in info.bases and name in info.methods:
                found.extend(self._made_by_function(info.methods[name], depth))
        families = {store.name for store in stores.STORES for imported, _ in found if _from_store(imported, store)}
        return found if len(families) == 1 else []

    def _made_by_function(self, function: Scope, depth: int) -> list:
        """What the client a factory answers is made by: its return annotation, else what it returns."""
        node = function.node
        if node.returns is not None:  # type: ignore[attr-defined]
            found = self._class_of_hint(node.returns.annotation)  # type: ignore[attr-defined]
            if found:
                return found
        found = []
        for value in _returned(node.body):  # type: ignore[attr-defined]
            found.extend(self._makers(value, function, depth + 1))
        return found

    def _class_of_hint(self, hint: cst.BaseExpression) -> list:
        """(dotted name, None) of each imported class an annotation names (`Client`, `Optional[X]`,
        `X | None`, `Union[MongoClient, Database]`)."""
        if isinstance(hint, cst.BinaryOperation) and isinstance(hint.operator, cst.BitOr):
            return self._class_of_hint(hint.left) + self._class_of_hint(hint.right)  # `Client | None`
        if isinstance(hint, cst.Subscript) and dotted(hint.value).split(".")[-1] in ("Optional", "Union"):
            found = []
            for element in hint.slice:
                if isinstance(element.slice, cst.Index):
                    found.extend(self._class_of_hint(element.slice.value))
            return found
        if not isinstance(hint, (cst.Name, cst.Attribute)):
            return []
        head, dot, rest = dotted(hint).partition(".")
        imported = self.walker.imports.get(head)
        return [(imported + dot + rest, None)] if imported is not None else []

    def _annotated(self, name: str, scope: Scope, trail: tuple = (), depth: int = 0) -> list:
        """A parameter annotated with a class its module imports (`client: GlideClient`,
        `cache: Optional[diskcache.Cache]`): (that class's dotted name, None); or with one of the
        module's own classes, whose attribute the receiver is (`backend: Backend`, `backend.mc`)."""
        where = self.resolver.defining_scope(name, scope)
        if where is None or name not in where.params or not isinstance(where.node, cst.FunctionDef):
            return []
        params = where.node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.name.value != name or param.annotation is None:
                continue
            hint = param.annotation.annotation
            if trail and isinstance(hint, cst.Name) and hint.value not in self.walker.imports:
                return self._class_attr_makers(hint.value, trail, depth)
            return self._class_of_hint(hint)
        return []

    def _by_name(self, store: Store, name: str) -> int:
        if stores.client_named(name, store.client_names):  # `self._redis`, `redis_client`
            return 1
        if store.module_wide and self._imports(store):
            return 1
        return 0

    def _imports(self, store: Store) -> bool:
        found = self.imports_store.get(id(store))
        if found is None:
            found = self.imports_store[id(store)] = any(
                _from_store(dotted, store) for dotted in self.walker.imports.values()
            )
        return found

    def _coroutine_maker(self, call: cst.Call | None) -> bool:
        """The call that made a client (or a lock) is an asyncio client's (`redis.asyncio.from_url`)."""
        if call is None:
            return False
        head, dot, rest = dotted(call.func).partition(".")
        return stores.coroutine_maker(self.walker.imports.get(head, head) + dot + rest)

    def _receiver(self, site: CallSite) -> tuple[cst.BaseExpression, Scope, bool]:
        """The client behind a call's receiver; a pipeline stands for the client it came from."""
        return self._receiver_of(site.call.func.value, site.scope)  # type: ignore[union-attr]

    def _receiver_of(self, receiver: cst.BaseExpression, scope: Scope) -> tuple[cst.BaseExpression, Scope, bool]:
        if isinstance(receiver, cst.Name) and scope.params[:1] == [receiver.value]:
            found = self.transaction_callbacks.get(scope.name)
            if found is not None:
                # `r.transaction(callback, key)`: the callback's pipeline is `r`'s, watching the keys; its
                # commands run at once until `multi()`.
                return found[0], found[1], True
        made = receiver
        made_scope = scope
        if isinstance(receiver, cst.Name):
            found = self.resolver.single_value(receiver.value, scope) or self._one_builder(receiver.value, scope)
            if found is not None:
                made, made_scope = found
        if isinstance(made, cst.Await):
            made = made.expression
        if isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute):
            if made.func.attr.value in stores.pipeline_methods():
                return made.func.value, made_scope, True
            if made.func.attr.value in stores.builder_methods():
                return made.func.value, made_scope, False
            if made is receiver:
                # A command chained on a pipeline's (`pipe.setnx(k, v).expire(k, 30)`): the pipeline's.
                inner = self._receiver_of(made.func.value, scope)
                if inner[2]:
                    return inner
        return receiver, scope, False

    def _builder_op(self, receiver: cst.BaseExpression, scope: Scope) -> bool:
        """The receiver is a transaction builder (`txn = client.Txn()`, `client.Txn`)."""
        builders = stores.builder_methods()
        if not builders:
            return False
        if isinstance(receiver, cst.Attribute) and receiver.attr.value in builders:
            return True
        if isinstance(receiver, cst.Call):
            return isinstance(receiver.func, cst.Attribute) and receiver.func.attr.value in builders
        if isinstance(receiver, cst.Name):
            found = self.resolver.single_value(receiver.value, scope) or self._one_builder(receiver.value, scope)
            return found is not None and self._builder_op(found[0], found[1])
        return False

    def _one_builder(self, name: str, scope: Scope):
        """`txn = client.Txn()` made again in the function (one builder per transaction): the first,
        when every value of the name is a builder of the same client."""
        values = scope.bindings.get(name) or []
        builders = stores.builder_methods()
        if len(values) < 2 or not all(
            isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value in builders for v in values
        ):
            return None
        if len({self.resolver.shape(v.func.value, scope) for v in values}) != 1:  # type: ignore[union-attr]
            return None
        return values[0], scope

    def project_method(self, site: CallSite, kinds: tuple) -> bool:
        """The call's method is the project's own, read where it is written: a method of a class of the
        module, or one another module summarises with an effect of `kinds` (its body, not its name,
        says what it does; a summary that says nothing of that leaves the name to tell)."""
        method = site.call.func.attr.value  # type: ignore[union-attr]
        if any(method in cls.methods for cls in self.walker.classes) or self._made_by_imported_class(site):
            return True
        functions = self.project[2] if self.project is not None else {}
        return any(
            name.rpartition(".")[2] == method and any(effect[0] in kinds for effect in entry[0][3])
            for name, entry in functions.items()
        )

    def _made_by_imported_class(self, site: CallSite) -> bool:
        """The receiver is made by a class imported from outside the standard library and the stores
        (`INFLIGHT = InFlight()`): that class's method, whatever its body, not a store's by its name."""
        from leaselint.project import outside_project

        receiver, scope = site.call.func.value, site.scope  # type: ignore[union-attr]
        value = None
        if type(receiver) is cst.Name:
            found = self.resolver.single_value(receiver.value, scope)
            value = found[0] if found is not None else None
        elif type(receiver) is cst.Attribute and self.resolver.is_self(receiver.value, scope):
            held = self.resolver.self_attr_values(receiver.attr.value, scope)
            value = held[0][0] if len(held) == 1 else None
        if type(value) is cst.Await:
            value = value.expression
        if type(value) is not cst.Call or type(value.func) is not cst.Name or not value.func.value[:1].isupper():
            return False
        dotted = self.walker.imports.get(value.func.value)
        return dotted is not None and (self.walker.import_levels.get(value.func.value, 0) > 0 or not outside_project(dotted))

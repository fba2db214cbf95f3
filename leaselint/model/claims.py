"""Claims: conditional creates, scripts and documents (claims made by a read, then a write: read_claims.py)."""

from __future__ import annotations

import libcst as cst

from leaselint.model import documents, sql_rows, stores
from leaselint.model.answers import only_logged
from leaselint.model.call_parts import (
    FORMATTED,
    formatted_command,
    conversion_of,
    converted_name,
    _flag_set,
    get_arg,
    lua_claim,
    lua_member_claim,
    lua_read_then_write,
    positional_args,
    stored_shape,
    script_operands,
    SLOT_CLAIM,
    SPREAD,
    unforced,
)
from leaselint.model.events import Claim
from leaselint.model.keys import literal_string
from leaselint.model.scope import contains_call_or_name, count_names, Scope
from leaselint.model.stores import Arg, ClaimSpec
from leaselint.model.traverse import nodes
from leaselint.model.walk import CallSite


# Manager calls between `objects` and `get` that keep picking rows of the model.
_ROW_CHAINS = frozenset({"select_for_update", "filter", "exclude", "using", "all"})


def _row_class(cls) -> bool:
    """A Django model class (a base named `Model`), the rows of which are objects."""
    return any(base.split(".")[-1] == "Model" for base in cls.bases)


class ClaimsMixin:
    """The Classifier's part that tells these (see classify.py)."""

    def manager_model(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """The model whose rows a manager expression other than `Model.objects` makes: a manager
        class's own `self` (the module's model that sets `objects = ThatManager()`, else the class's
        name without `Manager`), or `cls.objects` in a model's classmethod."""
        method = scope if scope.cls is not None else self.resolver._enclosing_method(scope)
        cls = method.cls if method is not None else None
        if cls is None:
            return None
        if self.resolver.is_self(node, scope):
            if not any(base.split(".")[-1].endswith(("Manager", "QuerySet")) for base in cls.bases):
                return None
            for other in self.walker.classes:
                for value in other.bindings.get(stores.ORM_MANAGER, []):
                    made = value.func if type(value) is cst.Call else None
                    if type(made) is cst.Name and made.value == cls.name:
                        return other.name
            return cls.name.removesuffix("Manager").removesuffix("QuerySet") or None
        if (
            type(node) is cst.Attribute
            and node.attr.value == stores.ORM_MANAGER
            and type(node.value) is cst.Name
            and method is not None
            and method.params[:1] == [node.value.value]
            and _row_class(cls)
        ):
            return cls.name  # `cls.objects.create(...)` in a classmethod of the model
        return None

    def row_model(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """The lock model of a row object: the model's own `self`, or a name bound once to a row read
        or made by the model's manager (`row = JobLock.objects.get(name=key)`)."""
        if self.resolver.is_self(node, scope):
            method = scope if scope.cls is not None else self.resolver._enclosing_method(scope)
            cls = method.cls if method is not None else None
            return cls.name if cls is not None and _row_class(cls) else None
        if type(node) is not cst.Name:
            return None
        found = self.resolver.single_value(node.value, scope)
        value = found[0] if found is not None else None
        if type(value) is cst.Await:
            value = value.expression
        if type(value) is not cst.Call or type(value.func) is not cst.Attribute:
            return None
        if value.func.attr.value not in ("get", "create"):
            return None
        manager = value.func.value
        # `JobLock.objects.select_for_update().get(...)`
        while type(manager) is cst.Call and type(manager.func) is cst.Attribute and manager.func.attr.value in _ROW_CHAINS:
            manager = manager.func.value
        return documents._model_manager(manager, lambda inner: self.manager_model(inner, found[1]))  # type: ignore[index]

    def forever_by_default(self, node: cst.BaseExpression, scope, forever: tuple, depth: int = 0) -> bool:
        """A lifetime that is `forever` unless a caller says otherwise: a parameter defaulting to
        `None` (or memcached's `0`) that no call in the module passes, or an attribute set from one
        in `__init__` (`self.timeout = timeout`)."""
        if depth > 3:
            return False
        if type(node) is cst.Name:
            where = self.resolver.defining_scope(node.value, scope)
            if where is None:
                return False
            if node.value in where.params:
                return self._defaults_to(where, node.value, forever)
            values = where.bindings.get(node.value, [])
            return len(values) == 1 and isinstance(values[0], cst.BaseExpression) and (
                # `LOCK_EXPIRE = None`, then `cache.add(key, True, timeout=LOCK_EXPIRE)`.
                self.resolver.code(values[0]).strip() in forever
                or self.forever_by_default(values[0], where, forever, depth + 1)
            )
        if type(node) is cst.Attribute and self.resolver.is_self(node.value, scope):
            # `self._ex = None`, then `if timeout: self._ex = int(timeout)` in `__init__`: forever too.
            values = self.resolver.self_attr_values(node.attr.value, scope)
            return bool(values) and all(
                value is not None
                and where.name == "__init__"
                and (self.resolver.code(value).strip() in forever or self.forever_by_default(value, where, forever, depth + 1))
                for value, where in values
            ) and any(self.resolver.code(value).strip() not in forever for value, _ in values)
        if (
            type(node) is cst.Call
            and type(node.func) is cst.Attribute
            and node.func.attr.value in ("get", "pop")
            and 1 <= len(node.args) <= 2
            and literal_string(node.args[0].value) is not None
            and depth > 0
        ):
            # `self.timeout = options.pop("lock_timeout", None)`: a setting, forever unless configured.
            default = self.resolver.code(node.args[1].value).strip() if len(node.args) == 2 else "None"
            return default in forever
        if depth > 0 and type(node) in (cst.Call, cst.BinaryOperation):
            # `self._ex = int(timeout)`: a conversion of a parameter that is forever by default.
            name = converted_name(node)
            return name is not None and self.forever_by_default(cst.Name(name), scope, forever, depth + 1)
        if type(node) is cst.IfExp:
            # `expire if expire is None else int(expire)`: the branch taken when nothing was passed.
            unpassed = self._branch_when_unpassed(node, scope, forever, depth)
            return unpassed is not None and (
                self.resolver.code(unpassed).strip() in forever
                or self.forever_by_default(unpassed, scope, forever, depth + 1)
            )
        if type(node) is cst.BooleanOperation and type(node.operator) is cst.Or:
            # `timeout or None`: forever either way.
            return self.resolver.code(node.right).strip() in forever and self.forever_by_default(
                node.left, scope, forever, depth + 1
            )
        return False

    def _branch_when_unpassed(self, node: cst.IfExp, scope, forever: tuple, depth: int):
        """The branch of `a if <test> else b` taken when the tested value is its forever default:
        tests of `x is None`, `x is not None`, `x` and `not x`."""
        test, negated = node.test, False
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
            test, negated = test.expression, True
        if type(test) is cst.Comparison:
            if len(test.comparisons) != 1 or self.resolver.code(test.comparisons[0].comparator).strip() != "None":
                return None
            operator = type(test.comparisons[0].operator)
            if operator not in (cst.Is, cst.IsNot):
                return None
            tested, when_none = test.left, operator is cst.Is
        else:
            tested, when_none = test, False  # `x` is false when it is None or 0
        if type(tested) not in (cst.Name, cst.Attribute) or not self.forever_by_default(tested, scope, forever, depth + 1):
            return None
        return node.body if when_none != negated else node.orelse

    def _defaults_to(self, function, name: str, forever: tuple, passed: bool = False) -> bool:
        node = function.node
        if not isinstance(node, cst.FunctionDef) or not all(
            self._keeps_default(value, name, forever) for value in function.bindings.get(name, [None])
        ):
            return False  # given another value in the function (`timeout = timeout or 30`)
        if not passed and (
            node.name.value.lstrip("_") in stores.method_names() or node.name.value in {spec.call for spec in stores.LOCKS if spec.method}
        ):
            return False  # a store API of its own (`def lock(self, key, timeout=None)`): its caller chooses
        p = node.params
        params = [*p.posonly_params, *p.params, *p.kwonly_params]
        found = [param for param in params if param.name.value == name]
        if not found or found[0].default is None or self.resolver.code(found[0].default).strip() not in forever:
            return False
        # A call in the module that passes it (by keyword, or by place): its caller chooses.
        target = node.name.value if function.cls is None else function.cls.name if node.name.value == "__init__" else None
        index = [param.name.value for param in params].index(name) - (1 if function.cls is not None else 0)
        for call, caller in self.walker.name_calls.get(target, []) if target else []:
            if any(a.star for a in call.args):
                return False
            given = [a for a in call.args if a.keyword is not None and a.keyword.value == name]
            positional = [a for a in call.args if a.keyword is None]
            if not given and len(positional) > index:
                given = [positional[index]]
            if given and not self._handed_on(given[0].value, caller, forever, passed):
                return False
        return True

    def _keeps_default(self, value, name: str, forever: tuple) -> bool:
        """A binding of parameter `name` that leaves it forever when no caller passes it: the
        parameter itself, a forever value (`expire = None` in an `else`), or a conversion of the
        parameter alone (`expire = int(expire)`, `ttl * 1000`), which runs only on a value passed."""
        if value is None:
            return True
        if not isinstance(value, cst.BaseExpression):
            return False
        if self.resolver.code(value).strip() in forever:
            return True
        return conversion_of(value, name)

    def _handed_on(self, value: cst.BaseExpression, caller, forever: tuple, passed: bool) -> bool:
        """The caller passes its own parameter on (`Lock(name, timeout)` in `def lock(name,
        timeout=None)`), forever by default there too: still no caller's choice."""
        if passed:
            return False
        if type(value) is cst.Attribute and self.resolver.is_self(value.value, caller):
            # `MemcachedLock(key, timeout=self.lock_timeout)`, set from a setting defaulting to forever.
            return self.forever_by_default(value, caller, forever, 1)
        if type(value) is not cst.Name or value.value not in caller.params:
            return False
        return self._defaults_to(caller, value.value, forever, passed=True)

    def _claim(self, site: CallSite, store, spec: ClaimSpec) -> Claim | None:
        call = site.call
        unknown = store.recognised_only and not self._recognised(store, site)
        if unknown and not self._in_lock_class(store, site, spec):
            return None
        if self._another_family(store, site) or (not spec.method and self.project_method(site, ("claim",))):
            return None
        if spec.refuses and any(a.keyword is not None and a.keyword.value in spec.refuses for a in call.args):
            return None
        if spec.by_old_value and not self._old_value_tested(site):
            return None
        lifetime = None
        formatted = None
        if spec.command is not None:
            words = self._command_words(call)
            formatted = formatted_command(call)
            call = formatted or call
            if not words or words[0] != spec.command or spec.command_flag not in words[1:]:
                return None
            has_lifetime = any(word in words[1:] for word in spec.lifetime_words)
        else:
            if spec.flag is not None and not _flag_set(get_arg(call, spec.flag), spec.flag_value):
                return None
            given = [get_arg(call, where) for where in spec.lifetime]
            given = [node for node in given if node is not None]
            lifetime = given[0] if given else None
            if lifetime is None:
                has_lifetime = spec.default_lifetime
            else:
                # A lock class's client of no known family: a default of 0 is forever on memcached and
                # Flask-Caching (and stores nothing on Django's cache).
                defaults = (*spec.forever, "0") if unknown else spec.forever
                has_lifetime = self.resolver.code(lifetime).strip() not in spec.forever and not self.forever_by_default(
                    lifetime, site.scope, defaults
                )
        document = None
        if spec.form == "script":
            return self._script_claim(site, store, spec)
        if spec.form != "call":
            unique = bool(site.caught & set(store.duplicate_errors))
            document = self._document_claim(call, spec, site.scope, unique)
            if document is None or document.key is None:
                return None
            key, value, has_lifetime = document.key, document.token, document.has_lifetime
            common, in_pipeline = self._common(site, store, key, document, document.key_field)
            if self.spread(call, site.scope) is not call:
                common["no_fix"] = SPREAD
            elif spec.form == "mongo" and self._bound_document(call, site.scope) is not call:
                common["no_fix"] = "the document is a dict bound to a name first"
            if spec.form == "orm" and spec.method == "save":
                common["no_fix"] = "the row is made by `save()`, which the fixes do not rewrite"
        else:
            key = get_arg(call, spec.key)
            member = get_arg(call, spec.field) if spec.field is not None else None
            if key is None or (spec.field is not None and member is None):
                return None
            common, in_pipeline = self._common(site, store, key, member=member)
            value = get_arg(call, spec.value) if spec.value is not None else None
            if spec.value_beside_lifetime and lifetime is None and len(positional_args(call)) < 3 and not stored_shape(value):
                value = get_arg(call, Arg(None, spec.value.keyword))  # `setnx_ex(key, 60)`: no value
            if formatted is not None:
                common["no_fix"] = FORMATTED
        usage, result_name, reads, pipeline_read = self._answer(site, in_pipeline)
        if spec.form == "sql" and usage == "statement" and self.rowcount_read(site):
            usage = "expression"  # `cur.execute(INSERT ...)`, then `if cur.rowcount == 1:`
        logged_only = usage == "expression" and not in_pipeline and only_logged(site.scope.node, site.call, result_name)
        return Claim(
            logged_only=logged_only,
            **common,
            spec=spec,
            value=value,
            has_lifetime=has_lifetime,
            lifetime=lifetime,
            usage=usage,
            result_name=result_name,
            result_reads=reads,
            document=document,
            in_pipeline=in_pipeline,
            pipeline_read=pipeline_read,
            caught=site.caught,
            decides=site.scope.is_test and self._decides(call, site.scope, result_name),
        )

    def _mapping_claims(self, site: CallSite, store, spec: ClaimSpec) -> list[Claim]:
        mapping = get_arg(site.call, spec.key)
        if not isinstance(mapping, cst.Dict) or len(site.call.args) != 1:
            return []
        found = []
        for element in mapping.elements:
            if not isinstance(element, cst.DictElement):
                return []  # `**others`: keys leaselint cannot see
            common, in_pipeline = self._common(site, store, element.key)
            result_name = self.walker.assigned.get(id(site.call))
            found.append(
                Claim(
                    **common,
                    spec=spec,
                    value=element.value,
                    usage="statement" if site.usage != "expression" else "expression",
                    result_name=result_name,
                    result_reads=count_names(site.scope.node, result_name) - 1 if result_name else 0,
                    in_pipeline=in_pipeline,
                    caught=site.caught,
                    decides=site.scope.is_test and self._decides(site.call, site.scope, result_name),
                    no_fix="the claim writes several keys at once (`msetnx`)",
                )
            )
        return found

    def _script_claim(self, site: CallSite, store, spec: ClaimSpec, key=None, values=None, client=None, client_scope=None):
        """A claim made by a Lua script: `eval(SCRIPT, 1, key, token, ttl)` (or a script object's call,
        given its key, its ARGV list and the client that registered it)."""
        call = site.call
        script = get_arg(call, spec.script) if spec.script is not None else None
        text = self._string_value(script, site.scope) if client is None else values[0]
        found = lua_claim(text) if text is not None else None
        slot = lua_member_claim(text) if found is None and text is not None else None
        if found is None and slot is None:
            return None
        index, has_lifetime = found or slot[1:]  # type: ignore[index]
        no_fix = ""
        answer_unknown = found is not None and lua_read_then_write(text)  # type: ignore[arg-type]
        if answer_unknown:
            no_fix = "the script claims by reading the key and writing it when absent, and answers as it chooses"
        if slot is not None:
            # `zadd(KEYS[i], score, ARGV[n])` under a count: the slot's key and its holder's token.
            key_at, args_at = (spec.key, Arg(None, "args")) if client is None else (Arg(0, "keys"), Arg(1, "args"))
            key, value = script_operands(call, key_at, args_at, client is not None or spec.key_in_list, slot[0], index)
            if key is None or value is None:
                return None
            no_fix = SLOT_CLAIM
        elif client is None and spec.key_in_list:
            # `eval(SCRIPT, keys=[key], args=[token, ttl])`
            keys, arguments = get_arg(call, spec.key), get_arg(call, Arg(None, "args"))
            if type(keys) not in (cst.List, cst.Tuple) or len(keys.elements) != 1:  # type: ignore[union-attr]
                return None
            key = keys.elements[0].value  # type: ignore[union-attr]
            value = script
            if index:
                items = arguments.elements if type(arguments) in (cst.List, cst.Tuple) else ()  # type: ignore[union-attr]
                value = items[index - 1].value if len(items) >= index else None
        elif client is None:
            keys_count = get_arg(call, Arg(1))
            if not isinstance(keys_count, cst.Integer) or keys_count.evaluated_value < 1:
                return None
            # KEYS[1] is the lease; ARGV[n] comes after all the keys.
            key = get_arg(call, spec.key)
            value = get_arg(call, Arg(1 + keys_count.evaluated_value + index)) if index else script
        else:
            arguments = values[1]
            value = arguments[index - 1] if index and arguments is not None and len(arguments) >= index else None
            if not index:
                value = values[2]
        if not index and slot is None:
            # The script stores a literal of its own: the script is where the value is made.
            no_fix = "the script stores a value written in it, not one passed as an argument"
        if key is None:
            return None
        common, in_pipeline = self._common(site, store, key, client=client, client_scope=client_scope)
        usage, result_name, reads, pipeline_read = self._answer(site, in_pipeline)
        return Claim(
            **common,
            spec=spec,
            value=value,
            has_lifetime=has_lifetime,
            usage=usage,
            result_name=result_name,
            result_reads=reads,
            in_pipeline=in_pipeline,
            pipeline_read=pipeline_read,
            answer_unknown=answer_unknown,
            no_fix=no_fix,
            caught=site.caught,
            decides=site.scope.is_test and self._decides(call, site.scope, result_name),
        )

    def _old_value_tested(self, site: CallSite) -> bool:
        """An `if` or `while` of the call's function tests the old value it answers (`if old:`)."""
        name = self.walker.assigned.get(id(site.call))
        for node in nodes(site.scope.node, trivia=False):
            if type(node) in (cst.If, cst.While) and contains_call_or_name(node.test, site.call, name):
                return True
        return False

    def _answer(self, site: CallSite, in_pipeline: bool) -> tuple[str, str | None, int, bool]:
        """How the claim's answer is used: its usage, the name it is bound to, that name's reads, and
        for a claim queued on a pipeline whether the pipeline's `execute()` in the same function is
        read (`results = pipe.execute()`, `if results[0]:`)."""
        call = site.call
        result_name = self.walker.assigned.get(id(call))
        reads = count_names(site.scope.node, result_name) - 1 if result_name else 0
        usage = "statement" if site.usage != "expression" else "expression"
        return usage, result_name, reads, in_pipeline and self._pipeline_read(site)

    def _pipeline_read(self, site: CallSite) -> bool:
        pipe = site.call.func.value  # type: ignore[union-attr]
        if type(pipe) is not cst.Name:
            return False
        for node in nodes(site.scope.node, trivia=False):
            if (
                type(node) is cst.Call
                and type(node.func) is cst.Attribute
                and node.func.attr.value == "execute"
                and type(node.func.value) is cst.Name
                and node.func.value.value == pipe.value
            ):
                name = self.walker.assigned.get(id(node))
                if name is not None:
                    return count_names(site.scope.node, name) > 1
                return self.walker.statement_calls.get(id(node), "expression") == "expression"
        return False

    def _decides(self, call: cst.Call, scope: Scope, result_name: str | None) -> bool:
        """An `if` or `while` of the claim's function tests the claim or the name of its answer."""
        return any(contains_call_or_name(test, call, result_name) for test, _ in self.walker.branch_tests_of(scope))

    def spread(self, call: cst.Call, scope: Scope | None) -> cst.Call:
        """The call with its `**args` written out, where `args` is a dict literal bound once with
        string keys (`args = {"TableName": ..., "Item": ...}; client.put_item(**args)`); the call
        itself otherwise. The copy reads the same value nodes; it is never edited."""
        if scope is None or not any(a.star == "**" for a in call.args):
            return call
        written = []
        for arg in call.args:
            if arg.star != "**":
                written.append(arg)
                continue
            found = self.resolver.single_value(arg.value.value, scope) if type(arg.value) is cst.Name else None
            if found is None or type(found[0]) is not cst.Dict:
                return call
            for element in found[0].elements:
                name = literal_string(element.key) if type(element) is cst.DictElement else None
                if name is None or not name.isidentifier():
                    return call
                written.append(cst.Arg(value=element.value, keyword=cst.Name(name)))
        return call.with_changes(args=written)

    def _bound_document(self, call: cst.Call, scope: Scope | None) -> cst.Call:
        """`insert_one(doc)` where `doc = {...}` once in the function: the call with the dict written in."""
        args = list(call.args)
        if scope is None or not args or args[0].keyword is not None or type(args[0].value) not in (cst.Name, cst.IfExp):
            return call
        found = self.resolver.single_value(args[0].value.value, scope) if type(args[0].value) is cst.Name else (args[0].value, scope)
        value = unforced(found[0]) if found is not None else None
        if type(value) is not cst.Dict or found[1] is not scope:  # type: ignore[index]
            return call
        return call.with_changes(args=[args[0].with_changes(value=value), *args[1:]])

    def _bound_keyword(self, call: cst.Call, name: str, scope: Scope | None, kinds=(cst.Dict,)) -> cst.Call:
        """`get_or_create(name=key, defaults=defaults)` where `defaults = {...}` once in the function:
        the call with the dict (or another expression of `kinds`) written in."""
        args = list(call.args)
        for index, arg in enumerate(args):
            if scope is None or arg.keyword is None or arg.keyword.value != name or type(arg.value) is not cst.Name:
                continue
            found = self.resolver.single_value(arg.value.value, scope)
            if found is not None and type(found[0]) in kinds and found[1] is scope:
                args[index] = arg.with_changes(value=found[0])
                return call.with_changes(args=args)
        return call

    def bound_dynamo(self, call: cst.Call, scope: Scope | None) -> cst.Call:
        """A DynamoDB call with its item, key and condition written in where each is a name set once in
        the function (`item = {...}`, `condition = Attr("pk").not_exists() | ...`). The copy reads the
        same value nodes; it is never edited."""
        for name in ("Item", "Key", "ConditionExpression", "ExpressionAttributeValues", "ExpressionAttributeNames"):
            call = self._bound_keyword(call, name, scope, (cst.Dict, cst.Call, cst.BinaryOperation, cst.BooleanOperation, cst.UnaryOperation))
        return call

    def _document_claim(self, call: cst.Call, spec: ClaimSpec, scope: Scope | None = None, unique: bool = False):
        """The document a claim writes; `unique`: its duplicate key error is caught (a unique index)."""
        call = self.spread(call, scope)
        if spec.form == "dynamo":
            call = self.bound_dynamo(call, scope)
            return documents.dynamo_update_claim(call) if spec.method == "update_item" else documents.dynamo_claim(call)
        if spec.form == "orm" and spec.method == "save":
            call = self._saved_row(call, scope, unique)
            if call is None:
                return None
        if spec.form == "orm":
            call = self._bound_keyword(call, "defaults", scope)
            found = documents.orm_claim(call, (lambda node: self.manager_model(node, scope)) if scope is not None else None)
            return found if found is not None and (stores.lock_model_name(found.model) or spec.method == "update") else None
        if spec.form == "mongo":
            call = self._bound_document(call, scope)
            return documents.mongo_claim(call, spec.method, unique_caught=unique)
        if spec.form == "sql":
            if scope is None:
                return None
            text, params = self.sql_parts(call, scope)
            if text is None:
                return None
            locking = any(word in scope.name.lower() for word in ("lock", "acquire", "claim", "lease"))
            return sql_rows.sql_claim(text, params, locking)
        if spec.form == "builder":
            found = self._builder(call, scope)
        elif spec.form == "etcd3gw":
            found = documents.etcd3gw_transaction(self._dict_of(call, scope))
        else:
            found = documents.etcd_transaction(call)
        return found[1] if found is not None and found[0] == "claim" else None

    def _saved_row(self, call: cst.Call, scope: Scope | None, unique: bool) -> cst.Call | None:
        """`Model(name=key, ...).save()` (or a name bound once to `Model(...)`, then saved) that inserts
        only a new row: `force_insert=True`, or its IntegrityError caught. Read as the
        `Model.objects.create(name=key, ...)` it stands for (a copy, never edited)."""
        forced = any(a.keyword is not None and a.keyword.value == "force_insert" and self.resolver.code(a.value).strip() == "True" for a in call.args)
        if not (forced or unique) or type(call.func) is not cst.Attribute:
            return None
        made = call.func.value
        if type(made) is cst.Name and scope is not None:
            found = self.resolver.single_value(made.value, scope)
            made = found[0] if found is not None and found[1] is scope else None
        if type(made) is not cst.Call or type(made.func) is not cst.Name or any(a.keyword is None for a in made.args):
            return None
        manager = cst.Attribute(value=made.func, attr=cst.Name(stores.ORM_MANAGER))
        return cst.Call(func=cst.Attribute(value=manager, attr=cst.Name("create")), args=made.args)

    def _builder(self, call: cst.Call, scope: Scope | None):
        """etcd3-py's `t = client.Txn(); t.If(t.key(k).version == 0); t.Then(t.put(k, v, lease=...))`,
        also chained (`client.Txn().If(...).Then(...)`): the compares and actions of the success call's
        transaction."""
        compares: list = []
        actions = [a.value for a in call.args]
        node = call.func.value  # type: ignore[union-attr]
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in documents._BUILDER_COMPARES:
                compares.extend(a.value for a in node.args)
            elif node.func.attr.value in documents._BUILDER_SUCCESS:
                actions.extend(a.value for a in node.args)
            node = node.func.value
        if isinstance(node, cst.Name) and scope is not None:
            for site in self.walker.calls:
                func = site.call.func
                if site.scope is scope and type(func.value) is cst.Name and func.value.value == node.value:  # type: ignore[union-attr]
                    if func.attr.value in documents._BUILDER_COMPARES:  # type: ignore[union-attr]
                        compares.extend(a.value for a in site.call.args)
        return documents.builder_transaction(compares, actions)

    def _dict_of(self, call: cst.Call, scope: Scope | None) -> cst.BaseExpression | None:
        """The call's first argument, a dict literal or a name bound once to one (`transaction(txn)`)."""
        node = get_arg(call, Arg(0))
        if isinstance(node, cst.Name) and scope is not None:
            found = self.resolver.single_value(node.value, scope)
            node = found[0] if found is not None else None
        return node if isinstance(node, cst.Dict) else None

    def _compared_in_transaction(self, event) -> bool:
        """A read of the event's key, compared in the client, sits with the event in one
        `with <client>.transact():` block of the same client."""
        if not event.store.transactions:
            return False
        return any(
            read.scope is event.scope
            and read.receiver_shape == event.receiver_shape
            and read.key_shape == event.key_shape
            and read.start <= event.start
            and self._check_of(read) is not None
            and self._in_transaction_block(event, read.call)
            for read in self.reads
        )


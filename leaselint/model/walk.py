"""One walk over a module: scopes, bindings, statements, comparisons and the calls to classify."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from leaselint.model.lock_names import names_lost_lock
from leaselint.model.positions import Positions
from leaselint.model.scope import ClassInfo, Scope, function_params, is_staticmethod, target_names
from leaselint.model.stores import LOCK_RELEASE_ERRORS
from leaselint.model.traverse import walk


# Methods that hand back a read's value as text (`.decode("utf-8")`, `.strip()`).
_TEXT_METHODS = frozenset({"decode", "strip"})


@dataclass(eq=False)
class CallSite:
    call: cst.Call
    scope: Scope
    statement: cst.CSTNode
    insertable: bool
    usage: str
    # The `if` statements around the call, outermost first, and whether the call is in each one's body.
    guards: tuple = ()
    in_body: tuple = ()
    # The exception names caught by the `try` statements around the call.
    caught: frozenset = frozenset()


class Walker(cst.CSTVisitor):
    """One pass over a module: scopes, bindings, statements and every attribute call."""

    def __init__(self, positions: Positions, local_names: frozenset = frozenset()) -> None:
        super().__init__()
        self.positions = positions
        # The module's own summarised functions (model/build.py): their plain calls get sites.
        self.local_names = local_names
        self.owner: dict = getattr(positions, "owner", {})
        self.module_scope: Scope | None = None
        self.scopes: list[Scope] = []
        self.scope_stack: list[Scope] = []
        self.class_stack: list[ClassInfo | None] = []
        self.statements: list[tuple[cst.CSTNode, bool]] = []
        # Function bodies not yet entered: body id -> the function's scope.
        self.bodies: dict[int, Scope] = {}
        self.blocks: list[bool] = [True]
        self.calls: list[CallSite] = []
        self.awaited: set[int] = set()
        self.statement_calls: dict[int, str] = {}
        self.imports: dict[str, str] = {}
        # Names bound by a relative `from . import x`: name -> how many dots.
        self.import_levels: dict[str, int] = {}
        # Calls of an imported plain name (`release_lock(k)` after `from .locks import release_lock`).
        self.imported_sites: list[CallSite] = []
        # `import x` statements by the name they bind (x), and every class, for `rebinds`.
        self.plain_imports: dict[str, int] = {}
        self.classes: list[ClassInfo] = []
        # Calls of plain names (`release_lock(name)`), to follow a parameter to its callers.
        self.name_calls: dict[str, list[tuple[cst.Call, Scope]]] = {}
        # Calls by a plain name shaped as a script object's call: `release(keys=[key], args=[token])`.
        self.name_sites: list[CallSite] = []
        self.import_lines: list[cst.SimpleStatementLine] = []
        # A call assigned to one name (`ok = r.set(...)`): call id -> name.
        self.assigned: dict[int, str] = {}
        # The comparison a call sits in (`r.get(k) == token`): call id -> comparison.
        self.compared_calls: dict[int, cst.Comparison] = {}
        self.comparisons: list[cst.Comparison] = []
        # `except LockNotOwnedError: pass` and `suppress(LockError)`: (node, lock release inside).
        self.swallowed: list[cst.CSTNode] = []
        # (handler, try body, scope) of `except Exception: pass` around a `.release()` call.
        self.broad_swallows: list[tuple[cst.ExceptHandler, cst.BaseSuite, "Scope"]] = []
        # `except LockError: pass` around a release in `__del__`: a swallow only if the class acquires it.
        self.destructor_swallows: list[tuple[cst.ExceptHandler, cst.BaseSuite, "Scope"]] = []
        # (handler, the `with` item's expression, scope) of `except LockError: return` around a `with`
        # of a lock: it catches the release's lost-lease error at the block's end too.
        self.with_swallows: list[tuple[cst.ExceptHandler, cst.BaseExpression, "Scope"]] = []
        # `if <test>:` statements by their test: test id -> if.
        self.if_tests: dict[int, cst.If] = {}
        # id(test) -> the `while` it is the test of.
        self.while_tests: dict[int, cst.While] = {}
        # The `if` statements around the node being visited, outermost first, and whether it is in
        # each one's body (not its test or `else`).
        self.ifs: list[cst.If] = []
        self.in_body: list[bool] = []
        # Try bodies by id -> the exception names their handlers catch; the stack of those entered.
        self.try_bodies: dict[int, frozenset] = {}
        self.caught: list[frozenset] = []
        # `with pytest.raises(...)` bodies: the calls there are expected to fail, so they are no events.
        self.expected_failures: set[int] = set()
        self.failing = 0
        # The tests of `if` and `while` statements, with their scopes: what a claim's answer decides.
        self.branch_tests: list[tuple[cst.BaseExpression, Scope]] = []
        # Ids of the calls runners make of the functions they are handed (_handed): no fix edits them.
        self.handed: set[int] = set()
        # Ids of store calls in a lambda handed to a call (`_safe(lambda: cache.add(k, v, t), False)`).
        self.lambda_bodies: set[int] = set()
        # Ids of calls whose object is used once where it is made: a `with` item, `Made(...).method()`.
        self.one_use: set[int] = set()
        # (scope id, name) of names used as a `with` item (`with lock:`).
        self.with_names: set[tuple[int, str]] = set()

    def branch_tests_of(self, scope: Scope) -> list[tuple[cst.BaseExpression, Scope]]:
        """The branch tests of one scope, in order: an index made on first use, after the walk."""
        index = self.__dict__.get("_branch_tests_by_scope")
        if index is None:
            index = self._branch_tests_by_scope = {}
            for test, where in self.branch_tests:
                index.setdefault(id(where), []).append((test, where))
        return index.get(id(scope), [])

    def bound(self, name: str) -> int:
        """How many times `name` is bound, in every scope: assignments, parameters, definitions, imports."""
        count = sum(len(scope.bindings.get(name, ())) + scope.params.count(name) for scope in self.scopes)
        return count + sum(len(info.bindings.get(name, ())) for info in self.classes)

    def rebinds(self, name: str) -> bool:
        """Whether the module binds `name` to anything but the module of that name (a variable, a
        parameter, a function, `from x import name`, `import y as name`) in any scope."""
        return self.bound(name) > self.plain_imports.get(name, 0)

    # Scopes ---------------------------------------------------------------

    @property
    def scope(self) -> Scope:
        return self.scope_stack[-1]

    def visit_Module(self, node: cst.Module) -> None:
        self.module_scope = Scope(node=node, name="<module>", parent=None)
        self.scopes.append(self.module_scope)
        self.scope_stack.append(self.module_scope)
        self.class_stack.append(None)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._push_statement(node)
        self.scope.bind(node.name.value, None)
        info = ClassInfo(name=node.name.value, node=node, bases=tuple(_dotted(arg.value) for arg in node.bases))
        self.classes.append(info)
        self.class_stack.append(info)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()
        self.statements.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._push_statement(node)
        self.scope.bind(node.name.value, None)
        cls = self.class_stack[-1]
        scope = Scope(
            node=node,
            name=node.name.value,
            parent=self._outer_function_scope(),
            cls=cls,
            params=function_params(node),
            is_async=node.asynchronous is not None,
            is_static=is_staticmethod(node),
        )
        if cls is not None:
            cls.methods[node.name.value] = scope
        self.scopes.append(scope)
        # Decorators, defaults and annotations run where the `def` runs: the function's own scope
        # begins at its body (`_enter_block`).
        self.bodies[id(node.body)] = scope

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.statements.pop()

    def _outer_function_scope(self) -> Scope:
        # A class body is not visible from its methods: names resolve to the function or module around it.
        return self.scope

    # Bindings -------------------------------------------------------------

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if type(target) is cst.Name:
            self._bind_name(target.value, value)
        elif type(target) is cst.Attribute and type(target.value) is cst.Name:
            owner = target.value.value
            if self.scope.cls is not None and (owner == self.scope.self_name or self._class_alias(owner)):
                self.scope.cls.attrs.setdefault(target.attr.value, []).append((value, self.scope))
        else:
            for name in target_names(target):
                self._bind_name(name, None)

    def _class_alias(self, name: str) -> bool:
        """`cls = self.__class__` (or `type(self)`) in a method: `cls.x = ...` sets the class's x."""
        values = self.scope.bindings.get(name, [])
        self_name = self.scope.self_name
        if len(values) != 1 or self_name is None:
            return False
        value = values[0]
        if type(value) is cst.Attribute:
            return value.attr.value == "__class__" and type(value.value) is cst.Name and value.value.value == self_name
        return (
            type(value) is cst.Call
            and type(value.func) is cst.Name
            and value.func.value == "type"
            and len(value.args) == 1
            and type(value.args[0].value) is cst.Name
            and value.args[0].value.value == self_name
        )

    def _bind_name(self, name: str, value: cst.BaseExpression | None) -> None:
        cls = self.class_stack[-1]
        if cls is not None:
            cls.bindings.setdefault(name, []).append(value)
        else:
            # The statement stands for its line (read only when a claim and release pair).
            line = self.statements[-1][0] if self.statements else None
            self.scope.bind(name, value, line)
            if name in self.scope.declared_global and self.scope is not self.module_scope:
                # `global _client` then `_client = redis.Redis()`: the module's name too, for the
                # other functions that read it (the function itself reads its own assignment).
                self.module_scope.bind(name, value, line)  # type: ignore[union-attr]

    def visit_Global(self, node: cst.Global) -> None:
        self.scope.declared_global = self.scope.declared_global | {item.name.value for item in node.names}

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_target(target.target, node.value if len(node.targets) == 1 else None)
        call = node.value.expression if type(node.value) is cst.Await else node.value
        if type(call) is cst.Call and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            self.assigned[id(call)] = node.targets[0].target.value
            # `holder = pipe.get(key).decode()`: the read's own value, as text.
            while type(call.func) is cst.Attribute and call.func.attr.value in _TEXT_METHODS and type(call.func.value) is cst.Call:
                call = call.func.value
                self.assigned[id(call)] = node.targets[0].target.value

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind_target(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        # The statement itself stands for the value: origins read it as a counter.
        self._bind_target(node.target, node)  # type: ignore[arg-type]

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._push_statement(node)
        self._bind_target(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        item = node.item.expression if type(node.item) is cst.Await else node.item
        if type(item) is cst.Call:
            self.one_use.add(id(item))  # `with Mutex(key):`: the object lives for this block alone
        if type(node.item) is cst.Name:
            self.with_names.add((id(self.scope), node.item.value))
        if node.asname is not None:
            self._bind_target(node.asname.name, node.item)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_target(node.name.name, None)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None:
                bound = alias.asname.name.value  # type: ignore[union-attr]
                self.imports[bound] = dotted
            else:
                bound = dotted.split(".")[0]
                self.imports[bound] = bound
                self.plain_imports[bound] = self.plain_imports.get(bound, 0) + 1
            self._bind_name(bound, None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = _dotted(node.module) if node.module is not None else ""
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = _dotted(alias.name)
            bound = alias.asname.name.value if alias.asname is not None else name  # type: ignore[union-attr]
            self.imports[bound] = f"{module}.{name}" if module else name
            if node.relative:
                self.import_levels[bound] = len(node.relative)
            self._bind_name(bound, None)

    # Statements and blocks ------------------------------------------------

    def _push_statement(self, node: cst.CSTNode) -> None:
        insertable = self.blocks[-1]
        if type(node) is cst.If and self.statements:
            parent = self.statements[-1][0]
            if type(parent) is cst.If and parent.orelse is node:
                insertable = False
        self.statements.append((node, insertable))

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._push_statement(node)
        if len(self.scope_stack) == 1 and all(type(s) is cst.Import or type(s) is cst.ImportFrom for s in node.body):
            self.import_lines.append(node)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self.statements.pop()

    def visit_If(self, node: cst.If) -> None:
        self._push_statement(node)
        self.if_tests[id(node.test)] = node
        self.branch_tests.append((node.test, self.scope))
        self.ifs.append(node)
        self.in_body.append(False)

    def leave_If(self, original_node: cst.If) -> None:
        self.statements.pop()
        self.ifs.pop()
        self.in_body.pop()

    def _enter_block(self, node: cst.BaseSuite) -> None:
        caught = self.try_bodies.get(id(node))
        if caught is not None:
            self.caught.append(caught)
        if id(node) in self.expected_failures:
            self.failing += 1
        scope = self.bodies.pop(id(node), None)
        if scope is not None:
            self.scope_stack.append(scope)
            self.class_stack.append(None)
        # Between an `if` and its body only its test is visited, which holds no statement.
        if self.ifs and self.ifs[-1].body is node:
            self.in_body[-1] = True

    def _leave_block(self, node: cst.BaseSuite) -> None:
        if id(node) in self.try_bodies:
            self.caught.pop()
        if id(node) in self.expected_failures:
            self.failing -= 1
        if self.scope.node is not None and getattr(self.scope.node, "body", None) is node and len(self.scope_stack) > 1:
            self.scope_stack.pop()
            self.class_stack.pop()
        if self.ifs and self.ifs[-1].body is node:
            self.in_body[-1] = False

    def visit_While(self, node: cst.While) -> None:
        self._push_statement(node)
        self.while_tests[id(node.test)] = node
        self.branch_tests.append((node.test, self.scope))

    def leave_While(self, original_node: cst.While) -> None:
        self.statements.pop()

    def leave_For(self, original_node: cst.For) -> None:
        self.statements.pop()

    def visit_With(self, node: cst.With) -> None:
        self._push_statement(node)
        for item in node.items:
            call = item.item
            name = _dotted(call.func).split(".")[-1] if isinstance(call, cst.Call) else ""
            if name in EXPECTS_FAILURE or (name == "suppress" and self.scope.is_test):
                # A test that expects the call to fail (or does not care that it does).
                self.expected_failures.add(id(node.body))
            elif name == "suppress":
                if any(_catches_lock_error(arg.value) for arg in call.args):
                    others = [i.item for i in node.items if i is not item]
                    if others or _releases_lock(node.body):
                        self.swallowed.append(item)

    def leave_With(self, original_node: cst.With) -> None:
        self.statements.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self._push_statement(node)
        self.try_bodies[id(node.body)] = frozenset(
            name for handler in node.handlers for name in _error_names(handler.type)
        )
        lost_caught = False  # an earlier handler takes the lost lease's own error (`LockNotOwnedError`)
        for handler in node.handlers:
            if does_nothing(handler.body) and not self.scope.is_test and _catches_lock_error(handler.type) and not lost_caught:
                for item in _with_items(node.body):
                    self.with_swallows.append((handler, item, self.scope))
            lost_caught = lost_caught or "LockNotOwnedError" in _error_names(handler.type)
            if does_nothing(handler.body) and _releases_lock(node.body) and not self.scope.is_test:
                if self.scope.name == "__del__":
                    # A destructor releases whether or not the lock was ever held: a swallowed lost
                    # lease only where the class acquires that lock (the classifier tells).
                    if _catches_lock_error(handler.type):
                        self.destructor_swallows.append((handler, node.body, self.scope))
                elif _catches_lock_error(handler.type):
                    self.swallowed.append(handler)
                elif _catches_everything(handler.type):
                    # `except Exception: pass` around a release: a lost lease when what is released is a
                    # lease lock (the classifier tells, once it knows the lock objects).
                    self.broad_swallows.append((handler, node.body, self.scope))

    def leave_Try(self, original_node: cst.Try) -> None:
        self.statements.pop()

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._push_statement(node)

    def leave_TryStar(self, original_node: cst.TryStar) -> None:
        self.statements.pop()

    def visit_Match(self, node: cst.Match) -> None:
        self._push_statement(node)

    def leave_Match(self, original_node: cst.Match) -> None:
        self.statements.pop()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.blocks.append(True)
        self._enter_block(node)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.blocks.pop()
        self._leave_block(original_node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self.blocks.append(False)
        self._enter_block(node)

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        self.blocks.pop()
        self._leave_block(original_node)

    # Calls ----------------------------------------------------------------

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value
        statement, insertable = self.statements[-1] if self.statements else (None, False)
        whole_line = (
            type(statement) is cst.SimpleStatementLine and len(statement.body) == 1 and self.blocks[-1]
        )
        usage = "statement" if whole_line else "inline"
        if type(value) is cst.Await and type(value.expression) is cst.Call:
            self.statement_calls[id(value.expression)] = usage
        elif type(value) is cst.Call:
            self.statement_calls[id(value)] = usage
        else:
            # `self.token and self.release()`: the last operand's answer is thrown away too.
            while type(value) is cst.BooleanOperation:
                value = value.right
            if type(value) is cst.Await:
                value = value.expression
            if type(value) is cst.Call:
                self.statement_calls[id(value)] = "operand"

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.comparisons.append(node)
        for name in _names_in(node):
            self.scope.compared.setdefault(name, []).append(node)

    def leave_Comparison(self, original_node: cst.Comparison) -> None:
        self.comparisons.pop()

    def visit_Await(self, node: cst.Await) -> None:
        if type(node.expression) is cst.Call:
            self.awaited.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) is cst.Attribute and type(node.func.value) is cst.Call:
            self.one_use.add(id(node.func.value))  # `Mutex(key).run(job)`
        if self.comparisons:
            self.compared_calls[id(node)] = self.comparisons[-1]
        if id(node) in self.lambda_bodies:
            return  # read at the call the lambda is handed to (_handed)
        if not self.failing and self.statements:
            handed = handed_call(node)
            if handed is None:
                handed = _lambda_body(node)
                if handed is not None:
                    self.lambda_bodies.add(id(handed))
            if handed is not None:
                self._handed(node, handed)
            elif type(node.func) is cst.Name and self.scope.parent is not None:
                # `method = self.mc.add` or `action = partial(self.mc.delete, key)` in the function,
                # then `method(key, value, ttl)`, `action()`: each bound method called, awaited as it is.
                values = self.scope.bindings.get(node.func.value, ())
                for value in values[:2] if len(values) <= 2 else ():
                    bound = _bound_method(value, node)
                    if bound is not None:
                        self._handed(node, bound)
                        if id(node) in self.awaited:
                            self.awaited.add(id(bound))
        if type(node.func) is cst.Name and not self.failing:
            self.name_calls.setdefault(node.func.value, []).append((node, self.scope))
            if self.statements:
                # Its top-level statement, for lazy positions (a fix of a helper pair asks for its calls).
                self.owner[id(node)] = self.statements[0][0]
            if self.statements and script_object_call(node):
                self.name_sites.append(self._site(node))
            elif self.statements and (node.func.value in self.imports or node.func.value in self.local_names):
                self.imported_sites.append(self._site(node))
        if type(node.func) is not cst.Attribute or not self.statements or self.failing:
            return
        self.calls.append(self._site(node))

    def _handed(self, node: cst.Call, handed: cst.Call) -> None:
        """A function handed to a runner with its arguments (`asyncio.to_thread(r.delete, key)`,
        `queue.enqueue(run_build, build_id, lock_id)`): read as the call it makes, at the runner
        call's place, and answering as the runner call does (its awaiting is the runner's own)."""
        self.positions.alias(handed, node)
        self.handed.add(id(handed))
        for facts in (self.statement_calls, self.assigned, self.compared_calls):
            if id(node) in facts:
                facts[id(handed)] = facts[id(node)]
        func = handed.func
        if type(func) is cst.Attribute:
            self.calls.append(self._site(handed))
        elif type(func) is cst.Name:
            self.name_calls.setdefault(func.value, []).append((handed, self.scope))
            if func.value in self.imports or func.value in self.local_names:
                self.imported_sites.append(self._site(handed))

    def _site(self, node: cst.Call) -> CallSite:
        statement, insertable = self.statements[-1]
        # Lazy positions make the top-level statement of a recorded call when it is asked for.
        owner, top = self.owner, self.statements[0][0]
        owner[id(node)] = owner[id(statement)] = top
        usage = self.statement_calls.get(id(node), "expression")
        caught = frozenset().union(*self.caught) if self.caught else frozenset()
        return CallSite(node, self.scope, statement, insertable, usage, tuple(self.ifs), tuple(self.in_body), caught)


# Runners that call the function they are handed with the arguments after it: name -> how many
# arguments come before the function (`run_in_executor(executor, f, *args)`).
_RUNNERS = {"to_thread": 0, "run_sync": 0, "run_in_executor": 1, "submit": 0, "enqueue": 0, "spawn": 0}
# Keyword arguments that are rq's `enqueue`'s own, not the function's.
_RUNNER_KEYWORDS = frozenset({"job_timeout", "result_ttl", "ttl", "failure_ttl", "depends_on", "job_id", "at_front",
                              "description", "meta", "retry", "on_success", "on_failure", "timeout"})
_WRAPPERS = frozenset({"partial", "sync_to_async", "database_sync_to_async"})


def handed_call(node: cst.Call) -> cst.Call | None:
    """The call a runner makes of the function it is handed: `f(*args)` for `asyncio.to_thread(f,
    *args)`, `loop.run_in_executor(None, f, *args)` (or `partial(f, *args)` handed alone),
    `executor.submit(f, *args)`, `queue.enqueue(f, *args)`, `sync_to_async(f)(*args)`,
    `partial(f, *args)()`, `task.delay(*args)` of a plain function name; None for any other call.
    Only functions named by a name or an attribute, arguments passed by place or keyword."""
    func = node.func
    if (
        type(func) is cst.Call
        and func.args
        and type(func.func) is cst.Name
        and func.func.value in _WRAPPERS
        and (func.func.value == "partial" or not func.args[1:])
    ):
        inner = func.args[0].value  # `sync_to_async(f)(*args)`, `partial(f, a)(b)`
        made = _made_call(inner, [*func.args[1:], *node.args])
        return made if made is not None and _plain(made) else None
    name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    if name == "delay" and type(func) is cst.Attribute and type(func.value) is cst.Name:
        made = _made_call(func.value, list(node.args))  # a Celery task called by `delay`
        return made if made is not None and _plain(made) else None
    skip = _RUNNERS.get(name)
    if skip is None or len(node.args) <= skip or any(a.keyword is not None for a in node.args[: skip + 1]):
        return None
    target = node.args[skip].value
    rest = [
        a for a in node.args[skip + 1 :] if not (name == "enqueue" and a.keyword is not None and a.keyword.value in _RUNNER_KEYWORDS)
    ]
    if type(target) is cst.Call and type(target.func) is cst.Name and target.func.value == "partial" and target.args:
        rest = [*target.args[1:], *rest]
        target = target.args[0].value
    if type(target) not in (cst.Name, cst.Attribute):
        return None
    made = _made_call(target, rest)
    return made if made is not None and _plain(made) else None


def _lambda_body(node: cst.Call) -> cst.Call | None:
    """The store method a call is handed in a lambda of no parameters, called by whoever runs it and
    answering through it: `_safe(lambda: cache.add(key, value, ttl), False)`, `retry(lambda:
    r.delete(key))`. Only one such lambda among the arguments."""
    found = None
    for arg in node.args:
        value = arg.value
        if type(value) is cst.Lambda:
            params = value.params
            if params.params or params.posonly_params or params.kwonly_params or not isinstance(params.star_arg, cst.MaybeSentinel) or params.star_kwarg is not None:
                return None
            if found is not None or type(value.body) is not cst.Call or type(value.body.func) is not cst.Attribute:
                return None
            found = value.body
    return found


def _bound_method(value, call: cst.Call) -> cst.Call | None:
    """The call `call` makes through a name bound to `value`: a store method (`self.mc.add`), or a
    `partial` of one with its first arguments."""
    if type(value) is cst.Attribute and type(value.value) in (cst.Name, cst.Attribute):
        made = _made_call(value, list(call.args))
    elif (
        type(value) is cst.Call
        and type(value.func) in (cst.Name, cst.Attribute)
        and (value.func.value if type(value.func) is cst.Name else value.func.attr.value) == "partial"
        and value.args
        and type(value.args[0].value) is cst.Attribute
    ):
        made = _made_call(value.args[0].value, [*value.args[1:], *call.args])
    else:
        return None
    return made if made is not None and _plain(made) else None


def _plain(call: cst.Call) -> bool:
    return type(call.func) in (cst.Name, cst.Attribute) and not any(a.star for a in call.args)


def _made_call(func: cst.BaseExpression, args: list) -> cst.Call | None:
    """`func(*args)` as a node, or None where the arguments cannot stand in that order (a
    `partial(f, key=k)` called with more arguments by place)."""
    keyword = False
    for arg in args:
        if arg.keyword is not None or arg.star:
            keyword = True
        elif keyword:
            return None
    try:
        return cst.Call(func=func, args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args])
    except Exception:  # libcst's own checks of a node: never a crash of the walk
        return None


def script_object_call(node: cst.Call) -> bool:
    """Called as a script object is (`release(keys=[key], args=[token])`, `release([key], [token])`)."""
    args = node.args
    if any(a.keyword is not None and a.keyword.value == "keys" for a in args):
        return True
    return bool(args) and args[0].keyword is None and type(args[0].value) in (cst.List, cst.Tuple)


def _dotted(node: cst.BaseExpression) -> str:
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


dotted = _dotted


# Context managers of tests that expect the calls inside to raise.
EXPECTS_FAILURE = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


def _error_names(node: cst.BaseExpression | None) -> list[str]:
    """The last names of the exceptions an `except` clause catches."""
    if node is None:
        return []
    if isinstance(node, cst.Tuple):
        return [name for element in node.elements for name in _error_names(element.value)]
    return [dotted(node).split(".")[-1]]


def _catches_lock_error(node: cst.BaseExpression | None) -> bool:
    if node is None:
        return False
    if isinstance(node, cst.Tuple):
        return any(_catches_lock_error(element.value) for element in node.elements)
    name = dotted(node).split(".")[-1]
    return name in LOCK_RELEASE_ERRORS or names_lost_lock(name)


def _catches_everything(node: cst.BaseExpression | None) -> bool:
    """A bare `except:`, `except Exception` or `except BaseException`."""
    if node is None:
        return True
    if isinstance(node, cst.Tuple):
        return any(_catches_everything(element.value) for element in node.elements)
    return dotted(node) in ("Exception", "BaseException", "builtins.Exception")


def does_nothing(body: cst.BaseSuite) -> bool:
    """The handler drops the error: `pass`, `...`, `continue`, a bare `return` (or `return None`), or a
    log at debug level (invisible in production)."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        small = statement.body if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else None
        if small is None:
            return False
        for item in small:
            if isinstance(item, (cst.Pass, cst.Continue)):
                continue
            if isinstance(item, cst.Return) and (
                item.value is None or (isinstance(item.value, cst.Name) and item.value.value == "None")
            ):
                continue
            if isinstance(item, cst.Expr) and isinstance(item.value, (cst.Ellipsis, cst.SimpleString)):
                continue
            if isinstance(item, cst.Expr) and _debug_log(item.value):
                continue
            return False
    return True


def _debug_log(node: cst.BaseExpression) -> bool:
    """`log.debug(...)`, `logger.debug(...)`, `logging.debug(...)`."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "debug"
        and isinstance(node.func.value, (cst.Name, cst.Attribute))
    )


# Methods that release a lock object (the calls a handler around them may swallow the error of).
RELEASING_CALLS = frozenset({"release", "__exit__", "__aexit__"})


class _ReleaseFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in RELEASING_CALLS:
            self.found = True


def _with_items(body: cst.BaseSuite) -> list[cst.BaseExpression]:
    """The items of the `with` statements at the top of a `try` body (`async with r.lock(...):`)."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else []
    return [item.item for statement in statements if type(statement) is cst.With for item in statement.items]


def _releases_lock(body: cst.CSTNode) -> bool:
    finder = _ReleaseFinder()
    walk(body, finder)
    return finder.found


_SAME_VALUE_METHODS = frozenset({"decode", "encode", "strip", "lower", "upper"})


# Calls that read a stored value back as another type: a comparison through one is still a check of
# the stored value, but not of the bytes a server-side compare would see.
DECODERS = frozenset({"float", "int", "pickle.loads", "json.loads", "orjson.loads", "msgpack.unpackb", "marshal.loads"})


def decoded(node: cst.BaseExpression) -> str | None:
    """`pickle.loads(value)`, `float(value)`: the decoder's name, for a call of one on one argument."""
    if not isinstance(node, cst.Call) or len(node.args) != 1 or node.args[0].star:
        return None
    func = node.func
    name = func.value if isinstance(func, cst.Name) else dotted(func) if isinstance(func, cst.Attribute) else ""
    return name if name in DECODERS else None


def _names_in(node: cst.CSTNode) -> set[str]:
    """Names a comparison reads directly (`value`, `value.decode()`, `str(value)`), or a field of
    (`value["owner"]`, `value.get("task_id")`, `value[0]`, `json.loads(value)["owner"]`)."""
    names: set[str] = set()
    operands = [node.left, *(target.comparator for target in node.comparisons)]  # type: ignore[attr-defined]
    for operand in operands:
        while True:
            kind = type(operand)
            if kind is cst.BinaryOperation and type(operand.operator) in (cst.Add, cst.Subtract):  # type: ignore[attr-defined]
                # A clock check: `now > int(stamp) + timeout`, `now - float(started) > ttl`.
                operands.append(operand.right)  # type: ignore[attr-defined]
                operand = operand.left  # type: ignore[attr-defined]
                continue
            if kind is cst.Subscript and len(operand.slice) == 1:  # type: ignore[attr-defined]
                operand = operand.value  # type: ignore[attr-defined]
                continue
            if kind is not cst.Call:
                break
            func = operand.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Attribute) and func.attr.value in _SAME_VALUE_METHODS:
                operand = func.value
            elif isinstance(func, cst.Attribute) and func.attr.value == "get" and operand.args:  # type: ignore[attr-defined]
                operand = func.value
            elif isinstance(func, cst.Name) and func.value in ("str", "bytes") and operand.args:  # type: ignore[attr-defined]
                operand = operand.args[0].value  # type: ignore[attr-defined]
            elif decoded(operand) is not None:
                operand = operand.args[0].value  # type: ignore[attr-defined]
            else:
                break
        if isinstance(operand, cst.Name):
            names.add(operand.value)
    return names

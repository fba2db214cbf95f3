"""Module -> lease model: one walk gathers scopes and calls, then the store table classifies them."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from leaselint.diagnostics import Position
from leaselint.model import stores
from leaselint.model.events import Claim, Lease, LeaseModel, Release, Write
from leaselint.model.keys import Resolver, extends, literal_string
from leaselint.model.scope import ClassInfo, Scope, function_params, is_staticmethod, target_names
from leaselint.model.stores import Arg, ClaimSpec, ReleaseSpec, Store, WriteSpec
from leaselint.model.values import Origins

# Functions that delete a lock key on purpose, whoever holds it.
DELIBERATE_RELEASES = frozenset({"break_", "break_lock", "reset", "clear", "reset_all", "clear_all"})


@dataclass(eq=False)
class CallSite:
    call: cst.Call
    scope: Scope
    statement: cst.CSTNode
    insertable: bool
    usage: str


class _Walker(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.module_scope: Scope | None = None
        self.scopes: list[Scope] = []
        self.scope_stack: list[Scope] = []
        self.class_stack: list[ClassInfo | None] = []
        self.statements: list[tuple[cst.CSTNode, bool]] = []
        self.blocks: list[bool] = [True]
        self.calls: list[CallSite] = []
        self.awaited: set[int] = set()
        self.statement_calls: dict[int, str] = {}
        self.imports: dict[str, str] = {}
        # Calls of plain names (`release_lock(name)`), to follow a parameter to its callers.
        self.name_calls: dict[str, list[tuple[cst.Call, Scope]]] = {}
        self.import_lines: list[cst.SimpleStatementLine] = []

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
        self.class_stack.append(ClassInfo(name=node.name.value, node=node))

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
        self.scope_stack.append(scope)
        self.class_stack.append(None)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope_stack.pop()
        self.class_stack.pop()
        self.statements.pop()

    def _outer_function_scope(self) -> Scope:
        # A class body is not visible from its methods: names resolve to the function or module around it.
        return self.scope

    # Bindings -------------------------------------------------------------

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            self._bind_name(target.value, value)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if target.value.value == self.scope.self_name and self.scope.cls is not None:
                self.scope.cls.attrs.setdefault(target.attr.value, []).append((value, self.scope))
        else:
            for name in target_names(target):
                self._bind_name(name, None)

    def _bind_name(self, name: str, value: cst.BaseExpression | None) -> None:
        cls = self.class_stack[-1]
        if cls is not None:
            cls.bindings.setdefault(name, []).append(value)
        else:
            line = self.get_metadata(PositionProvider, self.statements[-1][0]).start.line if self.statements else 0
            self.scope.bind(name, value, line)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_target(target.target, node.value if len(node.targets) == 1 else None)

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
            self._bind_name(bound, None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = _dotted(node.module) if node.module is not None else ""
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = _dotted(alias.name)
            bound = alias.asname.name.value if alias.asname is not None else name  # type: ignore[union-attr]
            self.imports[bound] = f"{module}.{name}" if module else name
            self._bind_name(bound, None)

    # Statements and blocks ------------------------------------------------

    def _push_statement(self, node: cst.CSTNode) -> None:
        insertable = self.blocks[-1]
        if isinstance(node, cst.If) and self.statements:
            parent = self.statements[-1][0]
            if isinstance(parent, cst.If) and parent.orelse is node:
                insertable = False
        self.statements.append((node, insertable))

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._push_statement(node)
        if len(self.scope_stack) == 1 and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in node.body):
            self.import_lines.append(node)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self.statements.pop()

    def visit_If(self, node: cst.If) -> None:
        self._push_statement(node)

    def leave_If(self, original_node: cst.If) -> None:
        self.statements.pop()

    def visit_While(self, node: cst.While) -> None:
        self._push_statement(node)

    def leave_While(self, original_node: cst.While) -> None:
        self.statements.pop()

    def leave_For(self, original_node: cst.For) -> None:
        self.statements.pop()

    def visit_With(self, node: cst.With) -> None:
        self._push_statement(node)

    def leave_With(self, original_node: cst.With) -> None:
        self.statements.pop()

    def visit_Try(self, node: cst.Try) -> None:
        self._push_statement(node)

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

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.blocks.pop()

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self.blocks.append(False)

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        self.blocks.pop()

    # Calls ----------------------------------------------------------------

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value
        statement, insertable = self.statements[-1] if self.statements else (None, False)
        whole_line = (
            isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and self.blocks[-1]
        )
        usage = "statement" if whole_line else "inline"
        if isinstance(value, cst.Await) and isinstance(value.expression, cst.Call):
            self.statement_calls[id(value.expression)] = usage
        elif isinstance(value, cst.Call):
            self.statement_calls[id(value)] = usage

    def visit_Await(self, node: cst.Await) -> None:
        if isinstance(node.expression, cst.Call):
            self.awaited.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.name_calls.setdefault(node.func.value, []).append((node, self.scope))
        if not isinstance(node.func, cst.Attribute) or not self.statements:
            return
        statement, insertable = self.statements[-1]
        usage = self.statement_calls.get(id(node), "expression")
        self.calls.append(CallSite(node, self.scope, statement, insertable, usage))


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


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


def _deliberate(scope: Scope) -> bool:
    name = scope.name.lower()
    return name in DELIBERATE_RELEASES or "force" in name


def _first_item(node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        return node.elements[0].value
    return None


def _command_words(call: cst.Call) -> list[str]:
    return [(literal_string(a) or "").upper() for a in positional_args(call)]


class _Classifier:
    def __init__(self, walker: _Walker, positions, resolver: Resolver) -> None:
        self.walker = walker
        self.positions = positions
        self.resolver = resolver
        self.claims: list[Claim] = []
        self.releases: list[Release] = []
        self.writes: list[Write] = []

    def run(self) -> None:
        for site in self.walker.calls:
            method = site.call.func.attr.value  # type: ignore[union-attr]
            for store, spec in stores.claim_specs(method):
                claim = self._claim(site, store, spec)
                if claim is not None:
                    self.claims.append(claim)
                    break
            for store, spec in stores.release_specs(method):
                found = self._releases(site, store, spec)
                if found:
                    self.releases.extend(found)
                    break
            for store, spec in stores.write_specs(method):
                write = self._write(site, store, spec)
                if write is not None:
                    self.writes.append(write)
                    break

    def _recognised(self, store: Store, site: CallSite) -> bool:
        """The receiver is a client of `store`: by import, by how it was made, or by its name."""
        receiver: cst.BaseExpression = site.call.func.value  # type: ignore[union-attr]
        scope = site.scope
        for _ in range(4):
            if isinstance(receiver, cst.Subscript):
                receiver = receiver.value
                continue
            if isinstance(receiver, cst.Call):
                receiver = receiver.func
                continue
            break
        if isinstance(receiver, cst.Name):
            imported = self.walker.imports.get(receiver.value, "")
            if any(imported == m or imported.startswith(m + ".") for m in store.modules):
                return True
            found = self.resolver.single_value(receiver.value, scope)
            if found is not None and found[0] is not receiver:
                made = found[0]
                if isinstance(made, cst.Call) and self._made_by(store, made.func):
                    return True
            return receiver.value in store.client_names
        if isinstance(receiver, cst.Attribute):
            if self.resolver.is_self(receiver.value, scope):
                for value, _ in self.resolver.self_attr_values(receiver.attr.value, scope):
                    if isinstance(value, cst.Call) and self._made_by(store, value.func):
                        return True
            return receiver.attr.value in store.client_names or self._made_by(store, receiver)
        return False

    def _made_by(self, store: Store, func: cst.BaseExpression) -> bool:
        while isinstance(func, (cst.Attribute, cst.Subscript, cst.Call)):
            func = func.value if not isinstance(func, cst.Call) else func.func
        if not isinstance(func, cst.Name):
            return False
        imported = self.walker.imports.get(func.value, "")
        return any(imported == m or imported.startswith(m + ".") for m in store.modules)

    def _write(self, site: CallSite, store: Store, spec: WriteSpec) -> Write | None:
        if store.recognised_only and not self._recognised(store, site):
            return None
        key = get_arg(site.call, spec.key)
        value = get_arg(site.call, spec.value)
        if key is None or value is None or any(a.keyword and a.keyword.value == "nx" for a in site.call.args):
            return None
        common, _ = self._common(site, store, key)
        return Write(**common, value=value)

    def _common(self, site: CallSite, store, key: cst.BaseExpression, in_pipeline: bool = False):
        receiver, receiver_scope, in_pipeline = self._receiver(site)
        position = self.positions[site.call]
        return dict(
            store=store,
            call=site.call,
            receiver=site.call.func.value,  # type: ignore[union-attr]
            receiver_shape=self.resolver.shape(receiver, receiver_scope),
            key=key,
            key_shape=self.resolver.shape(key, site.scope),
            scope=site.scope,
            statement=site.statement,
            insertable=site.insertable,
            awaited=id(site.call) in self.walker.awaited,
            start=Position(position.start.line, position.start.column),
            end=Position(position.end.line, position.end.column),
        ), in_pipeline

    def _receiver(self, site: CallSite) -> tuple[cst.BaseExpression, Scope, bool]:
        """The client behind a call's receiver; a pipeline stands for the client it came from."""
        receiver: cst.BaseExpression = site.call.func.value  # type: ignore[union-attr]
        scope = site.scope
        made = receiver
        made_scope = scope
        if isinstance(receiver, cst.Name):
            found = self.resolver.single_value(receiver.value, scope)
            if found is not None:
                made, made_scope = found
        if isinstance(made, cst.Await):
            made = made.expression
        if (
            isinstance(made, cst.Call)
            and isinstance(made.func, cst.Attribute)
            and made.func.attr.value in stores.pipeline_methods()
        ):
            return made.func.value, made_scope, True
        return receiver, scope, False

    def _claim(self, site: CallSite, store, spec: ClaimSpec) -> Claim | None:
        call = site.call
        if store.recognised_only and not self._recognised(store, site):
            return None
        if spec.command is not None:
            words = _command_words(call)
            if not words or words[0] != spec.command or spec.command_flag not in words[1:]:
                return None
            has_lifetime = any(word in words[1:] for word in spec.lifetime_words)
        else:
            if spec.flag is not None and not _flag_set(get_arg(call, spec.flag), spec.flag_value):
                return None
            has_lifetime = any(not _is_none(get_arg(call, where)) for where in spec.lifetime)
        key = get_arg(call, spec.key)
        if key is None:
            return None
        common, _ = self._common(site, store, key)
        value = get_arg(call, spec.value) if spec.value is not None else None
        return Claim(**common, spec=spec, value=value, has_lifetime=has_lifetime)

    def _releases(self, site: CallSite, store, spec: ReleaseSpec) -> list[Release]:
        call = site.call
        if spec.command:
            words = _command_words(call)
            if not words or words[0] not in spec.command:
                return []
            keys = [get_arg(call, spec.key)] if spec.key is not None else positional_args(call)[1:]
        elif spec.key is not None:
            keys = [get_arg(call, spec.key)]
            if spec.key_in_list:
                keys = [_first_item(keys[0])]
        else:
            keys = positional_args(call)
        if spec.script is not None and not self._deletes(get_arg(call, spec.script), site.scope):
            return []
        keys = [k for k in keys if k is not None]
        token = get_arg(call, spec.token) if spec.token is not None else None
        if spec.key_in_list:
            token = _first_item(token)
        found = []
        for key in keys:
            common, in_pipeline = self._common(site, store, key)
            found.append(
                Release(
                    **common,
                    spec=spec,
                    checked=spec.checked,
                    in_pipeline=in_pipeline,
                    usage=site.usage,
                    other_keys=len(keys) - 1,
                    deliberate=_deliberate(site.scope),
                    token=token,
                )
            )
        return found

    def _deletes(self, script: cst.BaseExpression | None, scope: Scope) -> bool:
        """A script counts as a release when its text deletes a key after comparing an argument."""
        text = self._string_value(script, scope)
        return text is not None and "del" in text.lower() and "ARGV" in text

    def _string_value(self, node: cst.BaseExpression | None, scope: Scope) -> str | None:
        if node is None:
            return None
        if isinstance(node, cst.Name):
            found = self.resolver.single_value(node.value, scope)
            return self._string_value(found[0], found[1]) if found else None
        return literal_string(node)


def _pair(claims: list[Claim], releases: list[Release], writes: list[Write]) -> list[Lease]:
    leases: dict[tuple, Lease] = {}
    for claim in claims:
        ident = (claim.receiver_shape, claim.key_shape)
        leases.setdefault(ident, Lease(*ident)).claims.append(claim)
    for release in releases:
        lease = leases.get((release.receiver_shape, release.key_shape))
        if lease is not None and any(not _rebound_between(claim, release) for claim in lease.claims):
            lease.releases.append(release)
    paired = [lease for lease in leases.values() if lease.releases]
    for lease in paired:
        for write in writes:
            if write.receiver_shape == lease.receiver_shape and extends(write.key_shape, lease.key_shape):
                if any(_near(write, claim) for claim in lease.claims):
                    lease.side_writes.append(write)
    return paired


def _near(write: Write, claim: Claim) -> bool:
    """In the claim's function, or in another method of its class."""
    cls = claim.scope.cls
    return write.scope is claim.scope or (cls is not None and write.scope.cls is cls)


def _rebound_between(claim: Claim, release: Release) -> bool:
    """A name of the key or client is assigned again between the claim and the release."""
    if claim.scope is not release.scope or claim.start.line >= release.start.line:
        return False
    names = _free_names(claim.key_shape) | _free_names(claim.receiver_shape)
    lines = [line for name in names for line in claim.scope.binding_lines.get(name, [])]
    return any(claim.start.line < line <= release.start.line for line in lines)


def _free_names(shape) -> set[str]:
    if isinstance(shape, tuple):
        if len(shape) == 2 and shape[0] == "name" and isinstance(shape[1], str):
            return {shape[1]}
        return set().union(*(_free_names(part) for part in shape)) if shape else set()
    return set()


def _module_facts(walker: _Walker, module: cst.Module, positions, resolver: Resolver) -> dict:
    scope = walker.module_scope
    assert scope is not None
    logger_name = None
    script_constant = None
    for name, values in scope.bindings.items():
        if len(values) != 1 or values[0] is None:
            continue
        value = values[0]
        if isinstance(value, cst.Call) and _dotted(value.func).split(".")[-1] in ("getLogger", "get_logger"):
            logger_name = logger_name or name
        text = literal_string(value.value if isinstance(value, cst.Expr) else value)
        if text is not None and "ARGV[1]" in text and "del" in text.lower():
            script_constant = script_constant or name
    header, after_import, leading = _header_position(module, positions)
    return dict(
        logger_name=logger_name,
        imported_modules={bound for bound, dotted in walker.imports.items() if bound == dotted},
        module_names=set(scope.bindings),
        script_constant=script_constant,
        header_position=header,
        header_after_import=after_import,
        leading_imports=leading,
    )


def _header_position(module: cst.Module, positions) -> tuple[Position, bool, list]:
    """Where new module constants go (after the leading imports), and those imports by module name."""
    body = list(module.body)
    index = 0
    if body and _is_docstring(body[0]):
        index = 1
    leading: list[tuple[str, Position, Position, bool]] = []
    last_import = None
    while index < len(body):
        statement = body[index]
        if isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        ):
            last_import = statement
            where = positions[statement]
            leading.append(
                (
                    _imported_module(statement.body[0]),
                    Position(where.start.line, 0),
                    Position(where.end.line + 1, 0),
                    isinstance(statement.body[0], cst.ImportFrom),
                )
            )
            index += 1
            continue
        break
    if last_import is not None:
        return Position(positions[last_import].end.line + 1, 0), True, leading
    if index < len(body):
        return Position(positions[body[index]].start.line, 0), False, leading
    return Position(len(module.code.splitlines()) + 1, 0), False, leading


def _imported_module(statement: cst.CSTNode) -> str:
    if isinstance(statement, cst.Import):
        return _dotted(statement.names[0].name)
    if isinstance(statement, cst.ImportFrom):
        return "." * len(statement.relative) + (_dotted(statement.module) if statement.module else "")
    return ""


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def build_model(module: cst.Module) -> LeaseModel:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    walker = _Walker()
    wrapper.visit(walker)
    assert walker.module_scope is not None
    resolver = Resolver(walker.module_scope)
    classifier = _Classifier(walker, positions, resolver)
    classifier.run()
    return LeaseModel(
        module=module,
        leases=_pair(classifier.claims, classifier.releases, classifier.writes),
        claims=classifier.claims,
        releases=classifier.releases,
        writes=classifier.writes,
        scopes=walker.scopes,
        resolver=resolver,
        origins=Origins(walker.imports, resolver, walker.name_calls),
        imports=walker.imports,
        positions=positions,
        **_module_facts(walker, module, positions, resolver),
    )

"""Module -> lease model: walk once, classify the calls with the store table, pair them into leases."""

from __future__ import annotations

import re

import libcst as cst

from leaselint.model import stores
from leaselint.model.call_parts import FIELD_SCRIPT
from leaselint.model.classify import Classifier
from leaselint.model.events import LeaseModel
from leaselint.model.keyed import events, pair_foreign
from leaselint.model.lock_names import name_words
from leaselint.model.keys import code_of, NodeCode, Resolver, literal_string
from leaselint.model.pairing import mark_coroutines, pair
from leaselint.model.positions import positions as module_positions
from leaselint.model.scope import contains
from leaselint.model.values import Origins
from leaselint.model.traverse import nodes, walk
from leaselint.model.walk import RELEASING_CALLS, Walker, dotted

# A token-checked extend (the fix's own script): get equals ARGV[1], then the command with ARGV[2].
_EXTEND_TEST = re.compile(r"""call\(\s*['"]get['"]\s*,\s*KEYS\[1\]\s*\)\s*==\s*ARGV\[1\]""", re.IGNORECASE)
_EXTEND_SCRIPT = re.compile(r"""call\(\s*['"](p?expire(?:at)?)['"]\s*,\s*KEYS\[1\]\s*,\s*ARGV\[2\]\s*\)""", re.IGNORECASE)


def _module_facts(walker: Walker, module: cst.Module, positions, resolver: Resolver) -> dict:
    scope = walker.module_scope
    assert scope is not None
    logger_name = None
    script_constant = None
    field_script_constant = None
    extend_scripts: dict[str, str] = {}
    for name, values in scope.bindings.items():
        if len(values) != 1 or values[0] is None:
            continue
        value = values[0]
        if isinstance(value, cst.Call) and dotted(value.func).split(".")[-1] in ("getLogger", "get_logger"):
            logger_name = logger_name or name
        text = literal_string(value.value if isinstance(value, cst.Expr) else value)
        if text is not None and "ARGV[2]" in text and FIELD_SCRIPT.search(text):
            field_script_constant = field_script_constant or name
        elif text is not None and "ARGV[1]" in text and "del" in text.lower() and not FIELD_SCRIPT.search(text):
            script_constant = script_constant or name
        elif text is not None and _EXTEND_TEST.search(text) and (found := _EXTEND_SCRIPT.search(text)):
            extend_scripts.setdefault(found.group(1).lower(), name)
    if logger_name is not None and walker.bound(logger_name) > 1:
        # Bound again somewhere (a parameter `log=None`): a fix reports through logging itself.
        logger_name = None
    return dict(
        logger_name=logger_name,
        imported_modules={bound for bound, dotted in walker.imports.items() if bound == dotted},
        shadowed_modules=frozenset(name for name in ("secrets", "logging") if walker.rebinds(name)),
        module_names=set(scope.bindings),
        script_constant=script_constant,
        field_script_constant=field_script_constant,
        extend_scripts=extend_scripts,
    )


def _self_calls(walker: Walker) -> dict:
    """(class, method name) -> [(call, caller scope)] of `self.method(...)` calls inside the class."""
    found: dict = {}
    for site in walker.calls:
        func = site.call.func
        scope = site.scope
        if scope.cls is not None and type(func.value) is cst.Name and func.value.value == scope.self_name:  # type: ignore[union-attr]
            found.setdefault((id(scope.cls), func.attr.value), []).append((site.call, scope))  # type: ignore[union-attr]
    return found


def _acquired_in_class(swallows) -> list:
    """The destructor swallows whose released lock (`self._lock.release()`) the class acquires in
    another method (`self._lock.acquire(...)`): a lease lock, whose lost-lease error is swallowed."""
    found = []
    for handler, body, scope in swallows:
        cls = scope.cls
        if cls is None:
            continue
        # A lock object the class holds (`self._lock`), not the object itself (`self.release()`,
        # which raises for a lock never acquired too).
        released = {
            code_of(node.func.value).strip()
            for node in nodes(body, trivia=False)
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "release"
            and type(node.func.value) is cst.Attribute
        }
        for method in cls.methods.values():
            if method is scope:
                continue
            if any(
                type(node) is cst.Call
                and type(node.func) is cst.Attribute
                and node.func.attr.value == "acquire"
                and code_of(node.func.value).strip() in released
                for node in nodes(method.node, trivia=False)
            ):
                found.append(handler)
                break
    return found


def _lock_answers(walker: Walker, classifier) -> dict:
    """"Class.method" -> (kind, line) of the module-level lock classes' answering and failing methods."""
    names = {id(info): info.name for info in walker.classes if not info.is_test}
    found = {}
    for kind, methods in (("fails", classifier.failing_methods), ("answers", classifier.answering_methods)):
        for (cls_id, method), line in methods.items():
            releasing = any(word in method.lower() for word in ("release", "unlock"))
            if cls_id in names and not method.startswith("_") and releasing == (kind == "answers"):
                found[f"{names[cls_id]}.{method}"] = (kind, line)
    return found


def _with_lock_swallows(walker: Walker, classifier) -> list:
    """The handlers of walker.with_swallows whose `with` holds a lock object with a lifetime (one
    whose release can find the lease lost), made there or bound to a name once."""
    by_call = {id(lock.call): lock for lock in classifier.locks if lock.has_lifetime}
    found = []
    for handler, item, scope in walker.with_swallows:
        if type(item) is cst.Name:
            value = classifier.resolver.single_value(item.value, scope)
            item = value[0] if value is not None else item
        if id(item) in by_call and handler not in found and handler not in walker.swallowed:
            found.append(handler)
    return found


def _called_methods(walker: Walker) -> set:
    """Distinctive methods (summary.distinctive_method) called on an object that is neither the
    module's own `self` nor an imported module."""
    from leaselint.model.stores import distinctive_method

    found = set()
    for site in walker.calls:
        func = site.call.func
        receiver = func.value  # type: ignore[union-attr]
        if type(receiver) is cst.Name and (receiver.value in walker.imports or receiver.value == site.scope.self_name):
            continue
        name = func.attr.value  # type: ignore[union-attr]
        if name not in found and distinctive_method(name):
            found.add(name)
    return found


def _functions(walker: Walker) -> dict:
    """Module functions and methods of module-level classes by (id of the class or None, name); a name
    defined twice is left out."""
    found: dict = {}
    twice: set = set()
    for scope in walker.scopes:
        if scope.parent is not walker.module_scope or type(scope.node) is not cst.FunctionDef:
            continue
        key = (id(scope.cls) if scope.cls is not None else None, scope.name)
        if key in found:
            twice.add(key)
        found[key] = scope
    for key in twice:
        del found[key]
    return found


# How many times a module is modelled again with the summaries of its own functions: a wrapper of a
# wrapper of the store (`acquire` -> `setnx_ex` -> `client.set`) needs two.
LOCAL_ROUNDS = 2
# The name local summaries go by when the run gave the module no name of its own.
LOCAL_MODULE = "__module__"


def build_model(module: cst.Module, project=None, tests: bool = False, text: str | None = None) -> LeaseModel:
    """`project`: the summaries of other modules this one calls (see model/calls.py); `tests`: the
    module is a test module by its path; `text`: the text it was parsed from (positions are then
    made for the statements asked about).

    The module's own functions are summarised as another module's are, and their calls in the
    module read through those summaries (`self.setnx_ex(f"lock:{n}", "1", ex=30)`): the model is
    made again with them while that finds more."""
    model, walker = _build(module, project, tests, text, frozenset())
    known: dict = {}
    if not (model.claims or model.summarised_claims or model.locks or (model.writes and model.reads)):
        return model  # no claim to pair a helper's release with, nor a read then a write to claim by
    for _ in range(LOCAL_ROUNDS):
        local = _local_project(model, walker, project, known)
        if local is None:
            break
        project, names = local
        model, walker = _build(module, project, tests, text, names)
    return model


def _split_lifetimes(walker: Walker, classifier, leases) -> list:
    """(claim, expire) of a claim helper (its key a parameter, its answer handed back) that gives the
    key its lifetime by a second call (`setnx`, then `expire`): its callers' leases, one finding."""
    from leaselint.model.summary import helper_claim

    leased = {id(claim) for lease in leases for claim in lease.claims}
    by_scope: dict[int, list] = {}
    for expire in classifier.expiries:
        by_scope.setdefault(id(expire.scope), []).append(expire)
    found = []
    for claim in classifier.claims:
        if claim.has_lifetime or id(claim) in leased or claim.via is not None or claim.scope.is_test:
            continue
        for expire in by_scope.get(id(claim.scope), ()):
            if (
                expire.key_shape == claim.key_shape
                and expire.receiver_shape == claim.receiver_shape
                and claim.start <= expire.start
                and not _only_on_failure(claim, expire)
                and helper_claim(claim, walker)
            ):
                found.append((claim, expire))
                break
    return found


def _only_on_failure(claim, expire) -> bool:
    """The expiry runs only when the claim failed (`if not ok: r.expire(key, ttl)`): no second step
    of a claim that succeeded."""
    if claim.result_name is None:
        return False
    for node in nodes(claim.scope.node):
        if type(node) is cst.If and contains(node.body, expire.call):
            test = node.test
            if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not and type(test.expression) is cst.Name:
                if test.expression.value == claim.result_name:
                    return True
    return False


# Words of a call that ends a holder's claim when handed its key and token (`backend.release(key, token)`):
# `release` and `unlock` alone; `free`, `delete` and `remove` with a word of a lock or of a compare
# (`free_lock`, `delete_if_equal`; not `delete(key, version)`, `remove_member` or `mark_not_free`).
_RELEASING = frozenset({"release", "unlock"})
_ENDING = frozenset({"free", "delete", "remove", "del"})
_HELD = frozenset({"lock", "lease", "mutex", "claim", "if", "equal", "equals", "owned", "token", "mine"})


def _handing(name: str) -> bool:
    words = set(name_words(name))
    return bool(words & _RELEASING) or bool(words & _ENDING and words & _HELD)


def _handed_claims(walker: Walker, classifier, resolver, leases) -> list:
    """Claims of no lease whose key and stored value are both handed, as positional arguments, to a
    call named for releasing, in the claim's function or another method of its class
    (`unlocker.release(key, token)`): a release leaselint cannot read, which compares that token
    (LL002 and LL003 apply to it). A literal value (`True`, `"1"`) is no token to hand on."""
    leased = {id(claim) for lease in leases for claim in lease.claims}
    claims = [
        c
        for c in classifier.claims
        if id(c) not in leased
        and c.value is not None
        and c.via is None
        and c.usage == "expression"
        and not c.scope.is_test
        and type(c.value) not in (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString)
        and not (type(c.value) is cst.Name and c.value.value in ("True", "False", "None"))
    ]
    if not claims:
        return []
    made = {id(event.call) for event in classifier.claims}
    # The calls named for releasing, by scope and by class, looked at once.
    by_scope: dict[int, list] = {}
    by_class: dict[int, list] = {}
    for site in walker.calls:
        if id(site.call) not in made and _handing(site.call.func.attr.value):  # type: ignore[union-attr]
            by_scope.setdefault(id(site.scope), []).append((site.call, site.scope))
            if site.scope.cls is not None:
                by_class.setdefault(id(site.scope.cls), []).append((site.call, site.scope))
    for name, found in walker.name_calls.items():
        if _handing(name):
            for call, scope in found:
                by_scope.setdefault(id(scope), []).append((call, scope))
                if scope.cls is not None:
                    by_class.setdefault(id(scope.cls), []).append((call, scope))
    handed = []
    for claim in claims:
        cls = claim.scope.cls
        sites = by_class.get(id(cls), []) if cls is not None else by_scope.get(id(claim.scope), [])
        if not sites:
            continue
        value = resolver.shape(claim.value, claim.scope)
        for call, scope in sites:
            shapes = [resolver.shape(arg.value, scope) for arg in call.args if arg.keyword is None and not arg.star]
            if claim.key_shape in shapes and value in shapes:
                handed.append(claim)
                break
    return handed


def _api_tokens(walker: Walker, classifier, resolver) -> list:
    """(token, call, scope, key) of a holder handed to a lock API of the project's or a library's that
    leaselint cannot read: the taking call and the giving call on one receiver (in one function, one
    class, or on a module-level object) share the holder, an argument after the first, named for a
    holder, no literal. LL002 and LL003 ask where the holder comes from."""
    made = {id(event.call) for event in (*classifier.claims, *classifier.releases)}
    known = {id(lock.call) for lock in classifier.locks}
    taking, giving = [], {}
    for site in walker.calls:
        method = site.call.func.attr.value  # type: ignore[union-attr]
        if site.scope.is_test or id(site.call) in made or id(site.call) in known:
            continue
        if method in stores.API_TAKING or method in stores.API_GIVING:
            args = [a.value for a in site.call.args if a.keyword is None and not a.star]
            args += [a.value for a in site.call.args if a.keyword is not None]
            if len(args) < 2:
                continue
            receiver = resolver.shape(site.call.func.value, site.scope)  # type: ignore[union-attr]
            if method in stores.API_TAKING:
                taking.append((site, receiver))
            else:
                giving.setdefault(receiver, []).append(site)
    def cls_of(scope):
        if scope.cls is not None:
            return scope.cls
        method = resolver._enclosing_method(scope)  # a retried inner `reserve_node()` of a method
        return method.cls if method is not None else None

    found = []
    for site, receiver in taking:
        cls = cls_of(site.scope)
        others = [
            other
            for other in giving.get(receiver, ())
            if other.scope is site.scope
            or (cls is not None and cls_of(other.scope) is cls)
            or type(site.call.func.value) is cst.Name and resolver.defining_scope(site.call.func.value.value, site.scope) is resolver.module_scope  # type: ignore[union-attr]
        ]
        if not others:
            continue
        args = [a for a in site.call.args if not a.star]
        for index, arg in enumerate(args):
            value = arg.value
            if (index == 0 and arg.keyword is None) or _literal(value):
                continue
            code = resolver.code(value).lower()
            if not any(word in code for word in stores.HOLDER_WORDS):
                continue
            shape = resolver.shape(value, site.scope)
            if any(shape == resolver.shape(a.value, other.scope) for other in others for a in other.call.args if not a.star):
                keys = [
                    a.value
                    for a in args
                    if a.keyword is None and a.value is not value
                    and not any(word in resolver.code(a.value).lower() for word in _NOT_KEYS)
                ]
                found.append((value, site.call, site.scope, keys[0] if keys else None))
                break
    return found


# Arguments that hand over a connection or a request's context, not the lock's name.
_NOT_KEYS = ("context", "ctx", "session", "conn", "cursor", "request")


def _literal(node) -> bool:
    return type(node) in (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString) or (
        type(node) is cst.Name and node.value in ("True", "False", "None")
    )


def _local_project(model: LeaseModel, walker: Walker, project, known: dict):
    """(the project with the module's own summaries added, the plain names to make sites for), or
    None when no summary of the module's own functions is new and called in the module."""
    from leaselint.model.summary import exports
    from leaselint.project import _absolute_effects

    module, is_package = (project[0], project[1]) if project is not None else (LOCAL_MODULE, False)
    functions = dict(project[2]) if project is not None else {}
    called = set(walker.name_calls)
    methods = {site.call.func.attr.value for site in walker.calls}  # type: ignore[union-attr]
    new = False
    for summary in exports(model, local=True):
        name = summary[0]
        short = name.rpartition(".")[2]
        if short not in (methods if "." in name else called):
            continue
        absolute = f"{module}.{name}"
        if known.get(absolute) == summary:
            continue
        known[absolute] = summary
        new = True
    if not new:
        return None
    for absolute, summary in known.items():
        functions[absolute] = (_absolute_effects(summary, module, is_package), None)
    names = frozenset(name.rpartition(".")[2] for name in known if name.count(".") == module.count(".") + 1)
    rest = tuple(project[3:]) if project is not None else ()
    return (module, is_package, functions, *rest), names


def _build(module: cst.Module, project, tests: bool, text: str | None, local_names: frozenset):
    positions = module_positions(module, text)
    walker = Walker(positions, local_names)
    walk(module, walker)
    assert walker.module_scope is not None
    walker.module_scope.test_file = tests
    code_of = NodeCode(positions)
    resolver = Resolver(walker.module_scope, code_of)
    resolver.functions = _functions(walker)
    origins = Origins(
        walker.imports,
        resolver,
        walker.name_calls,
        {s.name: s for s in walker.scopes if s.parent is walker.module_scope and s.cls is None},
        _self_calls(walker),
        {info.name: info for info in walker.classes},
        walker.one_use,
    )
    if project is not None:
        origins.imported_value = _imported_values(walker, project)
    classifier = Classifier(walker, positions, resolver, project, origins)
    classifier.run()
    leases = pair(
        classifier.claims + classifier.paired_claims,
        classifier.releases,
        classifier.writes,
        classifier.expiries,
        classifier.counted,
        classifier.called,
        positions.start_line,
        walker.classes,
    )
    claims = classifier.claims + classifier.paired_claims
    leases += pair_foreign(project, claims, classifier.releases, leases, classifier.counted, walker.imports, walker.import_levels)
    keyed = events(claims, classifier.releases, leases, classifier.counted, walker.imports, walker.import_levels)
    mark_coroutines(leases)
    for lease in leases:
        # `with cache.transact(): if cache.get(key) == token: cache.touch(key, ttl)`: checked, one step.
        lease.renewals = [r for r in lease.renewals if not classifier._compared_in_transaction(r)]
    failed = _failed_claim_lifetimes(leases, classifier)
    split = _split_lifetimes(walker, classifier, leases)
    swallowed = walker.swallowed + _acquired_in_class(walker.destructor_swallows) + classifier.lost_swallows()
    return LeaseModel(
        module=module,
        leases=leases,
        keyed=keyed,
        lock_key_deletes=classifier.lock_key_deletes(leases),
        lock_key_renewals=classifier.lock_key_renewals(leases),
        claims=classifier.claims,
        releases=classifier.releases + classifier.answered_calls,
        ignored_claims=classifier.ignored_claims + _lambda_claims(classifier, leases),
        untested_acquires=classifier.untested_acquires,
        lock_tokens=classifier._lock_tokens(),
        lock_answers=_lock_answers(walker, classifier),
        with_swallows=_with_lock_swallows(walker, classifier),
        ignored_releases=classifier.ignored_releases,
        summarised_claims=[claim for claim in classifier.paired_claims if claim.via is not None],
        reads=classifier.reads,
        split_lifetimes=split,
        queued_lifetimes=_queued_lifetimes(leases, split),
        failed_claim_lifetimes=failed,
        handed_claims=_handed_claims(walker, classifier, resolver, leases),
        api_tokens=_api_tokens(walker, classifier, resolver),
        passed_claims=classifier.passed_claims,
        unawaited_lock_releases=classifier.unawaited_lock_releases,
        writes=classifier.writes,
        expiries=classifier.expiries,
        value_reads=classifier.value_reads,
        locks=classifier.locks,
        swallowed=swallowed,
        swallowed_releases=_swallowed_releases(module, swallowed, classifier.releases),
        scopes=walker.scopes,
        resolver=resolver,
        origins=origins,
        imports=walker.imports,
        import_levels=walker.import_levels,
        assigned=walker.assigned,
        called_imports={site.call.func.value for site in walker.imported_sites},  # type: ignore[union-attr]
        script_imports={
            site.call.args[0].value.value  # type: ignore[union-attr]
            for site in walker.calls
            if site.call.func.attr.value in stores.script_taking_methods()  # type: ignore[union-attr]
            and site.call.args
            and type(site.call.args[0].value) is cst.Name
            and site.call.args[0].value.value in walker.imports  # type: ignore[union-attr]
        },
        called_attributes={
            (site.call.func.value.value, site.call.func.attr.value)  # type: ignore[union-attr]
            for site in walker.calls
            if type(site.call.func.value) is cst.Name and site.call.func.value.value in walker.imports  # type: ignore[union-attr]
        },
        **_value_imports(walker, claims),
        called_methods=_called_methods(walker),
        positions=positions,
        code_of=code_of,
        **_module_facts(walker, module, positions, resolver),
    ), walker


def _imported_values(walker: Walker, project):
    """The `Origins.imported_value` of a module of the project: what another module's summary says of
    the value or helper a name or `module.NAME` reaches."""
    from leaselint.project import absolute

    module, is_package, functions = project[:3]

    def found(node) -> tuple | None:
        if type(node) is cst.Name:
            head, tail = node.value, ""
        elif type(node) is cst.Attribute and type(node.value) is cst.Name:
            head, tail = node.value.value, "." + node.attr.value
        else:
            return None
        dotted = walker.imports.get(head)
        if dotted is None:
            return None
        entry = functions.get(absolute(walker.import_levels.get(head, 0), dotted + tail, module, is_package))
        effects = entry[0][3] if entry is not None else ()
        if len(effects) != 1 or effects[0][0] != "value":
            return None
        kind, reason, made = effects[0][2]
        return kind, reason, made

    return found


def _value_imports(walker: Walker, claims) -> dict:
    """Imported names, and (imported module, attribute) pairs, read in the functions that claim."""
    names: set = set()
    attributes: set = set()
    imports = walker.imports
    for scope in {id(c.scope): c.scope for c in claims}.values():
        for node in nodes(scope.node, trivia=False):
            if type(node) is cst.Name and node.value in imports:
                names.add(node.value)
            elif type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value in imports:
                attributes.add((node.value.value, node.attr.value))
    for scope in walker.scopes:
        # `client: CacheClient`: the class of another module a parameter holds (calls.class_of).
        params = getattr(scope.node, "params", None)
        for param in (*params.posonly_params, *params.params, *params.kwonly_params) if params is not None else ():
            annotation = param.annotation.annotation if param.annotation is not None else None
            if type(annotation) is cst.Name and annotation.value in imports:
                names.add(annotation.value)
    return {"value_imports": names, "value_attributes": attributes}


def _lambda_claims(classifier, leases) -> list:
    """The dropped calls of a claim written as a lambda, where that claim is a lease's (a dedup
    marker `mark_seen = lambda: cache.add(key, 1, ttl)` is none)."""
    leased = {id(claim) for lease in leases for claim in lease.claims}
    return [entry[:4] for entry in classifier.lambda_claims if id(entry[4]) in leased]


def _failed_claim_lifetimes(leases, classifier) -> list:
    """(claim, expire) of an `expire` of the lease's key in the branch where its claim just failed
    (`if r.setnx(k, v): ... elif not r.ttl(k): r.expire(k, 10)`): it sets the deadline of another
    worker's claim. Taken out of the lease's own expiries (no lifetime of the claim's)."""
    found = []
    for lease in leases:
        kept = []
        for expire in lease.expiries:
            if (
                classifier._after_failed_claim(expire) is not None
                and _asks_lifetime(expire, classifier)
                and not expire.scope.is_test
                and not _holder_checked(expire, classifier)
            ):
                found.append((lease.claims[0], expire))
            else:
                kept.append(expire)
        lease.expiries = kept
    return found


def _asks_lifetime(expire, classifier) -> bool:
    """An `if` around the expire asks the key's lifetime (`elif not r.ttl(k):`, `if r.ttl(k) == -1:`):
    the recipe that gives a holder's key the deadline it lacks. (`if not created: cache.touch(k)`
    alone slides a marker's window, as a rate limit does: no lease's.)"""
    site = classifier.sites.get(id(expire.call))
    wanted = set(expire.store.lifetime_reads)
    for guard in site.guards if site is not None and wanted else ():
        for node in nodes(guard.test):
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in wanted:
                return True
    return False


def _holder_checked(expire, classifier) -> bool:
    """A read of the key compared with a token guards the expire (`if r.get(k) == token: r.expire(k,
    t)`, a re-entrant claim): a check-then-renew, not a deadline set blind."""
    for read in classifier.reads:
        if read.scope is expire.scope and read.key_shape == expire.key_shape and read.start <= expire.start:
            check = classifier._check_of(read)
            if check is not None and (check.guard is None or contains(check.guard, expire.call)):
                return True
    return False


def _queued_lifetimes(leases, split_lifetimes) -> list:
    """A claim without a lifetime and the `expire` of its key queued after it on the same pipeline
    (`pipe.setnx(k, v)`, `pipe.expire(k, 30)`, `pipe.execute()`): the expire runs whatever the claim
    answers, so a worker that lost the race extends the holder's lease."""
    pairs = [(claim, expire) for lease in leases for claim in lease.claims for expire in lease.expiries]
    pairs += list(split_lifetimes)
    seen: set[int] = set()
    found = []
    for claim, expire in pairs:
        if id(expire) in seen or claim.has_lifetime or not (claim.in_pipeline and expire.in_pipeline):
            continue
        if expire.scope is not claim.scope or expire.start < claim.start or expire.receiver_shape != claim.receiver_shape:
            continue
        seen.add(id(expire))
        found.append((claim, expire))
    return found


def _swallowed_releases(module: cst.Module, swallowed: list, releases: list) -> dict:
    """id(handler or `suppress` item) -> the release call in the block it guards: where the lost lease
    it drops is signalled (a related location of the finding)."""
    wanted = {id(node) for node in swallowed}
    if not wanted:
        return {}
    known = {id(release.call) for release in releases}
    found = {}
    for node in nodes(module, trivia=False):
        guards = node.handlers if type(node) is cst.Try else node.items if type(node) is cst.With else ()
        for guard in guards:
            key = id(guard)
            if key not in wanted:
                continue
            call = next(
                (
                    n
                    for n in nodes(node.body, trivia=False)
                    if type(n) is cst.Call
                    and (id(n) in known or (type(n.func) is cst.Attribute and n.func.attr.value in RELEASING_CALLS))
                ),
                None,
            )
            if call is not None:
                found[key] = call
    return found

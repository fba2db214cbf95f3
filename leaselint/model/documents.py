"""Claims and releases that name their key inside a document: DynamoDB items, MongoDB filters, etcd transactions.

Each reader takes a call and returns what the lease model needs: the key field and
value, the field holding the holder token, whether the claim can expire, and, for a
release, whether it already checks the token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import libcst as cst

from leaselint.model import stores
from leaselint.model.keys import code_of, literal_string
from leaselint.model.traverse import walk

TOKEN_FIELDS = ("owner", "token", "holder", "lock_owner", "owner_id", "lease_owner", "holder_id", "lock_token", "lease_id", "lease")
# A stored time (`timestamp`, `timeout`, `taken_at`) is how a sweep or a reader tells a stale claim: a
# lifetime too.
LIFETIME_WORDS = ("exp", "ttl", "until", "deadline", "lease", "time", "stamp", "life", "valid")


def _timed(name: str) -> bool:
    """A field that holds a lifetime or a time: `expires_at`, `timestamp`, `locked_at`."""
    words = [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)]
    if words in (["lease"], ["lease", "id"]):
        return False  # the holder's lease id, not its lifetime
    words += [name.lower()[i:] for i in range(1, len(name)) if name.lower()[i:].startswith(("time", "stamp"))]  # `uptime`
    # A word that begins with one (`expires`, `leaseUntil`), not one inside another (`release_code`).
    return (
        any(word.startswith(LIFETIME_WORDS) for word in words)
        or "age" in words  # `max_age`
        or name.lower().endswith("_at")
        or words[-1:] == ["at"]
    )


DYNAMO_TYPES = ("S", "N", "B")
_NOT_EXISTS = re.compile(r"attribute_not_exists\s*\(\s*(#?\w+)\s*\)")


@dataclass
class Document:
    key_field: str | None = None
    key: cst.BaseExpression | None = None
    token_field: str | None = None
    token: cst.BaseExpression | None = None
    # DynamoDB's type wrapper of the token (`{"S": token}`).
    token_type: str | None = None
    has_lifetime: bool = False
    # For the DynamoDB client: the table named in the call.
    table: cst.BaseExpression | None = None
    fields: dict[str, cst.BaseExpression] = field(default_factory=dict)
    # The filter or key dict a fix adds the token to.
    dict_node: cst.Dict | None = None
    checked: bool = False
    # A release that sets fields back to a free value rather than deleting the row (`update(owner=None)`,
    # `update(locked=False)`): (field, code of the value); a claim's free value of its token field.
    cleared: frozenset = frozenset()
    free: str | None = None
    # An upsert whose filter names only the key: it writes over a live holder and never fails.
    overwrites: bool = False
    # For a row of a model (Django's ORM): the model's name; the filter call a fix adds the token to.
    model: str | None = None
    filter_call: cst.Call | None = None
    # A delete whose filter asks for a past lifetime (`"expires_at": {"$lt": now}`): it takes over an
    # expired claim on purpose, in one server step.
    expired_only: bool = False
    # DynamoDB: the condition expression and the attribute names (or None), as the call (or its
    # `**args`) gives them.
    conditions: tuple = (None, None)
    # A row deleted as an object (`self.delete()` in the lock model, `row.delete()`): by its own
    # primary key, the row this holder made, not by a filter.
    instance: bool = False


def keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


def _fields(node: cst.BaseExpression | None) -> tuple[dict[str, cst.BaseExpression], dict[str, str]]:
    """A dict literal's string-keyed entries, DynamoDB type wrappers removed; and the wrappers."""
    entries: dict[str, cst.BaseExpression] = {}
    types: dict[str, str] = {}
    if not isinstance(node, cst.Dict):
        return entries, types
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            continue
        name = literal_string(element.key)
        if name is None:
            continue
        value = element.value
        if isinstance(value, cst.Dict) and len(value.elements) == 1 and isinstance(value.elements[0], cst.DictElement):
            kind = literal_string(value.elements[0].key)
            if kind in DYNAMO_TYPES:
                types[name] = kind
                value = value.elements[0].value
        entries[name] = value
    return entries, types


def _token_field(fields: dict[str, cst.BaseExpression], key_field: str | None) -> str | None:
    for name in TOKEN_FIELDS:
        if name in fields and name != key_field:
            return name
    for name in fields:
        if name != key_field and not name.startswith("$") and not _timed(name) and not _flag(fields[name]):
            return name
    return None


def _flag(value: cst.BaseExpression) -> bool:
    """`"locked": True`: a state flag, not a holder's token."""
    return type(value) is cst.Name and value.value in ("True", "False", "None")


def _has_lifetime_field(fields: dict[str, cst.BaseExpression]) -> bool:
    return any(_timed(name) for name in fields)


# DynamoDB ------------------------------------------------------------------


def _condition(call: cst.Call) -> cst.BaseExpression | None:
    """The condition a DynamoDB call passes, as the store sees it: Python's `a or b` between two
    condition objects is `a`, `a and b` is `b` (both are true objects), whatever was meant."""
    node = keyword(call, "ConditionExpression")
    while type(node) is cst.BooleanOperation:
        node = node.left if type(node.operator) is cst.Or else node.right
    return node


def dynamo_claim(call: cst.Call) -> Document | None:
    """`put_item(Item={...}, ConditionExpression="attribute_not_exists(pk)")`."""
    condition = _condition(call)
    key_field, has_lifetime = _condition_key(condition, keyword(call, "ExpressionAttributeNames"))
    if key_field is None:
        return None
    item = keyword(call, "Item")
    fields, types = _fields(item)
    if key_field not in fields:
        return None
    return _dynamo_document(call, key_field, fields[key_field], fields, types, has_lifetime, fields)


def _dynamo_document(call, key_field, key, written, types, has_lifetime, fields) -> Document:
    """A DynamoDB claim's document: its key, and the owner among the attributes it writes."""
    token_field = _token_field(written, key_field)
    return Document(
        key_field=key_field,
        key=key,
        token_field=token_field,
        token=written.get(token_field) if token_field else None,
        token_type=types.get(token_field) if token_field else None,
        has_lifetime=has_lifetime,
        table=keyword(call, "TableName"),
        fields=fields,
    )


_SET_CLAUSE = re.compile(r"\bSET\b(.*?)(?=\b(?:REMOVE|ADD|DELETE)\b|$)", re.IGNORECASE | re.DOTALL)
_ASSIGNMENT = re.compile(r"^\s*(#?\w+)\s*=\s*(:\w+)\s*$")


def dynamo_update_claim(call: cst.Call) -> Document | None:
    """`update_item(Key={...}, UpdateExpression="SET owner = :o, expires_at = :e", ConditionExpression=
    "attribute_not_exists(pk) OR expires_at < :now", ExpressionAttributeValues={":o": ...})`: a claim of
    the item when the condition requires its key (or the attribute it sets) absent."""
    condition = _condition(call)
    names = _fields(keyword(call, "ExpressionAttributeNames"))[0]
    wanted, has_lifetime = _condition_key(condition, keyword(call, "ExpressionAttributeNames"))
    if wanted is None:
        return None
    key = keyword(call, "Key")
    key_fields, _ = _fields(key)
    update = literal_string(keyword(call, "UpdateExpression"))
    if not key_fields or update is None:
        return None
    values, types = _fields(keyword(call, "ExpressionAttributeValues"))
    written: dict[str, cst.BaseExpression] = {}
    written_types: dict[str, str] = {}
    clause = _SET_CLAUSE.search(update)
    for part in (clause.group(1).split(",") if clause else ()):
        found = _ASSIGNMENT.match(part)
        if found is None:
            continue
        name, placeholder = found.groups()
        if name.startswith("#"):
            name = literal_string(names[name]) if name in names else None
        if name is not None and placeholder in values:
            written[name] = values[placeholder]
            if placeholder in types:
                written_types[name] = types[placeholder]
    if wanted not in key_fields and wanted not in written:
        return None
    key_field = next(iter(key_fields))
    return _dynamo_document(
        call, key_field, key_fields[key_field], written, written_types, has_lifetime, {**key_fields, **written}
    )


def _condition_key(condition: cst.BaseExpression | None, names: cst.BaseExpression | None) -> tuple[str | None, bool]:
    """The attribute a claim's condition requires absent, and whether the condition also admits expired claims."""
    text = literal_string(condition) if condition is not None else None
    if text is not None:
        match = _NOT_EXISTS.search(text)
        if match is None:
            return None, False
        name = match.group(1)
        if name.startswith("#"):
            mapped = _fields(names)[0].get(name)
            name = (literal_string(mapped) if mapped is not None else None) or name
        admits_expired = bool(re.search(r"\bOR\b|<", text, re.IGNORECASE))
        return name, admits_expired
    if condition is None:
        return None, False
    finder = _AttrNotExists()
    walk(condition, finder)
    return finder.name, finder.combined


class _AttrNotExists(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.name: str | None = None
        self.combined = False

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.BitOr):
            self.combined = True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "attribute_not_exists" or (
            isinstance(func, cst.Attribute) and func.attr.value == "not_exists"
        ):
            inner = func.value
            if isinstance(inner, cst.Call) and inner.args:
                self.name = literal_string(inner.args[0].value)


def dynamo_renewal(call: cst.Call) -> Document | None:
    """`update_item(Key={...}, UpdateExpression="SET expires = :e", ...)` that sets only times: a
    renewal, `checked` when its condition (as the store sees it) names an attribute that is neither
    the key nor a time (the holder's token)."""
    key = keyword(call, "Key")
    key_fields, _ = _fields(key)
    update = literal_string(keyword(call, "UpdateExpression"))
    if not key_fields or update is None:
        return None
    names = _fields(keyword(call, "ExpressionAttributeNames"))[0]
    clause = _SET_CLAUSE.search(update)
    set_names = []
    for part in (clause.group(1).split(",") if clause else ()):
        found = _ASSIGNMENT.match(part)
        if found is None:
            return None  # `SET n = n + :one`: no plain write of a time
        name = found.group(1)
        if name.startswith("#"):
            name = literal_string(names[name]) if name in names else None
        set_names.append(name)
    if not set_names or not all(name is not None and _timed(name) for name in set_names):
        return None
    condition = _condition(call)
    text = code_of(condition) if condition is not None else ""
    compared = set(re.findall(r"""Attr\(\s*["'](\w+)["']\s*\)|(?<![\w#:])(#?\w+)\s*(?:=|<>)\s*:""", text))
    attributes = {a or b for a, b in compared}
    attributes = {literal_string(names[a]) or a if a.startswith("#") and a in names else a for a in attributes}
    key_field = next(iter(key_fields))
    return Document(
        key_field=key_field,
        key=key_fields[key_field],
        fields=key_fields,
        table=keyword(call, "TableName"),
        checked=any(a not in key_fields and not _timed(a) for a in attributes),
    )


def dynamo_release(call: cst.Call) -> Document | None:
    """`delete_item(Key={...})`: checked when it carries a condition."""
    key = keyword(call, "Key")
    fields, _ = _fields(key)
    if not fields:
        return None
    return Document(
        fields=fields,
        table=keyword(call, "TableName"),
        dict_node=key if isinstance(key, cst.Dict) else None,
        checked=_condition(call) is not None,
        conditions=(_condition(call), keyword(call, "ExpressionAttributeNames")),
    )


# MongoDB -------------------------------------------------------------------


def mongo_claim(call: cst.Call, method: str, unique_caught: bool = False) -> Document | None:
    """`insert_one({"_id": key, ...})` or `update_one({"_id": key}, {...}, upsert=True)`; with
    `unique_caught` (the insert's DuplicateKeyError is caught: a unique index), a lock's name field
    (`{"name": name, ...}`) is the key too."""
    args = [a.value for a in call.args if a.keyword is None]
    overwrites = False
    if method in ("insert_one", "insert"):
        fields, _ = _fields(args[0] if args else None)
        body = fields
    else:
        upsert = keyword(call, "upsert")
        query = args[0] if args else keyword(call, "query")
        update = args[1] if len(args) > 1 else keyword(call, "update") or keyword(call, "replacement")
        if not (isinstance(upsert, cst.Name) and upsert.value == "True") and query is not None and update is not None:
            return _mongo_flag_claim(query, update)
        if not (isinstance(upsert, cst.Name) and upsert.value == "True") or query is None or update is None:
            return None
        fields, _ = _fields(query)
        body = {}
        document = _fields(update)[0]
        # Nothing but the key in the filter: the upsert writes over whoever holds it, and never fails;
        # a claim's filter also asks for a free or expired holder (`"expires": {"$lt": now}`).
        overwrites = set(fields) == {"_id"} and set(document) != {"$setOnInsert"}
        if document and not any(name.startswith("$") for name in document):
            body.update(document)  # a replacement document (pymongo 2's `find_and_modify`)
        for operator, value in document.items():
            if operator in ("$setOnInsert", "$set"):
                body.update(_fields(value)[0])
    key_field = "_id" if "_id" in fields else None
    if key_field is None and unique_caught and method in ("insert_one", "insert"):
        key_field = _row_key(fields)
    if key_field is None:
        return None
    token_field = _token_field(body, key_field)
    return Document(
        key_field=key_field,
        key=fields[key_field],
        token_field=token_field,
        token=body.get(token_field) if token_field else None,
        has_lifetime=_has_lifetime_field(body),
        fields=body,
        overwrites=method not in ("insert_one", "insert") and overwrites,
    )


def free_code(value: cst.BaseExpression | None) -> str | None:
    """The value a flag field holds when free, as a code to compare: `None` (also `{"$exists":
    False}`), `True`, `False`, a number or a string; None for anything else."""
    kind = type(value)
    if kind is cst.Name and value.value in ("None", "True", "False"):  # type: ignore[union-attr]
        return value.value  # type: ignore[union-attr]
    if kind is cst.Integer:
        return str(value.evaluated_value)  # type: ignore[union-attr]
    text = literal_string(value) if value is not None else None
    if text is not None:
        return repr(text)
    found = _fields(value)[0]
    if set(found) == {"$exists"} and type(found["$exists"]) is cst.Name and found["$exists"].value == "False":  # type: ignore[union-attr]
        return "None"
    return None


# The values a free flag field holds: empty or false. A claim finds one and sets another; a release
# sets one back (`{"status": 0}` -> `{"status": 1}` claims, `{"status": 1}` -> `{"status": 0}` releases).
FREE = frozenset({"None", "False", "0", "''"})


def _flag_field(filtered: dict, written: dict, key_field: str) -> str | None:
    """The field a claim finds free and takes: the filter asks for a free value (`"owner": None`,
    `locked=False`) and the write sets another."""
    return next(
        (
            n
            for n, v in filtered.items()
            if n != key_field and n in written and not _timed(n) and free_code(v) in FREE and free_code(written[n]) != free_code(v)
        ),
        None,
    )


def _mongo_flag_claim(query: cst.BaseExpression, update: cst.BaseExpression) -> Document | None:
    """`find_one_and_update({"_id": k, "owner": None}, {"$set": {"owner": me}})`: a holder's field set
    only where it is free, without an upsert: a claim of an existing document."""
    fields = _fields(query)[0]
    written = _fields(_fields(update)[0].get("$set"))[0]
    token_field = _flag_field(fields, written, "_id")
    if "_id" not in fields or token_field is None:
        return None
    return Document(
        key_field="_id",
        key=fields["_id"],
        token_field=token_field,
        token=written[token_field],
        has_lifetime=_has_lifetime_field(written),
        fields=written,
        free=free_code(fields[token_field]),
    )


def mongo_release(call: cst.Call) -> Document | None:
    """`delete_one({"_id": key})`: checked when the filter names more than the key. An
    `update_one(filter, {"$set": {"owner": None}})` (or `$unset`) empties the holder's field."""
    args = [a.value for a in call.args if a.keyword is None]
    node = args[0] if args else keyword(call, "filter")
    cleared = frozenset()
    if call.func.attr.value in ("update_one", "find_one_and_update"):  # type: ignore[union-attr]
        update = _fields(args[1] if len(args) > 1 else keyword(call, "update"))[0]
        if _flag_field(_fields(node)[0], _fields(update.get("$set"))[0], "_id") is not None:
            return None  # it takes a free field: a claim
        cleared = frozenset(
            [(n, free_code(v)) for n, v in _fields(update.get("$set"))[0].items() if free_code(v) in FREE and not _timed(n)]
            + [(n, "None") for n in _fields(update.get("$unset"))[0] if not _timed(n)]
        )
        if not cleared:
            return None
    fields, _ = _fields(node)
    key_field = "_id" if "_id" in fields else _row_key(fields)
    if key_field is None:
        return None
    expired_only = any(
        name not in TOKEN_FIELDS and _timed(name) and _operators(value) & BELOW
        for name, value in fields.items()
    )
    return Document(
        key_field=key_field,
        key=fields[key_field],
        fields=fields,
        dict_node=node if isinstance(node, cst.Dict) else None,
        # A range (`{"$lt": now}`) is no holder check: only a field matched to a value is.
        checked=any(name != key_field and not _operators(value) & RANGES for name, value in fields.items()),
        expired_only=expired_only,
        cleared=cleared,
    )


BELOW = frozenset({"$lt", "$lte"})
RANGES = BELOW | {"$gt", "$gte"}


def _operators(value: cst.BaseExpression) -> set[str]:
    """The query operators of a filter value (`{"$lt": now}` -> {"$lt"})."""
    if not isinstance(value, cst.Dict):
        return set()
    return {literal_string(e.key) or "" for e in value.elements if isinstance(e, cst.DictElement)}


# etcd ----------------------------------------------------------------------


def etcd_transaction(call: cst.Call) -> tuple[str, Document] | None:
    """A claim (`create(key) == 0` then `put`) or a checked release (`value(key) == token` then `delete`)."""
    compare = keyword(call, "compare")
    success = keyword(call, "success")
    if not isinstance(compare, (cst.List, cst.Tuple)) or not isinstance(success, (cst.List, cst.Tuple)):
        return None
    checks = [_transaction_call(e.value) for e in compare.elements]
    actions = [_transaction_call(e.value) for e in success.elements]
    for kind, target, other in checks:
        if kind in ("create", "version") and isinstance(other, cst.Integer) and other.value == "0":
            for action, args, _ in actions:
                if action == "put" and args:
                    value = args[1].value if len(args) > 1 else None
                    lease = args[2].value if len(args) > 2 else None
                    lease = lease or next((a.value for a in args if a.keyword and a.keyword.value == "lease"), None)
                    return "claim", Document(key=target, token=value, has_lifetime=lease is not None)
        if kind == "value":
            if any(action == "delete" for action, _, _ in actions):
                return "release", Document(key=target, token=other, checked=True)
    return None


def etcd3gw_transaction(txn: cst.BaseExpression | None) -> tuple[str, Document] | None:
    """etcd3gw's transaction dict: a claim (`{"target": "CREATE", "create_revision": 0}` then a
    `request_put`) or a checked release (`{"target": "VALUE", "value": token}` then a
    `request_delete_range`)."""
    parts = _fields(txn)[0]
    compare, success = parts.get("compare"), parts.get("success")
    if not isinstance(compare, (cst.List, cst.Tuple)) or not isinstance(success, (cst.List, cst.Tuple)):
        return None
    actions = [_fields(e.value)[0] for e in success.elements if isinstance(e, cst.Element)]
    for element in compare.elements:
        if not isinstance(element, cst.Element):
            continue
        check = _fields(element.value)[0]
        target, key = literal_string(check.get("target")), check.get("key")
        if key is None or literal_string(check.get("result")) not in (None, "EQUAL"):
            continue
        count = check.get({"CREATE": "create_revision", "VERSION": "version"}.get(target or "", ""))
        if isinstance(count, cst.Integer) and count.value == "0":
            for action in actions:
                put = _fields(action.get("request_put"))[0]
                if put:
                    return "claim", Document(key=key, token=put.get("value"), has_lifetime="lease" in put)
        if target == "VALUE" and any("request_delete_range" in action for action in actions):
            return "release", Document(key=key, token=check.get("value"), checked=True)
    return None


def _transaction_call(node: cst.BaseExpression):
    """(`create`, key, compared with) for `t.create(key) == 0`; (`put`, args, None) for `t.put(k, v)`."""
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        left = node.left
        if isinstance(left, cst.Call) and isinstance(left.func, cst.Attribute) and left.args:
            return left.func.attr.value, left.args[0].value, node.comparisons[0].comparator
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.attr.value, list(node.args), None
    return None, None, None


# Django's ORM ---------------------------------------------------------------

def _model_manager(node: cst.BaseExpression, model_of=None) -> str | None:
    """`JobLock.objects` -> "JobLock"; `model_of(node)` names the model of other managers (a
    manager's own `self`), or None."""
    if (
        isinstance(node, cst.Attribute)
        and node.attr.value == stores.ORM_MANAGER
        and isinstance(node.value, cst.Name)
    ):
        return node.value.value
    if (
        isinstance(node, cst.Attribute)
        and node.attr.value == stores.ORM_MANAGER
        and isinstance(node.value, cst.Attribute)
        and isinstance(node.value.value, cst.Name)
        and node.value.attr.value[:1].isupper()
    ):
        return node.value.attr.value  # `models.JobLock.objects`: the model through its module
    return model_of(node) if model_of is not None else None


def _keywords(call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """The call's keyword arguments; None when it passes any other way (positions, `**`)."""
    found = {}
    for arg in call.args:
        if arg.keyword is None or arg.star:
            return None
        found[arg.keyword.value] = arg.value
    return found


def _row_key(fields: dict[str, cst.BaseExpression]) -> str | None:
    return next((name for name in stores.ROW_KEY_FIELDS if name in fields), None)


def _orm_row_key(fields: dict[str, cst.BaseExpression]) -> str | None:
    """The field naming a lock model's row (stores.row_key_name)."""
    return _row_key(fields) or next((name for name in fields if stores.row_key_name(name)), None)


def orm_claim(call: cst.Call, model_of=None) -> Document | None:
    """`JobLock.objects.create(name=key, owner=token, expires_at=...)`: a row made under a unique name."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "update":
        return _orm_flag_claim(call, model_of)
    model = _model_manager(call.func.value, model_of) if isinstance(call.func, cst.Attribute) else None  # type: ignore[arg-type]
    fields = _keywords(call)
    if model is None or not fields:
        return None
    if call.func.attr.value == "get_or_create":  # type: ignore[union-attr]
        # `lock, created = JobLock.objects.get_or_create(name=key, defaults={...})`: made when absent.
        written = _fields(fields.pop("defaults", None))[0]
        key_field = _orm_row_key(fields) or next((n for n in fields if "__" not in n and not _timed(n)), None)
        if key_field is None:
            return None
        fields = {**fields, **written}
    else:
        key_field = _orm_row_key(fields)
    if key_field is None:
        return None
    token_field = next((name for name in TOKEN_FIELDS if name in fields and name != key_field), None)
    token_field = token_field or next(
        (n for n in fields if n != key_field and any(w in n for w in ("owner", "holder", "worker", "locked_by"))), None
    )
    return Document(
        key_field=key_field,
        key=fields[key_field],
        token_field=token_field,
        token=fields.get(token_field) if token_field else None,
        has_lifetime=_has_lifetime_field(fields),
        fields=fields,
        model=model,
    )


def _orm_filtered(call: cst.Call, model_of):
    """(model, filter keywords, update keywords) of `Model.objects.filter(...).update(...)`."""
    chosen = call.func.value  # type: ignore[union-attr]
    if not isinstance(chosen, cst.Call) or not isinstance(chosen.func, cst.Attribute) or chosen.func.attr.value != "filter":
        return None
    model, fields, written = _model_manager(chosen.func.value, model_of), _keywords(chosen), _keywords(call)
    return (model, fields, written) if model is not None and fields and written else None


def _orm_flag_claim(call: cst.Call, model_of=None) -> Document | None:
    """`Job.objects.filter(pk=k, owner__isnull=True).update(owner=me)`: a holder's field set where it
    is empty, in any model; the answer is the count of rows updated."""
    found = _orm_filtered(call, model_of)
    if found is None:
        return None
    model, fields, written = found
    key_field = next((n for n in ("pk", "id", *stores.ROW_KEY_FIELDS) if n in fields), None)
    # `owner__isnull=True` asks for `owner=None`.
    filtered = {
        (n[: -len("__isnull")] if n.endswith("__isnull") else n): (cst.Name("None") if n.endswith("__isnull") else v)
        for n, v in fields.items()
        if not n.endswith("__isnull") or (type(v) is cst.Name and v.value == "True")
    }
    token_field = _flag_field(filtered, written, key_field or "")
    if token_field is None or key_field is None:
        return None
    return Document(
        key_field=key_field,
        key=fields[key_field],
        token_field=token_field,
        token=written[token_field],
        has_lifetime=_has_lifetime_field(written),
        fields={key_field: fields[key_field], **written},
        model=model,
        free=free_code(filtered[token_field]),
    )


def orm_release(call: cst.Call, model_of=None, row_of=None) -> Document | None:
    """`JobLock.objects.filter(name=key).delete()`: checked when the filter names more than the key
    (the owner); a filter on a past lifetime takes over expired rows on purpose. `row.delete()`, where
    `row_of(row)` names the lock model of the object (the model's own `self`), deletes that row by
    its primary key: the row this holder made."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "update":
        # `filter(pk=k[, owner=me]).update(owner=None)`: the holder's field emptied.
        found = _orm_filtered(call, model_of)
        cleared = frozenset((n, free_code(v)) for n, v in found[2].items() if free_code(v) in FREE and not _timed(n)) if found else ()
        key_field = next((n for n in ("pk", "id", *stores.ROW_KEY_FIELDS) if n in found[1]), None) if cleared else None
        if not cleared or key_field is None:
            return None
        others = [n for n in found[1] if n != key_field]  # type: ignore[index]
        return Document(
            key_field=key_field, key=found[1][key_field], fields=found[1], model=found[0], filter_call=func.value,  # type: ignore[index]
            checked=any(not _timed(n.split("__")[0]) for n in others), cleared=cleared,
        )
    if call.args or not isinstance(func, cst.Attribute):
        return None
    if not isinstance(func.value, cst.Call):
        model = row_of(func.value) if row_of is not None else None
        if model is None:
            return None
        return Document(key_field="pk", key=func.value, model=model, checked=True, instance=True)
    chosen = func.value
    if not isinstance(chosen.func, cst.Attribute) or chosen.func.attr.value != "filter":
        return None
    model = _model_manager(chosen.func.value, model_of)
    fields = _keywords(chosen)
    if model is None or not fields:
        return None
    key_field = _orm_row_key(fields)
    if key_field is None:
        return None
    others = [name for name in fields if name != key_field]
    return Document(
        key_field=key_field,
        key=fields[key_field],
        fields=fields,
        model=model,
        filter_call=chosen,
        checked=any(not _timed(name.split("__")[0]) for name in others),
        expired_only=any(name.endswith(("__lt", "__lte")) for name in others),
    )


# etcd3-py's transaction builder ----------------------------------------------

_BUILDER_COMPARES = ("compare", "If")
_BUILDER_SUCCESS = ("success", "Then")


def _builder_compare(node: cst.BaseExpression):
    """(target, key, compared with) of `t.key(k).version == 0` (target `version`, `create`, `value`)."""
    if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1:
        return None
    if not isinstance(node.comparisons[0].operator, cst.Equal):
        return None
    left = node.left
    if not isinstance(left, cst.Attribute) or not isinstance(left.value, cst.Call):
        return None
    key_call = left.value
    if not isinstance(key_call.func, cst.Attribute) or key_call.func.attr.value != "key" or not key_call.args:
        return None
    return left.attr.value, key_call.args[0].value, node.comparisons[0].comparator


def _builder_op(node: cst.BaseExpression):
    """("put", args) or ("delete", args) of `t.put(k, v, lease=...)`, `t.delete(k)`."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("put", "delete"):
        return node.func.attr.value, list(node.args)
    return None


def builder_transaction(compares: list[cst.BaseExpression], actions: list[cst.BaseExpression]):
    """A claim (a key's version or create revision compared with 0, then `put`) or a checked release
    (its value compared, then `delete`), from the arguments of a builder's compare and success calls."""
    checks = [found for found in map(_builder_compare, compares) if found is not None]
    ops = [found for found in map(_builder_op, actions) if found is not None]
    for target, key, other in checks:
        if target in ("version", "create") and isinstance(other, cst.Integer) and other.value == "0":
            for action, args in ops:
                if action == "put" and len(args) >= 2:
                    lease = args[2].value if len(args) > 2 and args[2].keyword is None else None
                    lease = lease or next((a.value for a in args if a.keyword and a.keyword.value == "lease"), None)
                    return "claim", Document(key=args[0].value, token=args[1].value, has_lifetime=lease is not None)
        if target == "value" and any(action == "delete" for action, _ in ops):
            return "release", Document(key=key, token=other, checked=True)
    return None


"""redis-py and valkey-py, sync and asyncio: every command a client sends, read as lease events.

The wraps sit on the clients' public classes: `Redis.execute_command` (one command),
`Pipeline.immediate_execute_command` (a command under WATCH) and `Pipeline.execute` (a batch, in a
MULTI/EXEC when the pipeline is a transaction), and `Script.__init__` (to know a script by its SHA).
A command is read from its words as the server receives them, so any helper in between is seen.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re

from leaselint import lua
from leaselint.runtime import record
from leaselint.runtime.record import CLAIM, LIFETIME, READ, RELEASE, RENEW, data, text

_LIFETIME_WORDS = frozenset({"EX", "PX", "EXAT", "PXAT", "KEEPTTL"})
_EXPIRES = frozenset({"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"})
_LUA_EXPIRE = re.compile(r"""call\(\s*['"]p?expire(?:at)?['"]""", re.IGNORECASE)
_INTERESTING = frozenset(
    {"SET", "SETNX", "HSETNX", "DEL", "UNLINK", "HDEL", "GET", "HGET", "EVAL", "EVALSHA", "DELIFEQ", "DELEX"}
    | _EXPIRES
)

# A batch whose answers cannot be matched to its commands.
UNKNOWN = object()

# Script texts by SHA1, from Script objects, SCRIPT LOAD and EVAL.
SCRIPTS: dict[str, str] = {}


def _word(value) -> str:
    return text(value).upper() if isinstance(value, (str, bytes)) else ""


def store_of(client) -> str:
    """The server a client talks to: host, port and database (or socket path)."""
    pool = getattr(client, "connection_pool", None)
    kwargs = getattr(pool, "connection_kwargs", None) or {}
    if "server" in kwargs:  # fakeredis: one in-process server object
        return f"redis:fake:{id(kwargs['server'])}"
    if kwargs.get("path"):
        return f"redis:{kwargs['path']}/{kwargs.get('db', 0)}"
    if kwargs:
        return f"redis:{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"
    return f"redis:client:{id(client)}"


def remember_script(script) -> str:
    raw = data(script)
    sha = hashlib.sha1(raw).hexdigest()
    SCRIPTS[sha] = raw.decode("utf-8", "replace")
    return sha


def _script_of_caller(sha: str, depth: int = 40) -> str | None:
    """The text of a script object made before the wraps (a library's class-level script): the
    object calling EVALSHA is on the stack, and its public `script` and `sha` say what it runs."""
    frame = inspect.currentframe()  # None where the interpreter keeps no frames: not read then
    while frame is not None and depth:
        owner = frame.f_locals.get("self")
        source = getattr(owner, "script", None)
        if source is not None and text(getattr(owner, "sha", "") or "").lower() == sha:
            SCRIPTS[sha] = text(source)
            return SCRIPTS[sha]
        frame, depth = frame.f_back, depth - 1
    return None


@record.quiet
def record_command(
    family: str, store: str, args: tuple, result, watched: set | None = None, in_tx: bool = False, stack=None
):
    """The events of one command. `watched`: keys WATCHed by the transaction this command runs in;
    `stack`: the user's frames when a queued command was queued."""
    recorder = record.RECORDER
    if recorder is None or not args:
        return
    name = _word(args[0])
    if name == "SCRIPT" and len(args) > 2 and _word(args[1]) == "LOAD":
        remember_script(args[2])
        return
    if name not in _INTERESTING:
        return
    add = functools.partial(recorder.add, family=family, store=store, command=name, in_tx=in_tx, stack=stack)
    if result is not UNKNOWN:
        result = bool(result) and result != b"0"  # SET NX answers None when it finds the key
    else:
        result = None
    checked = bool(in_tx and watched)
    if name == "SET" and len(args) >= 3:
        words = {_word(a) for a in args[3:]}
        if "NX" in words:
            add(CLAIM, key=args[1], value=data(args[2]), lifetime=bool(words & _LIFETIME_WORDS), result=result)
        elif "XX" in words and words & (_LIFETIME_WORDS - {"KEEPTTL"}):
            add(RENEW, key=args[1], checked=checked or "IFEQ" in words)
        elif "IFEQ" in words and words & _LIFETIME_WORDS:
            add(RENEW, key=args[1], checked=True)
    elif name == "SETNX" and len(args) >= 3:
        add(CLAIM, key=args[1], value=data(args[2]), lifetime=False, result=result)
    elif name == "HSETNX" and len(args) >= 4:
        add(CLAIM, key=args[1], field=text(args[2]), value=data(args[3]), lifetime=False, result=result)
    elif name in ("DEL", "UNLINK"):
        for key in args[1:]:
            add(RELEASE, key=key, checked=checked and text(key) in watched, result=result)
    elif name == "HDEL" and len(args) >= 3:
        for field in args[2:]:
            add(RELEASE, key=args[1], field=text(field), checked=checked and text(args[1]) in watched, result=result)
    elif name in ("DELIFEQ", "DELEX") and len(args) >= 2:
        add(RELEASE, key=args[1], checked=True, result=result)
    elif name in ("GET", "HGET") and len(args) >= 2:
        add(READ, key=args[1], field=text(args[2]) if name == "HGET" and len(args) > 2 else None)
    elif name in _EXPIRES and len(args) >= 2:
        add(LIFETIME, key=args[1], checked=checked and text(args[1]) in watched)
    elif name in ("EVAL", "EVALSHA") and len(args) >= 3:
        _record_script(add, name, args, result)


def _record_script(add, name: str, args: tuple, result) -> None:
    script = remember_script(args[1]) if name == "EVAL" else text(args[1]).lower()
    source = SCRIPTS.get(script) or _script_of_caller(script)
    if source is None:
        return
    try:
        count = int(text(args[2]))
    except ValueError:
        return
    keys, argv = args[3 : 3 + count], args[3 + count :]
    if not keys:
        return
    source = lua.lua_plain(source)
    compares = lua.compares_argument(source)
    claim = lua.lua_claim(source)
    if claim is not None:
        index, lifetime = claim
        value = data(argv[index - 1]) if 0 < index <= len(argv) else f"script {script}".encode()
        add(CLAIM, key=keys[0], value=value, lifetime=lifetime, result=result)
    elif lua.DELETES.search(source):
        for key in keys:
            add(RELEASE, key=key, checked=compares, result=result)
    elif _LUA_EXPIRE.search(source):
        for key in keys:
            add(RENEW, key=key, checked=compares)


def _stacked(entry) -> tuple:
    """The words of one queued pipeline command, whatever shape the client version queues."""
    args = getattr(entry, "args", None)
    if args is None and isinstance(entry, tuple) and entry:
        args = entry[0]
    return tuple(args or ())


@record.quiet
def _watch(pipe, args: tuple) -> None:
    name = _word(args[0]) if args else ""
    if name == "WATCH":
        watched = pipe.__dict__.setdefault("_leaselint_watched", set())
        watched.update(text(key) for key in args[1:])
    elif name == "UNWATCH":
        pipe.__dict__.pop("_leaselint_watched", None)


@record.quiet
def _queued(pipe, args: tuple) -> None:
    """Keep the user's frames of a queued lease command: its events are made when the batch runs."""
    recorder = record.RECORDER
    if recorder is not None and args and _word(args[0]) in _INTERESTING:
        stacks = pipe.__dict__.setdefault("_leaselint_stacks", {})
        stacks[len(pipe.command_stack) - 1] = recorder.stack()


@record.quiet
def _batch(family: str, pipe, stack: list, stacks: dict, results) -> None:
    in_tx = bool(getattr(pipe, "transaction", False) or getattr(pipe, "explicit_transaction", False))
    watched = pipe.__dict__.pop("_leaselint_watched", None) or set()
    if not isinstance(results, list) or len(results) != len(stack):
        results = [UNKNOWN] * len(stack)
    store = store_of(pipe)
    for index, (entry, result) in enumerate(zip(stack, results)):
        args = _stacked(entry)
        if args:
            record_command(family, store, args, result, watched if in_tx else None, in_tx, stacks.get(index))


def _command_done(family: str, client, args: tuple, result) -> None:
    if record.RECORDER is not None:
        record_command(family, store_of(client), args, result)


def _immediate_done(family: str, pipe, args: tuple, result) -> None:
    if record.RECORDER is not None and args:
        _watch(pipe, args)
        record_command(family, store_of(pipe), args, result, in_tx=bool(pipe.__dict__.get("_leaselint_watched")))


def _batch_begun(pipe) -> tuple[list, dict]:
    return list(pipe.command_stack), pipe.__dict__.pop("_leaselint_stacks", None) or {}


def _batch_done(family: str, pipe, begun: tuple[list, dict], results) -> None:
    if record.RECORDER is not None:
        _batch(family, pipe, begun[0], begun[1], results)


def _batch_failed(pipe) -> None:
    pipe.__dict__.pop("_leaselint_watched", None)


def _put(client_class, pipeline_class, script_classes, execute_command, immediate, execute) -> None:
    client_class.execute_command = execute_command
    pipeline_class.immediate_execute_command = immediate
    pipeline_class.execute = execute
    _wrap_queue(pipeline_class)
    client_class._leaselint_wrapped = True
    _wrap_scripts(script_classes)


def wrap_sync(family: str, client_class, pipeline_class, script_classes) -> None:
    """Wrap one client family's synchronous classes (idempotent)."""
    if getattr(client_class, "_leaselint_wrapped", False):
        return
    execute_command = client_class.execute_command
    immediate = pipeline_class.immediate_execute_command
    execute = pipeline_class.execute

    @functools.wraps(execute_command)
    def _execute_command(self, *args, **options):
        result = execute_command(self, *args, **options)
        _command_done(family, self, args, result)
        return result

    @functools.wraps(immediate)
    def _immediate(self, *args, **options):
        result = immediate(self, *args, **options)
        _immediate_done(family, self, args, result)
        return result

    @functools.wraps(execute)
    def _execute(self, *args, **kwargs):
        begun = _batch_begun(self)
        try:
            results = execute(self, *args, **kwargs)
        except BaseException:
            _batch_failed(self)
            raise
        _batch_done(family, self, begun, results)
        return results

    _put(client_class, pipeline_class, script_classes, _execute_command, _immediate, _execute)


def wrap_async(family: str, client_class, pipeline_class, script_classes) -> None:
    """Wrap one client family's asyncio classes (idempotent): the same, awaited."""
    if getattr(client_class, "_leaselint_wrapped", False):
        return
    execute_command = client_class.execute_command
    immediate = pipeline_class.immediate_execute_command
    execute = pipeline_class.execute

    @functools.wraps(execute_command)
    async def _execute_command(self, *args, **options):
        result = await execute_command(self, *args, **options)
        _command_done(family, self, args, result)
        return result

    @functools.wraps(immediate)
    async def _immediate(self, *args, **options):
        result = await immediate(self, *args, **options)
        _immediate_done(family, self, args, result)
        return result

    @functools.wraps(execute)
    async def _execute(self, *args, **kwargs):
        begun = _batch_begun(self)
        try:
            results = await execute(self, *args, **kwargs)
        except BaseException:
            _batch_failed(self)
            raise
        _batch_done(family, self, begun, results)
        return results

    _put(client_class, pipeline_class, script_classes, _execute_command, _immediate, _execute)


def _wrap_queue(pipeline_class) -> None:
    queue = pipeline_class.pipeline_execute_command

    @functools.wraps(queue)
    def _queue(self, *args, **options):
        result = queue(self, *args, **options)
        if record.RECORDER is not None:
            _queued(self, args)
        return result

    pipeline_class.pipeline_execute_command = _queue


def _wrap_scripts(classes) -> None:
    for script_class in classes:
        if getattr(script_class, "_leaselint_wrapped", False):
            continue
        init = script_class.__init__

        @functools.wraps(init)
        def _init(self, *args, _init=init, **kwargs):
            _init(self, *args, **kwargs)
            source, sha = getattr(self, "script", None), getattr(self, "sha", None)
            if source is not None and sha:
                SCRIPTS[sha] = text(source)

        script_class.__init__ = _init
        script_class._leaselint_wrapped = True

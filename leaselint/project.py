"""The project pass: the files of a run as one program.

Each parsed module hands back a summary (model/summary.py): what its functions claim and release in
terms of their parameters, and which imported names it calls. Here the summaries are named by
module, imports are resolved (relative ones too), and each file that calls a summarised function
gets those summaries in its settings (`Settings.project`), so its findings, and its cache key,
include them. A module a file imports that is not in the run (pre-commit names only the changed
files) is read from the project for its summary alone, and is not reported on.
"""

from __future__ import annotations

import functools
import os
import re
import sys

# How many re-exports (`from .locks import release_lock` in an `__init__`) a name is followed through.
_MAX_REEXPORTS = 3


def absolute(level: int, dotted: str, module: str, is_package: bool) -> str:
    """The absolute name of `dotted` imported with `level` dots in `module`."""
    if not level:
        return dotted
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if len(parts) >= level - 1 else []
    return ".".join([*parts, dotted] if dotted else parts)


def absolute_key(shape, module: str, is_package: bool):
    """A portable shape with its imports named from the project's root (`("import", 0, "app.keys.X")`)."""
    if type(shape) is not tuple or not shape:
        return shape
    if shape[0] == "import":
        return ("import", 0, absolute(shape[1], shape[2], module, is_package))
    if shape[0] == "own" and len(shape) == 2:
        return ("import", 0, f"{module}.{shape[1]}")  # a module-level name, as importers name it
    return tuple(absolute_key(part, module, is_package) if type(part) is tuple else part for part in shape)


def outside_project(dotted: str) -> bool:
    """A module of the standard library or of a store's client: no project function is in it."""
    top = dotted.split(".", 1)[0]
    return top in sys.stdlib_module_names or top in _store_modules()


@functools.lru_cache(maxsize=None)
def _store_modules() -> frozenset[str]:
    from leaselint.model import stores

    return frozenset(module.split(".", 1)[0] for store in stores.STORES for module in store.modules)


def module_name(path: str, roots: tuple[str, ...] = (), isfile=os.path.isfile) -> tuple[str, bool, str]:
    """(dotted name, is a package's `__init__`, the folder the name starts from) of a file: its
    packages are the folders above it that hold an `__init__.py`; without one, the name is the
    path from the first of `roots` it is under (a `src/` layout of namespace packages)."""
    full = os.path.abspath(path)
    folder, base = os.path.split(full)
    stem = base[:-3] if base.endswith(".py") else base
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    while isfile(os.path.join(folder, "__init__.py")):
        parent = os.path.dirname(folder)
        parts.insert(0, os.path.basename(folder))
        if parent == folder:
            break
        folder = parent
    if not isfile(os.path.join(os.path.dirname(full), "__init__.py")):
        for root in roots:
            root = os.path.abspath(root)
            if full.startswith(root + os.sep):
                inner = os.path.relpath(os.path.dirname(full), root)
                parts = ([] if inner == "." else inner.split(os.sep)) + ([] if is_package else [stem])
                folder = root
                break
    return ".".join(parts), is_package, folder


def _absolute_effects(summary: tuple, module: str, is_package: bool) -> tuple:
    """A summary whose module-level receivers are named absolutely (`("global", "app.store.r")`)."""
    name, positional, keyword, effects = summary
    out = []
    for effect in effects:
        receiver = effect[3]
        if receiver is None:
            out.append(effect)  # a lock class's answering or failing method: no client of its own
            continue
        if receiver[0] == "project":
            receiver = receiver[1:]
        elif receiver[0] not in ("param", "self"):
            kind, level, dotted, bound = receiver
            origin = absolute(level, dotted, module, is_package) if dotted else f"{module}.{bound}"
            receiver = (kind, origin)
        out.append((*effect[:3], receiver, *effect[4:]))
    return (name, positional, keyword, tuple(out))


class Project:
    """Summaries by module name; `settings_for(path, wants)` is what one file needs of them."""

    def __init__(self, root: str, summarise_file) -> None:
        self.root = os.path.abspath(root)
        self.roots = (self.root, os.path.join(self.root, "src"))
        # Module name -> {function name: (absolute summary, where)}; None: looked for, not found.
        self.modules: dict[str, dict | None] = {}
        self.names: dict[str, tuple[str, bool, str]] = {}
        # `summarise_file(path) -> exports`: reads a module outside the run for its summary.
        self.summarise_file = summarise_file
        # Files summarised on demand (outside the run, or passed over by the prefilter).
        self.summarised_paths: list[str] = []
        # Module name -> its imported project names (see _reexports).
        self.reexported: dict[str, dict[str, str]] = {}
        # Method name -> the summarised methods of that name (methods_named), made when first asked.
        self.method_index: dict[str, list] | None = None
        # Path -> whether it is a file: the run's files share their folders' `__init__.py` and the
        # modules they look for, and the project does not change while a run reads it.
        self.files: dict[str, bool] = {}

    def isfile(self, path: str) -> bool:
        found = self.files.get(path)
        if found is None:
            found = self.files[path] = os.path.isfile(path)
        return found

    def name_of(self, path: str) -> tuple[str, bool, str]:
        found = self.names.get(path)
        if found is None:
            found = self.names[path] = module_name(path, self.roots, self.isfile)
        return found

    def add(self, path: str, exports: tuple) -> None:
        module, is_package, _ = self.name_of(path)
        if not module:
            return
        self.modules[module] = self._functions(path, exports, module, is_package)
        self.method_index = None

    def methods_named(self, name: str) -> list:
        """(absolute `module.Class.method`, summary, where) of every summarised method called `name`."""
        if self.method_index is None:
            index: dict[str, list] = {}
            for module, functions in self.modules.items():
                for function, (summary, where) in (functions or {}).items():
                    owner, dot, method = function.rpartition(".")
                    if dot:
                        index.setdefault(method, []).append((f"{module}.{function}", summary, where))
            self.method_index = index
        return self.method_index.get(name, [])

    def _functions(self, path: str, exports: tuple, module: str, is_package: bool) -> dict:
        where = os.path.relpath(os.path.abspath(path), self.root)
        if where.startswith(".."):
            where = path
        return {s[0]: (_absolute_effects(s, module, is_package), where.replace(os.sep, "/")) for s in exports}

    def exported_names(self) -> set[str]:
        """The names a caller writes: a function's, the class of a method (`Guard.release`), or the
        module's object of such a class (`store`); not a value's (`WORKER`) or another factory's, which
        matter only where a module claims or calls the rest."""
        found = set()
        for functions in self.modules.values():
            if not functions:
                continue
            classes = {
                name.split(".")[0]
                for name, (summary, _) in functions.items()
                if any(effect[0] not in ("value", "returns") for effect in summary[3])
            }
            found |= classes
            # The module's object of such a class (`store = Store(url)`), whose methods callers call.
            found |= {
                name
                for name, (summary, _) in functions.items()
                if "." not in name and any(effect[0] == "returns" and effect[2] in classes for effect in summary[3])
            }
        return found

    def exported_methods(self) -> set[str]:
        """The distinctive method names (model/summary.distinctive_method) one summarised method has."""
        from leaselint.model.stores import distinctive_method

        self.methods_named("")
        return {name for name, found in (self.method_index or {}).items() if len(found) == 1 and distinctive_method(name)}

    def settings_for(self, path: str, wants: tuple) -> tuple | None:
        """`Settings.project` for a file that calls `wants` ((level, dotted) pairs), or None."""
        module, is_package, start = self.name_of(path)
        found = []
        for level, dotted in wants:
            if level == "method":
                # `storage.put_if_empty(key, v)` on an object of no known class: the project's one
                # method of that name (two classes that define it leave the call alone).
                named = self.methods_named(dotted)
                if len(named) == 1:
                    found.append((f"*.{dotted}", named[0][1], named[0][2]))
                    # The object is of that class: its other methods (`store.remove(key)`) are too.
                    cls = named[0][0].rpartition(".")[0]
                    owner, _, short = cls.rpartition(".")
                    for function, (summary, where) in (self.modules.get(owner) or {}).items():
                        if function.startswith(short + ".") and function != f"{short}.{dotted}":
                            found.append((f"{owner}.{function}", summary, where))
                continue
            name = absolute(level, dotted, module, is_package)
            target = name
            for _ in range(_MAX_REEXPORTS + 1):
                owner, _, function = target.rpartition(".")
                if not owner or owner == module:
                    break
                functions = self._module(owner, start)
                if functions is None and not level and target == name:
                    functions = self._beside(owner, path)
                if functions and function in functions:
                    summary, where = functions[function]
                    found.append((name, summary, where))
                    # A factory (`get_client()`): the methods of the class whose object it hands back,
                    # of its own module or (by its return annotation) of the one it imports it from.
                    made = [(e[2], e[3]) for e in summary[3] if e[0] == "returns"]
                    if made and made[0][0]:
                        found.extend((f"{owner}.{m}", *functions[m]) for m in functions if m.startswith(made[0][0] + "."))
                    elif made and made[0][1]:
                        home, _, short = made[0][1][1].rpartition(".")
                        held = self._module(home, start) if home and home != module else None
                        found.extend((f"{home}.{m}", *held[m]) for m in held or () if m.startswith(short + "."))
                    break
                methods = [m for m in functions or () if m.startswith(function + ".")]
                if methods:
                    # A class: its methods, as the caller names them (`app.guard.Guard.release`).
                    assert functions is not None
                    found.extend((f"{name}{m[len(function):]}", *functions[m]) for m in methods)
                    break
                # `from .locks import release_lock` in a package's `__init__`: follow it there.
                target = self._reexports(owner, start).get(function)
                if target is None:
                    break
        if not found:
            return None
        return (module, is_package, tuple(sorted(found)))

    def _module(self, name: str, start: str) -> dict | None:
        if name in self.modules:
            return self.modules[name]
        self.modules[name] = None
        candidate = self._file_of(name, start)
        if candidate is None:
            return None
        exports = self.summarise_file(candidate)
        self.summarised_paths.append(candidate)
        functions = self._functions(candidate, exports, name, candidate.endswith("__init__.py"))
        self.modules[name] = functions
        return functions

    def _beside(self, name: str, path: str) -> dict | None:
        """A module imported by its bare name that lies beside the importing file (`from store import
        take` in `order/app.py`, run from `order/`): found by its own name (`order.store`)."""
        folder = os.path.dirname(os.path.abspath(path))
        parts = name.split(".")
        for candidate in (os.path.join(folder, *parts) + ".py", os.path.join(folder, *parts, "__init__.py")):
            if self.isfile(candidate):
                real, _, start = self.name_of(candidate)
                return self._module(real, start) if real and real != name else None
        return None

    def _file_of(self, name: str, start: str) -> str | None:
        parts = name.split(".")
        for root in (start, *self.roots):
            for candidate in (os.path.join(root, *parts) + ".py", os.path.join(root, *parts, "__init__.py")):
                if self.isfile(candidate):
                    return candidate
        return None

    def _reexports(self, name: str, start: str) -> dict[str, str]:
        """Bound name -> absolute origin of the project names a module imports (`from .locks import
        release_lock`), read from its import lines."""
        found = self.reexported.get(name)
        if found is None:
            found = self.reexported[name] = {}
            path = self._file_of(name, start)
            try:
                with open(path, "rb") as handle:  # type: ignore[arg-type]
                    data = handle.read()
            except (OSError, TypeError):
                return found
            is_package = path.endswith("__init__.py")  # type: ignore[union-attr]
            for level, module, imported, bound in from_imports(data):
                if level or not outside_project(module):
                    dotted = f"{module}.{imported}" if module else imported
                    found.setdefault(bound, absolute(level, dotted, name, is_package))
        return found


_FROM = re.compile(rb"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)", re.M)
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([^\n#;]+)", re.M)


def from_imports(data: bytes):
    """(level, module, imported name, bound name) of every `from module import name as bound` line."""
    for match in _FROM.finditer(data):
        level, module = len(match[1]), match[2].decode("ascii", "replace")
        for item in match[3].strip(b"()").split(b","):
            words = item.split()
            if not words:
                continue
            imported = words[0].decode("ascii", "replace")
            bound = words[2].decode("ascii", "replace") if len(words) == 3 and words[1] == b"as" else imported
            if imported != "*":
                yield level, module, imported, bound


def import_wants(data: bytes, names: set[str]) -> tuple:
    """What a module the prefilter passed over may call of `names` (functions other modules
    export), read from its import lines alone: (level, dotted) pairs as model/summary.wants makes,
    perhaps more (every name it imports, and a module imported whole taken to call each of `names`)."""
    found: set = set()
    for match in _FROM.finditer(data):
        level, module = len(match[1]), match[2].decode("ascii", "replace")
        if not level and outside_project(module):
            continue
        for item in match[3].strip(b"()").split(b","):
            words = item.split()
            if not words:
                continue
            name = words[0].decode("ascii", "replace")
            dotted = f"{module}.{name}" if module else name
            found.add((level, dotted))
            if name not in names:
                found.update((level, f"{dotted}.{function}") for function in names)
    for match in _IMPORT.finditer(data):
        for item in match[1].split(b","):
            words = item.split()
            module = words[0].decode("ascii", "replace") if words else ""
            if module and not outside_project(module):
                found.update((0, f"{module}.{function}") for function in names)
    return tuple(sorted(found))

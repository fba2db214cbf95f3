"""`[tool.leaselint]` in pyproject.toml: find it, check it, merge it with the command line into Settings."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from leaselint.diagnostics import Frozen

if TYPE_CHECKING:
    from leaselint.settings import Settings

RELEASES = ("lua", "delifeq", "delex")
# Reported only when selected by name, prefix or ALL: a stale noqa is tidiness, not a lease bug.
OPT_IN = frozenset({"LL100"})
SECTION = "[tool.leaselint]"
LINE_LENGTH = 88
MAX_LINE_LENGTH = 320
_set = object.__setattr__


class ConfigError(Exception):
    """Bad configuration; the message names the file, the key and what is allowed."""


class Layer(Frozen):
    """The options of one source, the configuration file or the command line. None: not given."""

    select: tuple[str, ...] | None
    ignore: tuple[str, ...]
    extend_select: tuple[str, ...]
    fixable: tuple[str, ...] | None
    unfixable: tuple[str, ...]
    exclude: tuple[str, ...] | None
    extend_exclude: tuple[str, ...]
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...]
    respect_gitignore: bool | None
    force_exclude: bool | None
    release: str | None
    line_length: int | None
    # MiB; 0: no limit.
    max_file_size: int | None
    _fields = (
        "select", "ignore", "extend_select", "fixable", "unfixable", "exclude", "extend_exclude",
        "per_file_ignores", "respect_gitignore", "force_exclude", "release", "line_length", "max_file_size",
    )

    def __init__(
        self,
        select: tuple[str, ...] | None = None,
        ignore: tuple[str, ...] = (),
        extend_select: tuple[str, ...] = (),
        fixable: tuple[str, ...] | None = None,
        unfixable: tuple[str, ...] = (),
        exclude: tuple[str, ...] | None = None,
        extend_exclude: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
        respect_gitignore: bool | None = None,
        force_exclude: bool | None = None,
        release: str | None = None,
        line_length: int | None = None,
        max_file_size: int | None = None,
    ) -> None:
        _set(self, "select", select)
        _set(self, "ignore", ignore)
        _set(self, "extend_select", extend_select)
        _set(self, "fixable", fixable)
        _set(self, "unfixable", unfixable)
        _set(self, "exclude", exclude)
        _set(self, "extend_exclude", extend_exclude)
        _set(self, "per_file_ignores", per_file_ignores)
        _set(self, "respect_gitignore", respect_gitignore)
        _set(self, "force_exclude", force_exclude)
        _set(self, "release", release)
        _set(self, "line_length", line_length)
        _set(self, "max_file_size", max_file_size)


def _codes_list(value, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: expected a list of rule codes such as [\"LL001\"], got {_shown(value)}")
    return check_codes([item.strip().upper() for item in value], where)


def _globs(value, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: expected a list of globs such as [\"migrations\", \"legacy/*.py\"], got {_shown(value)}")
    return tuple(value)


def _flag(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {_shown(value)}")
    return value


def _release(value, where: str) -> str:
    if value not in RELEASES:
        allowed = ", ".join(f'"{r}"' for r in RELEASES)
        raise ConfigError(f"{where}: expected one of {allowed}, got {_shown(value)}")
    return value


def _line_length(value, where: str) -> int:
    # Ruff's range.
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LINE_LENGTH:
        raise ConfigError(f"{where}: expected an integer from 1 to {MAX_LINE_LENGTH}, got {_shown(value)}")
    return value


def _max_file_size(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where}: expected a whole number of MiB, 0 for no limit, got {_shown(value)}")
    return value


def _per_file_ignores(value, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of glob = [rule codes], got {_shown(value)}")
    return tuple((glob, _codes_list(codes, f"{where} {glob!r}")) for glob, codes in value.items())


# Each key: the Layer field it fills and how its value is checked.
KEYS = {
    "select": ("select", _codes_list),
    "ignore": ("ignore", _codes_list),
    "extend-select": ("extend_select", _codes_list),
    "fixable": ("fixable", _codes_list),
    "unfixable": ("unfixable", _codes_list),
    "exclude": ("exclude", _globs),
    "extend-exclude": ("extend_exclude", _globs),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "respect-gitignore": ("respect_gitignore", _flag),
    "force-exclude": ("force_exclude", _flag),
    "release": ("release", _release),
    "line-length": ("line_length", _line_length),
    "max-file-size": ("max_file_size", _max_file_size),
}


def _shown(value) -> str:
    kinds = {str: "a string", bool: "a boolean", int: "an integer", float: "a number", list: "a list", dict: "a table"}
    return f"{value!r} ({kinds.get(type(value), type(value).__name__)})"


def known_codes() -> list[str]:
    from leaselint.rules import CODES

    return sorted(CODES)


def check_codes(codes, where: str | None = None) -> tuple[str, ...]:
    """Rule selectors: a code, a prefix of codes (`LL00`) or `ALL`. Raises ConfigError for anything else."""
    known = known_codes()
    for code in codes:
        if code != "ALL" and not any(k.startswith(code) for k in known):
            prefix = f"{where}: " if where else ""
            raise ConfigError(f"{prefix}unknown rule code {code!r}; known: {', '.join(known)}")
    return tuple(codes)


def expand(selectors) -> set[str]:
    known = known_codes()
    return {k for s in selectors for k in known if s == "ALL" or k.startswith(s)}


def _read(path: str) -> dict:
    # Here, not at the top: a run with --isolated, or with no pyproject.toml, never parses TOML.
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{_display(path)}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{_display(path)}: invalid TOML: {exc}") from None


def _display(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def find_config(start: str = ".") -> str | None:
    """The nearest pyproject.toml with a [tool.leaselint] section, from `start` upward."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate) and "leaselint" in _read(candidate).get("tool", {}):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def load_config(path: str) -> Layer:
    data = _read(path)
    table = data.get("tool", {}).get("leaselint") if isinstance(data.get("tool"), dict) else None
    if table is None:
        raise ConfigError(f"{_display(path)}: no {SECTION} section")
    if not isinstance(table, dict):
        raise ConfigError(f"{_display(path)}: {SECTION} must be a table, got {_shown(table)}")
    values = {}
    for key, value in table.items():
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(
                f"{_display(path)}: {SECTION}: unknown key {key!r}{hint}; allowed: {', '.join(sorted(KEYS))}"
            )
        field, check = KEYS[key]
        values[field] = check(value, f"{_display(path)}: {SECTION} {key}")
    if "line_length" not in values:
        values["line_length"] = borrowed_line_length(data)
    return Layer(**values)


def borrowed_line_length(data: dict) -> int | None:
    """Ruff's `line-length`, else Black's, from a pyproject.toml's tables; None when neither is set
    (or when a value is not one leaselint would take)."""
    tools = data.get("tool")
    if not isinstance(tools, dict):
        return None
    for tool in ("ruff", "black"):
        table = tools.get(tool)
        value = table.get("line-length") if isinstance(table, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_LINE_LENGTH:
            return value
    return None


def other_tools_layer(start: str = ".") -> Layer:
    """With no [tool.leaselint] section: the line length of the nearest pyproject.toml, from
    `start` upward, that sets Ruff's or Black's."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                found = borrowed_line_length(_read(candidate))
            except ConfigError:
                # Another tool's file that leaselint cannot read is not leaselint's error.
                found = None
            if found is not None:
                return Layer(line_length=found)
        parent = os.path.dirname(folder)
        if parent == folder:
            return Layer()
        folder = parent


def resolve(layers: list[Layer], root: str, fix: bool = False, unsafe_fixes: bool = False) -> Settings:
    """Apply the layers in order, later ones winning, as Ruff does.

    A layer's `select` replaces the selection so far, `extend-select` adds to it and `ignore` takes away.
    """
    from leaselint.rules import CODES
    from leaselint.settings import MAX_FILE_SIZE_MIB, Settings

    selected = set(CODES) - OPT_IN
    fixable = set(CODES)
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    per_file: list[tuple[str, frozenset[str]]] = []
    respect_gitignore, force_exclude, release, line_length = True, False, "lua", LINE_LENGTH
    max_file_size = MAX_FILE_SIZE_MIB
    for layer in layers:
        if layer.select is not None:
            selected = expand(layer.select)
        selected = (selected | expand(layer.extend_select)) - expand(layer.ignore)
        if layer.fixable is not None:
            fixable = expand(layer.fixable)
        fixable -= expand(layer.unfixable)
        if layer.exclude is not None:
            exclude = layer.exclude
        extend_exclude += layer.extend_exclude
        per_file += [(glob, frozenset(expand(codes))) for glob, codes in layer.per_file_ignores]
        if layer.respect_gitignore is not None:
            respect_gitignore = layer.respect_gitignore
        if layer.force_exclude is not None:
            force_exclude = layer.force_exclude
        if layer.release is not None:
            release = layer.release
        if layer.line_length is not None:
            line_length = layer.line_length
        if layer.max_file_size is not None:
            max_file_size = layer.max_file_size
    return Settings(
        select=frozenset(selected),
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        release=release,
        per_file_ignores=tuple(per_file),
        fixable=frozenset(fixable),
        exclude=exclude,
        extend_exclude=extend_exclude,
        respect_gitignore=respect_gitignore,
        force_exclude=force_exclude,
        root=root,
        line_length=line_length,
        max_file_size=max_file_size * 1024 * 1024,
    )


def settings_for_run(
    cli: Layer,
    config: str | None = None,
    isolated: bool = False,
    fix: bool = False,
    unsafe_fixes: bool = False,
) -> Settings:
    """The run's settings: the configuration file's (unless isolated) under the command line's."""
    if config is not None and isolated:
        raise ConfigError("--config and --isolated cannot be used together")
    path = None if isolated else (config if config is not None else find_config())
    if path is not None:
        layers = [load_config(path), cli]
    else:
        layers = [cli] if isolated else [other_tools_layer(), cli]
    root = os.path.dirname(os.path.abspath(path)) if path is not None else os.getcwd()
    return resolve(layers, root, fix, unsafe_fixes)

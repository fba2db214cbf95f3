"""Wrap each client when its module is imported (or at once, when it already is)."""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys


def _redis(family: str, package: str, client: str):
    def apply(module) -> None:
        from leaselint.runtime import redis_hooks

        core = sys.modules.get(f"{package}.commands.core")
        scripts = [getattr(core, name) for name in ("Script", "AsyncScript") if hasattr(core, name)]
        wrap = redis_hooks.wrap_async if ".asyncio." in module.__name__ else redis_hooks.wrap_sync
        wrap(family, getattr(module, client), module.Pipeline, scripts)

    return apply


def _django(module) -> None:
    from leaselint.runtime import other_hooks

    other_hooks.wrap_django(module)


def _pymemcache(module) -> None:
    from leaselint.runtime import other_hooks

    other_hooks.wrap_pymemcache(module)


TARGETS = {
    "redis.client": _redis("redis", "redis", "Redis"),
    "redis.asyncio.client": _redis("redis", "redis", "Redis"),
    "valkey.client": _redis("valkey", "valkey", "Valkey"),
    "valkey.asyncio.client": _redis("valkey", "valkey", "Valkey"),
    "django.core.cache": _django,
    "pymemcache.client.base": _pymemcache,
}


def _apply(name: str, module) -> None:
    from leaselint.runtime import record

    top = sys.modules.get(name.split(".")[0])
    where = getattr(top, "__file__", None)
    if where:
        # The client's command layers (and the decorators in its utils) are never the user's line,
        # even when the project is the client itself (its lock module still is).
        folder = os.path.dirname(os.path.abspath(where))
        record.LIBRARY_PATHS.add(os.path.join(folder, "commands"))
        for inner in ("", "asyncio"):
            for layer in ("client.py", "cluster.py", "connection.py", "utils.py"):
                record.LIBRARY_PATHS.add(os.path.join(folder, inner, layer))
    try:
        TARGETS[name](module)
    except Exception as error:  # a client version of another shape: not wrapped, said once
        print(f"leaselint: leases of {name} are not recorded ({type(error).__name__}: {error})", file=sys.stderr)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for a target module, wraps the real loader's exec_module."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in TARGETS:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader, exec_module = spec.loader, spec.loader.exec_module

        class _Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                exec_module(module)
                _apply(fullname, module)

            def __getattr__(self, name):  # get_source, resources and the rest: the real loader's
                return getattr(loader, name)

        spec.loader = _Loader()
        return spec


_FINDER = _Finder()


def install() -> None:
    """Wrap the clients imported already and those imported later."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    for name in TARGETS:
        module = sys.modules.get(name)
        if module is not None:
            _apply(name, module)

"""Django's cache API and pymemcache, read as lease events.

Django: each backend `caches[alias]` makes (`CacheHandler.create_connection`, its public way to make
one) gets its `add`, `get`, `delete`, `delete_many` and `touch` wrapped on the instance, so the
backend keeps its class. A call Django's cache code makes of itself (`get_or_set` calling `add`) is
not the user's. pymemcache: the methods of `pymemcache.client.base.Client`, which its pooled and
hashing clients call in the end.
"""

from __future__ import annotations

import functools
import os
import sys

from leaselint.runtime import record
from leaselint.runtime.record import CLAIM, READ, RELEASE, RENEW, data

_DJANGO_CACHE = os.path.join("django", "core", "cache")


def _from_django(depth: int = 2) -> bool:
    """The caller is Django's cache code itself."""
    return _DJANGO_CACHE in sys._getframe(depth).f_code.co_filename


def wrap_django(cache_module) -> None:
    handler = cache_module.CacheHandler
    if getattr(handler, "_leaselint_wrapped", False):
        return
    create = handler.create_connection
    default = cache_module.backends.base.DEFAULT_TIMEOUT

    @functools.wraps(create)
    def _create(self, alias):
        backend = create(self, alias)
        try:
            _wrap_backend(backend, f"django:{alias}", default)
        except Exception:  # a backend of an unusual shape stays as it is
            pass
        return backend

    handler.create_connection = _create
    handler._leaselint_wrapped = True


def _wrap_backend(backend, store: str, default) -> None:
    make_key = getattr(backend, "make_and_validate_key", None) or backend.make_key

    def lifetime(timeout) -> bool:
        if timeout is default:
            timeout = backend.default_timeout
        return timeout is not None

    def wrap(name, events):
        method = getattr(backend, name)

        @functools.wraps(method)
        def _method(*args, **kwargs):
            result = method(*args, **kwargs)
            recorder = record.RECORDER
            if recorder is not None and not _from_django():
                _record(recorder, events, args, kwargs, "django", store, b"", name, result)
            return result

        setattr(backend, name, _method)

    wrap("add", lambda key, value, timeout=default, version=None: [
        (CLAIM, make_key(key, version), {"value": data(value), "lifetime": lifetime(timeout)})
    ])
    wrap("get", lambda key, default=None, version=None: [(READ, make_key(key, version), {})])
    wrap("delete", lambda key, version=None: [(RELEASE, make_key(key, version), {"checked": False})])
    wrap("delete_many", lambda keys, version=None: [
        (RELEASE, make_key(key, version), {"checked": False}) for key in keys
    ])
    wrap("touch", lambda key, timeout=default, version=None: [(RENEW, make_key(key, version), {"checked": False})])


@record.quiet
def _record(recorder, events, args, kwargs, family, store, prefix, name, result) -> None:
    try:
        made = events(*args, **kwargs)
    except TypeError:  # arguments of another shape than the method's
        return
    for kind, key, fields in made:
        recorder.add(kind, family, store, prefix + data(key) if prefix else key, command=name, result=result, **fields)


def wrap_pymemcache(base_module) -> None:
    client = base_module.Client
    if getattr(client, "_leaselint_wrapped", False):
        return

    def wrap(name, events):
        method = getattr(client, name)

        @functools.wraps(method)
        def _method(self, *args, **kwargs):
            result = method(self, *args, **kwargs)
            recorder = record.RECORDER
            if recorder is not None:
                prefix = data(getattr(self, "key_prefix", b"") or b"")
                _record(recorder, events, args, kwargs, "memcached", f"memcached:{self.server}", prefix, name, result)
            return result

        setattr(client, name, _method)

    wrap("add", lambda key, value, expire=0, noreply=None, flags=None: [
        (CLAIM, key, {"value": data(value), "lifetime": bool(expire)})
    ])
    wrap("get", lambda key, default=None: [(READ, key, {})])
    wrap("gets", lambda key: [(READ, key, {})])
    wrap("delete", lambda key, noreply=None: [(RELEASE, key, {"checked": False})])
    wrap("delete_many", lambda keys, noreply=None: [(RELEASE, key, {"checked": False}) for key in keys])
    wrap("touch", lambda key, expire=0, noreply=None: [(RENEW, key, {"checked": False})])
    client._leaselint_wrapped = True

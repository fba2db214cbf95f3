"""Rows of the store table for clients outside the store drivers: cashews, and a project's own
key-value client known only by its methods' names."""

from __future__ import annotations

from leaselint.model.store_specs import Arg, ClaimSpec, ReleaseSpec, Store

# cashews (asyncio): `await cache.set(key, value, expire=60, exist=False)` and `set_lock(key, value,
# expire)` claim; `delete(key)` is blind; `unlock(key, value)` deletes only the holder's value and
# answers whether it did.
_CASHEWS_NO_FIX = "the fixes do not write cashews' API yet"
CASHEWS = Store(
    name="cashews",
    modules=("cashews",),
    async_modules=("cashews",),
    client_names=(),
    claims=(
        ClaimSpec(
            "set",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            flag=Arg(None, "exist"),
            flag_value="False",
            lifetime=(Arg(2, "expire"),),
            no_fix=_CASHEWS_NO_FIX,
        ),
        ClaimSpec("set_lock", key=Arg(0, "key"), value=Arg(1, "value"), lifetime=(Arg(2, "expire"),), no_fix=_CASHEWS_NO_FIX),
    ),
    releases=(
        ReleaseSpec("delete", no_fix=_CASHEWS_NO_FIX),
        ReleaseSpec("unlock", key=Arg(0, "key"), checked=True, token=Arg(1, "value"), no_fix=_CASHEWS_NO_FIX),
    ),
    recognised_only=True,
    no_checked_release=_CASHEWS_NO_FIX,
    claim_words=(b"set_lock(", b"exist=False"),
)

# A project's own client, of a store leaselint does not see (a wrapper class, a driver of another
# language): a method named for a conditional create (`set_nx`, `setNx`, `set_if_not_exists`,
# `put_if_absent`, `setnx_ex`, with `_sync` or `_async`) claims; the key's release is the `delete` the
# other rows read, or its async `adelete`. Its lifetime and its answer are the project's: a missing
# lifetime is not reported.
_PROJECT_NO_FIX = "the claim is a method of the project's own client, whose store the fixes do not write for"
PROJECT_CLIENT = Store(
    name="a project's client",
    modules=(),
    client_names=(),
    claims=(
        ClaimSpec(
            "",
            key=Arg(0, "key"),
            value=Arg(1, "value"),
            lifetime=(
                Arg(2, "ttl"),
                *(
                    Arg(None, word)
                    for word in (
                        "ex", "px", "timeout", "expire", "expires", "expiry", "expiration", "expire_seconds",
                        "expire_in", "ttl_seconds", "ttl_ms", "seconds",
                    )
                ),
            ),
            default_lifetime=True,
            forever=(),
            no_fix=_PROJECT_NO_FIX,
            value_beside_lifetime=True,
        ),
    ),
    # The async form beside `delete`, as the claim's (`asetNx`, then `adelete`).
    releases=(ReleaseSpec("adelete", key=Arg(0, "key"), no_fix=_PROJECT_NO_FIX),),
    claim_method_pattern=r"(?i:a?(?:set|put|add)_?(?:nx|if_?not_?exists?|if_?absent)(?:_?ex)?(?:_(?:sync|async))?)",
    claim_words=(b"_nx(", b"_nx_", b"Nx(", b"NX(", b"if_not_exist", b"if_absent", b"IfAbsent", b"IfNotExist"),
)

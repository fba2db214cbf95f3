"""Every rule leaselint runs, in code order. Installed as `leaselint.rules`.

The rule modules are imported on first use of `ALL_RULES` or `RULES_BY_CODE`, so a run
whose files need no parse never imports them (nor libcst); `CODES` is there at once.
"""

from __future__ import annotations

from importlib import import_module

# (code, module, class)
REGISTRY = (
    ("LL000", "ll000_unparsable_file", "UnparsableFile"),
    ("LL001", "ll001_blind_release", "BlindRelease"),
    ("LL002", "ll002_fixed_token", "FixedToken"),
    ("LL003", "ll003_guessable_token", "GuessableToken"),
    ("LL004", "ll004_check_then_delete", "CheckThenDelete"),
    ("LL005", "ll005_claim_without_deadline", "ClaimWithoutDeadline"),
    ("LL006", "ll006_swallowed_lost_release", "SwallowedLostRelease"),
    ("LL007", "ll007_token_beside_claim", "TokenBesideClaim"),
    ("LL008", "ll008_claim_always_succeeds", "ClaimAlwaysSucceeds"),
    ("LL009", "ll009_check_then_claim", "CheckThenClaim"),
    ("LL010", "ll010_blind_renewal", "BlindRenewal"),
    ("LL011", "ll011_unawaited_release", "UnawaitedRelease"),
    ("LL100", "ll100_unused_noqa", "UnusedNoqa"),
)
CODES = tuple(code for code, _, _ in REGISTRY)


def __getattr__(name: str):
    if name in ("ALL_RULES", "RULES_BY_CODE"):
        rules = [getattr(import_module(f"{__name__}.{module}"), cls)() for _, module, cls in REGISTRY]
        globals()["ALL_RULES"] = rules
        globals()["RULES_BY_CODE"] = {rule.code: rule for rule in rules}
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

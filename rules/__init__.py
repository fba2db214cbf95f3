"""Every rule leaselint runs, in code order. Installed as `leaselint.rules`."""

from leaselint.rules.ll000_unparsable_file import UnparsableFile
from leaselint.rules.ll001_blind_release import BlindRelease
from leaselint.rules.ll002_fixed_token import FixedToken
from leaselint.rules.ll003_guessable_token import GuessableToken
from leaselint.rules.ll004_check_then_delete import CheckThenDelete
from leaselint.rules.ll005_claim_without_deadline import ClaimWithoutDeadline
from leaselint.rules.ll006_swallowed_lost_release import SwallowedLostRelease
from leaselint.rules.ll007_token_beside_claim import TokenBesideClaim
from leaselint.rules.ll008_claim_always_succeeds import ClaimAlwaysSucceeds
from leaselint.rules.ll100_unused_noqa import UnusedNoqa

ALL_RULES = [
    UnparsableFile(),
    BlindRelease(),
    FixedToken(),
    GuessableToken(),
    CheckThenDelete(),
    ClaimWithoutDeadline(),
    SwallowedLostRelease(),
    TokenBesideClaim(),
    ClaimAlwaysSucceeds(),
    UnusedNoqa(),
]
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

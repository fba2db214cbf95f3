"""Every rule leaselint runs, in code order. Installed as `leaselint.rules`."""

from leaselint.rules.ll000_unparsable_file import UnparsableFile
from leaselint.rules.ll001_blind_release import BlindRelease
from leaselint.rules.ll002_fixed_token import FixedToken

ALL_RULES = [UnparsableFile(), BlindRelease(), FixedToken()]
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

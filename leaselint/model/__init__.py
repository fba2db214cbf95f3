"""The lease model: calls turned into claims and releases, paired by receiver and key."""

from leaselint.model.build import build_model
from leaselint.model.events import Claim, Lease, LeaseModel, Release

__all__ = ["build_model", "Claim", "Lease", "LeaseModel", "Release"]

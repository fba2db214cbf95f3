"""The lease model: calls turned into claims and releases, paired by receiver and key.

`build_model` is imported on first use: the store table (`leaselint.model.stores`) must be
readable without libcst, for the prefilter.
"""


def __getattr__(name: str):
    if name == "build_model":
        from leaselint.model.build import build_model

        return build_model
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

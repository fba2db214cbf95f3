"""Loaded by every Python process `leaselint trace` starts: record leases, then hand over to the
environment's own sitecustomize, if it has one."""

import os
import sys


def _start() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    package_parent = os.environ.get("LEASELINT_TRACE_IMPORT", "")
    added = package_parent and package_parent not in sys.path
    if added:
        sys.path.append(package_parent)
    try:
        from leaselint.runtime import trace

        trace.start_in_process()
    except Exception as error:  # never break the traced program
        print(f"leaselint trace: not recording in this process ({type(error).__name__}: {error})", file=sys.stderr)
    finally:
        if added:
            sys.path.remove(package_parent)
    # The environment's own sitecustomize, found past this folder.
    this = sys.modules.pop("sitecustomize")
    while here in sys.path:
        sys.path.remove(here)
    try:
        import sitecustomize  # noqa: F401
    except ImportError:
        sys.modules["sitecustomize"] = this  # the import system expects to find this module there


if os.environ.get("LEASELINT_TRACE_DIR"):
    _start()

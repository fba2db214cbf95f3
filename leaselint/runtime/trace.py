"""`leaselint trace -- COMMAND`: the leases of any program, test runner or worker, at run time.

The command runs with this package's `site/` folder on PYTHONPATH: its sitecustomize starts a recorder
in every Python process the command starts (forked children too), and each writes its events into a
folder of this run when it ends. The events of all processes are then read as one run.
"""

from __future__ import annotations

import atexit
import os
import sys

SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site")


def start_in_process() -> None:
    """In a traced process: record, wrap the clients, write the events at exit."""
    from leaselint.runtime import install, record

    folder = os.environ["LEASELINT_TRACE_DIR"]
    record.start(os.environ.get("LEASELINT_TRACE_ROOT") or os.getcwd())
    install.install()

    def write() -> None:
        recorder = record.RECORDER
        if recorder is None or not recorder.events:
            return
        from leaselint.runtime.output import dump_events

        try:
            dump_events(recorder.events, os.path.join(folder, f"events-{os.getpid()}.json"))
        except OSError as error:
            print(f"leaselint trace: events of process {os.getpid()} not written ({error})", file=sys.stderr)

    def forked() -> None:
        # A forked child starts with its parent's events: keep only its own, and write them when
        # multiprocessing ends it (it leaves by os._exit, past atexit).
        recorder = record.RECORDER
        if recorder is not None:
            recorder.events = []
        util = sys.modules.get("multiprocessing.util")
        if util is not None and recorder is not None:
            # Its child first clears the finalizers, then runs the after-fork hooks: register there.
            util.register_after_fork(recorder, lambda _: util.Finalize(None, write, exitpriority=0))

    atexit.register(write)
    os.register_at_fork(after_in_child=forked)


def run(command: list[str], root: str) -> tuple[int, list]:
    """Run `command` traced; (its exit code, the findings of all its processes). OSError when it
    cannot be started."""
    import subprocess
    import tempfile

    from leaselint.runtime import analyze, output

    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory(prefix="leaselint-trace-") as folder:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (SITE, env.get("PYTHONPATH", "")) if p)
        env["LEASELINT_TRACE_DIR"] = folder
        env["LEASELINT_TRACE_ROOT"] = os.path.abspath(root)
        env["LEASELINT_TRACE_IMPORT"] = package_parent
        code = subprocess.call(command, env=env)  # OSError: the command cannot be started
        events = output.load_events(folder)
    return code, output.unsuppressed(analyze.analyze(events))

"""`pytest --leases`: the lease bugs a test run exercises, with the static rules' codes.

Off unless asked for: the plugin then only adds its options. `--leases` reports in pytest's summary,
`--leases=strict` also fails the session when there is a finding, `--leases-report FILE` writes
leaselint's JSON (or SARIF, for a `.sarif` name or `--leases-report-format sarif`).
"""

from __future__ import annotations

import os
import sys

import pytest

_KEY = "_leaselint_leases"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("leaselint", "leases at run time (leaselint)")
    group.addoption(
        "--leases", action="store_const", const="report", dest="leases", default=None,
        help="record the leases the tests claim and release, and report their bugs (LL001, LL002, ...)",
    )
    group.addoption(
        "--leases=strict", action="store_const", const="strict", dest="leases",
        help="as --leases, and fail the session when a lease bug is found",
    )
    group.addoption("--leases-report", metavar="FILE", default=None, help="also write the findings to FILE")
    group.addoption(
        "--leases-report-format", choices=("json", "sarif", "junit", "gitlab"), default=None,
        help="the format of --leases-report (default: sarif for a .sarif name, else json)",
    )
    group.addoption(
        "--leases-root", metavar="DIR", default=None,
        help="the project's own code: files under DIR outside site-packages (default: pytest's rootdir)",
    )


def pytest_configure(config) -> None:
    mode = config.getoption("leases")
    if not mode:
        return
    from leaselint.runtime import install, record

    root = config.getoption("leases_root") or str(config.rootpath)
    state = {"mode": mode, "recorder": record.start(root), "findings": None}
    config.stash[_stash_key()] = state
    install.install()


def _stash_key():
    key = globals().get("_STASH")
    if key is None:
        key = globals()["_STASH"] = pytest.StashKey[dict]()
    return key


def _state(config) -> dict | None:
    return config.stash.get(_stash_key(), None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # The recorder of --leases, or of `leaselint trace` when pytest runs under it.
    record = sys.modules.get("leaselint.runtime.record")
    recorder = getattr(record, "RECORDER", None)
    if recorder is not None:
        recorder.test = item.nodeid
    yield
    if recorder is not None:
        recorder.test = ""


def pytest_sessionfinish(session, exitstatus) -> None:
    state = _state(session.config)
    if state is None:
        return
    from leaselint.runtime import analyze, output, record

    recorder = state["recorder"]
    findings = output.unsuppressed(analyze.analyze(list(recorder.events)))
    state["findings"] = findings
    record.stop()
    report = session.config.getoption("leases_report")
    if report:
        output_format = output.format_for(report, session.config.getoption("leases_report_format"))
        temporary = f"{report}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            output.write(findings, handle, output_format)
        os.replace(temporary, report)
    if findings and state["mode"] == "strict" and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    state = _state(config)
    if state is None or state["findings"] is None:
        return
    from leaselint.runtime import output

    findings = state["findings"]
    terminalreporter.section("leases at run time (leaselint)")
    if not findings:
        claims = sum(1 for event in state["recorder"].events if event.kind == "claim")
        terminalreporter.write_line(f"no lease bugs seen ({claims} claims recorded)")
        return
    for line in output.lines(findings, str(config.rootpath)):
        terminalreporter.write_line(line)
    strict = " (--leases=strict: the session fails)" if state["mode"] == "strict" else ""
    terminalreporter.write_line(f"{len(findings)} lease bug{'s' if len(findings) != 1 else ''} seen{strict}")

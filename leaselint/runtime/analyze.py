"""Lease events to findings, with the static rules' codes.

A lease is a claim and a release (or renewal) of one key on one store, made by the project's own code
(not by a test module) in one lease's life: the two come from the same module, or share a function of
the project on their way to the store. A store wrapper's primitives a test calls one by one, the key
handed down from the test (`put_if_empty(key, v)`, then `delete_data(key)`), are no lease; a function
that claims and releases the key it is given is one. What each code means here:

- LL001: a release that compared nothing in the same server step;
- LL004: the same, after a read of the key since the claim (the compare happened in the client);
- LL002: two successful claims of a key at one line storing the same value, or a value that is the
  host name or the process id;
- LL003: a value holding a version-1 UUID (host and time) or a clock reading;
- LL005: a claim with no lifetime, or with it set by a second command;
- LL010: a renewal that checks nothing.
"""

from __future__ import annotations

import os
import re
import socket
import uuid

from leaselint.runtime.record import CLAIM, LIFETIME, READ, RELEASE, RENEW, Event

_UUID = re.compile(
    r"(?<![0-9a-f])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})(?![0-9a-f])",
    re.IGNORECASE,
)
_UUID_EPOCH = 0x01B21DD213814000  # 1582-10-15 to 1970-01-01, in 100 ns steps
_UUID_CLOCK_SLACK = 30 * 86400
_SEPARATORS = ":-_@/|. "
_SHOWN = 40


class Finding:
    __slots__ = ("code", "message", "path", "line", "tests", "related")

    def __init__(self, code: str, message: str, path: str, line: int, test: str, related=()) -> None:
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.tests = [test] if test else []
        self.related = list(related)

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}


def _short(value: str, limit: int = _SHOWN) -> str:
    return value if len(value) <= limit else value[: limit - 3] + "..."


def _at(event: Event) -> str:
    path, line = event.where[0], event.where[1]
    return f"{os.path.basename(path)}:{line}"


def _key(event: Event) -> str:
    return _short(event.key + (f" {event.field}" if event.field else ""))


def _units(event: Event) -> set:
    return {(path, function) for path, _, function, test in event.stack or () if not test}


def _one_life(claim: Event, other: Event) -> bool:
    """The two belong to one lease: the same module, or a project function both pass through."""
    return claim.where[0] == other.where[0] or bool(_units(claim) & _units(other))


def _ours(event: Event) -> bool:
    return event.where is not None and not event.test_made


class _Lease:
    __slots__ = ("claim", "late", "reads")

    def __init__(self, claim: Event) -> None:
        self.claim = claim
        self.late: Event | None = None
        self.reads: list[Event] = []

    def primitive(self, other: Event) -> bool:
        """A store wrapper's claim driven by a test (the key handed down from it), and `other` made
        by another function of the project: storage primitives a test calls one by one, not a lease.
        A function that claims and releases the key it is given is a lease at home."""
        claim = self.claim
        return bool(claim.handed) and (claim.where[0], claim.where[2]) != (other.where[0], other.where[2])


class _Findings:
    def __init__(self) -> None:
        self.found: dict[tuple[str, str, int], Finding] = {}

    def add(self, code: str, event: Event, message: str, related: tuple = ()) -> None:
        path, line = event.where[0], event.where[1]
        finding = self.found.get((code, path, line))
        if finding is None:
            self.found[(code, path, line)] = Finding(code, message, path, line, event.test or "", related)
        elif event.test and event.test not in finding.tests:
            finding.tests.append(event.test)


def analyze(events: list[Event], host: str | None = None) -> list[Finding]:
    host = socket.gethostname() if host is None else host
    events = sorted(events, key=lambda e: (e.at or 0, e.pid or 0, e.seq or 0))
    leases_of = {(e.store, e.key) for e in events if e.kind in (RELEASE, RENEW, LIFETIME) and _ours(e)}
    open_leases: dict[tuple[str, str], _Lease] = {}
    values: dict[tuple, Event] = {}
    out = _Findings()
    for event in events:
        lease_key = (event.store, event.key)
        lease = open_leases.get(lease_key)
        if event.kind == CLAIM:
            if not _ours(event) or lease_key not in leases_of:
                continue
            if lease is not None and _refresh(lease.claim, event):
                continue
            if (event.result is None or event.result) and not event.handed:
                _token_findings(out, event, values, host)
            if event.result is None or event.result or lease is None:
                open_leases[lease_key] = _Lease(event)
        elif lease is None or not _ours(event) or not _one_life(lease.claim, event):
            continue
        elif lease.primitive(event):
            if event.kind == RELEASE:
                del open_leases[lease_key]
            continue
        elif event.kind == READ:
            if not event.in_tx:
                lease.reads.append(event)
        elif event.kind == LIFETIME and not lease.claim.lifetime and lease.late is None:
            lease.late = event
        elif event.kind in (LIFETIME, RENEW):
            if not event.checked:
                out.add(
                    "LL010", event,
                    f"`{event.command}` renews lease `{_key(event)}` (claimed at {_at(lease.claim)}) "
                    "without checking the holder",
                    ((lease.claim.where[0], lease.claim.where[1], "the claim"),),
                )
        elif event.kind == RELEASE:
            if lease.claim.field and event.field and event.field != lease.claim.field:
                continue
            if lease.claim.handed and (lease.claim.result is None or lease.claim.result):
                # Its key came from a test, and a function of the project claims and releases it:
                # a lease at home, its value judged now.
                _token_findings(out, lease.claim, values, host)
            if not _forced(event):
                _release_findings(out, lease, event)
            del open_leases[lease_key]
    return sorted(out.found.values(), key=lambda f: (f.path, f.line, f.code))


def _forced(release: Event) -> bool:
    """A release on purpose of whoever holds the lease: made by the project's function named for it
    (`reset`, `force_release`, `break_lock`, `clear`), the static model's forced-release names."""
    from leaselint.model.stores import FORCE_NAMES, FORCE_WORDS

    for _, _, function, test in release.stack or ():
        name = function.lower().strip("_")
        if not test and (name in FORCE_NAMES or any(word in name for word in FORCE_WORDS)):
            return True
    return False


def _refresh(claim: Event, again: Event) -> bool:
    """A claim of an open lease by its own holder through a script that acquires or refreshes: the
    same value from the same process, with no release between. A plain conditional create that
    succeeds found the key absent (it expired, or was flushed): a new claim, never a refresh."""
    scripted = again.command in ("EVAL", "EVALSHA")
    return scripted and again.value == claim.value and again.pid == claim.pid and bool(again.value)


def _release_findings(out: _Findings, lease: _Lease, release: Event) -> None:
    claim = lease.claim
    related = ((claim.where[0], claim.where[1], "the claim"),)
    if not release.checked:
        reads = [r for r in lease.reads if r.where[0] == release.where[0]]
        if reads:
            out.add(
                "LL004", release,
                f"`{release.command}` of lease `{_key(release)}` follows a read of it at {_at(reads[-1])}: "
                "the holder is compared in the client, a separate step",
                related + ((reads[-1].where[0], reads[-1].where[1], "the read"),),
            )
        else:
            out.add(
                "LL001", release,
                f"`{release.command}` releases lease `{_key(release)}` (claimed at {_at(claim)}) "
                "without checking the holder",
                related,
            )
    if not claim.lifetime:
        if lease.late is not None:
            message = (
                f"lease `{_key(claim)}` is claimed without a lifetime; `{lease.late.command}` at "
                f"{_at(lease.late)} sets it in a second command"
            )
        else:
            message = f"lease `{_key(claim)}` is claimed with no lifetime: a holder that dies holds it forever"
        out.add("LL005", claim, message, ((release.where[0], release.where[1], "the release"),))


def _token_findings(out: _Findings, claim: Event, values: dict, host: str) -> None:
    value = claim.value or b""
    shown = _short(value.decode("utf-8", "backslashreplace"))
    origin = _fixed_origin(value, claim.pid, host)
    if origin:
        out.add("LL002", claim, f"lease `{_key(claim)}` stores {origin} (`{shown}`): the same for every claim")
    guessed = _guessable(value, claim.at or 0)
    if guessed:
        out.add("LL003", claim, f"lease `{_key(claim)}` stores {guessed} (`{shown}`): another worker can make it")
    same = (claim.store, claim.key, claim.where[0], claim.where[1], value)
    earlier = values.get(same)
    if earlier is None:
        values[same] = claim
    elif not origin and not _given_by_test(value, claim):
        out.add(
            "LL002", claim,
            f"lease `{_key(claim)}` is claimed again storing the same value (`{shown}`): the token is fixed",
        )


def _fixed_origin(value: bytes, pid: int | None, host: str) -> str | None:
    text = value.decode("utf-8", "replace")
    pid_text = str(pid) if pid else None
    names = {host, host.split(".")[0]} - {""}
    if text in names:
        return "the host name"
    if pid_text and text == pid_text:
        return "the process id"
    if pid_text:
        for name in names:
            for separator in _SEPARATORS:
                if text in (f"{name}{separator}{pid_text}", f"{pid_text}{separator}{name}"):
                    return "the host name and process id"
    return None


def _guessable(value: bytes, at: float) -> str | None:
    text = value.decode("utf-8", "replace").strip()
    for match in _UUID.finditer(text):
        if _time_uuid(match.group(0), at):
            return "a version-1 UUID (the host and the time)"
    try:
        number = float(text)
    except ValueError:
        return None
    if at and any(abs(number / scale - at) < 86400 for scale in (1, 1e3, 1e6, 1e9)):
        return "a clock reading"
    return None


def _time_uuid(text: str, at: float) -> bool:
    """A version-1 UUID of RFC 4122 whose clock reads near the claim: random hex of that length is one
    by chance only once in 64, and then its clock is anywhere in 3,000 years."""
    found = uuid.UUID(text)
    if found.version != 1 or found.variant != uuid.RFC_4122:
        return False
    seconds = (found.time - _UUID_EPOCH) / 1e7
    return not at or abs(seconds - at) < _UUID_CLOCK_SLACK


_SOURCES: dict[str, str] = {}


def _given_by_test(value: bytes, claim: Event) -> bool:
    """A test module on the claim's way wrote the value as a literal: the test chose the token."""
    text = value.decode("utf-8", "replace")
    if not text:
        return False
    for path, _, _, test in claim.stack or ():
        if not test:
            continue
        source = _SOURCES.get(path)
        if source is None:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    source = _SOURCES[path] = handle.read()
            except OSError:
                source = _SOURCES[path] = ""
        if f"'{text}'" in source or f'"{text}"' in source:
            return True
    return False

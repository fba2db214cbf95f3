"""`leaselint server`: a real LSP session over stdio with the server process, driven by a small
JSON-RPC client: initialize, didOpen, publishDiagnostics, codeAction, hover, didChange, shutdown."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from leaselint.rules import RULES_BY_CODE
from leaselint.runner import lint_text
from leaselint.settings import Settings
from leaselint.source import SourceText
import cases

# LL001's own case: one finding, one safe fix.
CASE = next(
    textwrap.dedent(c.code)
    for c in cases.invalid(RULES_BY_CODE["LL001"])
    if c.fixed is not None and c.applicability is not None and c.applicability.name == "SAFE"
)
TIMEOUT_S = 30


SERVER = [sys.executable, "-m", "leaselint", "server"]


class Client:
    def __init__(self, cwd: Path, command: list[str] = SERVER) -> None:
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue = queue.Queue()
        self.seen: list = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.decode().strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params) -> dict:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def notify(self, method: str, params) -> None:
        self.send({"method": method, "params": params})

    def wait(self, wanted) -> dict:
        """The first message, in the order sent, that `wanted` accepts (others stay for later waits)."""
        for index, message in enumerate(self.seen):
            if wanted(message):
                return self.seen.pop(index)
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT_S)
            except queue.Empty:
                pytest.fail(f"the server sent nothing wanted within {TIMEOUT_S} s; it sent: {self.seen}")
            if wanted(message):
                return message
            self.seen.append(message)

    def diagnostics(self, uri: str) -> list:
        found = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return found["params"]["diagnostics"]


def _apply(text: str, edits: list) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        return offsets[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: (offset(e["range"]["start"]), offset(e["range"]["end"])), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def test_an_lsp_session_reports_fixes_explains_and_clears(tmp_path):
    path = tmp_path / "jobs.py"
    path.write_text(CASE)
    uri = path.as_uri()
    expected = lint_text(SourceText(CASE), str(path), Settings(select=frozenset({"LL001"})))
    (finding,) = [d for d in expected.diagnostics if d.code == "LL001"]
    fixed = lint_text(SourceText(CASE), str(path), Settings(fix=True)).fixed_text

    client = Client(tmp_path)
    try:
        init = client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        capabilities = init["result"]["capabilities"]
        assert capabilities["codeActionProvider"] and capabilities["hoverProvider"]
        client.notify("initialized", {})

        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": CASE}})
        diagnostics = client.diagnostics(uri)
        ll001 = [d for d in diagnostics if d["code"] == "LL001"]
        assert len(ll001) == 1 and ll001[0]["source"] == "leaselint"
        assert ll001[0]["range"]["start"] == {"line": finding.start.line - 1, "character": finding.start.column}
        assert ll001[0]["range"]["end"] == {"line": finding.end.line - 1, "character": finding.end.column}

        actions = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": ll001[0]["range"], "context": {"diagnostics": ll001}},
        )["result"]
        quick = [a for a in actions if a["kind"] == "quickfix" and a["title"].startswith("LL001: ") and "noqa" not in a["title"]]
        assert len(quick) == 1 and quick[0]["isPreferred"] is True
        assert _apply(CASE, quick[0]["edit"]["changes"][uri]) == fixed  # the same text as `--fix`
        noqa = [a for a in actions if "# noqa: LL001" in a["title"]]
        assert len(noqa) == 1
        (whole,) = noqa[0]["edit"]["changes"][uri]
        assert "# noqa: LL001" in whole["newText"].split("\n")[finding.start.line - 1]
        (fix_all,) = [a for a in actions if a["kind"] == "source.fixAll.leaselint"]
        assert fix_all["edit"]["changes"][uri][0]["newText"] == fixed

        hover = client.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": ll001[0]["range"]["start"]}
        )["result"]
        assert hover["contents"]["value"].startswith("# blind-release (LL001)")

        # The fixed text, typed in: the finding goes.
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]},
        )
        assert [d for d in client.diagnostics(uri) if d["code"] == "LL001"] == []

        # A text that does not parse: its LL000 finding, and the server keeps serving.
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "def broken(:\n"}]},
        )
        assert [d["code"] for d in client.diagnostics(uri)] == ["LL000"]
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT_S) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


STORE = "import redis\n\nr = redis.Redis()\n"
BLIND = "from .store import r\n\n\ndef release_lock(key):\n    r.delete(key)\n"
CHECKED = (
    "from .store import r\n\nUNLOCK = \"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
    "else return 0 end\"\n\n\ndef release_lock(key, token):\n    return r.eval(UNLOCK, 1, key, token)\n"
)
JOBS = textwrap.dedent(
    """\
    import secrets

    from app.locks import release_lock
    from app.store import r


    def run(job):
        key = f"lock:{job}"
        token = secrets.token_hex(16)
        if r.set(key, token, nx=True, ex=30):
            try:
                work(job)
            finally:
                release_lock(key)
    """
)


def test_project_findings_of_an_open_file_follow_a_helper_changed_on_disk(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.leaselint]\n")
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "store.py").write_text(STORE)
    (app / "locks.py").write_text(BLIND)
    jobs = app / "jobs.py"
    jobs.write_text(JOBS)
    uri = jobs.as_uri()
    client = Client(tmp_path)
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": JOBS}})
        first = client.diagnostics(uri)
        assert [(d["code"], d["range"]["start"]["line"]) for d in first] == [("LL001", 13)]
        assert "release_lock" in first[0]["message"]
        (app / "locks.py").write_text(CHECKED.replace("return r.eval", "r.eval"))
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (app / "locks.py").as_uri(), "type": 2}]})
        again = client.diagnostics(uri)
        assert again == []  # the helper now checks the holder: the call is no blind release
        client.request("shutdown", None)
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT_S) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def test_an_error_is_logged_to_the_client_and_the_server_keeps_serving(tmp_path):
    missing = (tmp_path / "gone" / "x.py").as_uri()  # never opened, not on disk
    client = Client(tmp_path)
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        answer = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": missing}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}},
        )
        logged = client.wait(lambda m: m.get("method") == "window/logMessage")
        assert "leaselint: cannot make code actions" in logged["params"]["message"]
        assert answer["result"] == []
        path = tmp_path / "ok.py"
        path.write_text("x = 1\n")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": "x = 1\n"}})
        assert client.diagnostics(path.as_uri()) == []
        client.request("shutdown", None)
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT_S) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def test_the_files_configuration_applies_and_unsafe_fixes_are_labelled(tmp_path):
    """In process: the server's checker reads the [tool.leaselint] that applies to the file (its
    per-file-ignores too), and an unsafe fix's action says so and is not preferred."""
    from lsprotocol import types as lsp

    from leaselint.diagnostics import Applicability
    from leaselint.server import Checker, code_actions

    unsafe = next(
        textwrap.dedent(c.code)
        for c in cases.invalid(RULES_BY_CODE["LL001"])
        if c.fixed is not None and c.applicability is Applicability.UNSAFE
    )
    (tmp_path / "pyproject.toml").write_text('[tool.leaselint]\nper-file-ignores = { "legacy/*" = ["LL001"] }\n')
    (tmp_path / "legacy").mkdir()
    ignored, checked = tmp_path / "legacy" / "jobs.py", tmp_path / "jobs.py"
    for path in (ignored, checked):
        path.write_text(unsafe)
    checker = Checker()
    assert [d.code for d in checker.check(ignored.as_uri(), unsafe).diagnostics if d.code == "LL001"] == []
    result = checker.check(checked.as_uri(), unsafe)
    assert [d.code for d in result.diagnostics if d.code == "LL001"] == ["LL001"]
    everything = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=10_000, character=0))
    actions = code_actions(checked.as_uri(), unsafe, result, everything, None)
    (fix,) = [a for a in actions if a.title.startswith("LL001: ") and "noqa" not in a.title]
    assert fix.title.endswith("(unsafe)") and fix.is_preferred is False


# The forms editors start: the README's, with the `--stdio` generic LSP clients add, and the console
# script `leaselint-server` (its function, run as the script runs it).
FORMS = {
    "server": SERVER,
    "server --stdio": [*SERVER, "--stdio"],
    "leaselint-server --stdio": [sys.executable, "-c", "from leaselint.cli import run_server; run_server()", "--stdio"],
}


@pytest.mark.parametrize("form", FORMS)
def test_the_server_starts_beside_a_folder_named_server(tmp_path, form):
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "jobs.py").write_text(CASE)  # a lint of it would print a finding and exit 1
    client = Client(tmp_path, FORMS[form])
    try:
        init = client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        assert init["result"]["serverInfo"]["name"] == "leaselint"
        client.notify("initialized", {})
        assert client.request("shutdown", None)["result"] is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT_S) == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def test_help_names_the_server_and_the_console_script_is_declared():
    from click.testing import CliRunner

    from leaselint.cli import main, server_command

    assert "leaselint server" in CliRunner().invoke(main, ["--help"]).output
    assert "--stdio" in CliRunner().invoke(server_command, ["--help"]).output
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["leaselint-server"] == "leaselint.cli:run_server"


def test_a_folder_named_server_is_linted_as_a_path(tmp_path):
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "jobs.py").write_text(CASE)
    done = subprocess.run(
        [sys.executable, "-m", "leaselint", "--no-cache", "./server"], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 1 and "LL001" in done.stdout

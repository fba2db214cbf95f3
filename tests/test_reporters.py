"""Each output format, checked against its consumer's contract: SARIF schema, GitLab Code Quality, GitHub commands, JUnit."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from leaselint.cli import main
from leaselint.diagnostics import Applicability, Diagnostic, Edit, FileResult, Fix, Position
from leaselint.report import REPORTERS, github, gitlab, rule_docs, sarif, statistics
from leaselint.report.rule_docs import documentation, explain, links, summary
from leaselint.rules import ALL_RULES, RULES_BY_CODE

from snippets import BLIND_RELEASE
import cases

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())

SAFE = BLIND_RELEASE


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI_PROJECT_DIR", raising=False)
    return tmp_path


def _finding(code="LL001", message="releases blindly", line=3, fix=None) -> Diagnostic:
    return Diagnostic(code, message, Position(line, 4), Position(line, 12), fix, RULES_BY_CODE[code].name)


def _render(fmt: str, results: list[FileResult], **options) -> str:
    out = io.StringIO()
    REPORTERS[fmt](results, out, options)
    return out.getvalue()


# ---------------------------------------------------------------------- SARIF


def _validate_sarif(doc: dict) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_schema_rejects_a_broken_log():
    """The validator really checks: a result without a message is refused."""
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "LL001"}]}]}
    with pytest.raises(AssertionError):
        _validate_sarif(broken)


def test_sarif_from_the_cli_validates_and_carries_rules_results_fixes(cwd):
    (cwd / "a.py").write_text(SAFE)
    (cwd / "bad.py").write_text("def f(:\n")
    result = run_cli("--output-format", "sarif", "a.py", "bad.py")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    _validate_sarif(doc)
    assert doc["version"] == "2.1.0"
    (run,) = doc["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [rule.code for rule in ALL_RULES]
    ll001 = rules[[r["id"] for r in rules].index("LL001")]
    assert ll001["name"] == "blind-release"
    assert "## Why is this bad?" in ll001["help"]["markdown"]
    assert ll001["helpUri"].endswith("/leaselint/docs/rules.md#ll001")
    assert ll001["shortDescription"]["text"] == "Reports a lease released by an operation that does not check who holds it."
    assert ll001["properties"]["references"][0].startswith("https://redis.io/")

    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert set(by_rule) == {"LL000", "LL001"}
    finding = by_rule["LL001"]
    assert rules[finding["ruleIndex"]]["id"] == "LL001"
    location = finding["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "a.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 12, "startColumn": 13, "endLine": 12, "endColumn": 36}
    (fix,) = finding["fixes"]
    replacements = fix["artifactChanges"][0]["replacements"]
    assert replacements[-1]["deletedRegion"] == location["region"]
    assert replacements[-1]["insertedContent"]["text"].startswith("if not r.eval(LEASE_RELEASE_SCRIPT")
    # An insertion is an empty region: start and end at the same place.
    assert replacements[0]["deletedRegion"] == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}
    assert "fixes" not in by_rule["LL000"]
    assert run["invocations"][0]["executionSuccessful"] is True


def test_each_rule_has_its_own_help_page_and_a_short_description():
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    descriptors = [sarif.rule_descriptor(rule) for rule in ALL_RULES]
    uris = [d["helpUri"] for d in descriptors]
    assert len(set(uris)) == len(uris)
    page = rule_docs.PAGE.read_text(encoding="utf-8")
    for rule, descriptor in zip(ALL_RULES, descriptors):
        where = urlsplit(descriptor["helpUri"])
        # An absolute address of the page the package carries, at the rule's own anchor.
        assert where.scheme == "file" and where.fragment == rule.code.lower()
        assert Path(url2pathname(where.path)) == rule_docs.PAGE
        assert f'<a id="{where.fragment}"></a>\n\n## {rule.code} {rule.name}\n' in page
        short = descriptor["shortDescription"]["text"]
        assert len(short) <= 120 and short.endswith(".") and short.count(". ") == 0, short


def test_rules_page_is_made_from_the_rule_docs():
    """leaselint/docs/rules.md is what `python -m leaselint.report.rule_docs` writes today."""
    assert rule_docs.PAGE.read_text(encoding="utf-8") == rule_docs.rules_page(ALL_RULES)


def test_sarif_of_a_clean_run_validates(cwd):
    (cwd / "clean.py").write_text("x = 1\n")
    result = run_cli("--output-format", "sarif", "clean.py")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    _validate_sarif(doc)
    assert doc["runs"][0]["results"] == []


def test_sarif_uris_are_escaped_and_absolute_paths_are_file_uris(tmp_path):
    fix = Fix("do it", (Edit(Position(3, 4), Position(3, 12), "x"),), Applicability.UNSAFE)
    results = [
        FileResult("my dir/a b.py", [_finding(fix=fix)]),
        FileResult(str(tmp_path / "c.py"), [_finding()]),
    ]
    doc = json.loads(_render("sarif", results))
    _validate_sarif(doc)
    first, second = doc["runs"][0]["results"]
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20dir/a%20b.py"
    assert first["fixes"][0]["description"]["text"] == "do it (unsafe)"
    assert second["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": (tmp_path / "c.py").as_uri()}


# --------------------------------------------------------------------- GitLab


def test_gitlab_code_quality_shape(cwd):
    (cwd / "pkg").mkdir()
    (cwd / "pkg" / "a.py").write_text(SAFE)
    result = run_cli("--output-format", "gitlab", "pkg")
    assert result.exit_code == 1
    issues = json.loads(result.stdout)
    assert isinstance(issues, list) and len(issues) == 1
    issue = issues[0]
    # The fields GitLab requires, with the types it requires.
    assert isinstance(issue["description"], str) and "LL001" in issue["description"]
    assert issue["check_name"] == "LL001"
    assert re.fullmatch(r"[0-9a-f]{64}", issue["fingerprint"])
    assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
    assert issue["location"]["path"] == "pkg/a.py"
    assert issue["location"]["positions"] == {"begin": {"line": 12, "column": 13}, "end": {"line": 12, "column": 36}}


def test_gitlab_fingerprints_are_stable_unique_and_survive_moved_lines():
    same = [_finding(line=3), _finding(line=9)]
    first = json.loads(_render("gitlab", [FileResult("a.py", same)]))
    again = json.loads(_render("gitlab", [FileResult("a.py", same)]))
    moved = json.loads(_render("gitlab", [FileResult("a.py", [_finding(line=5), _finding(line=11)])]))
    other_file = json.loads(_render("gitlab", [FileResult("b.py", same)]))
    prints = [i["fingerprint"] for i in first]
    assert len(set(prints)) == 2
    assert prints == [i["fingerprint"] for i in again] == [i["fingerprint"] for i in moved]
    assert not set(prints) & {i["fingerprint"] for i in other_file}


def test_gitlab_paths_are_relative_to_ci_project_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CI_PROJECT_DIR", str(tmp_path))
    issues = json.loads(_render("gitlab", [FileResult(str(tmp_path / "src" / "a.py"), [_finding()])]))
    assert issues[0]["location"]["path"] == "src/a.py"


# --------------------------------------------------------------------- GitHub


def test_github_workflow_command(cwd):
    (cwd / "a.py").write_text(SAFE)
    result = run_cli("--output-format", "github", "a.py")
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith(
        "::error title=leaselint (LL001),file=a.py,line=12,col=13,endLine=12,endColumn=36::a.py:12:13: LL001 "
    )


def test_github_escapes_data_and_properties():
    assert github.escape_data("100%\r\nnext: a, b") == "100%25%0D%0Anext: a, b"
    assert github.escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"
    nasty = FileResult("dir,x/a:b.py", [_finding(message="50% of\nkeys: a, b\r")])
    (line,) = _render("github", [nasty]).splitlines()
    assert line.startswith("::error title=leaselint (LL001),file=dir%2Cx/a%3Ab.py,line=3,col=5,endLine=3,endColumn=13::")
    message = line.split("::", 2)[2]
    assert message == "dir,x/a:b.py:3:5: LL001 50%25 of%0Akeys: a, b%0D"


# ---------------------------------------------------------------------- JUnit


def test_junit_xml(cwd):
    (cwd / "a.py").write_text(SAFE)
    (cwd / "clean.py").write_text("x = 1\n")
    result = run_cli("--output-format", "junit", "a.py", "clean.py")
    assert result.exit_code == 1
    root = ET.fromstring(result.stdout.encode())
    assert root.tag == "testsuites" and root.get("failures") == "1"
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "a.py"
    (case,) = suite.findall("testcase")
    assert case.get("name") == "leaselint.LL001" and case.get("line") == "12"
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "LL001"
    assert failure.text.startswith("a.py:12:13: LL001 ")


def test_junit_clean_run_and_unsafe_characters():
    root = ET.fromstring(_render("junit", [FileResult("a.py")]).encode())
    assert root.get("failures") == "0"
    assert [c.get("name") for c in root.iter("testcase")] == ["No errors found"]
    text = _render("junit", [FileResult("a.py", [_finding(message="bell \x07 <&>")])])
    failure = ET.fromstring(text.encode()).find(".//failure")
    assert failure.get("message") == "bell \ufffd <&>"


# ----------------------------------------------------- statistics, show-fixes


def test_statistics_text_and_json(cwd):
    (cwd / "a.py").write_text(SAFE)
    (cwd / "b.py").write_text(SAFE)
    (cwd / "bad.py").write_text("def f(:\n")
    result = run_cli("--statistics", "a.py", "b.py", "bad.py")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "2\tLL001\tblind-release\t(2 fixable)",
        "1\tLL000\tunparsable-file",
        "Found 3 errors.",
        "[*] 2 fixable with the `--fix` option.",
    ]
    as_json = run_cli("--statistics", "--output-format", "json", "a.py", "bad.py")
    assert json.loads(as_json.stdout) == [
        {"code": "LL000", "name": "unparsable-file", "count": 1, "fixable": 0},
        {"code": "LL001", "name": "blind-release", "count": 1, "fixable": 1},
    ]


def test_statistics_counts_unsafe_fixes_only_when_enabled():
    unsafe = Fix("f", (), Applicability.UNSAFE)
    results = [FileResult("a.py", [_finding(fix=unsafe)])]
    assert statistics.counts(results, {})[0]["fixable"] == 0
    assert statistics.counts(results, {"unsafe_fixes": True})[0]["fixable"] == 1


def test_show_fixes_lists_what_was_fixed(cwd):
    (cwd / "a.py").write_text(SAFE)
    result = run_cli("--fix", "--show-fixes", "a.py")
    assert result.exit_code == 0
    assert result.stdout == (
        "Fixed 1 error:\n- a.py:\n    1 × LL001 (blind-release)\n\nFound 1 error (1 fixed, 0 remaining).\n"
    )


# ------------------------------------------------------------------- colour


def test_colour_only_when_asked_and_on_a_terminal(monkeypatch):
    from leaselint.cli import use_color

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Terminal(), no_color=False)
    assert not use_color(io.StringIO(), no_color=False)
    assert not use_color(Terminal(), no_color=True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Terminal(), no_color=False)
    monkeypatch.setenv("NO_COLOR", "")
    assert use_color(Terminal(), no_color=False)


@pytest.mark.parametrize("fmt", ["full", "concise"])
def test_colour_codes_only_with_colour_option(fmt):
    results = [FileResult("a.py", [_finding(fix=Fix("f", ()))], original_text="a\nb\nc = 1234567890123\n")]
    plain = _render(fmt, results)
    coloured = _render(fmt, results, color=True)
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_cli_output_is_plain_when_not_a_terminal(cwd):
    (cwd / "a.py").write_text(SAFE)
    assert "\x1b[" not in run_cli("a.py").stdout


# ----------------------------------------------------- rule documentation


def test_list_rules_comes_from_the_rule_classes():
    result = run_cli("--list-rules")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["code", "name", "fix"]
    assert [line.split() for line in lines[1:]] == [[r.code, r.name, r.fix_availability] for r in ALL_RULES]


def test_explain_prints_the_docstring():
    result = run_cli("--explain", "ll001")
    assert result.exit_code == 0
    rule = RULES_BY_CODE["LL001"]
    assert result.stdout == explain(rule)
    assert result.stdout.startswith("# blind-release (LL001)\n\nFix is sometimes available.\n\n## What it does\n")
    assert documentation(rule) in result.stdout
    assert summary(rule).startswith("Reports a lease released")
    assert links(rule) == ["https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/"]


def test_explain_takes_a_rules_name_as_its_code():
    for rule in ALL_RULES:
        by_name = run_cli("--explain", rule.name)
        assert by_name.exit_code == 0, rule.name
        assert by_name.stdout == explain(rule)


def test_explain_unknown_code_exits_2():
    result = run_cli("--explain", "LL999")
    assert result.exit_code == 2
    assert result.stderr.startswith("leaselint: error: unknown rule code 'LL999'; known: LL000, LL001")


def test_output_file(cwd):
    (cwd / "a.py").write_text(SAFE)
    result = run_cli("--output-format", "gitlab", "--output-file", "report.json", "a.py")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert json.loads((cwd / "report.json").read_text())[0]["check_name"] == "LL001"
    bad = run_cli("--output-file", str(cwd / "missing" / "r.txt"), "a.py")
    assert bad.exit_code == 2
    assert bad.stderr.startswith("leaselint: error: cannot write ")


def test_gitlab_module_handles_stdin_name():
    assert gitlab.project_path("-") == "-"



def test_json_text_is_the_standard_library_indented_text():
    """The report writes its text directly; it must be what `json.dump(..., indent=2)` would write."""
    import io
    import textwrap

    from leaselint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position
    from leaselint.report.json_format import item, report
    from leaselint.rules import ALL_RULES
    from leaselint.runner import lint_text
    from leaselint.settings import Settings
    from leaselint.source import SourceText

    results = [
        lint_text(SourceText(textwrap.dedent(case.code)), f"dir/{rule.code}_{n}.py", Settings())
        for rule in ALL_RULES
        for n, case in enumerate(cases.invalid(rule))
    ]
    odd = Diagnostic(
        "LL001", 'é \u2028 "q" \\ \n\t', Position(1, 0), Position(2, 3),
        Fix("é fix", (Edit(Position(1, 0), Position(1, 0), ""),), Applicability.UNSAFE), "blind-release",
    )
    empty = Diagnostic("LL001", "m", Position(1, 0), Position(1, 1), Fix("m", ()), "x")
    results += [FileResult("-", [odd, empty]), FileResult("clean.py", [])]
    assert sum(len(r.diagnostics) for r in results) > 100
    written = io.StringIO()
    report(results, written, {})
    expected = json.dumps([item(r.path, d) for r in results for d in r.diagnostics], indent=2) + "\n"
    assert written.getvalue() == expected
    empty_report = io.StringIO()
    report([FileResult("clean.py", [])], empty_report, {})
    assert empty_report.getvalue() == "[]\n"


# ------------------------------------------------------- related locations

FIXED_TOKENS = '''\
import redis

r = redis.Redis()
OWNER = "worker"


def claim(job, owner):
    return r.set(f"lock:{job}", owner, nx=True, ex=30)


def release(job):
    r.delete(f"lock:{job}")


def run(job):
    if r.set(f"lock:{job}", OWNER, nx=True, ex=30):
        release(job)


def nightly():
    if claim("nightly", "cron"):
        release("nightly")
    if claim("weekly", "cron-weekly"):
        release("weekly")
'''


def test_fixed_token_is_reported_at_each_claim_with_where_it_comes_from(cwd):
    """At each claim: the module's constant made elsewhere, and the helper's claim of what its
    callers pass, with those callers' arguments."""
    (cwd / "jobs.py").write_text(FIXED_TOKENS)
    found = json.loads(run_cli("--isolated", "--select", "LL002", "--output-format", "json", "jobs.py").output)
    assert [
        (f["location"]["row"], f["location"]["column"], [(r["message"], r["location"]["row"], r["location"]["column"])
                                                          for r in f["related"]])
        for f in found
    ] == [
        (8, 33, [("a caller passes the value here", 21, 25), ("a caller passes the value here", 23, 24)]),
        (16, 29, [("the value is made here", 4, 9)]),
    ]
    full = run_cli("--isolated", "--select", "LL002", "--no-color", "jobs.py").output
    assert "   = note: the value is made here: jobs.py:4:9\n" in full
    assert "  = note: a caller passes the value here: jobs.py:21:25\n" in full
    doc = json.loads(run_cli("--isolated", "--select", "LL002", "--output-format", "sarif", "jobs.py").output)
    _validate_sarif(doc)
    related = [r["relatedLocations"] for r in doc["runs"][0]["results"]]
    assert [[(x["physicalLocation"]["region"]["startLine"], x["message"]["text"]) for x in r] for r in related] == [
        [(21, "a caller passes the value here"), (23, "a caller passes the value here")],
        [(4, "the value is made here")],
    ]


def test_a_noqa_on_the_claim_hides_a_fixed_token_made_elsewhere(cwd):
    text = FIXED_TOKENS.replace("OWNER, nx=True, ex=30):", "OWNER, nx=True, ex=30):  # noqa: LL002")
    (cwd / "jobs.py").write_text(text)
    found = json.loads(run_cli("--isolated", "--select", "LL002", "--output-format", "json", "jobs.py").output)
    assert [f["location"]["row"] for f in found] == [8]

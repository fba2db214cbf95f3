"""The GitHub Action (action.yml at the root): its step runs action/run.py, which installs leaselint
into a venv of its own, runs it once, prints the findings as workflow annotations, writes SARIF and a
job summary, and passes leaselint's exit code and version on.

The step is run as GitHub runs it: action.yml's command, with its inputs (defaults filled in) as the
step's environment. Most tests give the action a venv already made, whose `leaselint` logs each call.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from snippets import BLIND_RELEASE

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "jobs.py"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())


def _script():
    spec = importlib.util.spec_from_file_location("action_run", ROOT / "action" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_action_is_a_composite_step_that_runs_the_script_with_every_input():
    assert set(ACTION["inputs"]) == {"args", "src", "version", "version-file", "sarif", "summary", "python"}
    assert ACTION["runs"]["using"] == "composite"
    (step,) = ACTION["runs"]["steps"]
    assert step["run"] == '"$LEASELINT_PYTHON" "$GITHUB_ACTION_PATH/action/run.py"'
    assert step["env"] == {
        f"LEASELINT_{name.upper().replace('-', '_')}": f"${{{{ inputs.{name} }}}}" for name in ACTION["inputs"]
    }
    assert ACTION["outputs"]["exit-code"]["value"] == "${{ steps.run.outputs.exit-code }}"
    assert ACTION["outputs"]["leaselint-version"]["value"] == "${{ steps.run.outputs.leaselint-version }}"


class Run:
    def __init__(self, done: subprocess.CompletedProcess, runner: Path) -> None:
        self.done = done
        self.returncode = done.returncode
        self.stdout = done.stdout
        self.stderr = done.stderr
        self.runner = runner

    def file(self, name: str) -> str:
        path = self.runner / name
        return path.read_text() if path.exists() else ""

    @property
    def outputs(self) -> dict[str, str]:
        return dict(line.split("=", 1) for line in self.file("github_output.txt").splitlines())

    @property
    def annotations(self) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith("::error ")]

    def calls(self) -> list[list[str]]:
        """The fake leaselint's runs, `--version` left out."""
        calls = [json.loads(line) for line in self.file("calls.jsonl").splitlines()]
        return [call for call in calls if call != ["--version"]]


def run_action(runner: Path, folder: Path, **inputs: str) -> Run:
    """action.yml's step, in `folder`, with `inputs` (names with `_` for `-`) over the defaults."""
    (step,) = ACTION["runs"]["steps"]
    given = {name.replace("_", "-"): value for name, value in inputs.items()}
    given.setdefault("python", sys.executable)
    values = {name: given.get(name, spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LEASELINT_", "GITHUB_"))}
    for key, value in step["env"].items():
        name = value.removeprefix("${{ inputs.").removesuffix(" }}")
        env[key] = values[name]
    runner.mkdir(exist_ok=True)
    env.update(
        GITHUB_ACTION_PATH=str(ROOT),
        RUNNER_TEMP=str(runner),
        GITHUB_OUTPUT=str(runner / "github_output.txt"),
        GITHUB_PATH=str(runner / "github_path.txt"),
        GITHUB_STEP_SUMMARY=str(runner / "summary.md"),
    )
    for name in ("github_output.txt", "github_path.txt", "summary.md", "calls.jsonl"):
        (runner / name).write_text("")
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    return Run(done, runner)


@pytest.fixture
def runner(tmp_path) -> Path:
    """A runner's temp folder holding the action's venv as if installed from its checkout; the venv's
    `leaselint` logs each call to calls.jsonl and runs this checkout's leaselint."""
    runner = tmp_path / "runner"
    venv = runner / "leaselint-action-venv"
    scripts = venv / "bin"
    scripts.mkdir(parents=True)
    fake = scripts / "leaselint"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"with open({str(runner / 'calls.jsonl')!r}, 'a') as log:\n"
        "    log.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        "from leaselint.cli import run\n"
        "run()\n"
    )
    fake.chmod(0o755)
    (venv / "leaselint-action-requirement.txt").write_text(str(ROOT))
    return runner


@pytest.fixture
def workspace(tmp_path) -> Path:
    """jobs.py and app/a.py, app/b.py: one LL001 finding each."""
    folder = tmp_path / "repo"
    (folder / "app").mkdir(parents=True)
    for name in ("jobs.py", "app/a.py", "app/b.py"):
        (folder / name).write_text(BLIND_RELEASE)
    return folder


def annotated_files(run: Run) -> set[str]:
    return {line.split("file=", 1)[1].split(",", 1)[0] for line in run.annotations}


@pytest.mark.parametrize("args", ["--exclude app/* .", "--exclude 'app/*' .", '--exclude "app/*" .'])
def test_args_are_split_as_written_with_no_glob_expansion(runner, workspace, args):
    done = run_action(runner, workspace, args=args)
    assert done.returncode == 1, done.stderr
    assert annotated_files(done) == {"jobs.py"}
    ((*_, exclude, path),) = [call[call.index("--exclude"):] for call in done.calls()]
    assert (exclude, path) == ("app/*", ".")


def test_a_quoted_path_with_a_space_is_one_argument(runner, workspace):
    (workspace / "my jobs").mkdir()
    shutil.copy(workspace / "jobs.py", workspace / "my jobs" / "jobs.py")
    done = run_action(runner, workspace, args="'my jobs/jobs.py' --select LL001")
    assert done.returncode == 1, done.stderr
    assert annotated_files(done) == {"my jobs/jobs.py"}

    unclosed = run_action(runner, workspace, args="--exclude 'app/*")
    assert unclosed.returncode == 2 and unclosed.stdout.startswith("::error title=leaselint action::cannot split args")
    assert unclosed.calls() == []


def test_with_sarif_leaselint_runs_once_for_annotations_and_report(runner, workspace, tmp_path):
    sarif = tmp_path / "leaselint.sarif"
    done = run_action(runner, workspace, args="jobs.py --select LL001", sarif=str(sarif))
    assert done.returncode == 1, done.stderr
    assert len(done.calls()) == 1
    report = json.loads(sarif.read_text())
    assert [r["ruleId"] for r in report["runs"][0]["results"]] == ["LL001"]
    (line,) = done.annotations
    assert line.startswith("::error title=leaselint (LL001),file=jobs.py,line=")
    assert done.outputs["exit-code"] == "1"


def test_annotations_match_the_github_output_format(runner, workspace):
    done = run_action(runner, workspace)
    github = subprocess.run(
        [sys.executable, "-m", "leaselint", "--no-cache", "--output-format", "github", "."],
        cwd=workspace, capture_output=True, text=True,
    )
    assert sorted(done.annotations) == sorted(github.stdout.splitlines()) and len(done.annotations) == 3


def test_src_takes_paths_and_expands_globs_keeping_the_excludes(runner, workspace):
    (workspace / "pyproject.toml").write_text('[tool.leaselint]\nextend-exclude = ["app/b.py"]\n')
    done = run_action(runner, workspace, src="app/*.py jobs.py", args="--select LL001")
    assert done.returncode == 1, done.stderr
    assert annotated_files(done) == {"app/a.py", "jobs.py"}
    # A pattern that matches nothing reaches leaselint as it is, which says so.
    missing = run_action(runner, workspace, src="nowhere/*.py")
    assert missing.returncode == 2 and "nowhere/*.py" in missing.stderr


def test_the_job_summary_and_the_version_output(runner, workspace):
    from leaselint import __version__

    done = run_action(runner, workspace, args="--select LL001")
    summary = done.file("summary.md")
    assert summary.startswith(f"## leaselint {__version__}\n")
    assert "3 findings in 3 files (exit code 1)." in summary
    assert "| LL001 | 3 |" in summary and "| `app/a.py:" in summary
    assert done.outputs == {"leaselint-version": __version__, "exit-code": "1"}
    assert done.file("github_path.txt") == f"{runner / 'leaselint-action-venv' / 'bin'}\n"

    quiet = run_action(runner, workspace, summary="false")
    assert quiet.file("summary.md") == ""


def test_args_that_choose_the_output_are_passed_through(runner, workspace):
    done = run_action(runner, workspace, args="--version")
    assert done.returncode == 0 and done.stdout.startswith("leaselint, version")
    stats = run_action(runner, workspace, args="--statistics .")
    assert stats.returncode == 1 and "LL001" in stats.stdout and not stats.annotations


def test_the_version_input_and_version_file():
    script = _script()
    assert script.requirement("") == script.requirement("local") == str(ROOT)
    assert script.requirement("latest") == "leaselint"
    assert script.requirement("0.9.0") == "leaselint==0.9.0"
    assert script.requirement(">=0.9,<1") == "leaselint>=0.9,<1"


@pytest.mark.parametrize(
    ("name", "text", "version"),
    [
        ("pyproject.toml", '[project]\nname = "app"\n[dependency-groups]\ndev = ["pytest", "leaselint[server] >= 0.9, <1"]\n', ">=0.9,<1"),
        ("requirements-dev.txt", "pytest\nleaselint==0.9.0 ; python_version >= '3.10'  # CI\n", "==0.9.0"),
        ("uv.lock", 'version = 1\n\n[[package]]\nname = "leaselint"\nversion = "0.9.2"\nsource = { registry = "https://pypi.org/simple" }\n', "0.9.2"),
        ("requirements.txt", "leaselint\n", None),
    ],
)
def test_the_version_is_read_from_a_version_file(tmp_path, name, text, version):
    path = tmp_path / name
    path.write_text(text)
    assert _script().version_from_file(str(path)) == version


def test_a_version_file_without_a_pin_warns_and_installs_the_actions_own(runner, workspace):
    (workspace / "requirements.txt").write_text("redis\n")
    done = run_action(runner, workspace, **{"version-file": "requirements.txt"})
    assert "::warning title=leaselint action::no leaselint version pinned in requirements.txt" in done.stdout
    assert done.returncode == 1, done.stderr


def test_the_script_installs_leaselint_into_its_own_venv(tmp_path, workspace):
    runner = tmp_path / "runner"
    done = run_action(runner, workspace, args="jobs.py", version="local")
    assert done.returncode == 1, done.stderr
    assert (runner / "leaselint-action-venv" / "bin" / "leaselint").exists()
    assert done.outputs["exit-code"] == "1" and len(done.annotations) == 1

    # A clean file, with the venv made once: exit 0, no annotation.
    (workspace / "clean.py").write_text("x = 1\n")
    again = run_action(runner, workspace, args="clean.py", version="local")
    assert again.returncode == 0, again.stderr
    assert "::error" not in again.stdout
    assert again.outputs["exit-code"] == "0"

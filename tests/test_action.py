"""The GitHub Action (action.yml at the root): its inputs reach action/run.sh, which installs leaselint
into a venv of its own, prints the findings as workflow annotations, writes SARIF when asked and
passes leaselint's exit code on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "jobs.py"


def test_the_action_is_a_composite_step_that_runs_the_script_with_every_input():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert set(action["inputs"]) == {"args", "version", "sarif", "python"}
    assert action["runs"]["using"] == "composite"
    (step,) = action["runs"]["steps"]
    assert step["run"] == 'bash "$GITHUB_ACTION_PATH/action/run.sh"'
    assert step["env"] == {f"LEASELINT_{name.upper()}": f"${{{{ inputs.{name} }}}}" for name in action["inputs"]}
    assert action["outputs"]["exit-code"]["value"] == "${{ steps.run.outputs.exit-code }}"


def _run(tmp_path: Path, folder: Path, **inputs) -> tuple[subprocess.CompletedProcess, str]:
    output = tmp_path / "github_output.txt"
    output.write_text("")
    env = {
        **os.environ,
        "GITHUB_ACTION_PATH": str(ROOT),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(output),
        **{f"LEASELINT_{name.upper()}": value for name, value in inputs.items()},
    }
    (tmp_path / "runner").mkdir(exist_ok=True)
    done = subprocess.run(
        ["bash", str(ROOT / "action" / "run.sh")], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    return done, output.read_text()


def test_the_script_annotates_writes_sarif_and_passes_the_exit_code_on(tmp_path):
    workspace = tmp_path / "repo"
    workspace.mkdir()
    shutil.copy(SAMPLE, workspace / "jobs.py")
    (workspace / "clean.py").write_text("x = 1\n")
    sarif = tmp_path / "leaselint.sarif"

    done, output = _run(tmp_path, workspace, args="jobs.py --select LL001", version="local", sarif=str(sarif))
    assert done.returncode == 1, done.stderr
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert annotations and all("title=leaselint (LL001),file=jobs.py" in line for line in annotations)
    assert output == "exit-code=1\n"
    report = json.loads(sarif.read_text())
    assert {r["ruleId"] for r in report["runs"][0]["results"]} == {"LL001"}
    assert (tmp_path / "runner" / "leaselint-action-venv" / "bin" / "leaselint").exists()

    # A clean file, with the venv made once: exit 0, no annotation.
    again, output = _run(tmp_path, workspace, args="clean.py", version="local", sarif="")
    assert again.returncode == 0, again.stderr
    assert "::error" not in again.stdout
    assert output == "exit-code=0\n"

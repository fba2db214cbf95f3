"""The pre-commit hooks, run by the real `pre-commit try-repo` on a throwaway repository with a bad file.

pre-commit builds the hook's environment with pip, so this needs git and the package index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snippets import BLIND_RELEASE

ROOT = Path(__file__).resolve().parents[1]
# Not part of the hook repository: version control, environments, build output, caches.
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache", ".leaselint_cache"
)

# A blind release (LL001 at line 12) with a safe fix.
BAD = BLIND_RELEASE


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=leaselint tests", "-c", "user.email=tests@leaselint.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This working tree as a one-commit repository, so try-repo installs exactly the code under test."""
    repo = tmp_path_factory.mktemp("hook") / "leaselint"
    shutil.copytree(ROOT, repo, ignore=NOT_SOURCE)
    _git("init", "-q", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("commit", "-q", "-m", "snapshot", cwd=repo)
    return repo


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory) -> Path:
    # Shared by the tests of this module so the hook environment is built once.
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "jobs.py").write_text(BAD)
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.leaselint]\nextend-exclude = ["legacy"]\n')
    _git("init", "-q", cwd=tmp_path)
    _git("add", "-A", cwd=tmp_path)
    return tmp_path


def try_repo(hook_repo: Path, hook: str, project: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    env.update(PRE_COMMIT_HOME=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1", NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--all-files", "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )


def test_hooks_file_declares_both_hooks_serial():
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"leaselint", "leaselint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["require_serial"] is True
        assert "--force-exclude" in hook["entry"].split()
    assert "--fix" in hooks["leaselint-fix"]["entry"].split()


def test_check_hook_fails_with_ll001(hook_repo, project, pre_commit_home):
    done = try_repo(hook_repo, "leaselint", project, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "jobs.py:12:13: LL001" in output
    assert "legacy" not in output.replace("extend-exclude", "")  # excluded even though pre-commit names it
    assert (project / "jobs.py").read_text() == BAD


def test_fix_hook_rewrites_the_file(hook_repo, project, pre_commit_home):
    done = try_repo(hook_repo, "leaselint-fix", project, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output  # pre-commit fails a hook that changed files
    assert "files were modified by this hook" in output
    fixed = (project / "jobs.py").read_text()
    assert "LEASE_RELEASE_SCRIPT" in fixed
    assert 'if not r.eval(LEASE_RELEASE_SCRIPT, 1, f"lock:{job}", token):' in fixed
    assert (project / "legacy" / "old.py").read_text() == BAD

    again = try_repo(hook_repo, "leaselint", project, pre_commit_home)
    assert again.returncode == 0, again.stdout + again.stderr

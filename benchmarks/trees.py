"""The real trees: the standard library and Django, copied with their Python files alone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"  # downloads (gitignored)
TREES = {"a": "stdlib", "b": "django", "c": "leases", "d": "helpers"}

# --------------------------------------------------------------------------------------------
# Trees


def excluded_names() -> frozenset[str]:
    """The folder names leaselint and Ruff skip by default, so every tool sees the same files."""
    try:
        from leaselint.discover import DEFAULT_EXCLUDES

        return frozenset(DEFAULT_EXCLUDES)
    except ImportError:
        return frozenset({".git", "venv", ".venv", "__pycache__", "node_modules", "build", "dist", ".tox", ".nox", "site-packages"})


def python_files(root: Path) -> list[Path]:
    skip = excluded_names()
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip and not d.startswith("."))
        found.extend(Path(folder) / f for f in sorted(files) if f.endswith((".py", ".pyi")))
    return found


def copy_python_tree(source: Path, target: Path) -> None:
    """Only .py/.pyi files, without the folders leaselint and Ruff skip by default (site-packages, venv...)."""
    skip = excluded_names()

    def ignore(folder: str, names: list[str]) -> list[str]:
        return [
            n
            for n in names
            if n in skip
            or n.startswith(".")
            or (not os.path.isdir(os.path.join(folder, n)) and not n.endswith((".py", ".pyi")))
        ]

    shutil.copytree(source, target, ignore=ignore, symlinks=True)


def stdlib_tree(work: Path) -> Path:
    target = work / "stdlib"
    copy_python_tree(Path(sysconfig.get_paths()["stdlib"]), target)
    return target


def django_tree(work: Path, refresh: bool) -> tuple[Path, str]:
    folder = CACHE / "django"
    folder.mkdir(parents=True, exist_ok=True)
    archives = sorted(folder.glob("[Dd]jango-*"), key=lambda p: p.stat().st_mtime)
    if refresh or not archives:
        for old in archives:
            old.unlink()
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q", "django", "-d", str(folder)],
            check=True,
        )
        archives = sorted(folder.glob("[Dd]jango-*"), key=lambda p: p.stat().st_mtime)
    archive = archives[-1]
    unpacked = work / "django-unpacked"
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            z.extractall(unpacked)
        root = unpacked / "django"
    else:
        with tarfile.open(archive) as t:
            t.extractall(unpacked, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(unpacked)
        root = next(p for p in unpacked.iterdir() if p.is_dir())
    target = work / "django"
    copy_python_tree(root, target)
    return target, archive.name

"""The installed package: `rules/` lands inside `leaselint`, never as a top-level `rules`."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_maps_rules_into_the_package(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("leaselint-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"leaselint"}
    assert "leaselint/rules/ll001_blind_release.py" in names
    assert "leaselint/rules/__init__.py" in names
    assert "leaselint/docs/rules.md" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "leaselint = leaselint.cli:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_rules_import_from_any_folder(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", "import leaselint.rules as r; print(','.join(x.code for x in r.ALL_RULES))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip().startswith("LL000,LL001")

"""The ecosystem check's checked-in data: the pinned list and the verdicts (the check itself downloads)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
spec = importlib.util.spec_from_file_location("ecosystem", SCRIPTS / "ecosystem.py")
ecosystem = importlib.util.module_from_spec(spec)
sys.modules.setdefault("ecosystem", ecosystem)  # its dataclass looks its module up there
spec.loader.exec_module(ecosystem)


def test_the_list_pins_over_fifty_packages_with_large_applications():
    packages = ecosystem.load_packages(SCRIPTS / "ecosystem.toml")
    names = [name for _, name, _ in packages]
    assert len(names) >= 50 and len(set(names)) == len(names)
    assert len([name for group, name, _ in packages if group == "applications"]) >= 3


def test_every_verdict_names_a_listed_package_and_its_side():
    listed = {name for _, name, _ in ecosystem.load_packages(SCRIPTS / "ecosystem.toml")}
    verdicts = ecosystem.load_verdicts(SCRIPTS / "ecosystem-verdicts.tsv")
    assert verdicts
    for (package, code, where), (verdict, side, reason) in verdicts.items():
        assert package in listed, package
        assert code.startswith("LL") and where.rsplit(":", 1)[1].isdigit()
        assert side == ("test" if ecosystem.in_tests(where.rsplit(":", 1)[0]) else "src"), where
        assert reason.strip(), where


def test_test_folders_are_told_from_code():
    assert ecosystem.in_tests("tests/test_lock.py")
    assert ecosystem.in_tests("test/asynchronous/test_collection.py")
    assert ecosystem.in_tests("pkg/conftest.py")
    assert not ecosystem.in_tests("rq/queue.py")
    assert not ecosystem.in_tests("examples/bench.py")

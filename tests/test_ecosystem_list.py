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


def test_recall_counts_a_label_found_by_its_code_in_its_file_two_lines_away_at_most():
    labels = [
        ("rq", "LL001", "rq/queue.py", 297, "blind"),
        ("rq", "LL002", "rq/queue.py", 290, "constant"),
        ("rq", "LL006", "rq/scheduler.py", 329, "dropped"),
    ]
    findings = [
        ecosystem.Finding("rq", "LL001", "rq/queue.py", 299, "m"),
        ecosystem.Finding("rq", "LL002", "rq/queue.py", 293, "m"),
        ecosystem.Finding("rq", "LL001", "rq/scheduler.py", 329, "m"),
    ]
    hits, misses = ecosystem.recall(labels, findings)
    assert hits == labels[:1] and misses == labels[1:]


def test_every_label_names_a_listed_package_and_a_rule():
    listed = {name for _, name, _ in ecosystem.load_packages(SCRIPTS / "ecosystem.toml")}
    labels = ecosystem.load_labels(SCRIPTS / "ecosystem-labels.tsv")
    assert labels
    codes = {f"LL00{n}" for n in range(1, 9)}
    for package, code, path, line, reason in labels:
        assert package in listed and code in codes and path.endswith(".py") and line > 0 and reason.strip()


def test_recall_counts_a_label_at_a_findings_related_location():
    """A weak token is reported at the claim, with where the token is made as a related location: a
    label on that line is found, one further from it is not."""
    labels = [("tooz", "LL002", "tooz/drivers/etcd3gw.py", 81, "made once per instance")]
    near = ecosystem.Finding("tooz", "LL002", "tooz/drivers/etcd3gw.py", 116, "m", None, (81,))
    far = ecosystem.Finding("tooz", "LL002", "tooz/drivers/etcd3gw.py", 116, "m", None, (90,))
    assert ecosystem.recall(labels, [near]) == (labels, [])
    assert ecosystem.recall(labels, [far]) == ([], labels)

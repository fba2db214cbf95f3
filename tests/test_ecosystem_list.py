"""The ecosystem check's checked-in data: the pinned list and the verdicts (the check itself downloads)."""

from __future__ import annotations

import importlib.util
import re
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


spec = importlib.util.spec_from_file_location("recall", SCRIPTS / "recall.py")
recall = importlib.util.module_from_spec(spec)
sys.modules.setdefault("recall", recall)
spec.loader.exec_module(recall)


def test_the_recall_corpus_labels_only_its_own_pinned_packages_none_of_the_ecosystems():
    pinned = {name for _, name, _ in ecosystem.load_packages(SCRIPTS / "recall.toml")}
    studied = {name for _, name, _ in ecosystem.load_packages(SCRIPTS / "ecosystem.toml")}
    labels = recall.load_labels(SCRIPTS / "recall-labels.tsv")
    assert {label[0] for label in labels} <= pinned
    # By the names pip compares (PEP 503): `dogpile-cache` is `dogpile.cache`.
    def normal(name):
        return re.sub(r"[-_.]+", "-", name).lower()

    assert not {normal(n) for n in pinned} & {normal(n) for n in studied}
    assert any(label[1] == "OK" for label in labels) and any(label[1] != "OK" for label in labels)
    # Each label says what it is about.
    assert all(len(label[4]) > 20 for label in labels)


def test_a_package_stays_in_its_half_and_both_halves_are_used():
    labels = recall.load_labels(SCRIPTS / "recall-labels.tsv")
    halves = {recall.half(label[0]) for label in labels}
    assert halves == {"learn", "holdout"}
    assert recall.half("celery") == recall.half("Celery")


def test_recall_counts_a_finding_near_a_bug_and_a_finding_near_a_correct_release_as_a_false_alarm(tmp_path):
    labels = tmp_path / "labels.tsv"
    labels.write_text(
        "# comment\n"
        "pkg\tLL001\tpkg/locks.py:10\tblind delete of the claimed key\n"
        "pkg\tLL002\tpkg/locks.py:40\tconstant token\n"
        "pkg\tOK\tpkg/good.py:5\tchecked release\n"
        "pkg\tOK\tpkg/good.py:50\tchecked release\n"
    )
    loaded = recall.load_labels(labels)
    findings = [
        ecosystem.Finding("pkg", "LL001", "pkg/locks.py", 12, "m"),
        ecosystem.Finding("pkg", "LL002", "pkg/locks.py", 43, "m"),
        ecosystem.Finding("pkg", "LL006", "pkg/good.py", 4, "m"),
    ]
    hits, misses = ecosystem.recall([l for l in loaded if l[1] != "OK"], findings)
    assert [h[1] for h in hits] == ["LL001"] and [m[1] for m in misses] == ["LL002"]
    assert [a[3] for a in recall.false_alarms([l for l in loaded if l[1] == "OK"], findings)] == [5]
    labels.write_text("pkg\tLL999\tpkg/a.py:1\tno such rule\n")
    try:
        recall.load_labels(labels)
    except SystemExit as error:
        assert "expected package" in str(error)
    else:
        raise AssertionError("an unknown code was accepted")

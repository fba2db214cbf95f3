"""Ecosystem check: run two builds of leaselint over real packages and show what changed.

    python scripts/ecosystem.py                        # baseline HEAD against the working tree
    python scripts/ecosystem.py --baseline v0.3 --only celery,rq
    python scripts/ecosystem.py --baseline none --verdicts scripts/ecosystem-verdicts.tsv

The packages are the sdists pinned in scripts/ecosystem.toml (their tests come along). They are fetched
with pip into a cache folder outside the repository (`--cache`, default ~/.cache/leaselint-ecosystem),
unpacked once and reused. The baseline is a git ref installed into a venv of its own in that cache; the
working tree is the leaselint this interpreter imports (an editable install of the checkout).

With `--verdicts FILE`, every finding of the working tree is looked up there (package, code, path:line)
and precision is printed over the verdicted ones, overall and outside test folders, with the findings
that have no verdict yet. With `--labels FILE`, recall is printed over the hand-labelled lease bugs of
the packages (a label is found by a finding of its code in its file, at most two lines away), with
the labels missed. Not a test: it downloads, and takes minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fix_coverage  # noqa: E402  (the script beside this one)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
LIST = Path(__file__).with_name("ecosystem.toml")
TEST_PARTS = ("test", "tests", "testing", "t")


@dataclass(frozen=True)
class Finding:
    package: str
    code: str
    path: str
    row: int
    message: str
    # The fix's applicability ("safe", "unsafe"), None without one; not part of a finding's identity.
    fix: str | None = field(default=None, compare=False)
    # The rows of its related locations in the same file (where a weak token is made).
    related: tuple = field(default=(), compare=False)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.row}"

    @property
    def in_tests(self) -> bool:
        return in_tests(self.path)


def in_tests(path: str) -> bool:
    """A test file: under a tests folder, or named test_*.py / *_test.py / conftest.py."""
    parts = path.split("/")
    name = parts[-1]
    folders = [p.lower() for p in parts[:-1]]
    return (
        any(p in TEST_PARTS or p.startswith("test_") or p.endswith("_tests") for p in folders)
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name in ("conftest.py", "tests.py")
    )


def load_packages(path: Path) -> list[tuple[str, str, str]]:
    """(group, name, version) for every pinned package."""
    table = tomllib.loads(path.read_text())
    found = []
    for group, pins in table["packages"].items():
        for pin in pins:
            name, _, version = pin.partition("==")
            if not version:
                raise SystemExit(f"{path}: {pin!r} is not pinned as name==version")
            found.append((group, name.strip(), version.strip()))
    return found


def fetch(name: str, version: str, cache: Path) -> Path | str:
    """The unpacked sdist of name==version, or why it could not be had."""
    tree = cache / "src" / f"{name}-{version}"
    if (tree / ".unpacked").exists():
        return tree
    sdists = cache / "sdists" / f"{name}-{version}"
    sdists.mkdir(parents=True, exist_ok=True)
    archives = [p for p in sdists.iterdir() if p.suffix in (".gz", ".zip", ".bz2")]
    if not archives:
        try:
            done = subprocess.run(
                # The sdist of the package itself; its build requirements may come as wheels.
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", name,
                 "--dest", str(sdists), f"{name}=={version}"],
                capture_output=True, text=True, timeout=900,
            )
        except subprocess.TimeoutExpired:
            return "pip download took over 15 minutes"
        archives = [p for p in sdists.iterdir() if p.suffix in (".gz", ".zip", ".bz2")]
        if not archives:
            lines = [line for line in done.stderr.splitlines() if "ERROR" in line] or done.stderr.splitlines()[-1:]
            return lines[0] if lines else f"pip exited {done.returncode}"
    target = Path(tempfile.mkdtemp(dir=cache / "src"))
    archive = archives[0]
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as opened:
            opened.extractall(target)
    else:
        with tarfile.open(archive) as opened:
            if hasattr(tarfile, "data_filter"):
                opened.extractall(target, filter="data")
            else:  # a Python without extraction filters
                opened.extractall(target)
    inner = list(target.iterdir())
    root = inner[0] if len(inner) == 1 and inner[0].is_dir() else target
    shutil.rmtree(tree, ignore_errors=True)
    root.rename(tree)
    if root is not target:
        target.rmdir()
    (tree / ".unpacked").write_text(archive.name + "\n")
    return tree


def baseline_command(ref: str, cache: Path) -> list[str]:
    """leaselint as of a git ref, installed once into a venv of its own."""
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    home = cache / "baselines" / commit
    python = home / "venv" / "bin" / "python"
    if not (home / ".installed").exists():
        shutil.rmtree(home, ignore_errors=True)
        (home / "src").mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(home / "src")], input=archive, check=True)
        subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(home / "src")], check=True)
        (home / ".installed").write_text(ref + "\n")
    return [str(python), "-m", "leaselint"]


def current_command() -> list[str]:
    """The working tree's leaselint: this interpreter must import it from the checkout."""
    found = subprocess.run(
        [sys.executable, "-c", "import leaselint, leaselint.rules; print(leaselint.__file__)"],
        capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )
    path = Path(found.stdout.strip() or "/")
    if found.returncode != 0 or REPO not in path.parents:
        raise SystemExit(
            f"{sys.executable} does not import leaselint from {REPO}; run this script with the checkout's "
            "editable install (pip install -e .)"
        )
    return [sys.executable, "-m", "leaselint"]


def run(command: list[str], package: str, tree: Path) -> tuple[list[Finding], str | None]:
    """Findings of one leaselint on one package tree, and an error when it did not finish cleanly."""
    try:
        done = subprocess.run(
            [*command, "--isolated", "--no-cache", "--exit-zero", "--output-format", "json", "--quiet", "."],
            capture_output=True, text=True, cwd=tree, timeout=1800,
        )
    except subprocess.TimeoutExpired:
        return [], "took over 30 minutes"
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:]
        return [], f"exit {done.returncode}: {last[0] if last else 'no message'}"
    findings = []
    for item in json.loads(done.stdout or "[]"):
        path = os.path.relpath(item["filename"], tree)
        fix = (item.get("fix") or {}).get("applicability")
        related = tuple(
            where["location"]["row"]
            for where in item.get("related") or ()
            if os.path.relpath(where.get("filename", item["filename"]), tree) == path
        )
        findings.append(Finding(package, item["code"], path, item["location"]["row"], item["message"], fix, related))
    return findings, None


def load_verdicts(path: Path) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """(package, code, path:line) -> (TP or FP, test or src, reason)."""
    found = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 6 or fields[3] not in ("TP", "FP") or fields[4] not in ("test", "src"):
            raise SystemExit(f"{path}:{number}: expected package, code, path:line, TP|FP, test|src, reason (tabs)")
        found[(fields[0], fields[1], fields[2])] = (fields[3], fields[4], fields[5])
    return found


def load_labels(path: Path, other_codes: tuple[str, ...] = ()) -> list[tuple[str, str, str, int, str]]:
    """Hand-labelled lease bugs: (package, code, path, line, reason); `other_codes` are accepted too."""
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        where = fields[2].rsplit(":", 1) if len(fields) == 4 else []
        if len(where) != 2 or not where[1].isdigit() or not (fields[1].startswith("LL") or fields[1] in other_codes):
            raise SystemExit(f"{path}:{number}: expected package, code, path:line, reason (tabs)")
        found.append((fields[0], fields[1], where[0], int(where[1]), fields[3]))
    return found


def recall(labels: list, findings: list[Finding]) -> tuple[list, list]:
    """(labels found, labels missed): found by a finding of the label's code in its file, two lines
    away at most, at the finding's line or one of its related locations (a weak token's is where the
    token is made, as labels often name it)."""
    by_file: dict[tuple[str, str, str], list[int]] = {}
    for found in findings:
        by_file.setdefault((found.package, found.code, found.path), []).extend((found.row, *found.related))
    hits, misses = [], []
    for label in labels:
        rows = by_file.get(label[:3], [])
        (hits if any(abs(row - label[3]) <= 2 for row in rows) else misses).append(label)
    return hits, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="HEAD", help="git ref to compare with, or 'none' (default HEAD)")
    parser.add_argument("--only", default="", help="comma-separated package names")
    parser.add_argument("--jobs", type=int, default=4, help="packages fetched and linted at once (default 4)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "leaselint-ecosystem")
    parser.add_argument("--list", type=Path, default=LIST, help="the pinned packages (default scripts/ecosystem.toml)")
    parser.add_argument("--verdicts", type=Path, help="TSV of verdicts: precision and the findings left to triage")
    parser.add_argument("--show-all", action="store_true", help="print every finding of the working tree")
    parser.add_argument("--labels", type=Path, help="TSV of hand-labelled lease bugs: recall and the ones missed")
    options = parser.parse_args(argv)

    cache = options.cache.resolve()
    if REPO in cache.parents or cache == REPO:
        raise SystemExit("the cache must be outside the repository")
    (cache / "src").mkdir(parents=True, exist_ok=True)
    packages = load_packages(options.list)
    wanted = {n.strip() for n in options.only.split(",") if n.strip()}
    if wanted:
        unknown = wanted - {name for _, name, _ in packages}
        if unknown:
            raise SystemExit(f"not on the list: {', '.join(sorted(unknown))}")
        packages = [p for p in packages if p[1] in wanted]

    current = current_command()
    baseline = None if options.baseline == "none" else baseline_command(options.baseline, cache)

    def one(entry):
        group, name, version = entry
        tree = fetch(name, version, cache)
        if isinstance(tree, str):
            return entry, tree, None, None
        files = sum(1 for _ in tree.rglob("*.py"))
        after = run(current, name, tree)
        before = run(baseline, name, tree) if baseline else ([], None)
        return entry, files, before, after

    with ThreadPoolExecutor(max(1, options.jobs)) as pool:
        results = list(pool.map(one, packages))

    unfetched, errors, rows = [], [], []
    every: list[Finding] = []
    added_total = removed_total = 0
    for (group, name, version), files, before, after in results:
        if isinstance(files, str):
            unfetched.append(f"{name}=={version}: {files}")
            continue
        (old, old_error), (new, new_error) = before, after
        for label, error in (("baseline", old_error), ("current", new_error)):
            if error:
                errors.append(f"{name}: {label} {error}")
        every.extend(new)
        old_set, new_set = set(old), set(new)
        added = sorted(new_set - old_set, key=lambda f: (f.path, f.row, f.code)) if baseline else []
        removed = sorted(old_set - new_set, key=lambda f: (f.path, f.row, f.code))
        added_total += len(added)
        removed_total += len(removed)
        rows.append((name, version, group, files, len(old) if baseline else None, len(new)))
        if added or removed:
            print(f"\n{name}=={version}: +{len(added)} -{len(removed)}")
            for sign, found in [("+", f) for f in added] + [("-", f) for f in removed]:
                print(f"  {sign} {found.where} {found.code} {found.message}")
        if options.show_all:
            for found in sorted(new, key=lambda f: (f.path, f.row)):
                print(f"  {name} {found.where} {found.code} {found.message}")

    print("\n| package | version | group | .py files | baseline | current |")
    print("|---|---|---|---|---|---|")
    for name, version, group, files, old_count, new_count in rows:
        print(f"| {name} | {version} | {group} | {files} | {'' if old_count is None else old_count} | {new_count} |")
    lease_findings = [f for f in every if f.code != "LL000"]
    print(
        f"\n{len(rows)} packages linted, {len(lease_findings)} findings "
        f"({sum(f.in_tests for f in lease_findings)} in tests), "
        f"{sum(f.code == 'LL000' for f in every)} unparsable files (LL000, not counted)"
    )
    if baseline:
        print(f"against {options.baseline}: {added_total} added, {removed_total} removed")
    for line in unfetched:
        print(f"could not fetch {line}")
    for line in errors:
        print(f"did not finish: {line}")

    print()
    print("\n".join(fix_coverage.table([(f.code, f.fix, f.message) for f in lease_findings], "pinned packages")))
    if options.verdicts:
        verdicts = load_verdicts(options.verdicts)
        judged, untriaged = [], []
        for found in lease_findings:
            verdict = verdicts.get((found.package, found.code, found.where))
            (judged if verdict else untriaged).append((found, verdict))
        def share(items):
            return f"{sum(v[0] == 'TP' for _, v in items)}/{len(items)}" + (
                f" = {sum(v[0] == 'TP' for _, v in items) / len(items):.2f}" if items else ""
            )
        print(f"\nprecision over {len(judged)} verdicted findings: {share(judged)}")
        print(f"outside test folders: {share([j for j in judged if not j[0].in_tests])}")
        print(f"in test folders: {share([j for j in judged if j[0].in_tests])}")
        if untriaged:
            print(f"\n{len(untriaged)} findings without a verdict:")
            for found, _ in untriaged:
                side = "test" if found.in_tests else "src"
                print(f"{found.package}\t{found.code}\t{found.where}\t?\t{side}\t{found.message}")
    if options.labels:
        labels = [label for label in load_labels(options.labels) if not wanted or label[0] in wanted]
        hits, misses = recall(labels, lease_findings)
        share = f" = {len(hits) / len(labels):.2f}" if labels else ""
        print(f"\nrecall over {len(labels)} labelled lease bugs: {len(hits)}/{len(labels)}{share}")
        for code in sorted({label[1] for label in labels}):
            mine = [label for label in labels if label[1] == code]
            print(f"- {code}: {sum(label in hits for label in mine)}/{len(mine)}")
        if misses:
            print(f"\n{len(misses)} labelled bugs missed:")
            for package, code, path, line, reason in misses:
                print(f"{package}\t{code}\t{path}:{line}\t{reason}")
    return 2 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

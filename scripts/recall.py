"""Recall corpus: hand-labelled lease bugs and correct releases in real packages, and what leaselint finds.

    python scripts/recall.py                       # recall, per rule and per half, and precision
    python scripts/recall.py --show-holdout        # also list the held-out half's misses
    python scripts/recall.py --ref 88c5d83         # the same for an earlier build
    python scripts/recall.py --causes              # also why each miss was missed, by the file's model
    python scripts/recall.py fetch NAME==VERSION   # unpack one package (for labelling) and print its folder

The packages are pinned in scripts/recall.toml; they are fetched with pip at run time (the sdist, or
the wheel where a package publishes none) into a cache outside the repository and unpacked once.
Paths in the labels are relative to the unpacked folder.

The labels (scripts/recall-labels.tsv) were written by reading each package's code before leaselint ran
on it: package, code (LLxxx for a bug, OK for a correct release), path:line, note. A bug label is
found by a finding of its code in its file at most two lines away (or at a related location); an OK
label is a false alarm when any lease finding (LL001-LL011) stands within two lines of it.

Each package belongs to one half by a hash of its name: `learn` (its misses may be read to design the
model) and `holdout` (only its numbers are read), so that a mechanism learned from one half is checked
on the other. Not a test: it downloads, and takes minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ecosystem  # noqa: E402  (the script beside this one)

LIST = Path(__file__).with_name("recall.toml")
LABELS = Path(__file__).with_name("recall-labels.tsv")
LEASE_CODES = {f"LL{n:03d}" for n in range(1, 12)}


def half(name: str) -> str:
    """`learn` or `holdout`, fixed by the package's name."""
    return "learn" if hashlib.sha256(name.lower().encode()).digest()[0] % 2 == 0 else "holdout"


def fetch(name: str, version: str, cache: Path) -> Path | str:
    """The unpacked sdist of name==version (a wheel where there is no sdist), or why it could not be had."""
    found = ecosystem.fetch(name, version, cache)
    if not isinstance(found, str):
        return found
    tree = cache / "src" / f"{name}-{version}"
    wheels = cache / "wheels" / f"{name}-{version}"
    wheels.mkdir(parents=True, exist_ok=True)
    if not any(wheels.glob("*.whl")):
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
             "--python-version", "3.12", "--dest", str(wheels), f"{name}=={version}"],
            capture_output=True, text=True, timeout=900,
        )
    archives = sorted(wheels.glob("*.whl"))
    if not archives:
        return found
    target = Path(tempfile.mkdtemp(dir=cache / "src"))
    with zipfile.ZipFile(archives[0]) as opened:
        opened.extractall(target)
    target.rename(tree)
    (tree / ".unpacked").write_text(archives[0].name + "\n")
    return tree


def load_labels(path: Path) -> list[tuple[str, str, str, int, str]]:
    """(package, code, path, line, note) for every label; code is LLxxx or OK."""
    found = ecosystem.load_labels(path, ("OK",))
    for label in found:
        if label[1] != "OK" and label[1] not in LEASE_CODES:
            raise SystemExit(f"{path}: {label[1]} is not a lease rule's code: expected package, LLxxx or OK, path:line, note")
    return found


def false_alarms(correct: list, findings: list) -> list:
    """The OK labels that a lease finding stands within two lines of."""
    rows: dict[tuple[str, str], list[int]] = {}
    for found in findings:
        if found.code in LEASE_CODES:
            rows.setdefault((found.package, found.path), []).append(found.row)
    return [label for label in correct if any(abs(r - label[3]) <= 2 for r in rows.get((label[0], label[2]), []))]


def miss_cause(label, findings: list) -> str:
    """Why a label was missed, as the findings tell it: the file could not be read, nothing was
    reported in the file (no lease was seen there), or the lease was seen and this rule said nothing."""
    package, code, path = label[0], label[1], label[2]
    mine = [f for f in findings if f.package == package and f.path == path]
    if any(f.code == "LL000" for f in mine):
        return "file not parsed (LL000)"
    if not any(f.code in LEASE_CODES for f in mine):
        return "no finding in the file"
    if any(f.code == code for f in mine):
        return "this rule reports elsewhere in the file"
    return "other rules report in the file"


def model_cause(tree: Path | None, label) -> str:
    """Why the model missed a label, from the model of its file alone (no other module): no store
    call in the file, none at the line, an event at the line left unpaired (and with what the file's
    other side differs in), or a lease at the line that the rule says nothing about."""
    if tree is None:
        return "package not fetched"
    import libcst as cst

    from leaselint.model import build_model

    try:
        text = (tree / label[2]).read_text(encoding="utf-8")
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:  # read as the linter reads a Python 2 file
            from leaselint.python2 import as_python3

            text = as_python3(text) or text
            module = cst.parse_module(text)
        model = build_model(module, None, False, text)
    except Exception as error:  # a file the model cannot read
        return f"model error ({type(error).__name__})"
    line = label[3]

    def near(events) -> list:
        return [e for e in events if abs(e.start.line - line) <= 2]

    if not model.claims and not model.releases and not model.locks:
        return "no store call or lock object in the file"
    leased = [e for lease in model.leases for e in (*lease.claims, *lease.releases)]
    if near(leased):
        return f"a lease at the line, {label[1]} silent"
    claims, releases = near(model.claims), near(model.releases)
    if not claims and not releases:
        return "store calls in the file, none at the line"
    event = (claims or releases)[0]
    others = model.releases if claims else model.claims
    side = "claim" if claims else "release"
    if not others:
        return f"a {side} at the line, no {'release' if claims else 'claim'} in the file"
    same_receiver = any(o.receiver_shape == event.receiver_shape for o in others)
    same_key = any(o.key_shape == event.key_shape for o in others)
    if same_receiver and same_key:
        return f"a {side} at the line, unpaired: same receiver and key"
    if same_key:
        kinds = sorted({_kind(o.receiver_shape) for o in others if o.key_shape == event.key_shape})
        return f"a {side} at the line, unpaired: same key, receivers differ ({_kind(event.receiver_shape)} vs {'/'.join(kinds)})"
    if same_receiver:
        kinds = sorted({_kind(o.key_shape) for o in others if o.receiver_shape == event.receiver_shape})
        return f"a {side} at the line, unpaired: keys differ ({_kind(event.key_shape)} vs {'/'.join(kinds)})"
    return f"a {side} at the line, unpaired: receivers and keys differ"


def _kind(shape) -> str:
    """What a shape is made of, not what it says: `str`, `self`, `name`, `call`, `attr`..."""
    return str(shape[0]) if type(shape) is tuple and shape else type(shape).__name__


def share(part: int, whole: int) -> str:
    return f"{part}/{whole}" + (f" = {part / whole:.2f}" if whole else "")


def report(labels: list, findings: list, show_holdout: bool, trees: dict | None = None) -> None:
    bugs = [label for label in labels if label[1] != "OK"]
    correct = [label for label in labels if label[1] == "OK"]
    hits, misses = ecosystem.recall(bugs, findings)
    projects = {label[0] for label in labels}
    print(f"\n{len(bugs)} bug labels and {len(correct)} correct releases in {len(projects)} packages")
    print(f"recall: {share(len(hits), len(bugs))}")
    for side in ("learn", "holdout"):
        mine = [label for label in bugs if half(label[0]) == side]
        print(f"- {side} half ({len({b[0] for b in mine})} packages): {share(sum(b in hits for b in mine), len(mine))}")
    print("\n| rule | labels | found | recall | learn half | holdout half |")
    print("|---|---|---|---|---|---|")
    for code in sorted({label[1] for label in bugs}):
        mine = [label for label in bugs if label[1] == code]
        found = sum(label in hits for label in mine)
        sides = []
        for side in ("learn", "holdout"):
            part = [label for label in mine if half(label[0]) == side]
            sides.append(share(sum(label in hits for label in part), len(part)))
        print(f"| {code} | {len(mine)} | {found} | {found / len(mine):.2f} | {sides[0]} | {sides[1]} |")
    print("\n| cause of miss | learn half | holdout half |")
    print("|---|---|---|")
    causes: dict[str, dict[str, int]] = {}
    for label in misses:
        causes.setdefault(miss_cause(label, findings), {}).setdefault(half(label[0]), 0)
        causes[miss_cause(label, findings)][half(label[0])] += 1
    for cause, counts in sorted(causes.items(), key=lambda item: -sum(item[1].values())):
        print(f"| {cause} | {counts.get('learn', 0)} | {counts.get('holdout', 0)} |")
    if trees is not None:
        print("\n| cause of miss, by the model of the file | learn half | holdout half |")
        print("|---|---|---|")
        detail: dict[str, dict[str, int]] = {}
        for label in misses:
            cause = model_cause(trees.get(label[0]), label)
            detail.setdefault(cause, {}).setdefault(half(label[0]), 0)
            detail[cause][half(label[0])] += 1
        for cause, counts in sorted(detail.items(), key=lambda item: -sum(item[1].values())):
            print(f"| {cause} | {counts.get('learn', 0)} | {counts.get('holdout', 0)} |")
    alarms = false_alarms(correct, findings)
    print(f"\nfalse alarms on correct releases: {len(alarms)}/{len(correct)}")
    for package, code, path, line, note in alarms:
        print(f"  {package}\t{path}:{line}\t{note}")
    shown = [m for m in misses if show_holdout or half(m[0]) == "learn"]
    if shown:
        print(f"\n{len(shown)} labelled bugs missed{'' if show_holdout else ' (learn half)'}:")
        for package, code, path, line, note in shown:
            cause = f"[{model_cause(trees.get(package), (package, code, path, line, note))}]\t" if trees else ""
            print(f"{package}\t{code}\t{path}:{line}\t{cause}{note}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "leaselint-recall")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--list", type=Path, default=LIST)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated package names")
    parser.add_argument("--show-holdout", action="store_true", help="list the held-out half's misses too")
    parser.add_argument("--ref", help="measure leaselint as of this git ref (installed into the cache) instead")
    parser.add_argument(
        "--causes", action="store_true", help="also say, from each file's model, why its misses were missed"
    )
    if argv[:1] == ["fetch"]:
        options = parser.parse_args(argv[2:])
        name, _, version = argv[1].partition("==")
        cache = options.cache.resolve()
        (cache / "src").mkdir(parents=True, exist_ok=True)
        tree = fetch(name, version, cache)
        print(tree)
        return 1 if isinstance(tree, str) else 0
    options = parser.parse_args(argv)
    cache = options.cache.resolve()
    if ecosystem.REPO in cache.parents or cache == ecosystem.REPO:
        raise SystemExit("the cache must be outside the repository")
    (cache / "src").mkdir(parents=True, exist_ok=True)
    packages = ecosystem.load_packages(options.list)
    wanted = {n.strip() for n in options.only.split(",") if n.strip()}
    if wanted:
        packages = [p for p in packages if p[1] in wanted]
    labels = [label for label in load_labels(options.labels) if not wanted or label[0] in wanted]
    pinned = {name for _, name, _ in packages}
    unlisted = sorted({label[0] for label in labels} - pinned)
    if unlisted and not wanted:
        raise SystemExit(f"labels name packages not in {options.list.name}: {', '.join(unlisted)}")
    current = ecosystem.baseline_command(options.ref, cache) if options.ref else ecosystem.current_command()

    trees: dict[str, Path] = {}

    def one(entry):
        _, name, version = entry
        tree = fetch(name, version, cache)
        if isinstance(tree, str):
            return name, tree, []
        trees[name] = tree
        found, error = ecosystem.run(current, name, tree)
        return name, error, found

    findings, problems = [], []
    with ThreadPoolExecutor(max(1, options.jobs)) as pool:
        for name, error, found in pool.map(one, packages):
            findings.extend(found)
            if error:
                problems.append(f"{name}: {error}")
    for line in problems:
        print(f"not measured: {line}")
    report(labels, findings, options.show_holdout, trees if options.causes else None)
    return 2 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The fast paths change nothing: prefilter, cache and worker processes give the same findings."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import types

import pytest

import leaselint.cache as cache_module
import leaselint.check as check
import leaselint.parsing as parsing
import leaselint.runner as runner
from leaselint.cache import Cache
from leaselint.rules import ALL_RULES
from leaselint.runner import lint_paths
from leaselint.settings import Settings
from snippets import BLIND_RELEASE
import cases

LEASE_FREE = "import os\n\n\ndef size(path):\n    return os.path.getsize(path)\n"


@pytest.fixture
def tree(tmp_path):
    """Every rule case as a file, and as many lease-free files."""
    files = []
    for rule in ALL_RULES:
        for kind in ("VALID", "INVALID"):
            for number, (_, case) in enumerate(cases.named(rule, kind)):
                path = tmp_path / f"{rule.code}_{kind}_{number}.py"
                path.write_text(textwrap.dedent(case.code), encoding="utf-8")
                files.append(str(path))
    for number in range(40):
        path = tmp_path / f"plain_{number}.py"
        path.write_text(LEASE_FREE, encoding="utf-8")
        files.append(str(path))
    return files


def _findings(files, **options):
    settings = Settings(select=frozenset(r.code for r in ALL_RULES if r.code not in ("LL000", "LL100")))
    return [
        (result.path, d.code, d.start, d.end, d.message, d.fix)
        for result, _ in lint_paths(files, settings, **options)
        for d in result.diagnostics
    ]


def test_same_findings_with_and_without_each_fast_path(tree, tmp_path):
    baseline = _findings(tree, jobs=1, prefilter=False)
    assert len(baseline) > 50
    assert _findings(tree, jobs=1, prefilter=True) == baseline
    assert _findings(tree, jobs=2, prefilter=True) == baseline
    cache_dir = tmp_path / "cache"
    assert _findings(tree, jobs=2, cache=Cache(cache_dir)) == baseline
    assert _findings(tree, jobs=1, cache=Cache(cache_dir)) == baseline  # warm


def test_warm_run_reads_each_file_once_and_parses_nothing(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 10**18)  # no signature is trusted, however slow the run
    cache_dir = tmp_path / "cache"
    cold = _findings(tree, jobs=1, cache=Cache(cache_dir))
    assert (cache_dir / ".gitignore").read_text(encoding="utf-8").endswith("*\n")

    def no_parse(*args, **kwargs):
        raise AssertionError("a warm run parsed a file")

    reads = _counting_reads(monkeypatch)
    monkeypatch.setattr(check, "parse", no_parse)
    monkeypatch.setattr(runner, "lint_bytes", no_parse)
    warm = _findings(tree, jobs=1, cache=Cache(cache_dir))
    assert warm == cold
    assert sorted(reads) == sorted(tree)


def _counting_reads(monkeypatch) -> list[str]:
    reads: list[str] = []
    real_read = runner.read

    def counting_read(path, settings):
        reads.append(path)
        return real_read(path, settings)

    monkeypatch.setattr(runner, "read", counting_read)
    return reads


def test_warm_run_stats_files_and_reads_only_those_with_findings(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)  # the tree was written just now
    cache_dir = tmp_path / "cache"
    cold = _findings(tree, jobs=1, cache=Cache(cache_dir))
    with_findings = sorted({path for path, *_ in cold})
    assert 10 < len(with_findings) < len(tree) - 40

    reads = _counting_reads(monkeypatch)
    assert _findings(tree, jobs=1, cache=Cache(cache_dir)) == cold
    # Files without findings are known by their signature; the others are read for their text.
    assert sorted(reads) == with_findings

    reads.clear()
    assert [d for d in _findings(tree, jobs=1, cache=Cache(cache_dir), prefilter=False)] == cold
    assert set(reads) >= set(with_findings) and len(reads) < len(tree)

    # Other settings: the signatures say nothing about their findings.
    reads.clear()
    list(lint_paths(tree, Settings(select=frozenset({"LL005"})), jobs=1, cache=Cache(cache_dir)))
    # (The project pass reads again a file the prefilter passed over that names a summarised function.)
    assert set(reads) == set(tree)


def test_file_rewritten_with_same_size_and_mtime_is_read_again(tmp_path, monkeypatch):
    """Known without findings, then rewritten in place with a lease, the same size and the old
    modification time: its change time still moves, so it is read again."""
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    path = tmp_path / "job.py"
    clean = BLIND_RELEASE.replace("r.delete(", "r.get(   ")
    assert len(clean) == len(BLIND_RELEASE)
    path.write_text(clean, encoding="utf-8")
    cache_dir = tmp_path / "cache"
    assert _findings([str(path)], jobs=1, cache=Cache(cache_dir)) == []

    times = os.stat(path)
    with open(path, "r+", encoding="utf-8") as handle:  # in place: the same inode
        handle.write(BLIND_RELEASE)
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == times.st_mtime_ns and os.stat(path).st_ino == times.st_ino
    reads = _counting_reads(monkeypatch)
    after = _findings([str(path)], jobs=1, cache=Cache(cache_dir))
    assert reads == [str(path)]
    assert [code for _, code, *_ in after] == ["LL001"]


def test_signature_of_a_file_with_an_old_mtime_but_a_new_ctime_is_not_kept(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text(LEASE_FREE, encoding="utf-8")
    os.utime(path, ns=(0, 0))  # an old modification time; the change time is now
    cache_dir = tmp_path / "cache"
    _findings([str(path)], jobs=1, cache=Cache(cache_dir))
    assert Cache(cache_dir).signatures == {}


def test_recently_written_files_are_read_again(tmp_path, monkeypatch):
    """A file whose times are within RACY_NS of the run may be written again in the same time step
    without its signature changing: its signature is not kept."""
    paths = []
    for number in range(3):
        paths.append(tmp_path / f"plain_{number}.py")
        paths[-1].write_text(LEASE_FREE, encoding="utf-8")
    cache_dir = tmp_path / "cache"
    _findings([str(p) for p in paths], jobs=1, cache=Cache(cache_dir))
    assert Cache(cache_dir).signatures == {}
    reads = _counting_reads(monkeypatch)
    _findings([str(p) for p in paths], jobs=1, cache=Cache(cache_dir))
    assert sorted(reads) == sorted(str(p) for p in paths)


def test_cache_of_another_layout_is_ignored(tmp_path):
    cache_dir = tmp_path / "cache"
    cache = Cache(cache_dir)
    cache_dir.mkdir()
    with open(cache.path, "wb") as handle:
        pickle.dump({"key": []}, handle)
    assert Cache(cache_dir).entries == {}


def test_damaged_cache_file_is_ignored(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    with open(Cache(cache_dir).path, "wb") as handle:
        handle.write(b"\x80\x05damaged")

    def overflowing(handle):
        raise OverflowError("as some damaged pickles make it raise")

    assert Cache(cache_dir).entries == {}
    monkeypatch.setattr(cache_module, "_pickle", lambda: types.SimpleNamespace(load=overflowing))
    assert Cache(cache_dir).entries == {}


def test_warm_run_does_not_fork_to_read(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    monkeypatch.setattr(runner, "SPLIT_FILES", 2)
    monkeypatch.setattr(runner.threading, "active_count", lambda: 1)
    cache_dir = tmp_path / "cache"
    cold = _findings(tree, jobs=1, cache=Cache(cache_dir))

    def no_fork(work):
        raise AssertionError("a warm run forked")

    monkeypatch.setattr(runner, "_forked", no_fork)
    assert _findings(tree, jobs=2, cache=Cache(cache_dir)) == cold


def test_changed_settings_miss_the_cache(tree, tmp_path):
    cache_dir = tmp_path / "cache"
    _findings(tree, jobs=1, cache=Cache(cache_dir))
    only_ll005 = [
        d.code
        for result, _ in lint_paths(tree, Settings(select=frozenset({"LL005"})), jobs=1, cache=Cache(cache_dir))
        for d in result.diagnostics
    ]
    assert only_ll005 and set(only_ll005) == {"LL005"}


# A store API of its own (as Django's cache backends): the bytes hold a claim's words, CPython's tree
# shows no lease.
WRAPPER = (
    "class Backend:\n"
    "    def add(self, key, value, timeout=None):\n"
    "        return self.client.set(key, value, nx=True, ex=timeout)\n\n"
    "    def delete(self, key):\n"
    "        return self.client.delete(key)\n"
)


def test_lease_free_run_never_imports_libcst(tmp_path):
    for number in range(3):
        (tmp_path / f"plain_{number}.py").write_text(LEASE_FREE, encoding="utf-8")
    (tmp_path / "backend.py").write_text(WRAPPER, encoding="utf-8")
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from leaselint.cli import main\n"
        f"result = CliRunner().invoke(main, ['--no-cache', {str(tmp_path)!r}])\n"
        "print(result.exit_code, 'libcst' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "False"]


def test_files_the_second_look_passes_over_are_cached_as_passed_over(tmp_path, monkeypatch):
    path = tmp_path / "backend.py"
    path.write_text(WRAPPER, encoding="utf-8")
    cache_dir = tmp_path / "cache"
    assert _findings([str(path)], jobs=1, cache=Cache(cache_dir)) == []

    def no_look(*args, **kwargs):
        raise AssertionError("a warm run looked at the file again")

    monkeypatch.setattr(runner, "lint_bytes", no_look)
    assert _findings([str(path)], jobs=1, cache=Cache(cache_dir)) == []


def test_every_other_file_read_in_a_forked_process_gives_the_same_results(tree, tmp_path):
    """Past SPLIT_FILES files, a forked process reads and prefilters every other file: nothing changes,
    with or without a cache (run in a fresh interpreter: the test process has threads)."""
    (tmp_path / "folder.py").mkdir()  # a path that cannot be read: its LL000 comes back from the fork
    files = tree + [str(tmp_path / "folder.py")]
    code = textwrap.dedent(
        f"""
        import os, sys
        import leaselint.cache
        import leaselint.runner as runner

        leaselint.cache.RACY_NS = 10**18  # files are read, not known by signature, however slow the run
        from leaselint.cache import Cache
        from leaselint.settings import Settings

        forks = []
        real_fork = os.fork

        def counting_fork():
            forks.append(1)
            return real_fork()

        os.fork = counting_fork
        # The parsing thread of the first run idles on its queue: forking beside it is safe here.
        runner.threading.active_count = lambda: 1
        runner.POOL_MIN_BYTES = 10**12  # no worker pool: the forks counted are the split's

        def run(split, cache=None):
            runner.SPLIT_FILES = split
            return [
                (r.path, d.code, d.start, d.end, d.message, d.fix)
                for r, _ in runner.lint_paths({files!r}, Settings(), jobs=2, cache=cache)
                for d in r.diagnostics
            ]

        serial = run(10**9)
        assert not forks
        assert len(serial) > 50
        assert run(2) == serial, "split"
        assert forks
        cache_dir = {str(tmp_path / "cache")!r}
        assert run(2, Cache(cache_dir)) == serial, "cold cache"
        assert run(2, Cache(cache_dir)) == serial, "warm cache"
        print("ok", len(forks))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok", "3"]


def _tree_of_folders(root):
    for folder in ("a", "a/b", "c", "c/d/e"):
        (root / folder).mkdir(parents=True)
        (root / folder / "m.py").write_text(LEASE_FREE, encoding="utf-8")
    (root / "c" / "notes.txt").write_text("", encoding="utf-8")


def _left_by_an_earlier_run(folder) -> Cache:
    """A cache as a second run finds it (folder listings are remembered from then on)."""
    first = Cache(folder)
    first.changed = True
    first.save()
    return Cache(folder)


def test_first_run_remembers_no_folder(tmp_path, monkeypatch):
    from leaselint.discover import discover

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    root = tmp_path / "tree"
    _tree_of_folders(root)
    cache = Cache(tmp_path / "cache")
    assert list(discover([str(root)], cache=cache)) == list(discover([str(root)]))
    assert cache.listings == {}
    second = _left_by_an_earlier_run(tmp_path / "cache")
    list(discover([str(root)], cache=second))
    assert len(second.listings) == 6  # tree, a, a/b, c, c/d, c/d/e


def test_unchanged_folders_are_not_listed_again(tmp_path, monkeypatch):
    import leaselint.discover as discover_module
    from leaselint.discover import discover

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    root = tmp_path / "tree"
    _tree_of_folders(root)
    expected = list(discover([str(root)]))
    assert len(expected) == 4
    cache = _left_by_an_earlier_run(tmp_path / "cache")
    assert list(discover([str(root)], cache=cache)) == expected
    cache.save()

    scanned: list[str] = []
    real_scan = discover_module.scan

    def counting_scan(folder):
        scanned.append(folder)
        return real_scan(folder)

    monkeypatch.setattr(discover_module, "scan", counting_scan)
    assert list(discover([str(root)], cache=Cache(tmp_path / "cache"))) == expected
    assert scanned == []

    # A new file changes its folder's times: that folder alone is listed again.
    (root / "c" / "d" / "new.py").write_text(LEASE_FREE, encoding="utf-8")
    fresh = list(discover([str(root)]))
    assert str(root / "c" / "d" / "new.py") in fresh
    scanned.clear()
    assert list(discover([str(root)], cache=Cache(tmp_path / "cache"))) == fresh
    assert scanned == [str(root / "c" / "d")]


def _listed_once(tmp_path):
    """A tree whose folder listings the cache in tmp_path/cache holds (RACY_NS must be 0)."""
    from leaselint.discover import discover

    root = tmp_path / "tree"
    _tree_of_folders(root)
    cache = _left_by_an_earlier_run(tmp_path / "cache")
    list(discover([str(root)], cache=cache))
    cache.save()
    return root


def test_folder_given_a_new_file_and_its_old_mtime_is_listed_again(tmp_path, monkeypatch):
    from leaselint.discover import discover

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    root = _listed_once(tmp_path)
    folder = root / "a" / "b"
    times = os.stat(folder)
    (folder / "new.py").write_text(LEASE_FREE, encoding="utf-8")
    os.utime(folder, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert str(folder / "new.py") in list(discover([str(root)], cache=Cache(tmp_path / "cache")))


def test_a_link_is_followed_anew_though_its_folder_is_unchanged(tmp_path, monkeypatch):
    from leaselint.discover import discover

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    root = tmp_path / "tree"
    _tree_of_folders(root)
    target = tmp_path / "elsewhere" / "t"
    target.parent.mkdir()
    target.write_text(LEASE_FREE, encoding="utf-8")
    (root / "a" / "link.py").symlink_to(target)
    (root / "a" / "dirlink").symlink_to(root / "c", target_is_directory=True)
    cache = _left_by_an_earlier_run(tmp_path / "cache")
    with_link = list(discover([str(root)], cache=cache))
    assert str(root / "a" / "link.py") in with_link and len(with_link) == 5
    cache.save()

    target.unlink()
    target.mkdir()  # the link now points to a folder, which is not walked
    assert list(discover([str(root)], cache=Cache(tmp_path / "cache"))) == list(discover([str(root)]))
    assert str(root / "a" / "link.py") not in list(discover([str(root)], cache=Cache(tmp_path / "cache")))


def test_recently_changed_folders_are_listed_again(tmp_path):
    from leaselint.discover import discover

    root = tmp_path / "tree"
    _tree_of_folders(root)
    cache = _left_by_an_earlier_run(tmp_path / "cache")
    list(discover([str(root)], cache=cache))
    assert cache.listings == {}


def test_a_folder_that_cannot_be_listed_is_reported_with_a_cache_too(tmp_path, monkeypatch):
    import leaselint.discover as discover_module
    from leaselint.discover import discover

    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    root = _listed_once(tmp_path)
    unreadable = str(root / "c" / "d")
    (root / "c" / "d" / "new.py").write_text(LEASE_FREE, encoding="utf-8")
    real_scan = discover_module.scan

    def refusing_scan(folder):
        if folder == unreadable:
            raise PermissionError(13, "Permission denied", folder)
        return real_scan(folder)

    monkeypatch.setattr(discover_module, "scan", refusing_scan)
    found = list(discover([str(root)], cache=Cache(tmp_path / "cache")))
    assert unreadable in found and str(root / "c" / "d" / "e" / "m.py") not in found
    assert str(root / "a" / "b" / "m.py") in found


def test_an_interrupted_save_leaves_no_temporary_file(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "cache")
    cache.put("key", [])

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cache_module, "_pickle", lambda: types.SimpleNamespace(dump=interrupted))
    with pytest.raises(KeyboardInterrupt):
        cache.save()
    assert sorted(os.listdir(tmp_path / "cache")) == [".gitignore"]


def test_cache_file_depends_on_the_python_it_runs_on(monkeypatch):
    before = cache_module._code_stamp()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert cache_module._code_stamp() != before


def test_many_small_files_are_enough_work_for_the_pool():
    """A file's work has a fixed part beside its bytes: 400 helper modules of 400 bytes (160 KB, over
    a second in one process) go to the workers; a handful of them do not."""
    small = [(i, f"m{i}.py", b"x" * 400, Settings(), None, False) for i in range(400)]
    assert sum(len(job[2]) for job in small) < runner.POOL_MIN_BYTES
    assert runner._work(small) >= runner.POOL_MIN_BYTES
    assert runner._work(small[:20]) < runner.POOL_MIN_BYTES


def test_files_are_parsed_with_fewer_collections_and_the_thresholds_come_back(tree, monkeypatch):
    """In this process and in the workers; the caller's thresholds are restored after the run."""
    _first_pass_only(monkeypatch)
    import gc

    seen = []
    real = runner.lint_bytes

    def recording(data, path, settings, look=False):
        result, source = real(data, path, settings, look)
        seen.append(gc.get_threshold())
        result.internal_errors.append(repr(gc.get_threshold()))
        return result, source

    monkeypatch.setattr(runner, "lint_bytes", recording)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    before = gc.get_threshold()
    assert before != parsing.PARSING_GC_THRESHOLD
    for jobs in (1, 2):
        results = list(lint_paths(tree, Settings(), jobs=jobs, prefilter=False))
        reported = {error for result, _ in results for error in result.internal_errors}
        assert reported == {repr(parsing.PARSING_GC_THRESHOLD)}, jobs
        assert gc.get_threshold() == before
    # The files of the in-process run only: the workers' calls were recorded in the workers.
    assert seen == [parsing.PARSING_GC_THRESHOLD] * len(tree)


def test_a_young_generation_pass_follows_each_file(tree, monkeypatch):
    """After each file, not within the next file's parse: `gc.collect(0)` once a file is done."""
    _first_pass_only(monkeypatch)
    import gc

    events = []
    real = runner.lint_bytes

    def recording(data, path, settings, look=False):
        events.append("file")
        return real(data, path, settings, look)

    def collected(phase, info):
        if phase == "stop" and info["generation"] == 0 and events and events[-1] == "file":
            events.append("gen0")

    monkeypatch.setattr(runner, "lint_bytes", recording)
    gc.callbacks.append(collected)
    try:
        list(lint_paths(tree, Settings(), jobs=1, prefilter=False))
    finally:
        gc.callbacks.remove(collected)
    assert events == ["file", "gen0"] * len(tree)


def test_a_process_hands_its_files_to_the_parsing_thread_at_once(tree, tmp_path, monkeypatch):
    """Not one hand-over per file: the files a process lints go to the large-stack thread together
    (in this process with one job, in each worker's chunk with two), and a file too deep for the
    main thread's stack is still linted among them."""
    _first_pass_only(monkeypatch)
    import threading

    deep = tmp_path / "deep.py"
    deep.write_text("x = " + "+".join(["1"] * 2000) + "\n" + textwrap.dedent(BLIND_RELEASE), encoding="utf-8")
    files = [*tree, str(deep)]
    handed: list = []
    real_run, real_lint = parsing._BigStack.run, runner.lint_bytes

    def counting(self, function, args, kwargs):
        handed.append(function)
        return real_run(self, function, args, kwargs)

    def recording(data, path, settings, look=False):
        result, source = real_lint(data, path, settings, look)
        # Read back from the workers too: the thread, and the hand-overs this process made so far.
        result.internal_errors.append(f"{threading.current_thread().name} {os.getpid()} {len(handed)}")
        return result, source

    monkeypatch.setattr(parsing._BigStack, "run", counting)
    monkeypatch.setattr(runner, "lint_bytes", recording)
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    for jobs in (1, 2):
        handed.clear()
        results = list(lint_paths(files, Settings(), jobs=jobs, prefilter=False))
        # In this process: the first pass and the project pass, at most.
        assert 1 <= len(handed) <= 2 if jobs == 1 else len(handed) <= 1, jobs
        seen = [result.internal_errors for result, _ in results]
        assert all(len(errors) == 1 and errors[0].startswith("leaselint-parse ") for errors in seen), jobs
        handovers = {errors[0].split(" ", 1)[1] for errors in seen}
        chunk = len(files) if jobs == 1 else max(1, len(files) // (jobs * runner.CHUNKS_PER_WORKER))
        assert len(handovers) == -(-len(files) // chunk) < len(files), jobs
        assert [d.code for d in results[-1][0].diagnostics][:1] == ["LL001"], jobs


def test_parsing_skips_libcsts_node_checks_and_gives_the_same_tree(monkeypatch):
    import libcst as cst
    from libcst._nodes.base import CSTNode

    checked = []
    name_check = cst.Name._validate
    monkeypatch.setattr(cst.Name, "_validate", lambda node: (checked.append(node), name_check(node))[1])
    check = CSTNode.__dict__["__post_init__"]
    texts = [textwrap.dedent(case.code) for rule in ALL_RULES for case in (*cases.valid(rule), *cases.invalid(rule))]
    compared = 0
    for text in texts:
        try:
            checked_tree = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        assert checked
        checked.clear()
        trusted = parsing.parse(text)
        assert not checked
        assert CSTNode.__dict__["__post_init__"] is check
        assert trusted.deep_equals(checked_tree), text
        compared += 1
    assert compared > 100
    # Restored after a failure too, and nodes made afterwards (a fix's) are checked again.
    with pytest.raises(parsing.ParseFailure):
        parsing.parse("def f(:\n")
    assert CSTNode.__dict__["__post_init__"] is check
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


# Texts around libcst's node checks: those its grammar lets through and a check refuses, and valid ones
# near them.
CHECKED_TEXTS = [
    "x = b'a' 'b'\n",
    "x = 'a' rb'b'\n",
    "x = f'a' b'b'\n",
    "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n",
    "try:\n    pass\n",
    "f(a=1, b)\n",
    "f(**a, *b)\n",
    "f(**a, b)\n",
    "def f(a=1, b): pass\n",
    "def f(**a, b): pass\n",
    "lambda a=1, b: 0\n",
    "class A(**k, b): pass\n",
    "x = f'{a!z}'\n",
    "x = 1if y else 2\n",
    "x = [a for a in(b)if(c)]\n",
    "x = 'a' 'b' f'{c}'\n",
    "try:\n    pass\nexcept(E)as e:\n    pass\nexcept:\n    pass\n",
    "def f(a, /, b=1, *c, d, **e): pass\n",
    "with (a as b, c as d): pass\n",
]


@pytest.mark.parametrize("text", CHECKED_TEXTS)
def test_the_node_checks_left_in_place_refuse_what_all_checks_refuse(text):
    import libcst as cst

    def outcome(parse):
        try:
            parse(text)
        except Exception as exc:  # a ParserSyntaxError or a CSTValidationError
            return type(exc).__name__
        return "parsed"

    def trusted(text):
        with parsing.trusting_parser():
            cst.parse_module(text)

    assert outcome(trusted) == outcome(cst.parse_module)
    found = runner.lint_bytes(text.encode(), "x.py", Settings())[0].diagnostics
    if outcome(cst.parse_module) != "parsed":
        assert [d.code for d in found] == ["LL000"]


def test_nodes_another_thread_makes_during_a_parse_are_checked():
    import threading

    import libcst as cst

    refused = []

    def elsewhere():
        try:
            cst.Name("not a name")
        except cst.CSTValidationError:
            refused.append(True)

    with parsing.trusting_parser():
        cst.parse_module("x = 1\n")
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
    assert refused == [True]


def test_a_trusted_node_made_on_the_parsing_thread_skips_even_the_stand_in(monkeypatch):
    """While the checks are aside, a trusted class's `__init__` does not call the stand-in on the
    parsing thread (a class under it with checks of its own still checks); after, every node is
    checked again on that thread too."""
    import libcst as cst

    assert parsing.fast_inits()  # libcst as pinned: its node classes are made by leaselint's __init__
    called = []
    monkeypatch.setattr(parsing, "_run_trusts", [False])
    with parsing.trusting_parser():
        with monkeypatch.context() as inside:
            inside.setattr(cst.Name, "__post_init__", lambda node: called.append(node))
            cst.parse_module("x = f(y)\n")
            cst.Name("not a name")
        with pytest.raises(cst.CSTValidationError):
            cst.Call(cst.Name("f"), [cst.Arg(cst.Integer("1")), cst.Arg(cst.Integer("2"), star="**"), cst.Arg(cst.Integer("3"))])
    assert called == [] and parsing._skipping[0] is None
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


HEIR_SCRIPT = """\
import libcst as cst
from leaselint import parsing


class Strict(cst.Name):  # no dataclass: made through Name's __init__, with a check of its own
    def _validate(self):
        raise cst.CSTValidationError("strict")


with parsing.trusting_parser():
    cst.parse_module("x = f(y)\\n")
    try:
        Strict("a")
        print("unchecked")
    except cst.CSTValidationError:
        print("checked")
"""


def test_an_heir_that_inherits_a_trusted_init_keeps_its_own_check():
    """A class under a trusted one, with a check of its own and no `__init__` of its own, is made
    through the trusted class's `__init__`: that one keeps calling the check (in a process of its
    own: the heir must exist before the first parse)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", HEIR_SCRIPT], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["checked"]


def test_a_run_sets_the_node_checks_aside_from_its_first_parse_to_its_end(tree, monkeypatch):
    _first_pass_only(monkeypatch)
    import libcst as cst
    from libcst._nodes.base import CSTNode

    check = CSTNode.__dict__["__post_init__"]
    aside = []
    real = runner.lint_bytes

    def recording(data, path, settings, look=False):
        done = real(data, path, settings, look)
        # A trusted class has the stand-in; a class under a trusted one with checks of its own keeps them.
        aside.append(
            (cst.Name.__dict__.get("__post_init__") is parsing._made_by_parser, cst.Call.__post_init__ is check)
        )
        return done

    monkeypatch.setattr(runner, "lint_bytes", recording)
    list(lint_paths(tree, Settings(), jobs=1, prefilter=False))
    assert len(aside) == len(tree)
    assert set(aside) == {(True, True)}
    assert CSTNode.__dict__["__post_init__"] is check
    assert "__post_init__" not in cst.Name.__dict__ and "__post_init__" not in cst.Call.__dict__


def test_a_small_shallow_file_is_parsed_by_libcst_alone(monkeypatch):
    def no_python_parse(text):
        raise AssertionError("CPython's parser was asked")

    monkeypatch.setattr(parsing, "_python_tree", no_python_parse)
    result, _ = runner.lint_bytes(BLIND_RELEASE.encode(), "x.py", Settings())
    assert [d.code for d in result.diagnostics] == ["LL001"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("def f(:\n    pass\n", "syntax error: invalid syntax"),  # both refuse it: CPython's message
        ("x = (1,\n", "syntax error: '(' was never closed"),
        ("x = 1\n\0\n", "syntax error: source code string cannot contain null bytes"),
        ("x = " + "(" * 200 + "1" + ")" * 200 + "\n", None),
        ("x = " + "(" * 201 + "1" + ")" * 201 + "\n", "too deeply nested to check: too many nested parentheses"),
        ("x = " + "-" * 1200 + "1\n", None),
        (
            "x = " + "(lambda x=" * 167 + "1" + ":1)" * 167 + "\n",
            "too deeply nested to check: Python's own parser gives up on it too",
        ),
    ],
)
def test_libcst_first_gives_what_cpython_first_gives(text, expected, monkeypatch):
    found = runner.lint_bytes(text.encode(), "x.py", Settings())[0].diagnostics
    assert [d.message for d in found] == ([expected] if expected else [])
    monkeypatch.setattr(parsing, "shallow", lambda text: False)
    assert runner.lint_bytes(text.encode(), "x.py", Settings())[0].diagnostics == found


# Ways to nest, each as (opening, closing) of one level, and how many levels of unary minus go inside.
NESTINGS = {
    "parentheses": ("(", ")"),
    "lists": ("[", "]"),
    "dicts": ("{1: ", "}"),
    "subscripts": ("a[", "]"),
    "keyword arguments": ("f(x=", ")"),
    "comprehensions": ("[y for y in ", "]"),
    "walrus": ("(y := ", ")"),
    "lambda defaults in parentheses": ("(lambda x=", ":1)"),
    "lambda defaults in calls": ("f(lambda x=", ":1)"),
    "lambda defaults": ("lambda x=", ":1"),
    "lambda bodies": ("lambda: ", ""),
    "conditionals": ("1 if c else ", ""),
    "not": ("not ", ""),
    "attribute calls": ("a.b(", ")"),
    "unary minus": ("-", ""),
}


def _nested(opening: str, closing: str, levels: int, minus: int = 0) -> str:
    return "x = " + opening * levels + "-" * minus + "1" + closing * levels + "\n"


def _refused(text: str) -> bool:
    try:
        parsing.on_big_stack(parsing._python_parse)(text)
    except parsing.ParseFailure as failure:
        assert "too deeply nested" in str(failure)
        return True
    return False


@pytest.mark.parametrize("kind", sorted(NESTINGS))
def test_no_text_cpython_refuses_as_too_deep_counts_as_shallow(kind):
    """At the least nesting CPython refuses (alone, and with unary minus inside to reach its limit at
    fewer levels), `shallow` has already said no."""
    opening, closing = NESTINGS[kind]
    for minus in (0, 600, 1500):
        low, high = 1, 4000
        assert _refused(_nested(opening, closing, high, minus)), (kind, high, minus)
        while low < high:
            middle = (low + high) // 2
            if _refused(_nested(opening, closing, middle, minus)):
                high = middle
            else:
                low = middle + 1
        assert not parsing.shallow(_nested(opening, closing, low, minus)), (kind, low, minus)


def test_shallow_over_estimates_nesting():
    # 167 levels of `(lambda x=`: 334 counted characters and words, over CPython's parser depth.
    assert _refused(_nested("(lambda x=", ":1)", 167))
    assert not parsing.shallow(_nested("(lambda x=", ":1)", 167))
    assert parsing.shallow(BLIND_RELEASE)
    assert not parsing.shallow("x = " + "[" * 100 + "(" * 100 + "1" + ")" * 100 + "]" * 100 + "\n")
    assert not parsing.shallow("x = " + "-" * 1250 + "1\n")
    assert not parsing.shallow("x = " + "not " * 1250 + "1\n")
    assert parsing.shallow("x = " + "-" * 1200 + "1\n")
    assert parsing.shallow("x = " + "(" * 120 + "1" + ")" * 120 + "\n")


def test_fixing_text_too_deep_for_cpython_that_libcst_read_does_not_fail(monkeypatch):
    """Should `shallow` ever let such a text through, --fix still ends normally."""
    monkeypatch.setattr(parsing, "shallow", lambda text: True)
    text = "x = " + "(lambda x=" * 167 + "1" + ":1)" * 167 + "\n" + BLIND_RELEASE
    result, _ = runner.lint_bytes(text.encode(), "x.py", Settings(fix=True))
    assert not result.internal_errors
    assert "secrets.token_hex(16)" in result.fixed_text


def test_findings_pickle_as_their_fields():
    from leaselint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Related

    fix = Fix("store a token", (Edit(Position(2, 4), Position(2, 9), "token"),), Applicability.UNSAFE)
    related = (Related(Position(1, 0), Position(1, 5), "the value is made here"),)
    found = Diagnostic("LL001", "blind", Position(2, 4), Position(2, 9), fix, "blind-release", related)
    assert found.__reduce__() == (
        Diagnostic,
        ("LL001", "blind", Position(2, 4), Position(2, 9), fix, "blind-release", related),
    )
    back = pickle.loads(pickle.dumps([found, found], protocol=pickle.HIGHEST_PROTOCOL))
    assert back == [found, found] and back[0] is back[1]
    assert back[0].fix.applicability is Applicability.UNSAFE
    assert back[0].related == related


@pytest.mark.parametrize("stated", [0, 10, 199_999, 200_000, 10**6])
def test_a_file_is_read_whole_whatever_size_its_status_gave(tmp_path, stated):
    """One read of the stated size, then reads to the end: a file that grew since its status was
    taken, or whose status says 0 (as /proc's do), is still read whole."""
    data = bytes(range(256)) * 782 + b"tail"
    path = tmp_path / "grown.py"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert check._read_all(fd, stated) == data
    finally:
        os.close(fd)
    (tmp_path / "empty.py").write_bytes(b"")
    assert check.read(str(path), Settings())[0] == data
    assert check.read(str(tmp_path / "empty.py"), Settings())[0] == b""


def test_a_warm_run_does_not_load_the_store_table(tmp_path):
    """A run whose every file the cache knows without findings reads file names for a lock's words
    without the store table or the prefilter (their import is a tenth of such a run)."""
    import subprocess
    import sys

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "jobs.py").write_text('import redis\n\nr = redis.Redis()\nprint(r.get("k"))\n')
    (tmp_path / "src" / "locks.py").write_text("x = 1\n")
    (tmp_path / "src" / "plain.py").write_text("y = 2\n")
    script = (
        "import sys\n"
        "from leaselint.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m in ('leaselint.model.stores', 'leaselint.prefilter')))\n"
    )
    run = [sys.executable, "-c", script, "--isolated", "--cache-dir", str(tmp_path / "cache"), "--output-format", "json", str(tmp_path / "src")]
    loaded = [subprocess.run(run, capture_output=True, text=True, check=True).stdout.splitlines()[-1] for _ in range(3)]
    assert loaded[0] == "['leaselint.model.stores', 'leaselint.prefilter']"
    assert loaded[1:] == ["[]", "[]"]


def test_a_file_name_that_names_a_lock_is_told_as_before():
    """The file name test is one regex search of the lower-cased name: the same answers as a
    search for each word."""
    from leaselint import prefilter
    from leaselint.model import lock_names, stores

    assert lock_names.LOCK_FILE_WORDS == (*stores.LOCK_CLASS_WORDS, "leader")

    def by_words(path):
        name = path[max(path.rfind("/"), path.rfind(os.sep)) + 1 :].lower()
        return any(word in name for word in lock_names.LOCK_FILE_WORDS)

    names = ["locks.py", "src/app/REDIS_LOCK.py", "leases.py", "mutex.py", "Semaphore.py", "leader.py",
             "election.py", "lock/jobs.py", "clock.py", "unlocked_Lease.py", "lo_ck.py", "ſemaphore.py",
             "LOCK.py", "a\\b\\lock.py", "", "/"]
    assert [prefilter.names_lock(name) for name in names] == [by_words(name) for name in names]
    assert prefilter.names_lock("locks.py") and not prefilter.names_lock("lock/jobs.py")


def _first_pass_only(monkeypatch) -> None:
    """The tree's cases are unrelated modules in one folder, and the project pass pairs halves of
    leases across them (`f"lock:{name}"` in two files) and lints those files again: these tests count
    each file's first parse."""
    monkeypatch.setattr(runner, "project_pass", lambda *args, **kwargs: None)

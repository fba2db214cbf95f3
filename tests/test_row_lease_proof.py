"""Row leases through Django's ORM, on SQLite: LL001's fix of `JobLock.objects.filter(name=...).delete()`.

The rule's own case claims a row by creating it under a unique name and releases it by name. Each
timeline runs in a child process (Django is set up once per process) on the original and on the
copy the CLI fixed: a run in time, a run refused while another worker holds the row, and a run whose
row expires mid-job and is taken over by worker B before A releases. Unfixed, A's delete removes
B's row; fixed (the owner joins the filter), B's row stays and A logs the lost lease. The same for
the case whose claim leaves IntegrityError to raise (its token moved to a name by the unsafe fix).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from leaselint.rules import RULES_BY_CODE
from proof_support import fix_copy
import cases

CASE = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL001"]) if "class JobLock(models.Model)" in c.code))

DRIVER = textwrap.dedent(
    """\
    import json
    import logging
    import sys
    from datetime import timedelta

    import django
    from django.conf import settings

    settings.configure(
        INSTALLED_APPS=["proofapp"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        USE_TZ=True,
    )
    django.setup()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(message)s")

    from django.db import connection
    from django.utils import timezone

    from proofapp import models

    with connection.schema_editor() as editor:
        editor.create_model(models.JobLock)
    rows = models.JobLock.objects


    def owners():
        return sorted(rows.values_list("owner", flat=True))


    def take_over():
        rows.filter(name="nightly").delete()  # A's row expired and B's sweep removed it
        rows.create(name="nightly", owner="b-token", expires_at=timezone.now() + timedelta(minutes=5))


    found = {}
    found["in_time"] = [models.run_exclusive("nightly", lambda: None), owners()]
    rows.create(name="nightly", owner="other", expires_at=timezone.now() + timedelta(minutes=5))
    found["held"] = [models.run_exclusive("nightly", lambda: None), owners()]
    rows.all().delete()
    found["taken_over"] = [models.run_exclusive("nightly", take_over), owners()]
    print(json.dumps(found))
    """
)


def _run(tmp_path, source: str, label: str):
    app = tmp_path / label / "proofapp"
    app.mkdir(parents=True)
    (app / "__init__.py").write_text("")
    (app / "models.py").write_text(source)
    done = subprocess.run(
        [sys.executable, "-c", DRIVER], cwd=app.parent, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_the_fixed_row_release_leaves_the_next_holders_row(tmp_path):
    fixed = fix_copy(tmp_path, CASE).read_text(encoding="utf-8")
    assert "JobLock.objects.filter(name=name, owner=token).delete()[0] == 0" in fixed
    before, before_log = _run(tmp_path, CASE, "original")
    after, after_log = _run(tmp_path, fixed, "fixed")
    # Ordinary use is the same: a run in time frees its row; a held row refuses and stays.
    assert before["in_time"] == after["in_time"] == [True, []]
    assert before["held"] == after["held"] == [False, ["other"]]
    # Taken over mid-job: the original frees B's row, the fixed one leaves it and logs.
    assert before["taken_over"] == [True, []]
    assert after["taken_over"] == [True, ["b-token"]]
    assert "lease" not in before_log
    assert after_log.count("WARNING lease nightly expired before release") == 1


# The row claim that answers by raising (IntegrityError left to the caller), its token made in the
# create's arguments: the fix moves the token to a name and checks it at the release.
UNCAUGHT = textwrap.dedent(
    next(c.code for c in cases.invalid(RULES_BY_CODE["LL001"]) if "class ReportLease(models.Model)" in c.code)
)

UNCAUGHT_DRIVER = DRIVER.split("with connection.schema_editor()")[0] + textwrap.dedent(
    """\
    from django.db import IntegrityError

    with connection.schema_editor() as editor:
        editor.create_model(models.ReportLease)
    rows = models.ReportLease.objects


    def holders():
        return sorted(rows.values_list("holder", flat=True))


    def attempt(day, render):
        models.render = render
        try:
            models.build_report(day)
        except IntegrityError:
            return ["refused", holders()]
        return ["ran", holders()]


    def take_over(day):
        rows.filter(name=f"report:{day}").delete()  # A's row expired and B's sweep removed it
        rows.create(name=f"report:{day}", holder="b-token", expires_at=timezone.now() + timedelta(minutes=5))


    found = {}
    found["in_time"] = attempt("d1", lambda day: None)
    rows.create(name="report:d2", holder="other", expires_at=timezone.now() + timedelta(minutes=5))
    found["held"] = attempt("d2", lambda day: None)
    rows.all().delete()
    found["taken_over"] = attempt("d3", take_over)
    print(json.dumps(found))
    """
)


def test_the_fixed_release_of_a_raising_row_claim_leaves_the_next_holders_row(tmp_path):
    fixed = fix_copy(tmp_path, UNCAUGHT, "--fix", "--unsafe-fixes").read_text(encoding="utf-8")
    assert 'ReportLease.objects.filter(name=f"report:{day}", holder=token).delete()[0] == 0' in fixed
    runs = {}
    for label, source in (("original", UNCAUGHT), ("fixed", fixed)):
        app = tmp_path / label / "proofapp"
        app.mkdir(parents=True)
        (app / "__init__.py").write_text("")
        (app / "models.py").write_text(source)
        done = subprocess.run(
            [sys.executable, "-c", UNCAUGHT_DRIVER], cwd=app.parent, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        runs[label] = (json.loads(done.stdout), done.stderr)
    (before, before_log), (after, after_log) = runs["original"], runs["fixed"]
    # Ordinary use is the same: a run in time frees its row; a held row makes the create raise.
    assert before["in_time"] == after["in_time"] == ["ran", []]
    assert before["held"] == after["held"] == ["refused", ["other"]]
    # Taken over mid-job: the original frees B's row, the fixed one leaves it and logs.
    assert before["taken_over"] == ["ran", []]
    assert after["taken_over"] == ["ran", ["b-token"]]
    assert "lease" not in before_log
    assert after_log.count("WARNING lease report:d3 expired before release") == 1


# A claim and a release in two functions, each taking the caller's key under its own parameter name
# (`get_lock(name, ...)`, `unlock(lock)`): the unsafe fix hands the owner on as a new parameter.
RENAMED = textwrap.dedent(
    next(c.code for c in cases.invalid(RULES_BY_CODE["LL001"]) if "class TaskLock(models.Model)" in c.code)
)

RENAMED_DRIVER = DRIVER.split("with connection.schema_editor()")[0] + textwrap.dedent(
    """\
    import inspect

    with connection.schema_editor() as editor:
        editor.create_model(models.TaskLock)
    rows = models.TaskLock.objects
    takes_token = len(inspect.signature(models.unlock).parameters) == 2


    def owners():
        return sorted(rows.values_list("owner", flat=True))


    def release(name, owner):
        return models.unlock(name, owner) if takes_token else models.unlock(name)


    def soon():
        return timezone.now() + timedelta(minutes=5)


    found = {}
    owner = models.get_lock("nightly", soon())
    release("nightly", owner)
    found["in_time"] = [owner is not None, owners()]
    rows.create(name="nightly", owner="other", expires_at=soon())
    found["held"] = [models.get_lock("nightly", soon()), owners()]
    rows.all().delete()
    owner = models.get_lock("nightly", soon())
    rows.filter(name="nightly").delete()  # A's row expired and B's sweep removed it
    rows.create(name="nightly", owner="b-token", expires_at=soon())
    release("nightly", owner)
    found["taken_over"] = owners()
    print(json.dumps(found))
    """
)


def test_the_fixed_release_under_another_parameter_name_leaves_the_next_holders_row(tmp_path):
    fixed = fix_copy(tmp_path, RENAMED, "--fix", "--unsafe-fixes").read_text(encoding="utf-8")
    assert "TaskLock.objects.filter(name=lock, owner=token).delete()[0] == 0" in fixed
    runs = {}
    for label, source in (("original", RENAMED), ("fixed", fixed)):
        app = tmp_path / label / "proofapp"
        app.mkdir(parents=True)
        (app / "__init__.py").write_text("")
        (app / "models.py").write_text(source)
        done = subprocess.run(
            [sys.executable, "-c", RENAMED_DRIVER], cwd=app.parent, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        runs[label] = (json.loads(done.stdout), done.stderr)
    (before, before_log), (after, after_log) = runs["original"], runs["fixed"]
    # Ordinary use is the same: a claim in time is freed; a held row refuses and stays.
    assert before["in_time"] == after["in_time"] == [True, []]
    assert before["held"] == after["held"] == [None, ["other"]]
    # Taken over mid-job: the original frees B's row, the fixed one leaves it and logs.
    assert before["taken_over"] == []
    assert after["taken_over"] == ["b-token"]
    assert "lease" not in before_log
    assert after_log.count("WARNING lease nightly expired before release") == 1


# A lock model's row deleted as an object (`self.delete()` in its `release()`), claimed through its
# manager's `get_or_create`: LL006's fix tests the deleted count and logs a lost lease.
OBJECT_ROW = textwrap.dedent(next(c.code for c in cases.invalid(RULES_BY_CODE["LL006"]) if "objects = LockManager()" in c.code))

OBJECT_ROW_DRIVER = DRIVER.split("with connection.schema_editor()")[0] + textwrap.dedent(
    """\
    with connection.schema_editor() as editor:
        editor.create_model(models.JobLock)
    rows = models.JobLock.objects


    def names():
        return sorted(rows.values_list("locked_object", flat=True))


    found = {}
    lock = rows.acquire_lock("nightly")
    found["in_time"] = [lock.release(), names()]
    lock = rows.acquire_lock("nightly")
    # A's row expired; B's sweep removed it and B claimed the name again (a new row, a new key).
    rows.filter(locked_object="nightly").delete()
    rows.create(locked_object="nightly", expires_on=timezone.now() + timedelta(minutes=5))
    found["taken_over"] = [lock.release(), names()]
    print(json.dumps(found))
    """
)


def test_the_fixed_object_row_release_reports_a_lost_lease(tmp_path):
    fixed = fix_copy(tmp_path, OBJECT_ROW).read_text(encoding="utf-8")
    assert "if self.delete()[0] == 0:" in fixed
    results = []
    for label, source in (("original", OBJECT_ROW), ("fixed", fixed)):
        app = tmp_path / label / "proofapp"
        app.mkdir(parents=True)
        (app / "__init__.py").write_text("")
        (app / "models.py").write_text(source)
        done = subprocess.run(
            [sys.executable, "-c", OBJECT_ROW_DRIVER], cwd=app.parent, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        results.append((json.loads(done.stdout), done.stderr))
    (before, before_log), (after, after_log) = results
    # The same answers and rows: the release still answers True, B's row stays either way.
    assert before == after == {"in_time": [True, []], "taken_over": [True, ["nightly"]]}
    # Only the fixed release tells that A's row was gone.
    assert "lease" not in before_log
    assert after_log.count("WARNING lease JobLock object") == 1

"""LL001 cases: a row or document claimed by setting a field where it holds its free value (Django's
`filter(pk=k, owner__isnull=True).update(owner=me)` or `filter(pk=k, locked=False).update(locked=True)`,
MongoDB's `{"owner": None}` filter with a `$set`), given back by setting the field free again with no
holder in the filter."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import datetime
        import uuid

        from django.utils import timezone

        from reports.models import Report


        def render(report_id):
            me = uuid.uuid4().hex
            until = timezone.now() + datetime.timedelta(minutes=5)
            taken = Report.objects.filter(pk=report_id, renderer__isnull=True).update(renderer=me, render_until=until)
            if not taken:
                return
            try:
                draw(report_id)
                Report.objects.filter(pk=report_id).update(status="done")
            finally:
                if Report.objects.filter(pk=report_id, renderer=me).update(renderer=None, render_until=None) == 0:
                    raise RenderLost(report_id)
    """
    ),
    Valid(
        """\
        # no rule reports this
        import datetime
        import uuid

        import pymongo

        jobs = pymongo.MongoClient().app.jobs


        def run(job_id):
            me = uuid.uuid4().hex
            until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5)
            if jobs.find_one_and_update({"_id": job_id, "worker": None}, {"$set": {"worker": me, "expires_at": until}}) is None:
                return
            try:
                work(job_id)
            finally:
                if jobs.update_one({"_id": job_id, "worker": me}, {"$unset": {"worker": ""}}).modified_count == 0:
                    raise JobLost(job_id)
    """
    ),
    Valid(
        """\
        # no rule reports this: one setter of a flag, each way in its own branch, is no lease
        from django.db import models


        class Banner(models.Model):
            shown = models.BooleanField(default=False)


        def show(pk, on):
            if on:
                Banner.objects.filter(pk=pk, shown=False).update(shown=True)
            else:
                Banner.objects.filter(pk=pk).update(shown=False)


        def flip(pk):
            if not Banner.objects.filter(pk=pk, shown=False).update(shown=True):
                Banner.objects.filter(pk=pk).update(shown=False)
    """
    ),
    Valid(
        """\
        # no rule reports this: the row moves on to a state that frees nobody's claim
        from jobs.models import Export


        def run_export(export_id):
            if not Export.objects.filter(pk=export_id, state="queued").update(state="running"):
                return
            write_files(export_id)
            Export.objects.filter(pk=export_id).update(state="done")
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import datetime
        import uuid

        from django.utils import timezone

        from reports.models import Report


        def render(report_id):
            me = uuid.uuid4().hex
            until = timezone.now() + datetime.timedelta(minutes=5)
            taken = Report.objects.filter(pk=report_id, renderer__isnull=True).update(renderer=me, render_until=until)
            if not taken:
                return
            try:
                draw(report_id)
            finally:
                Report.objects.filter(pk=report_id).update(renderer=None, render_until=None)
    """,
        line=18,
        column=9,
        message_contains="sets the holder's field back to free",
    ),
    Invalid(
        """\
        import datetime
        import uuid

        import pymongo

        jobs = pymongo.MongoClient().app.jobs


        def run(job_id):
            me = uuid.uuid4().hex
            until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5)
            if jobs.find_one_and_update({"_id": job_id, "worker": None}, {"$set": {"worker": me, "expires_at": until}}) is None:
                return
            try:
                work(job_id)
            finally:
                jobs.update_one({"_id": job_id}, {"$set": {"worker": None}})
    """,
        line=17,
        column=9,
        message_contains="sets the holder's field back to free",
    ),
    Invalid(
        """\
        from django.db import models


        class Survey(models.Model):
            title = models.CharField(max_length=200)
            editing = models.BooleanField(default=False)


        class SurveyEdit:
            def __init__(self, survey_id):
                self.survey_id = survey_id

            def __enter__(self):
                if not Survey.objects.filter(id=self.survey_id, editing=False).update(editing=True):
                    raise SurveyBusy(self.survey_id)
                return self

            def __exit__(self, *exc):
                Survey.objects.filter(id=self.survey_id).update(editing=False)
    """,
        line=19,
        column=9,
        message_contains="sets the holder's field back to free",
    ),
]

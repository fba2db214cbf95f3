"""LL001 cases: a row or document claimed by setting its holder field where it is empty (Django's
`filter(pk=k, owner__isnull=True).update(owner=me)`, MongoDB's `{"owner": None}` filter with a
`$set`), given back by emptying the field with no holder in the filter."""

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
        message_contains="empties the holder's field",
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
        message_contains="empties the holder's field",
    ),
]

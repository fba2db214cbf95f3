"""LL001 cases: a lock model's row made by hand and saved as new (`save(force_insert=True)`, or
`save()` with IntegrityError caught), the claim `objects.create` makes."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A model not named for a lock: a unique sign-up, no lease.
    Valid(
        """\
        # no rule reports this
        from django.db import IntegrityError, models


        class Handle(models.Model):
            name = models.CharField(max_length=60, unique=True)


        def register(name):
            try:
                Handle(name=name).save()
            except IntegrityError:
                return False
            return True


        def unregister(name):
            Handle.objects.filter(name=name).delete()
    """
    ),
    # A save that may update a row already there: no conditional create.
    Valid(
        """\
        # no rule reports this
        from django.db import models


        class SyncLock(models.Model):
            name = models.CharField(max_length=60, unique=True)
            holder = models.CharField(max_length=60)


        def note_holder(name, holder):
            SyncLock(name=name, holder=holder).save()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        from django.db import IntegrityError, models


        class ImportLock(models.Model):
            name = models.CharField(max_length=60, unique=True)
            holder = models.CharField(max_length=60)
            expires_at = models.DateTimeField()


        def run_import(feed, deadline):
            row = ImportLock(name=f"import:{feed}", holder=secrets.token_hex(16), expires_at=deadline)
            try:
                row.save(force_insert=True)
            except IntegrityError:
                return False
            try:
                load(feed)
            finally:
                ImportLock.objects.filter(name=f"import:{feed}").delete()
            return True
    """,
        line=21,
        fixed=None,
        message_contains="(no automatic fix: the row is made by `save()`, which the fixes do not rewrite)",
    ),
]

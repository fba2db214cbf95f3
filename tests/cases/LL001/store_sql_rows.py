"""LL001 cases: SQL rows (Django ORM)."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        from django.db import models


        class Order(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)


        def place(name, customer):
            Order.objects.create(name=name, owner=customer)


        def cancel(name):
            Order.objects.filter(name=name).delete()
    """
    ),
    Valid(
        """\
        import secrets
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class JobLock(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()


        def run_exclusive(name, job, ttl=timedelta(minutes=5)):
            token = secrets.token_hex(16)
            # an expired row is taken over on purpose
            JobLock.objects.filter(name=name, expires_at__lt=timezone.now()).delete()
            try:
                JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
            except IntegrityError:
                return False
            try:
                job()
            finally:
                deleted, _ = JobLock.objects.filter(name=name, owner=token).delete()
                if not deleted:
                    log_lost(name)
            return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class JobLock(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()


        def run_exclusive(name, job, ttl=timedelta(minutes=5)):
            token = secrets.token_hex(16)
            try:
                JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
            except IntegrityError:
                return False
            try:
                job()
            finally:
                JobLock.objects.filter(name=name).delete()
            return True
    """,
        line=23,
        column=9,
        fixed="""\
        import logging
        import secrets
        from datetime import timedelta

        from django.db import IntegrityError, models
        from django.utils import timezone


        class JobLock(models.Model):
            name = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()


        def run_exclusive(name, job, ttl=timedelta(minutes=5)):
            token = secrets.token_hex(16)
            try:
                JobLock.objects.create(name=name, owner=token, expires_at=timezone.now() + ttl)
            except IntegrityError:
                return False
            try:
                job()
            finally:
                if JobLock.objects.filter(name=name, owner=token).delete()[0] == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", name
                    )
            return True
    """,
        applicability=Applicability.SAFE,
    ),
    # A lease model's row claimed without catching IntegrityError (the claim answers by raising): the
    # prefilter once dropped such a file, whose text holds no other store word.
    Invalid(
        """\
        import secrets
        from datetime import timedelta

        from django.db import models
        from django.utils import timezone


        class ReportLease(models.Model):
            name = models.CharField(max_length=120, unique=True)
            holder = models.CharField(max_length=32)
            expires_at = models.DateTimeField()


        def build_report(day):
            # A second worker's create raises IntegrityError: it never reaches the report.
            ReportLease.objects.create(
                name=f"report:{day}", holder=secrets.token_hex(16), expires_at=timezone.now() + timedelta(minutes=10)
            )
            try:
                render(day)
            finally:
                ReportLease.objects.filter(name=f"report:{day}").delete()
    """,
        line=22,
        column=9,
        fixed="""\
        import logging
        import secrets
        from datetime import timedelta

        from django.db import models
        from django.utils import timezone


        class ReportLease(models.Model):
            name = models.CharField(max_length=120, unique=True)
            holder = models.CharField(max_length=32)
            expires_at = models.DateTimeField()


        def build_report(day):
            # A second worker's create raises IntegrityError: it never reaches the report.
            token = secrets.token_hex(16)
            ReportLease.objects.create(
                name=f"report:{day}", holder=token, expires_at=timezone.now() + timedelta(minutes=10)
            )
            try:
                render(day)
            finally:
                if ReportLease.objects.filter(name=f"report:{day}", holder=token).delete()[0] == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        f"report:{day}",
                    )
    """,
        applicability=Applicability.UNSAFE,
    ),
]

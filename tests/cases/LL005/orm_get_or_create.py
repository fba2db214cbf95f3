"""LL005 cases: a lock row claimed by get_or_create, its fields in defaults."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The defaults give the row an expiry field.
    Valid(
        """\
    from django.db import models
    from django.utils import timezone


    class JobLock(models.Model):
        name = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=100)


    def acquire(name, owner):
        lock, created = JobLock.objects.get_or_create(name=name, defaults={"owner": owner, "expires_at": timezone.now()})
        return created


    def release(name):
        JobLock.objects.filter(name=name).delete()
"""
    ),
]

INVALID = [
    # No expiry field in the row.
    Invalid(
        """\
    from django.db import models
    from django.utils import timezone


    class JobLock(models.Model):
        name = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=100)


    def acquire(name, owner):
        lock, created = JobLock.objects.get_or_create(name=name, defaults={"owner": owner})
        return created


    def release(name):
        JobLock.objects.filter(name=name).delete()
""",
        line=11,
        column=21,
        fixed=None,
    ),
]

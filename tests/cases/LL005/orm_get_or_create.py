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
    # The defaults, bound to a name first, give the row an expiry field; a manager's `max_age` is one too.
    Valid(
        """\
    from django.db import models
    from django.utils import timezone


    class LockManager(models.Manager):
        def acquire(self, name, owner, seconds=60):
            defaults = {"owner": owner, "expires_on": timezone.now() + timezone.timedelta(seconds=seconds)}
            lock, created = self.get_or_create(locked_object=name, defaults=defaults)
            return created

        def acquire_for(self, name, owner, seconds=60):
            return self.create(locked_object=name, owner=owner, max_age=seconds)

        def release(self, name):
            self.filter(locked_object=name).delete()


    class JobLock(models.Model):
        locked_object = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=100)

        objects = LockManager()
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

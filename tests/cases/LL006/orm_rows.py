"""LL006 cases: a lock model's row deleted as an object (`self.delete()`), by its own primary key."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import uuid

        from django.db import IntegrityError, models
        from django.utils import timezone


        class LockManager(models.Manager):
            def acquire(self, name, seconds=60):
                try:
                    lock, created = self.get_or_create(
                        locked_object=name,
                        defaults={"expires_on": timezone.now() + timezone.timedelta(seconds=seconds)},
                    )
                except IntegrityError:
                    return None
                return lock if created else None


        class JobLock(models.Model):
            id = models.UUIDField(primary_key=True, default=uuid.uuid4)
            locked_object = models.CharField(max_length=150, unique=True)
            expires_on = models.DateTimeField()

            objects = LockManager()

            def release(self):
                deleted, _ = self.delete()
                if not deleted:
                    raise LockLost(self.locked_object)
    """
    ),
    Valid(
        """\
        # no rule reports this
        from django.db import models


        class Article(models.Model):
            title = models.CharField(max_length=200)

            def retire(self):
                # A row that is no lease: its model is not named for a lock.
                self.delete()
                return True
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        from django.db import IntegrityError, models, transaction
        from django.utils import timezone


        class LockManager(models.Manager):
            def acquire_lock(self, name, max_age=60):
                with transaction.atomic():
                    try:
                        lock, created = self.get_or_create(
                            locked_object=name,
                            defaults={"expires_on": timezone.now() + timezone.timedelta(seconds=max_age)},
                        )
                    except IntegrityError:
                        raise AlreadyLocked()
                    if not created:
                        raise AlreadyLocked()
                return lock


        class JobLock(models.Model):
            id = models.UUIDField(primary_key=True, default=uuid.uuid4)
            locked_object = models.CharField(max_length=150, unique=True)
            expires_on = models.DateTimeField()

            objects = LockManager()

            def release(self):
                self.delete()
                return True
    """,
        line=30,
        column=9,
        fixed="""\
        import logging
        import uuid

        from django.db import IntegrityError, models, transaction
        from django.utils import timezone


        class LockManager(models.Manager):
            def acquire_lock(self, name, max_age=60):
                with transaction.atomic():
                    try:
                        lock, created = self.get_or_create(
                            locked_object=name,
                            defaults={"expires_on": timezone.now() + timezone.timedelta(seconds=max_age)},
                        )
                    except IntegrityError:
                        raise AlreadyLocked()
                    if not created:
                        raise AlreadyLocked()
                return lock


        class JobLock(models.Model):
            id = models.UUIDField(primary_key=True, default=uuid.uuid4)
            locked_object = models.CharField(max_length=150, unique=True)
            expires_on = models.DateTimeField()

            objects = LockManager()

            def release(self):
                if self.delete()[0] == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self
                    )
                return True
    """,
        applicability=Applicability.SAFE,
    ),
]

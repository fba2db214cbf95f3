"""LL001 cases: a lock row claimed by one function and released by another, each taking the caller's key under its own parameter name."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The release filter names the owner too.
    Valid(
        """\
    import secrets

    from django.db import IntegrityError, models


    class TaskLock(models.Model):
        name = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=64)
        expires_at = models.DateTimeField()


    def get_lock(name, expires_at):
        owner = secrets.token_hex(16)
        try:
            TaskLock.objects.create(name=name, owner=owner, expires_at=expires_at)
        except IntegrityError:
            return None
        return owner


    def unlock(lock, owner):
        deleted, _ = TaskLock.objects.filter(name=lock, owner=owner).delete()
        return deleted == 1
"""
    ),
]

INVALID = [
    # unlock(lock) deletes by name alone.
    Invalid(
        """\
    import secrets

    from django.db import IntegrityError, models


    class TaskLock(models.Model):
        name = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=64)
        expires_at = models.DateTimeField()


    def get_lock(name, expires_at):
        owner = secrets.token_hex(16)
        try:
            TaskLock.objects.create(name=name, owner=owner, expires_at=expires_at)
        except IntegrityError:
            return None
        return owner


    def unlock(lock):
        TaskLock.objects.filter(name=lock).delete()
""",
        line=22,
        column=5,
        fixed="""\
    import logging
    import secrets

    from django.db import IntegrityError, models


    class TaskLock(models.Model):
        name = models.CharField(max_length=100, unique=True)
        owner = models.CharField(max_length=64)
        expires_at = models.DateTimeField()


    def get_lock(name, expires_at):
        owner = secrets.token_hex(16)
        try:
            TaskLock.objects.create(name=name, owner=owner, expires_at=expires_at)
        except IntegrityError:
            return None
        return owner


    def unlock(lock, token):
        if token is not None:
            if TaskLock.objects.filter(name=lock, owner=token).delete()[0] == 0:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", lock
                )
""",
    ),
]

"""LL001 cases: rows claimed and released through a Django manager's own methods (`self.create`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets

        from django.db import IntegrityError, models
        from django.utils import timezone


        class LeaseManager(models.Manager):
            def acquire(self, resource, seconds=60):
                token = secrets.token_hex(16)
                try:
                    self.create(locked_object=resource, owner=token, expires_at=timezone.now() + timezone.timedelta(seconds=seconds))
                except IntegrityError:
                    return None
                return token

            def release(self, resource, token):
                deleted, _ = self.filter(locked_object=resource, owner=token).delete()
                if not deleted:
                    raise LeaseLost(resource)


        class Lease(models.Model):
            locked_object = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()

            objects = LeaseManager()
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import secrets

        from django.db import IntegrityError, models
        from django.utils import timezone


        class LeaseManager(models.Manager):
            def acquire(self, resource, seconds=60):
                token = secrets.token_hex(16)
                try:
                    self.create(locked_object=resource, owner=token, expires_at=timezone.now() + timezone.timedelta(seconds=seconds))
                except IntegrityError:
                    return None
                return token

            def release(self, resource):
                self.filter(locked_object=resource).delete()


        class Lease(models.Model):
            locked_object = models.CharField(max_length=200, unique=True)
            owner = models.CharField(max_length=64)
            expires_at = models.DateTimeField()

            objects = LeaseManager()
    """,
        line=17,
        column=9,
        fixed=None,
        message_contains="the key comes from the caller",
    ),
]

"""LL006 cases: a release whose filter is chosen by a force flag (`{"_id": k} if force else {"_id": k,
"owner": t}`): the branch taken without the flag is the lease's release."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import datetime
        import secrets

        import pymongo


        class ReindexLock:
            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.reindex_locks
                self.owner = None

            def acquire(self):
                owner = secrets.token_hex(16)
                now = datetime.datetime.now(datetime.timezone.utc)
                try:
                    self.locks.insert_one({"_id": self.name, "owner": owner, "expires": now + datetime.timedelta(minutes=5)})
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.owner = owner
                return True

            def release(self, force=False):
                query = {"_id": self.name} if force else {"_id": self.name, "owner": self.owner}
                if self.locks.delete_one(query).deleted_count == 0 and not force:
                    raise LockLost(self.name)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import datetime
        import secrets

        import pymongo


        class ReindexLock:
            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.reindex_locks
                self.owner = None

            def acquire(self):
                owner = secrets.token_hex(16)
                now = datetime.datetime.now(datetime.timezone.utc)
                try:
                    self.locks.insert_one({"_id": self.name, "owner": owner, "expires": now + datetime.timedelta(minutes=5)})
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.owner = owner
                return True

            def release(self, force=False):
                query = {"_id": self.name} if force else {"_id": self.name, "owner": self.owner}
                self.locks.delete_one(query)
    """,
        line=25,
        column=9,
        fixed="""\
        import datetime
        import logging
        import secrets

        import pymongo


        class ReindexLock:
            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.reindex_locks
                self.owner = None

            def acquire(self):
                owner = secrets.token_hex(16)
                now = datetime.datetime.now(datetime.timezone.utc)
                try:
                    self.locks.insert_one({"_id": self.name, "owner": owner, "expires": now + datetime.timedelta(minutes=5)})
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.owner = owner
                return True

            def release(self, force=False):
                query = {"_id": self.name} if force else {"_id": self.name, "owner": self.owner}
                if self.locks.delete_one(query).deleted_count == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.name
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

"""LL006 cases: MongoDB."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    # A stale-lock takeover: the filter deletes the record only once its lifetime has passed, in
    # one server step (a range on the lifetime is no holder check, and no blind release either).
    Valid(
        """\
        # no rule reports this
        import datetime
        import time

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def acquire():
            while True:
                now = datetime.datetime.now(datetime.timezone.utc)
                try:
                    locks.insert_one({"_id": "migrate", "expires_at": now + datetime.timedelta(minutes=10)})
                    return
                except DuplicateKeyError:
                    locks.delete_one({"_id": "migrate", "expires_at": {"$lt": now}})
                time.sleep(1)
    """
    ),
    Valid(
        """\
        import pymongo

        sessions = pymongo.MongoClient().app.sessions


        def logout(session_id, user_id):
            sessions.delete_one({"_id": session_id, "user": user_id})

    """
    ),
]

INVALID = [
    Invalid(
        """\
        import pymongo

        locks = pymongo.MongoClient().app.locks


        def run(job, token):
            locks.insert_one({"_id": job, "owner": token})
            try:
                work(job)
            finally:
                locks.delete_one({"_id": job, "owner": token})
    """,
        line=11,
        column=9,
        fixed="""\
        import logging

        import pymongo

        locks = pymongo.MongoClient().app.locks


        def run(job, token):
            locks.insert_one({"_id": job, "owner": token})
            try:
                work(job)
            finally:
                if locks.delete_one({"_id": job, "owner": token}).deleted_count == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", job
                    )
    """,
        applicability=Applicability.SAFE,
    ),
    Invalid(
        """\
        import datetime
        import secrets

        import pymongo


        class ExportMutex:
            STALE_AFTER = 600

            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.export_locks
                self.token = None

            def acquire(self):
                now = datetime.datetime.now(datetime.timezone.utc)
                stale = now - datetime.timedelta(seconds=self.STALE_AFTER)
                self.locks.delete_many({"_id": self.name, "taken_at": {"$lte": stale}})
                token = secrets.token_hex(16)
                try:
                    self.locks.update_one(
                        {"_id": self.name, "owner": None}, {"$set": {"owner": token, "taken_at": now}}, upsert=True
                    )
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.token = token
                return True

            def release(self):
                self.locks.delete_one({"_id": self.name, "owner": self.token})
    """,
        line=30,
        column=9,
        fixed="""\
        import datetime
        import logging
        import secrets

        import pymongo


        class ExportMutex:
            STALE_AFTER = 600

            def __init__(self, name):
                self.name = name
                self.locks = pymongo.MongoClient().app.export_locks
                self.token = None

            def acquire(self):
                now = datetime.datetime.now(datetime.timezone.utc)
                stale = now - datetime.timedelta(seconds=self.STALE_AFTER)
                self.locks.delete_many({"_id": self.name, "taken_at": {"$lte": stale}})
                token = secrets.token_hex(16)
                try:
                    self.locks.update_one(
                        {"_id": self.name, "owner": None}, {"$set": {"owner": token, "taken_at": now}}, upsert=True
                    )
                except pymongo.errors.DuplicateKeyError:
                    return False
                self.token = token
                return True

            def release(self):
                if self.locks.delete_one({"_id": self.name, "owner": self.token}).deleted_count == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", self.name
                    )
    """,
        applicability=Applicability.SAFE,
    ),
]

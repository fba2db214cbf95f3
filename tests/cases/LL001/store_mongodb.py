"""LL001 cases: MongoDB."""

from leaselint.diagnostics import Applicability
from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import pymongo

        locks = pymongo.MongoClient().app.locks


        def run(job, token):
            locks.insert_one({"_id": job, "owner": token})
            work(job)
            locks.delete_one({"_id": job, "owner": token})
    """
    ),
    # A MongoDB record written and removed: no duplicate key caught, no lifetime or owner, no lock.
    Valid(
        """\
        from pymongo import MongoClient

        staging = MongoClient().app.staging


        def publish_record(doc_id, body):
            staging.insert_one({"_id": doc_id, "body": body})
            copy_to_live(doc_id)
            staging.delete_one({"_id": doc_id})
    """
    ),
    Valid(
        """\
        from pymongo import MongoClient

        orders = MongoClient().shop.orders


        def place(order_id, items):
            orders.insert({"_id": order_id, "items": items, "state": "new"})


        def cancel(order_id):
            orders.remove({"_id": order_id})
    """
    ),
    Valid(
        """\
        from pymongo import MongoClient

        sessions = MongoClient().web.sessions


        def save(session_id, data):
            # an upsert of a record: nothing is claimed
            sessions.update_one({"_id": session_id}, {"$set": {"data": data}}, upsert=True)


        def drop(session_id):
            sessions.delete_one({"_id": session_id})
    """
    ),
]

INVALID = [
    # A MongoDB finding speaks of MongoDB: no other store's command in its message.
    Invalid(
        """\
        import secrets

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def run(job):
            token = secrets.token_hex(16)
            try:
                locks.insert_one({"_id": job, "owner": token, "expires_at": deadline()})
            except DuplicateKeyError:
                return False
            work(job)
            held = locks.find_one_and_delete({"_id": job})
            return held is not None
    """,
        line=16,
        message_contains="(no automatic fix: the code uses the value the release returned)",
    ),
    Invalid(
        """\
        from pymongo import MongoClient

        locks = MongoClient().app.locks


        def run(job, token, now):
            locks.insert_one({"_id": job, "owner": token, "expires_at": now})
            try:
                work(job)
            finally:
                locks.delete_one({"_id": job})
    """,
        line=11,
        column=9,
        fixed="""\
        import logging

        from pymongo import MongoClient

        locks = MongoClient().app.locks


        def run(job, token, now):
            locks.insert_one({"_id": job, "owner": token, "expires_at": now})
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
    # A document claim that stores nothing beside its key, in a class: no token to keep or compare.
    Invalid(
        """\
        import pymongo
        from pymongo.errors import DuplicateKeyError


        class ImportLock:
            def __init__(self, url):
                self.locks = pymongo.MongoClient(url).jobs.locks

            def acquire(self):
                try:
                    self.locks.insert_one({"_id": "import"})
                except DuplicateKeyError:
                    return False
                return True

            def release(self):
                self.locks.delete_one({"_id": "import"})
    """,
        line=17,
        column=9,
        message_contains="(no automatic fix: the claim stores no value beside its key",
    ),
    Invalid(
        """\
        import datetime

        import pymongo


        class MongoLocks:
            def __init__(self, uri):
                self.locks = pymongo.MongoClient(uri).jobs.locks

            def acquire_lock(self, name, timeout):
                now = datetime.datetime.utcnow()
                try:
                    self.locks.find_and_modify(
                        {"_id": "lock:" + name, "expires": {"$lt": now}},
                        {"_id": "lock:" + name, "expires": now + datetime.timedelta(seconds=timeout)},
                        upsert=True,
                    )
                except pymongo.errors.OperationFailure:
                    return False
                return True

            def release_lock(self, name):
                self.locks.remove({"_id": "lock:" + name})
    """,
        line=23,
        column=9,
        message_contains='(no automatic fix: the key comes from the caller, so one token per object would mix leases)',
    ),
    Invalid(
        """\
        import socket

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def run_exclusive(name, job):
            try:
                locks.insert({"_id": "lock:" + name, "owner": socket.gethostname()})
            except DuplicateKeyError:
                return False
            try:
                job()
            finally:
                locks.remove({"_id": "lock:" + name})
            return True
    """,
        line=17,
        column=9,
        fixed="""\
        import logging
        import secrets
        import socket

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def run_exclusive(name, job):
            try:
                token = f"{socket.gethostname()}:{secrets.token_hex(8)}"
                locks.insert({"_id": "lock:" + name, "owner": token})
            except DuplicateKeyError:
                return False
            try:
                job()
            finally:
                if locks.remove({"_id": "lock:" + name, "owner": token})["n"] == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it",
                        "lock:" + name,
                    )
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
    Invalid(
        """\
        import socket

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().ops.locks


        def run_once(name, now, job):
            try:
                locks.update_one(
                    {"_id": name, "expires": {"$lt": now}},
                    {"$set": {"owner": socket.gethostname(), "expires": now + 60}},
                    upsert=True,
                )
            except DuplicateKeyError:
                return False
            try:
                job()
            finally:
                locks.delete_one({"_id": name})
            return True
    """,
        line=21,
        column=9,
        fixed="""\
        import logging
        import secrets
        import socket

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().ops.locks


        def run_once(name, now, job):
            try:
                token = f"{socket.gethostname()}:{secrets.token_hex(8)}"
                locks.update_one(
                    {"_id": name, "expires": {"$lt": now}},
                    {"$set": {"owner": token, "expires": now + 60}},
                    upsert=True,
                )
            except DuplicateKeyError:
                return False
            try:
                job()
            finally:
                if locks.delete_one({"_id": name, "owner": token}).deleted_count == 0:
                    logging.getLogger(__name__).warning(
                        "lease %s expired before release; another worker may hold it", name
                    )
            return True
    """,
        applicability=Applicability.UNSAFE,
    ),
    # A replacement upserted where the filter finds the key free or expired claims it too.
    Invalid(
        """\
        import secrets
        import time

        from pymongo import MongoClient, ReturnDocument
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def run(job):
            token = secrets.token_hex(16)
            now = time.time()
            try:
                held = locks.find_one_and_replace(
                    {"_id": job, "expires_at": {"$lte": now}},
                    {"owner": token, "expires_at": now + 30},
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                )
            except DuplicateKeyError:
                return False
            if held is None or held["owner"] != token:
                return False
            work(job)
            locks.delete_one({"_id": job})
            return True
    """,
        line=25,
        column=5,
        fixed="""\
        import logging
        import secrets
        import time

        from pymongo import MongoClient, ReturnDocument
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        def run(job):
            token = secrets.token_hex(16)
            now = time.time()
            try:
                held = locks.find_one_and_replace(
                    {"_id": job, "expires_at": {"$lte": now}},
                    {"owner": token, "expires_at": now + 30},
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                )
            except DuplicateKeyError:
                return False
            if held is None or held["owner"] != token:
                return False
            work(job)
            if locks.delete_one({"_id": job, "owner": token}).deleted_count == 0:
                logging.getLogger(__name__).warning(
                    "lease %s expired before release; another worker may hold it", job
                )
            return True
    """,
    ),
]

"""LL001 cases: MongoDB lock documents deleted with `delete_many`, the filter bound to a name first."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        import socket
        import uuid

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        class MongoLock:
            def __init__(self, key):
                self.key = key
                self.owner = str(uuid.uuid4())

            def acquire(self):
                doc = {"_id": self.key, "owner": self.owner, "expires_at": expiry()}
                try:
                    locks.insert_one(doc)
                except DuplicateKeyError:
                    return False
                return True

            def release(self):
                query = {"_id": self.key, "owner": self.owner}
                if locks.delete_many(query).deleted_count == 0:
                    raise LeaseLost(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import socket
        import uuid

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().app.locks


        class MongoLock:
            def __init__(self, key):
                self.key = key
                self.owner = str(uuid.uuid4())

            def acquire(self):
                doc = {"_id": self.key, "owner": self.owner, "expires_at": expiry()}
                try:
                    locks.insert_one(doc)
                except DuplicateKeyError:
                    return False
                return True

            def release(self):
                query = {"_id": self.key}
                locks.delete_many(query)
    """,
        line=25,
        column=9,
        fixed=None,
        message_contains="a dict bound to a name first",
    ),
]

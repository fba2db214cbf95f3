"""LL001 cases: a MongoDB lock document keyed by a name field under a unique index (its DuplicateKeyError caught), built in a local dict."""

from leaselint.rule import Invalid, Valid

VALID = [
    # No duplicate key is caught: a record, not a claim.
    Valid(
        """\
    from pymongo import MongoClient

    users = MongoClient().app.users


    def acquire_user(name, email):
        users.insert_one({"name": name, "email": email})


    def release_user(name):
        users.delete_one({"name": name})
"""
    ),
    # The release filter names the holder.
    Valid(
        """\
    import secrets
    from datetime import datetime, timezone

    from pymongo import MongoClient
    from pymongo.errors import DuplicateKeyError

    locks = MongoClient().app.locks


    def acquire(job):
        doc = {"name": job, "holder": secrets.token_hex(16), "lockedAt": datetime.now(timezone.utc)}
        try:
            locks.insert_one(doc)
        except DuplicateKeyError:
            return False
        return True


    def release(job, token):
        locks.delete_one({"name": job, "holder": token})
"""
    ),
]

INVALID = [
    # The release filter names only the lock's name.
    Invalid(
        """\
    import secrets
    from datetime import datetime, timezone

    from pymongo import MongoClient
    from pymongo.errors import DuplicateKeyError

    locks = MongoClient().app.locks


    def acquire(job):
        doc = {"name": job, "holder": secrets.token_hex(16), "lockedAt": datetime.now(timezone.utc)}
        try:
            locks.insert_one(doc)
        except DuplicateKeyError:
            return False
        return True


    def release(job):
        locks.delete_one({"name": job})
""",
        line=20,
        column=5,
        fixed=None,
    ),
]

"""LL002 cases: a claimed document whose fields have no token's name: the holder's field is the one
the lease's release filters on, not the first field written (`"active": True`)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import datetime
        import socket
        import uuid


        class SyncLock:
            def __init__(self, name, db):
                self.name = name
                self.locks = db["sync_locks"]
                self.session = None

            def acquire(self):
                session = uuid.uuid4().hex
                record = {
                    "_id": self.name,
                    "active": True,
                    "machine": socket.gethostname(),
                    "session": session,
                    "expires": datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5),
                }
                self.locks.insert_one(record)
                self.session = session

            def release(self):
                if self.locks.delete_one({"_id": self.name, "session": self.session}).deleted_count == 0:
                    raise LockLost(self.name)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import datetime
        import socket
        import uuid


        class SyncLock:
            def __init__(self, name, db):
                self.name = name
                self.locks = db["sync_locks"]
                self.session = uuid.uuid4().hex

            def acquire(self):
                record = {
                    "_id": self.name,
                    "active": True,
                    "machine": socket.gethostname(),
                    "session": self.session,
                    "expires": datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5),
                }
                self.locks.insert_one(record)

            def release(self):
                if self.locks.delete_one({"_id": self.name, "session": self.session}).deleted_count == 0:
                    raise LockLost(self.name)
    """,
        line=20,
        column=9,
        message_contains="made once per instance",
    ),
]

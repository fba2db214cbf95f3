"""LL001 cases: a document's claim made in a helper of the module that its callers hand the key to."""

from leaselint.rule import Invalid, Valid

VALID = [
    # The release names the holder it stored, and answers whether it still held the document.
    Valid(
        """\
        import uuid
        from time import time

        from pymongo.errors import DuplicateKeyError


        class Leases:
            def __init__(self, db, prefix):
                self.prefix = prefix
                self.docs = db["leases"]

            def take(self, name, seconds=30):
                key = f"{self.prefix}:{name}"
                holder = uuid.uuid4().hex
                if self._upsert(key, time() + seconds, holder) is None:
                    return None
                return holder

            def _upsert(self, key, until, holder):
                try:
                    return self.docs.find_one_and_replace(
                        {"_id": key, "until": {"$lt": time()}},
                        {"until": until, "holder": holder},
                        upsert=True,
                    )
                except DuplicateKeyError:
                    return None

            def give_back(self, name, holder):
                key = f"{self.prefix}:{name}"
                return self.docs.delete_one({"_id": key, "holder": holder}).deleted_count == 1
    """
    ),
    # A record saved by a helper and deleted: no duplicate key caught, no expiry, no claim.
    Valid(
        """\
        class Drafts:
            def __init__(self, db):
                self.docs = db["drafts"]

            def save(self, user, body):
                self._write(f"draft:{user}", body)

            def _write(self, key, body):
                self.docs.replace_one({"_id": key}, {"body": body}, upsert=True)

            def discard(self, user):
                self.docs.delete_one({"_id": f"draft:{user}"})
    """
    ),
    # A record made once by a helper's upsert (`$setOnInsert`, no expiry field), then deleted: a cart,
    # not a claim its callers make.
    Valid(
        """\
        from pymongo import MongoClient

        carts = MongoClient().shop.carts


        def _ensure_cart(cart_id, user):
            return carts.update_one({"_id": cart_id}, {"$setOnInsert": {"user": user, "items": []}}, upsert=True)


        def checkout(user):
            cart_id = "cart:" + user
            made = _ensure_cart(cart_id, user)
            if not made.upserted_id:
                charge(user)
            carts.delete_one({"_id": cart_id})
    """
    ),
    # An upsert whose filter names only the key writes over whatever is there: a presence record.
    Valid(
        """\
        from time import time

        from pymongo import MongoClient

        presence = MongoClient().chat.presence


        def _mark(user_key, node):
            return presence.find_one_and_replace({"_id": user_key}, {"node": node, "seen_until": time() + 60}, upsert=True)


        def online(user):
            key = "user:" + user
            if _mark(key, "web-1") is None:
                notify_friends(user)
            try:
                serve(user)
            finally:
                presence.delete_one({"_id": key})
    """
    ),
    # A helper that takes a made document as fine (`except DuplicateKeyError: pass`) answers True
    # either way: its callers learn nothing of a claim.
    Valid(
        """\
        from time import time

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError, PyMongoError

        slots = MongoClient().ops.slots


        def _ensure_slot(key, holder):
            try:
                slots.insert_one({"_id": key, "owner": holder, "until": time() + 3600})
            except DuplicateKeyError:
                pass
            except PyMongoError:
                return False
            return True


        def reset_slot(name):
            key = "lock:slot:" + name
            if not _ensure_slot(key, "rebuilder"):
                return
            rebuild(name)
            slots.delete_one({"_id": key})
    """
    ),
]

INVALID = [
    # The claim is an upsert that takes over an expired document, made in `_upsert`; the key the
    # callers build (`prefix:name`) is the one `give_back` deletes without the holder.
    Invalid(
        """\
        import uuid
        from time import time

        from pymongo.errors import DuplicateKeyError


        class Leases:
            def __init__(self, db, prefix):
                self.prefix = prefix
                self.docs = db["leases"]

            def take(self, name, seconds=30):
                key = f"{self.prefix}:{name}"
                holder = uuid.uuid4().hex
                if self._upsert(key, time() + seconds, holder) is None:
                    return None
                return holder

            def _upsert(self, key, until, holder):
                try:
                    return self.docs.find_one_and_replace(
                        {"_id": key, "until": {"$lt": time()}},
                        {"until": until, "holder": holder},
                        upsert=True,
                    )
                except DuplicateKeyError:
                    return None

            def give_back(self, name):
                key = f"{self.prefix}:{name}"
                self.docs.delete_one({"_id": key})
    """,
        line=31,
        column=9,
        message_contains="no automatic fix: the claim is made inside `Leases._upsert` (line 21)",
    ),
    # The same through a module function that inserts the document.
    Invalid(
        """\
        import os
        import socket

        from pymongo import MongoClient
        from pymongo.errors import DuplicateKeyError

        locks = MongoClient().ops.locks


        def _insert(key, until):
            try:
                locks.insert_one({"_id": key, "owner": f"{socket.gethostname()}:{os.getpid()}", "until": until})
            except DuplicateKeyError:
                return False
            return True


        def run_backup(volume, now):
            key = "backup:" + volume
            if not _insert(key, now + 600):
                return
            try:
                copy(volume)
            finally:
                locks.delete_one({"_id": key})
    """,
        line=25,
        column=9,
        message_contains="no automatic fix: the claim is made inside `_insert` (line 12)",
    ),
]

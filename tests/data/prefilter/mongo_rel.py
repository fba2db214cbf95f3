from . import pymongo

locks = pymongo.MongoClient().db.locks


def run(token):
    locks.insert_one({"_id": "job", "owner": token})
    try:
        work()
    finally:
        locks.delete_one({"_id": "job"})

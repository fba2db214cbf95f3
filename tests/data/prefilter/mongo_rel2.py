from . import pymongo

jobs = pymongo.MongoClient().db.jobs


def run(token):
    jobs.insert_one({"_id": "job", "owner": token})
    try:
        work()
    finally:
        jobs.delete_one({"_id": "job"})

import pymongo

if pymongo.MongoClient().db.c.update_one({"_id": "lock"}, {"$set": {"owner": 1}}, upsert = True):
    pymongo.MongoClient().db.c.delete_one({"_id": "lock"})

"""A job guarded by an etcd key created in a transaction, released by a plain delete."""

import etcd3

etcd = etcd3.client()


def run_once(name, work, lease):
    key = f"/locks/{name}"
    created, _ = etcd.transaction(
        compare=[etcd.transactions.create(key) == 0],
        success=[etcd.transactions.put(key, "running", lease)],
        failure=[],
    )
    if not created:
        return False
    try:
        work()
    finally:
        etcd.delete(key)
    return True

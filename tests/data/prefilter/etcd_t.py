import etcd3

etcd = etcd3.client()
t = etcd.transactions


def release(key, token):
    etcd.transaction(compare=[t.value(key) == token], success=[t.delete(key)], failure=[])

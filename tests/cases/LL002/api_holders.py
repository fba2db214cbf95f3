"""LL002 cases: a holder handed to a lock API leaselint cannot read, with the same holder given back."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A fresh token handed to the API, and a count of slots that names no holder.
    Valid(
        """\
        # no rule reports this
        import uuid

        from app.locks import Semaphores, registry

        SLOTS = 4
        pool = Semaphores()


        def run(job):
            token = uuid.uuid4().hex
            if not registry.acquire(f"job:{job}", token):
                return
            try:
                work(job)
            finally:
                registry.release(f"job:{job}", token)


        def limited(name):
            pool.acquire(name, SLOTS)
            try:
                work(name)
            finally:
                pool.release(name, SLOTS)
    """
    ),
]

INVALID = [
    # A module-level lock object of a library: taken and given back with the host and pid.
    Invalid(
        """\
        import os
        import socket

        from mongolock import MongoLock

        _lock = MongoLock(client=None)


        def get_host():
            return "host:{} pid:{}".format(socket.gethostname(), os.getpid())


        def lock(task, host=None, expire=300):
            if not host:
                host = get_host()
            return _lock.lock(task, host, expire=expire)


        def unlock(task, host=None):
            if not host:
                host = get_host()
            return _lock.release(task, host)
    """,
        line=16,
        column=29,
        fixed=None,
    ),
    # A model's own reserve and release, handed the host name the settings hold.
    Invalid(
        """\
        from oslo_config import cfg

        from app import objects

        CONF = cfg.CONF


        class TaskManager:
            def __init__(self, context, node_id):
                self.context = context
                self.node_id = node_id

            def reserve(self):
                self.node = objects.Node.reserve(self.context, CONF.host, self.node_id)

            def release(self):
                objects.Node.release(self.context, CONF.host, self.node.id)
    """,
        line=14,
        column=56,
        fixed=None,
    ),
]

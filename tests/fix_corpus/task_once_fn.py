"""A task-queue helper that runs a task body once across workers, storing host and pid as the holder."""

import logging
import os
import socket

import redis

logger = logging.getLogger(__name__)
r = redis.Redis()


def run_task_once(task_name, func, expire=900):
    key = f"task:{task_name}:lock"
    worker = f"{socket.gethostname()}-{os.getpid()}"
    if not r.set(key, worker, nx=True, ex=expire):
        logger.info("task %s already running elsewhere", task_name)
        return None
    try:
        return func()
    finally:
        r.delete(key)
        logger.debug("task %s released by %s", task_name, worker)

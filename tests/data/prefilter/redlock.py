from pottery import Redlock, ReleaseUnlockedLock

lock = Redlock(key="job", masters={r})
lock.acquire()
try:
    work()
finally:
    try:
        lock.release()
    except ReleaseUnlockedLock:
        pass

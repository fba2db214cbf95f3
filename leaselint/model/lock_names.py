"""Words that name a lock in class and file names, apart from the store table so that a run whose
files are all known to its cache reads file names without loading that table."""

from __future__ import annotations

import os
import re

# A class named for one of these (`MemcachedLock`, `LeaseMutex`) with the methods of one is a lock
# class: a claim-shaped `add(key, value, ...)` in it claims, whatever its receiver (see
# stores.lock_shaped).
LOCK_CLASS_WORDS = ("lock", "mutex", "lease", "semaphore")

_NAME_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def name_words(name: str) -> list[str]:
    """The words of a snake_case or CamelCase name, lower-cased (`releaseMutex` -> release, mutex)."""
    return [word.lower() for word in _NAME_WORDS.findall(name or "")]


def lock_model_name(name: str | None) -> bool:
    """A model class named for a lock (`JobLock`, `LeaseRow`): its rows may be leases (LOCK_CLASS_WORDS)."""
    return bool(set(name_words(name or "")) & set(LOCK_CLASS_WORDS))


# Words of a file name that names a lock (`locks.py`, `leases.py`, `mutex.py`, `election.py` does not).
LOCK_FILE_WORDS = (*LOCK_CLASS_WORDS, "leader")
_LOCK_FILE_NAME = re.compile("|".join(map(re.escape, LOCK_FILE_WORDS)))


def names_lock(path: str) -> bool:
    """The file's own name names a lock (`locks.py`, `redis_lock.py`, `leases.py`): the prefilter
    reads it as a text that names one. A text is read for "lock" alone (its other words would cost
    a scan of every file)."""
    return _LOCK_FILE_NAME.search(path[max(path.rfind("/"), path.rfind(os.sep)) + 1 :].lower()) is not None


# A project's own error for a lost lease (`LockLost`, `LeaseExpiredError`, `NotLockOwner`): a word of a
# lock and a word of losing it.
_LOSS_WORDS = frozenset({"lost", "expired", "owned", "owner", "stolen", "taken", "released", "held", "release"})


def names_lost_lock(name: str) -> bool:
    words = set(name_words(name))
    return bool(words & set(LOCK_CLASS_WORDS)) and bool(words & _LOSS_WORDS)

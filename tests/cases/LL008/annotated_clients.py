"""LL008 cases: a client known by its parameter's annotation, one class or a union of them."""

from leaselint.rule import Invalid, Valid

VALID = [
    # A union of the project's own classes: no store's client, whatever its methods are named.
    Valid(
        """\
        from typing import Union

        from .stores import DiskStore, MemoryStore


        def run(backend: Union[DiskStore, MemoryStore], job, token):
            if backend.add("job:" + job, token, expire=60):
                try:
                    work(job)
                finally:
                    backend.delete("job:" + job)
    """
    ),
    # The union's clients are told to answer: the claim's answer says whether it was taken.
    Valid(
        """\
        from typing import Union

        from pymemcache.client.base import Client
        from pymemcache.client.hash import HashClient


        def run(backend: Union[Client, HashClient], job, token):
            if backend.add("job:" + job, token, expire=60, noreply=False):
                work(job)
    """
    ),
]

INVALID = [
    # pymemcache's clients in a union (`Union[Client, HashClient]`, or `Client | HashClient`): `add`
    # answers True by default whether or not the key was free.
    Invalid(
        """\
        from typing import Union

        from pymemcache.client.base import Client
        from pymemcache.client.hash import HashClient


        def run(backend: Union[Client, HashClient], job, token):
            if backend.add("job:" + job, token, expire=60):
                try:
                    work(job)
                finally:
                    backend.delete("job:" + job)
    """,
        line=8,
        column=8,
        fixed="""\
        from typing import Union

        from pymemcache.client.base import Client
        from pymemcache.client.hash import HashClient


        def run(backend: Union[Client, HashClient], job, token):
            if backend.add("job:" + job, token, expire=60, noreply=False):
                try:
                    work(job)
                finally:
                    backend.delete("job:" + job)
    """,
    ),
    Invalid(
        """\
        from pymemcache.client.base import Client
        from pymemcache.client.hash import HashClient


        def run(backend: Client | HashClient | None, job, token):
            if backend.add("job:" + job, token, expire=60):
                try:
                    work(job)
                finally:
                    backend.delete("job:" + job)
    """,
        line=6,
        column=8,
        fixed="""\
        from pymemcache.client.base import Client
        from pymemcache.client.hash import HashClient


        def run(backend: Client | HashClient | None, job, token):
            if backend.add("job:" + job, token, expire=60, noreply=False):
                try:
                    work(job)
                finally:
                    backend.delete("job:" + job)
    """,
    ),
]

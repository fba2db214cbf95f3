"""LL002 cases: a value the module's own claim helper stores itself, whatever its callers pass."""

from leaselint.rule import Invalid, Valid

VALID = [
]

INVALID = [
    # The module's own claim helper stores a constant of its own; its callers pass only the key.
    # Reported once, at the helper's value.
    Invalid(
        """\
        import redis


        class Jobs:
            def __init__(self):
                self.redis = redis.Redis()

            def _claim(self, key, ttl):
                return self.redis.set(key, "taken", nx=True, ex=ttl)

            def start(self, job):
                if not self._claim(f"job:{job}", 300):
                    return False
                try:
                    run(job)
                finally:
                    self.redis.delete(f"job:{job}")
                return True
    """,
        line=9,
        column=36,
        message_contains="comes from a constant",
    ),
]

"""LL006 cases: a compare-and-delete script that returns nothing, so its answer is nil whether it
deleted or not (the usual log-on-falsy fix would warn on every release)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import uuid

        import redis

        r = redis.Redis()
        DROP = '''
        if redis.call('get', KEYS[1]) == ARGV[1] then
          return redis.call('del', KEYS[1])
        end
        return 0
        '''


        def rebuild(index: str) -> None:
            token = uuid.uuid4().hex
            if not r.set(f"rebuild:{index}", token, nx=True, ex=300):
                return
            try:
                build(index)
            finally:
                if not r.eval(DROP, 1, f"rebuild:{index}", token):
                    report_overlap(index)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        DROP = '''
        if redis.call('get', KEYS[1]) == ARGV[1] then
          redis.call('del', KEYS[1])
        end
        '''


        def rebuild(index: str) -> None:
            token = uuid.uuid4().hex
            if not r.set(f"rebuild:{index}", token, nx=True, ex=300):
                return
            try:
                build(index)
            finally:
                r.eval(DROP, 1, f"rebuild:{index}", token)
    """,
        line=20,
        column=9,
        message_contains="runs a script that returns nothing",
    ),
    Invalid(
        """\
        import uuid

        import redis

        r = redis.Redis()
        # Leaves early when the key is another's, and answers nothing either way.
        DROP = '''
        if redis.call('get', KEYS[1]) ~= ARGV[1] then
          return
        end
        redis.call('del', KEYS[1])
        '''


        def reindex(index: str) -> None:
            token = uuid.uuid4().hex
            if not r.set(f"reindex:{index}", token, nx=True, ex=300):
                return
            try:
                build(index)
            finally:
                r.eval(DROP, 1, f"reindex:{index}", token)
    """,
        line=22,
        column=9,
        message_contains="runs a script that returns nothing",
    ),
]

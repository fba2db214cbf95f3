"""LL002 cases: the token a script writes as the holder's member of a shared key (a semaphore slot)."""

from leaselint.rule import Invalid, Valid

VALID = [
    Valid(
        """\
        # no rule reports this
        import secrets

        import redis

        ENTER = '''
        if redis.call('scard', KEYS[1]) >= tonumber(ARGV[1]) then
          return 0
        end
        redis.call('sadd', KEYS[1], ARGV[2])
        redis.call('expire', KEYS[1], ARGV[3])
        return 1
        '''
        LEAVE = "return redis.call('srem', KEYS[1], ARGV[1])"


        class Seats:
            def __init__(self, client: redis.Redis, room: str, size: int):
                self.client = client
                self.key = f"seats:{room}"
                self.size = size

            def enter(self) -> str | None:
                seat = secrets.token_hex(16)
                if self.client.eval(ENTER, 1, self.key, self.size, seat, 120):
                    return seat
                return None

            def leave(self, seat: str) -> None:
                if not self.client.eval(LEAVE, 1, self.key, seat):
                    raise SeatLost(self.key)
    """
    ),
]

INVALID = [
    Invalid(
        """\
        import socket

        import redis

        ENTER = '''
        if redis.call('scard', KEYS[1]) >= tonumber(ARGV[1]) then
          return 0
        end
        redis.call('sadd', KEYS[1], ARGV[2])
        redis.call('expire', KEYS[1], ARGV[3])
        return 1
        '''
        LEAVE = "return redis.call('srem', KEYS[1], ARGV[1])"


        class Seats:
            def __init__(self, client: redis.Redis, room: str, size: int):
                self.client = client
                self.key = f"seats:{room}"
                self.size = size
                self.seat = socket.gethostname()

            def enter(self) -> bool:
                return bool(self.client.eval(ENTER, 1, self.key, self.size, self.seat, 120))

            def leave(self) -> None:
                if not self.client.eval(LEAVE, 1, self.key, self.seat):
                    raise SeatLost(self.key)
    """,
        line=24,
        column=69,
        message_contains="no automatic fix: the script takes a slot of a shared key",
    ),
]

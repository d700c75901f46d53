"""How fast a page may record: no faster than a person can click (a token bucket per kind).

A page's records come from clicks, and a script can send clicks through the page's websocket far
faster than a hand can (2,000 Roll clicks sent in 0.11 s became 1,000 recorded rolls before
this: one page then outweighs a class). So a page's recorder
(`henkit.classpool.page_recorder`) lets through, for each kind of record, at most `burst` records
at once and then `rate` a second (a token bucket: one token per record, `rate` tokens a second
come back, at most `burst` kept). What goes past is dropped, never stored, and counted
(`Recorder.too_fast`); the counts reach the pool (`ClassStore.add_too_fast`) and the class board
says them (`Summary.too_fast`, `Board.left_out`).

The figures, from the widgets' own click sequences. A person, not the kernel, is the bottleneck:
the kernel handles a click of the dice tray in 3 ms (advice and chart hidden) to 30-40 ms
(shown), measured on the 2-core test machine by sending the click messages back to back
(`python -m benchmarks flood`), so a script records 12 to 160 rolls a second; the round trip to
a browser adds a few ms more and a person's hand far more:

- A person clicks at most about 10 times a second (click-speed tests: 6 to 8 for most people,
  14 for the fastest, on one still button; an aimed click at a button that moves, like a die to
  take, takes 0.2-0.4 s by Fitts' law).
- roll: every roll but a turn's first needs a take (a click on a die) before it, and a turn's first
  needs the Roll and, in a tray, New turn: at least 2 clicks a roll, so 5 rolls a second. One
  click can make more: "Let bots play" at a 7-seat Henpen table plays 6 bots' turns of at most 8
  rolls each, so the burst is 50.
- turn: a turn takes at least 3 clicks (Roll, a take, and Stop or the Roll that goes bust): 3 a
  second; the burst, 10, holds the 6 bots' turns of one click and the player's own.
- draw: a Hens turn is a draw and a placing (2 clicks) and each of up to 3 bots draws once after
  it: 5 a second sustained, 10 at once.
- barnyard: a Hens game ends with one barnyard per player (up to 4) and takes dozens of clicks:
  1 a second, 8 at once.

Records made faster than these are not a person's. `most_allowed(kind, seconds)` is the most a page
can record in `seconds` (what a test of a flood compares with).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from henkit.classpool.records import KINDS


@dataclass(frozen=True)
class Limit:
    """At most `burst` records at once, then `rate` a second (a token bucket)."""

    rate: float
    burst: int

    def __post_init__(self) -> None:
        if isinstance(self.rate, bool) or not isinstance(self.rate, int | float) or not (
                math.isfinite(self.rate) and self.rate > 0):
            raise ValueError(f"a limit's rate is a number of records a second above 0, not "
                             f"{self.rate!r}"[:300])
        if isinstance(self.burst, bool) or not isinstance(self.burst, int) or self.burst < 1:
            raise ValueError(f"a limit's burst is a whole number of records, 1 or more, not "
                             f"{self.burst!r}"[:300])


PERSON: Mapping[str, Limit] = {
    "roll": Limit(rate=5.0, burst=50),
    "turn": Limit(rate=3.0, burst=10),
    "draw": Limit(rate=5.0, burst=10),
    "barnyard": Limit(rate=1.0, burst=8),
}
"""What a person's page may record, per kind (see the module doc for why each figure)."""


def check_limits(limits: object) -> dict[str, Limit]:
    """`limits` as a dict of record kind -> Limit (every kind given); ValueError otherwise."""
    if not isinstance(limits, Mapping) or set(limits) != set(KINDS) or not all(
            isinstance(v, Limit) for v in limits.values()):
        raise ValueError(f"limits are a dict of each record kind ({', '.join(KINDS)}) -> Limit, "
                         f"not {limits!r}"[:300])
    return dict(limits)


def most_allowed(kind: str, seconds: float, limits: Mapping[str, Limit] = PERSON) -> int:
    """The most records of `kind` a page can record in `seconds` (its burst, then its rate)."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"a record kind is one of {', '.join(KINDS)}, not {kind!r}"[:300])
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not (
            math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"seconds is a number 0 or more, not {seconds!r}"[:300])
    limit = check_limits(limits)[kind]
    return limit.burst + math.floor(limit.rate * seconds)


class RateLimiter:
    """A token bucket per kind of record: `allow(kind)` says whether one more may go now."""

    def __init__(self, limits: Mapping[str, Limit] = PERSON, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = check_limits(limits)
        if not callable(clock):
            raise ValueError(f"clock is a function returning seconds, not {clock!r}"[:300])
        self._clock = clock
        self._lock = threading.Lock()
        now = clock()
        self._tokens = {k: float(v.burst) for k, v in self.limits.items()}
        self._at = dict.fromkeys(self.limits, now)

    def allow(self, kind: str) -> bool:
        """Take one token of `kind` if there is one: True (record it), else False (drop it)."""
        limit = self.limits.get(kind) if isinstance(kind, str) else None
        if limit is None:
            raise ValueError(f"a record kind is one of {', '.join(KINDS)}, not {kind!r}"[:300])
        with self._lock:
            now = self._clock()
            tokens = min(limit.burst, self._tokens[kind] + (now - self._at[kind]) * limit.rate)
            self._at[kind] = now
            if tokens >= 1:
                self._tokens[kind] = tokens - 1
                return True
            self._tokens[kind] = tokens
            return False

"""Tournaments between bots of either game: seeded, reproducible, on any executor.

    t = run_tournament("henpen", ["optimal", "threshold:25"], games=200, seed=1)
    t.summary()        # per bot: win rate with a Wilson 95% interval, mean score with a 95% interval
    t.seat_summary()   # the same per bot and seat
    t.records          # one GameResult per game

Reproducible whatever runs it: game g's seed and seating are fixed by (seed, g) alone, and each
game is played from scratch with fresh bots, so the records are the same on one core, threads,
processes or a Dask cluster, and for any chunk size. Bots are named by spec strings
("threshold:25", "lookahead", ...) and built inside the worker with the game's `make_bot`, so
nothing unpicklable travels.

Seating (henkit's one seating rule, `henkit.core.seating`, which both games' `simulate` use too:
the same settings give the same games there). Seat rotation (the default, `rotate=True`): games
come in *deals* of k games for k bots. Deal d
is played with seed `seed + d`, once in each of the k rotations of the seating (game d*k + r puts
bot (s + r) mod k in seat s). Every bot then plays every seat equally often (exactly, when
`games` is a multiple of k), and bots meet the same starting luck (the same first dice, the same
Hens deal and goal card), which removes both the seat advantage and some luck of the deal from a
comparison. With `rotate=False`, bot i always sits in seat i and game g uses seed `seed + g`.
Seat 0 plays first in Henpen; Hens picks its first player from the seed (its rulebook's rule).

Results cache: the games are a pure function of the settings, so finished games are kept in
`henkit.tournament_cache` (on disk, shared by this user's processes) and a later run with the
same settings reads them: all of them, or the first n and plays the rest (`Tournament.cached`
says how many were read; `cache=False` plays every game).

Executors: `executor=None` plays short tournaments (under SERIAL_BELOW games still to play) in
this process and longer ones on a shared process pool, one worker per core, started once and
reused (workers start by "forkserver": forking a Jupyter kernel, which runs threads, is unsafe).
As with any process pool, a *script* that runs a tournament must do so under
`if __name__ == "__main__":` (notebooks need nothing). A Dask cluster:
`run_tournament(..., executor=distributed.Client(addr).get_executor())`.
"""

from __future__ import annotations

import atexit
import dataclasses
import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from henkit import tournament_cache
from henkit.checks import whole
from henkit.core import Bot, GameResult, NewState, play_seated, seating, unique_labels
from henkit.results import (
    Z95,
    BotSummary,
    mean_interval,
    results_table,
    summarise,
    wilson_interval,
)

__all__ = [
    "GAMES",
    "MAX_GAMES",
    "SERIAL",
    "Z95",
    "BotSummary",
    "Chunk",
    "GameResult",
    "Tournament",
    "cache_key",
    "cache_row",
    "default_executor",
    "make_bot",
    "mean_interval",
    "new_state",
    "play_chunk",
    "run_tournament",
    "shutdown_default_executor",
    "wilson_interval",
]
# Z95, BotSummary, wilson_interval and mean_interval live in henkit.results; they are named
# here too because a tournament's reader meets them first.

GAMES = ("henpen", "hens")
MAX_GAMES = 1_000_000
"""The most games one tournament plays (the arena widget's limit too)."""

SERIAL_BELOW = 40
"""With executor=None, tournaments shorter than this run in this process (a pool costs more)."""
SERIAL = "serial"
"""`executor=SERIAL` plays every game in this process (a widget in a shared class server)."""

Progress = Callable[[int, int], None]


# -- the two games -----------------------------------------------------------------------------


def make_bot(game: str, spec: str) -> Bot:
    """A fresh bot of `game` ("henpen" or "hens") from its spec, e.g. "threshold:25"."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec is text, e.g. 'greedy' or 'threshold:25', not {spec!r}")
    if not isinstance(game, str):
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    if game == "henpen":
        from henkit.henpen.bots import make_bot as make
    elif game == "hens":
        from henkit.hens.bots import make_bot as make
    else:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    return make(spec)


def new_state(game: str) -> NewState:
    """The constructor of `game`'s states, `State.new(players, rules, *, seed)`."""
    if not isinstance(game, str):
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    if game == "henpen":
        from henkit.henpen.state import State as HenpenState

        return HenpenState.new
    if game == "hens":
        from henkit.hens.state import State as HensState

        return HensState.new
    raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")


# -- the tournament ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """A finished tournament: its settings and one record per game, in game order.

    The records are `henkit.core.GameResult`s (without their final states); the summaries are
    `henkit.results`' (the same as for `simulate`'s results).
    """

    game: str  # "henpen" or "hens"
    specs: tuple[str, ...]  # bot specs, as given
    bots: tuple[str, ...]  # bot labels (unique), by index
    seed: int
    rotate: bool
    records: tuple[GameResult, ...]
    cached: int = field(default=0, compare=False)  # the first `cached` games were read, not played

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, not {self.game!r}")
        if not isinstance(self.records, tuple | list) or not all(
                isinstance(r, GameResult) for r in self.records):
            raise ValueError("records must be a tuple of GameResult (a tournament's games), "
                             f"not {self.records!r}"[:300])
        object.__setattr__(self, "records", tuple(self.records))
        # Games read from the cache are always the first ones, so a prefix of a tournament
        # (`dataclasses.replace(t, records=t.records[:n])`, as notebook 7 does) holds
        # min(cached, n) of them.
        cached = whole(self.cached, "cached", 0)
        object.__setattr__(self, "cached", min(cached, len(self.records)))

    @property
    def games(self) -> int:
        """How many games the tournament holds (played now or read from the results cache)."""
        return len(self.records)

    def summary(self) -> list[BotSummary]:
        """Per bot over all seats: win rate (Wilson 95% interval) and mean score (95% interval)."""
        return summarise(self.records)

    def seat_summary(self) -> list[BotSummary]:
        """Per bot and seat (bot order, then seat order)."""
        return summarise(self.records, by_seat=True)

    def table(self) -> str:
        """A plain-text table of the per-bot summary."""
        return results_table(self.records)


# -- playing games -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """Games start..stop-1 of a tournament: all a worker needs (small and picklable)."""

    game: str
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    rules: Any
    seed: int
    rotate: bool
    start: int
    stop: int


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play one chunk of games (runs in a worker): game g is `henkit.core.play_seated`'s."""
    if not isinstance(chunk, Chunk):
        raise ValueError(f"chunk must be an arena Chunk, not {chunk!r}")
    new = new_state(chunk.game)
    out = []
    for g in range(chunk.start, chunk.stop):
        # Fresh bots for every game: no bot can carry anything from one game to the next.
        bots = [make_bot(chunk.game, spec) for spec in chunk.specs]
        r = play_seated(new, bots, g, chunk.seed, chunk.rules, rotate=chunk.rotate,
                        labels=chunk.labels)
        out.append(dataclasses.replace(r, final=None))  # records stay small: no state travels
    return out


# -- the default executor ----------------------------------------------------------------------

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def default_executor() -> ProcessPoolExecutor:
    """The shared process pool for big tournaments (one worker per core, started once).

    Workers start by "forkserver" where the platform has it: forking a Jupyter kernel's
    threads is unsafe, and a fresh server process keeps workers clean.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            _pool = ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=ctx)
        return _pool


def shutdown_default_executor() -> None:
    """Stop the shared process pool (it starts again when next needed)."""
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=True, cancel_futures=True)
            _pool = None


atexit.register(shutdown_default_executor)


# -- the tournament ----------------------------------------------------------------------------


def _labels(game: str, specs: Sequence[str]) -> tuple[str, ...]:
    """Each bot's name (from its game's make_bot), made unique: 'greedy #1', 'greedy #2'."""
    return unique_labels([make_bot(game, s).name for s in specs])


def _check_rules(game: str, rules: Any, players: int) -> Any:
    """The rules the games are played by (Hens: None -> Rules for that many players), after the
    engine has set a game up with them (its ValueError names what is wrong)."""
    if game == "henpen":
        from henkit.henpen.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

        low, high = MIN_PLAYERS, MAX_PLAYERS
    else:
        from henkit.hens.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

        low, high = MIN_PLAYERS, MAX_PLAYERS
    if not low <= players <= high:
        raise ValueError(f"{game} is for {low} to {high} players: give that many bots, "
                         f"not {players}")
    if rules is not None and not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.{game} Rules, not {type(rules).__name__}")
    new_state(game)(players, rules, seed=0)  # the engine's own checks of rules and players
    if game == "hens" and rules is None:
        return Rules(players=players)
    return rules


def run_tournament(
    game: str,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    rotate: bool = True,
    rules: Any = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    on_progress: Progress | None = None,
    cache: bool = True,
) -> Tournament:
    """Play `games` seeded games between `bots` (spec strings, one per seat) and record them.

    game: "henpen" or "hens". bots: e.g. ["optimal", "threshold:25"] or ["lookahead", "greedy"].
    rotate: rotate the seating so each bot plays each seat equally (see the module note).
    executor: any concurrent.futures Executor (threads, processes, a Dask client's
    `get_executor()`); "serial" plays every game in this process; None runs short tournaments
    here and long ones on `default_executor()`.
    chunk_size: games per task (it changes speed and progress steps, never the results).
    on_progress(done, total): called in this thread with 0 first (or the games read from the
    cache), then as chunks finish.
    cache: read games already played with these settings from `henkit.tournament_cache`, and
    keep the new ones there; False plays every game (the records are the same either way).
    """
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise ValueError(f"bots must be a list of bot specs, e.g. ['greedy', 'random'], not {bots!r}")
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(f"bots are given by spec strings (e.g. 'threshold:25'), so they can be "
                             f"built in any worker, not {b!r}")
    specs = tuple(bots)
    labels = _labels(game, specs)  # also checks every spec (ValueError naming the bots)
    rules = _check_rules(game, rules, len(specs))
    games = whole(games, "games", 1, MAX_GAMES)
    seed = whole(seed, "seed", 0)
    if chunk_size is None:
        chunk_size = max(1, min(50, math.ceil(games / 20)))
    chunk_size = whole(chunk_size, "chunk_size", 1, MAX_GAMES)
    for name, flag in (("rotate", rotate), ("cache", cache)):
        if not isinstance(flag, bool | np.bool_):
            raise ValueError(f"{name} must be True or False, not {flag!r}")
    if (
        executor is not None
        and not (isinstance(executor, str) and executor == SERIAL)
        and not isinstance(executor, Executor)
        and not callable(getattr(executor, "submit", None))
    ):
        raise ValueError(f"executor must be a concurrent.futures Executor, {SERIAL!r} or None, "
                         f"not {executor!r}")
    if on_progress is not None and not callable(on_progress):
        raise ValueError("on_progress must be a function of (done, total)")

    rotate = bool(rotate)
    key = cache_key(game, specs, rules, seed, rotate) if cache else None
    whole_run = Chunk(game, specs, labels, rules, seed, rotate, 0, games)
    if key is None:
        return _run(whole_run, chunk_size, executor, [], on_progress)
    with tournament_cache.hold(key):  # the same tournament elsewhere: wait, then read it
        known = _cached_records(key, whole_run)
        t = _run(whole_run, chunk_size, executor, known, on_progress)
        if t.cached < t.games:
            tournament_cache.store(key, [cache_row(r) for r in t.records])
    return t


def _run(
    whole_run: Chunk,
    chunk_size: int,
    executor: Executor | str | None,
    known: list[GameResult],
    on_progress: Progress | None,
) -> Tournament:
    """Play the games of `whole_run` after the `known` ones (read from the cache)."""
    games, first = whole_run.stop, len(known)  # games from `first` on are played
    chunks = [dataclasses.replace(whole_run, start=a, stop=min(a + chunk_size, games))
              for a in range(first, games, chunk_size)]
    serial = (not chunks or isinstance(executor, str)  # (the only string allowed is SERIAL)
              or (executor is None and games - first < SERIAL_BELOW))
    report = on_progress or (lambda done, total: None)
    report(first, games)
    results: dict[int, list[GameResult]] = {}
    if serial:
        done = first
        for c in chunks:
            results[c.start] = play_chunk(c)
            done += c.stop - c.start
            report(done, games)
    else:
        pool = executor if executor is not None else default_executor()
        futures: dict[Future, Chunk] = {pool.submit(play_chunk, c): c for c in chunks}
        done = first
        try:
            for fut in as_completed(futures):
                c = futures[fut]
                results[c.start] = fut.result()
                done += c.stop - c.start
                report(done, games)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    played = [r for c in chunks for r in results[c.start]]
    w = whole_run
    return Tournament(w.game, w.specs, w.labels, w.seed, w.rotate, (*known, *played), cached=first)


# -- the shared cache of played games ----------------------------------------------------------


def cache_key(game: str, specs: tuple[str, ...], rules: Any, seed: int, rotate: bool) -> dict:
    """Everything that fixes a tournament's games (henkit's code is added by the cache).

    `rules`: the game's Rules (None: the default rules, one entry whether given or not).
    """
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    if isinstance(specs, str) or not isinstance(specs, Sequence) or not all(
            isinstance(b, str) for b in specs):
        raise ValueError(f"specs must be a list of bot specs, not {specs!r}")
    if game == "henpen":
        from henkit.henpen.rules import Rules
    else:
        from henkit.hens.rules import Rules
    if rules is None:
        rules = Rules() if game == "henpen" else Rules(players=len(specs))
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.{game} Rules or None, not {rules!r}")
    if not isinstance(rotate, bool | np.bool_):
        raise ValueError(f"rotate must be True or False, not {rotate!r}")
    return {"game": game, "bots": list(specs), "seed": whole(seed, "seed", 0),
            "rotate": bool(rotate), "rules": rules.to_dict()}


def cache_row(r: GameResult) -> list:
    """One game as the results cache keeps it: [seed, seats, totals, winners, first_player]."""
    if not isinstance(r, GameResult):
        raise ValueError(f"a cache row is made from a GameResult, not {r!r}")
    return [r.seed, list(r.seats), list(r.totals), list(r.winners), r.first_player]


def _cached_records(key: dict, whole_run: Chunk) -> list[GameResult]:
    """The first (up to) `whole_run.stop` games of the cached run with these settings."""
    labels, seed, rotate = whole_run.labels, whole_run.seed, whole_run.rotate
    k = len(labels)

    def is_int(x: Any, below: int | None = None) -> bool:
        return type(x) is int and x >= 0 and (below is None or x < below)

    def check(g: int, row: Any) -> bool:
        # A row must be game g of these settings: its seed and seating, k scores, winners and a
        # first player who are seats. Anything else means a damaged entry.
        if not (isinstance(row, list) and len(row) == 5):
            return False
        s, seats, totals, winners, first_player = row
        return (
            isinstance(seats, list) and all(is_int(b) for b in seats) and is_int(s)
            and (s, tuple(seats)) == seating(g, k, seed, rotate)
            and isinstance(totals, list) and len(totals) == k
            and all(type(t) is int for t in totals)
            and isinstance(winners, list) and all(is_int(w, k) for w in winners)
            and 0 < len(winners) == len(set(winners))
            and is_int(first_player, k)
        )

    rows = tournament_cache.load(key, check)[: whole_run.stop]
    return [GameResult(g, s, tuple(seats), tuple(labels[b] for b in seats), tuple(totals),
                       tuple(winners), first_player)
            for g, (s, seats, totals, winners, first_player) in enumerate(rows)]

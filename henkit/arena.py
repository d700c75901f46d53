"""Tournaments between bots of either game: seeded, reproducible, on any executor.

    t = run_tournament("henpen", ["optimal", "threshold:25"], games=200, seed=1)
    t.summary()        # per bot: win rate with a Wilson 95% interval, mean score with a 95% interval
    t.seat_summary()   # the same per bot and seat
    t.records          # one GameRecord per game

Reproducible whatever runs it: game g's seed and seating are fixed by (seed, g) alone, and each
game is played from scratch with fresh bots, so the records are the same on one core, threads,
processes or a Dask cluster, and for any chunk size. Bots are named by spec strings
("threshold:25", "lookahead", ...) and built inside the worker with the game's `make_bot`, so
nothing unpicklable travels.

Seat rotation (the default, `rotate=True`): games come in *deals* of k games for k bots. Deal d
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

from henkit import tournament_cache
from henkit.checks import whole

__all__ = [
    "GAMES",
    "SERIAL",
    "BotSummary",
    "GameRecord",
    "Tournament",
    "default_executor",
    "mean_interval",
    "run_tournament",
    "shutdown_default_executor",
    "wilson_interval",
]

GAMES = ("henpen", "hens")
Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval (Phi^-1(0.975))."""

SERIAL_BELOW = 40
SERIAL = "serial"
"""`executor=SERIAL` plays every game in this process (a widget in a shared class server)."""
"""With executor=None, tournaments shorter than this run in this process (a pool costs more)."""

Progress = Callable[[int, int], None]


# -- statistics --------------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: (low, high), by default 95%.

    E. B. Wilson (1927), "Probable inference, the law of succession, and statistical
    inference", JASA 22(158): 209-212. With p = successes / trials and n = trials:
        centre = (p + z^2 / 2n) / (1 + z^2 / n)
        half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)
    Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty at p = 0 or 1
    (Agresti & Coull 1998 recommend it for small samples). Shared wins count as fractions.
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"trials must be a whole number of at least 1, not {trials!r}")
    if isinstance(successes, bool) or not isinstance(successes, int | float):
        raise ValueError(f"successes must be a number, not {successes!r}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials ({trials}), not {successes}")
    if not (isinstance(z, int | float) and z > 0):
        raise ValueError(f"z must be a positive number, not {z!r}")
    n, p, z2 = trials, successes / trials, z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # Exactly p itself at p = 0 or 1 (the formula gives 0 and 1 up to rounding there).
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a normal-approximation 95% interval, mean +- z s/sqrt(n).

    s is the sample standard deviation (n - 1). The normal quantile instead of Student's t makes
    it slightly too narrow below about 30 games (t_{0.975, 29} = 2.05 vs z = 1.96); one game
    gives a zero-width interval.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values: the mean of nothing has no interval")
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


# -- records and summaries ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament: its number, seed, who sat where, scores and winning seats."""

    game: int  # 0, 1, ... in the tournament
    seed: int
    seats: tuple[int, ...]  # seats[s]: index (in Tournament.bots) of the bot in seat s
    bots: tuple[str, ...]  # bot label by seat
    totals: tuple[int, ...]  # score by seat (worms in Henpen, points in Hens)
    winners: tuple[int, ...]  # winning seats (several on a shared win)
    first_player: int

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return {"game": self.game, "seed": self.seed, "seats": list(self.seats),
                "bots": list(self.bots), "totals": list(self.totals),
                "winners": list(self.winners), "first_player": self.first_player}


@dataclass(frozen=True)
class BotSummary:
    """How one bot did (in every seat, or in one seat): wins and scores with 95% intervals."""

    bot: str  # label
    spec: str  # what built it, e.g. "threshold:25"
    seat: int | None  # None: all seats
    games: int
    wins: float  # a win shared by k winners counts 1/k
    win_rate: float
    win_low: float  # Wilson 95% interval
    win_high: float
    mean_score: float
    score_low: float  # mean +- 1.96 standard errors
    score_high: float

    def __str__(self) -> str:
        where = "" if self.seat is None else f" in seat {self.seat}"
        return (f"{self.bot}{where}: won {self.win_rate:.1%} of {self.games} games "
                f"(95% CI {self.win_low:.1%}-{self.win_high:.1%}), mean score "
                f"{self.mean_score:.2f} ({self.score_low:.2f}-{self.score_high:.2f})")


def _summarise(label: str, spec: str, seat: int | None, wins: float, scores: list[int]) -> BotSummary:
    games = len(scores)
    low, high = wilson_interval(wins, games)
    mean, s_low, s_high = mean_interval(scores)
    return BotSummary(label, spec, seat, games, wins, wins / games, low, high, mean, s_low, s_high)


@dataclass(frozen=True)
class Tournament:
    """A finished tournament: its settings and one record per game, in game order."""

    game: str  # "henpen" or "hens"
    specs: tuple[str, ...]  # bot specs, as given
    bots: tuple[str, ...]  # bot labels (unique), by index
    seed: int
    rotate: bool
    records: tuple[GameRecord, ...]
    cached: int = field(default=0, compare=False)  # the first `cached` games were read, not played

    @property
    def games(self) -> int:
        """How many games the tournament holds (played now or read from the results cache)."""
        return len(self.records)

    def _tally(self, by_seat: bool) -> dict[tuple[int, int | None], tuple[float, list[int]]]:
        out: dict[tuple[int, int | None], tuple[float, list[int]]] = {}
        for r in self.records:
            for seat, (b, total) in enumerate(zip(r.seats, r.totals, strict=True)):
                key = (b, seat if by_seat else None)
                wins, scores = out.get(key, (0.0, []))
                scores.append(total)
                out[key] = (wins + (1 / len(r.winners) if seat in r.winners else 0.0), scores)
        return out

    def summary(self) -> list[BotSummary]:
        """Per bot over all seats: win rate (Wilson 95% interval) and mean score (95% interval)."""
        tally = self._tally(by_seat=False)
        return [_summarise(self.bots[b], self.specs[b], None, *tally[(b, None)])
                for b in range(len(self.bots)) if (b, None) in tally]

    def seat_summary(self) -> list[BotSummary]:
        """Per bot and seat (bot order, then seat order)."""
        tally = self._tally(by_seat=True)
        return [_summarise(self.bots[b], self.specs[b], s, *tally[(b, s)])
                for b, s in sorted(tally)]

    def table(self) -> str:
        """A plain-text table of the per-bot summary."""
        head = (f"{'bot':<24} {'games':>6} {'wins':>8} {'win %':>7} {'95% CI':>15} "
                f"{'mean':>7} {'95% CI':>15}")
        lines = [head, "-" * len(head)]
        for s in self.summary():
            lines.append(
                f"{s.bot:<24} {s.games:>6} {s.wins:>8.2f} {s.win_rate:>7.1%} "
                f"{f'{s.win_low:.1%}-{s.win_high:.1%}':>15} {s.mean_score:>7.2f} "
                f"{f'{s.score_low:.2f}-{s.score_high:.2f}':>15}"
            )
        return "\n".join(lines)


# -- playing games -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Chunk:
    """Games start..stop-1 of a tournament: all a worker needs (small and picklable)."""

    game: str
    specs: tuple[str, ...]
    labels: tuple[str, ...]
    rules: Any
    seed: int
    rotate: bool
    start: int
    stop: int


def _seating(g: int, k: int, seed: int, rotate: bool) -> tuple[int, tuple[int, ...]]:
    """Seed and seating (bot index per seat) of game g; see the module note."""
    if not rotate:
        return seed + g, tuple(range(k))
    deal, r = divmod(g, k)
    return seed + deal, tuple((s + r) % k for s in range(k))


def _make_bot(game: str, spec: str) -> Any:
    if game == "henpen":
        from henkit.henpen.bots import make_bot
    else:
        from henkit.hens.bots import make_bot
    return make_bot(spec)


def _play(chunk: _Chunk, g: int) -> GameRecord:
    k = len(chunk.specs)
    seed, seats = _seating(g, k, chunk.seed, chunk.rotate)
    # Fresh bots for every game: no bot can carry anything from one game to the next.
    bots = [_make_bot(chunk.game, chunk.specs[b]) for b in seats]
    if chunk.game == "henpen":
        from henkit.henpen.simulate import play_game

        r = play_game(bots, seed, chunk.rules, first_player=0)
    else:
        from henkit.hens.simulate import play_game as play_hens

        r = play_hens(bots, seed, chunk.rules)
    return GameRecord(g, seed, seats, tuple(chunk.labels[b] for b in seats),
                      tuple(int(t) for t in r.totals), tuple(int(w) for w in r.winners),
                      int(r.first_player))


def play_chunk(chunk: _Chunk) -> list[GameRecord]:
    """Play one chunk of games (runs in a worker)."""
    return [_play(chunk, g) for g in range(chunk.start, chunk.stop)]


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
    """Each bot's name (from its game's make_bot), made unique: 'greedy', 'greedy #2'."""
    names = [_make_bot(game, s).name for s in specs]
    out = []
    for i, name in enumerate(names):
        n = names[:i].count(name)
        out.append(name if n == 0 and names.count(name) == 1 else f"{name} #{n + 1}")
    return tuple(out)


def _check_rules(game: str, rules: Any, players: int) -> Any:
    if game == "henpen":
        from henkit.henpen.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Henpen is for {MIN_PLAYERS} to {MAX_PLAYERS} players: give that "
                             f"many bots, not {players}")
        if rules is not None and not isinstance(rules, Rules):
            raise ValueError(f"rules must be a henkit.henpen Rules, not {type(rules).__name__}")
        return rules
    from henkit.hens.rules import Rules as HensRules

    if rules is None:
        if not 2 <= players <= 4:
            raise ValueError(f"Hens is for 2 to 4 players: give that many bots, not {players}")
        return HensRules(players=players)
    if not isinstance(rules, HensRules):
        raise ValueError(f"rules must be a henkit.hens Rules, not {type(rules).__name__}")
    if rules.players != players:
        raise ValueError(f"the rules are for {rules.players} players but {players} bots were given")
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
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ValueError(f"bots must be a list of bot specs, e.g. ['greedy', 'random'], not {bots!r}")
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(f"bots are given by spec strings (e.g. 'threshold:25'), so they can be "
                             f"built in any worker, not {b!r}")
    specs = tuple(bots)
    labels = _labels(game, specs)  # also checks every spec (ValueError naming the bots)
    rules = _check_rules(game, rules, len(specs))
    games = whole(games, "games", 1)
    seed = whole(seed, "seed", 0)
    if chunk_size is None:
        chunk_size = max(1, min(50, math.ceil(games / 20)))
    chunk_size = whole(chunk_size, "chunk_size", 1)
    if (
        executor is not None
        and executor != SERIAL
        and not isinstance(executor, Executor)
        and not callable(getattr(executor, "submit", None))
    ):
        raise ValueError(f"executor must be a concurrent.futures Executor, {SERIAL!r} or None, "
                         f"not {executor!r}")
    if on_progress is not None and not callable(on_progress):
        raise ValueError("on_progress must be a function of (done, total)")

    rotate = bool(rotate)
    key = _cache_key(game, specs, rules, seed, rotate) if cache else None
    whole_run = _Chunk(game, specs, labels, rules, seed, rotate, 0, games)
    if key is None:
        return _run(whole_run, chunk_size, executor, [], on_progress)
    with tournament_cache.hold(key):  # the same tournament elsewhere: wait, then read it
        known = _cached_records(key, whole_run)
        t = _run(whole_run, chunk_size, executor, known, on_progress)
        if t.cached < t.games:
            tournament_cache.store(key, [_row(r) for r in t.records])
    return t


def _run(
    whole_run: _Chunk,
    chunk_size: int,
    executor: Executor | str | None,
    known: list[GameRecord],
    on_progress: Progress | None,
) -> Tournament:
    """Play the games of `whole_run` after the `known` ones (read from the cache)."""
    games, first = whole_run.stop, len(known)  # games from `first` on are played
    chunks = [dataclasses.replace(whole_run, start=a, stop=min(a + chunk_size, games))
              for a in range(first, games, chunk_size)]
    serial = not chunks or executor == SERIAL or (executor is None and games - first < SERIAL_BELOW)
    report = on_progress or (lambda done, total: None)
    report(first, games)
    results: dict[int, list[GameRecord]] = {}
    if serial:
        done = first
        for c in chunks:
            results[c.start] = play_chunk(c)
            done += c.stop - c.start
            report(done, games)
    else:
        pool = executor if executor is not None else default_executor()
        futures: dict[Future, _Chunk] = {pool.submit(play_chunk, c): c for c in chunks}
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


def _cache_key(game: str, specs: tuple[str, ...], rules: Any, seed: int, rotate: bool) -> dict:
    """Everything that fixes a tournament's games (henkit's code is added by the cache)."""
    if rules is None:  # Henpen without rules plays the default ones: the same games, one entry
        from henkit.henpen.rules import Rules

        rules = Rules()
    return {"game": game, "bots": list(specs), "seed": seed, "rotate": rotate,
            "rules": rules.to_dict()}


def _row(r: GameRecord) -> list:
    return [r.seed, list(r.seats), list(r.totals), list(r.winners), r.first_player]


def _cached_records(key: dict, whole_run: _Chunk) -> list[GameRecord]:
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
            and (s, tuple(seats)) == _seating(g, k, seed, rotate)
            and isinstance(totals, list) and len(totals) == k
            and all(type(t) is int for t in totals)
            and isinstance(winners, list) and all(is_int(w, k) for w in winners)
            and 0 < len(winners) == len(set(winners))
            and is_int(first_player, k)
        )

    rows = tournament_cache.load(key, check)[: whole_run.stop]
    return [GameRecord(g, s, tuple(seats), tuple(labels[b] for b in seats), tuple(totals),
                       tuple(winners), first_player)
            for g, (s, seats, totals, winners, first_player) in enumerate(rows)]

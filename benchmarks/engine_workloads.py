"""Engine workloads, timed, as JSON: the worker of `python -m benchmarks engines`.

Run as a script with PYTHONPATH at a henkit tree. It works with henkit before issue 10 (Hens
`new_game` and `HensState`, Hens `scores()` as Score objects, a play_game per game's simulate
module) and after it (`State.new` for both games, `scores()` as ints, `simulate(rotate=False)`):
it looks for what the tree it imports has, does the same work with the same seeds on either,
and says which functions it used ("via"). It never imports the `benchmarks` package, so one file
measures any tree.

- `engine_workloads.py serve`: reads requests '{"workload": NAME, "chunk": J, "scale": X}', one
  per line, and answers each with one JSON line (chunk -1 is the warm-up).
- `engine_workloads.py NAME [J]`: warm up, then print chunk J's figures.

Figures: workload, chunk, count, unit, seconds (CPU), wall_seconds, rate, checksum, games,
total, via, henkit (the package measured). Chunk J plays from seed J * CHUNK_SEEDS; `checksum`
digests every finished game's scores (or the batch's end totals) in order, so two trees that
print the same checksum for a chunk played the same games.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib
import inspect
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import henkit

WARMUP_SEED = 10**9
"""Warm-up work uses seeds from here on, so the timed games are not replays of it."""


def _module(name: str) -> Any:
    """A module by dotted name (never the function a package re-exports under the same name)."""
    importlib.import_module(name)
    return sys.modules[name]


def _points(score: Any) -> int:
    """A player's points: an int already (after issue 10) or a Hens Score's total (before)."""
    return int(score) if isinstance(score, int | np.integer) else int(score.total)


def _scores(state: Any) -> tuple[int, ...]:
    """Every player's score at a state, as ints on either API."""
    return tuple(_points(x) for x in state.scores())


class Digest:
    """Running digest of per-game score tuples (order matters) and their grand total."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()
        self.total = 0
        self.games = 0

    def add(self, scores: Sequence[int]) -> None:
        """Record one finished game's scores."""
        self._h.update(repr(tuple(int(x) for x in scores)).encode())
        self.total += sum(scores)
        self.games += 1

    def hexdigest(self) -> str:
        """A short digest of everything recorded."""
        return self._h.hexdigest()[:16]


# ---------------------------------------------------------------- Henpen
def henpen_start() -> Any:
    """A fresh 2-player Henpen game, seat 0 first (same call on both APIs)."""
    from henkit.henpen import State

    return State.new(2, first_player=0)


def henpen_bots(kind: str) -> list[Any]:
    """Two Henpen bots of a kind ('random', 'greedy', 'optimal')."""
    bots = _module("henkit.henpen.bots")
    return [bots.make_bot(kind) for _ in range(2)]


def henpen_decisions(kind: str, decisions: int, seed: int) -> tuple[int, Digest, str]:
    """Bots choose and states apply, one decision at a time through the public State API."""
    rng = np.random.default_rng(seed)
    bots = henpen_bots(kind)
    digest = Digest()
    s = henpen_start()
    done = 0
    while done < decisions:
        if s.is_over:
            digest.add(_scores(s))
            s = henpen_start()
        if s.is_chance:
            s = s.apply(s.sample_chance(rng))
        else:
            s = s.apply(bots[s.current_player].choose(s, rng))
            done += 1
    return done, digest, "State.apply, bot.choose, State.sample_chance"


def _play(game: str, bots: list[Any], games: int, seed: int) -> tuple[int, Digest, str]:
    """`games` full games through the tree's own public `simulate`: game k seeded seed + k, bot
    i in seat i (Henpen: seat 0 starts; Hens: the first player drawn from the seed)."""
    digest = Digest()
    sim = _module(f"henkit.{game}.simulate")
    if "rotate" in inspect.signature(sim.simulate).parameters:  # after issue 10
        for result in sim.simulate(bots, games, seed, rotate=False):
            digest.add(result.totals)
        return games, digest, f"henkit.{game}.simulate.simulate(rotate=False)"
    if game == "hens":
        for result in sim.simulate(bots, games, seed):
            digest.add(result.totals)
        return games, digest, "henkit.hens.simulate.simulate"
    # Henpen's simulate rotated the first player before issue 10; play_game took it.
    for k in range(games):
        digest.add(sim.play_game(bots, seed + k, first_player=0).totals)
    return games, digest, "henkit.henpen.simulate.play_game(first_player=0)"


def henpen_games(kind: str, games: int, seed: int) -> tuple[int, Digest, str]:
    """Full 2-player games between two bots of a kind."""
    return _play("henpen", henpen_bots(kind), games, seed)


@functools.cache
def _batch_policy() -> Any:
    """The optimal policy for 'a total of at least 25' (solved once, outside the timed turns)."""
    batch = _module("henkit.henpen.batch")
    return batch.optimal_policy(_module("henkit.henpen.odds").TurnReward.at_least(25, 40))


def henpen_batch(turns: int, seed: int) -> tuple[int, Digest, str]:
    """Vectorised turns under the optimal policy for 'a total of at least 25' (8 dice)."""
    out = _module("henkit.henpen.batch").simulate_turns(_batch_policy(), turns, seed)
    digest = Digest()
    counts, fails = out.histogram()
    digest.add([*counts.tolist(), fails])
    return out.turns, digest, "henkit.henpen.batch.simulate_turns"


# ---------------------------------------------------------------- Hens
def hens_games(kind: str, games: int, seed: int) -> tuple[int, Digest, str]:
    """Full 4-player games between four bots of a kind."""
    make_bot = _module("henkit.hens.bots").make_bot
    return _play("hens", [make_bot(kind) for _ in range(4)], games, seed)


# ---------------------------------------------------------------- the workloads
WORKLOADS: dict[str, tuple[str, Callable[[int, int], tuple[int, Digest, str]], int]] = {
    # name: (unit, work(count, seed), count per chunk: about 0.2 s on the development machine)
    "henpen-decisions-random": ("decisions/s", lambda n, s: henpen_decisions("random", n, s), 20_000),
    "henpen-decisions-greedy": ("decisions/s", lambda n, s: henpen_decisions("greedy", n, s), 20_000),
    "henpen-decisions-optimal": ("decisions/s", lambda n, s: henpen_decisions("optimal", n, s), 2_500),
    "henpen-batch-turns": ("turns/s", henpen_batch, 1_500_000),
    "henpen-games-greedy": ("games/s", lambda n, s: henpen_games("greedy", n, s), 100),
    "henpen-games-optimal": ("games/s", lambda n, s: henpen_games("optimal", n, s), 12),
    "hens-games-random": ("games/s", lambda n, s: hens_games("random", n, s), 100),
    "hens-games-greedy": ("games/s", lambda n, s: hens_games("greedy", n, s), 30),
}

CHUNK_SEEDS = 100_003
"""Chunk j plays from seed j * CHUNK_SEEDS: no two chunks share a game's seed."""


def measure(name: str, chunk: int, scale: float = 1.0) -> dict[str, Any]:
    """Time chunk `chunk` of a workload (chunk -1: the warm-up); its figures as a dict."""
    unit, work, count = WORKLOADS[name]
    seed = WARMUP_SEED if chunk < 0 else chunk * CHUNK_SEEDS
    gc.collect()  # no garbage of the previous chunk collected on this chunk's time
    # CPU time of this process, not wall time: the machine is shared (other processes' time
    # slices would count as ours), and every workload runs in one thread.
    w0, t0 = time.perf_counter(), time.process_time()
    done, digest, via = work(max(1, round(count * scale)), seed)
    seconds, wall = time.process_time() - t0, time.perf_counter() - w0
    return {
        "workload": name,
        "chunk": chunk,
        "count": done,
        "unit": unit,
        "seconds": seconds,
        "wall_seconds": wall,
        "rate": done / seconds,
        "checksum": digest.hexdigest(),
        "games": digest.games,
        "total": digest.total,
        "via": via,
        "henkit": henkit.__file__,
    }


def serve() -> int:
    """Answer requests '{"workload", "chunk", "scale"}' on stdin, one JSON line each on stdout.

    The comparison keeps one such process per tree and asks them in turn for the same chunks,
    so the two figures of a chunk are measured a fraction of a second apart.
    """
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps(measure(req["workload"], req["chunk"], req.get("scale", 1.0))), flush=True)
    return 0


def main(argv: list[str]) -> int:
    """`engine_workloads.py serve`, or `engine_workloads.py NAME [CHUNK]`: one chunk's JSON."""
    if argv == ["serve"]:
        return serve()
    if not argv or argv[0] not in WORKLOADS:
        print(f"usage: engine_workloads.py serve | {{{','.join(WORKLOADS)}}} [CHUNK]",
              file=sys.stderr)
        return 2
    measure(argv[0], -1)
    print(json.dumps(measure(argv[0], int(argv[1]) if len(argv) > 1 else 0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

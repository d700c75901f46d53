"""Henpen endgames (henkit.henpen.endgame): solve times by servings left, and whether playing
to win pays against playing for expected worms.

Endgames come from seeded 2-player games between expected-worms-optimal bots, stopped at the
first start of a turn with k servings or fewer on the grill. For each k: the positions the
endgame reaches and the time to solve it from an empty memo, in floats and exactly (an exact
solve includes its float solve, which guides it), each given 60 s of CPU time; then the largest
k solved within it. A solve that would pass its position limit, set from the rate measured at
smaller k, is reported as not solved rather than run, with the endgame's size when counted.
CPU time, not wall time: the solve runs in one thread, and on a machine shared with other jobs
wall time measures the other jobs too (both are given); the notes also count the float turn
solves (each shared by the positions whose turns have its shape), which the load leaves alone.
Then the win-optimal bot against the expected-worms bot from such endgames, each endgame played
with both seatings: the win bot's share of the points (a draw counts half) with its 95 % Wilson
interval.
"""

from __future__ import annotations

import math
import time

from benchmarks.harness import Result, machine_load
from henkit.core import play_out
from henkit.henpen import endgame as eg
from henkit.henpen.bots import OptimalBot, WinBot
from henkit.henpen.state import Phase, State

BUDGET = 60.0
"""Seconds one endgame solve may take."""
KS = (1, 2, 3, 4, 5, 6)
SIZE_KS = (5,)
"""Endgames counted (not solved) after the solves: k = 6 takes about 10 GB to count."""
SIZE_LIMIT = 20_000_000
MATCH_KS = (1, 2)
MATCH_ENDGAMES = {1: 6, 2: 2}
MATCH_GAMES = 25
"""Games per endgame and seating."""


def endgame_at(k: int, seed: int) -> State:
    """The first start of a turn with k servings or fewer on the grill in a seeded game of two
    expected-worms-optimal bots (the same game for every k, with seed `seed`)."""
    bots = [OptimalBot(), OptimalBot()]
    s = play_out(State.new(2), bots, seed,
                 until=lambda st: st.phase is Phase.ROLL and len(st.grill) <= k)
    if s.is_over:
        raise ValueError(f"the game of seed {seed} ended before {k} servings were left")
    return s


def _limit(rate: float | None) -> int:
    # The positions counted before a solve: enough for 4 budgets at the rate seen so far.
    return 2_000_000 if rate is None else max(1, int(rate * BUDGET * 4))


def _solve(state: State, exact: bool, rate: float | None) -> tuple[int, float | None, float]:
    # (positions, CPU seconds, wall seconds), CPU seconds None when the solve would not fit in
    # the budget; positions -1 when not even counted (more than the limit, said in `_size`).
    # The float turn solves it made go in `_turn_solves` (a measure the machine's load leaves
    # alone).
    eg.cache_clear()
    try:
        n = eg.positions(state, limit=_limit(rate))
    except ValueError as e:
        _size[0] = _counted(str(e))
        return -1, None, 0.0
    if rate is not None and n / rate > BUDGET * 1.5:
        return n, None, 0.0
    eg.cache_clear()
    t0, w0 = time.process_time(), time.perf_counter()
    eg.win_chance(state, exact=exact, limit=n)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    _turn_solves[0] = eg.cache_info().turn_solves
    return n, cpu, wall


_turn_solves = [0]
"""The float turn solves of the last solve (each shared by the positions whose turns have its
shape)."""
_size = [""]
"""What the solver said of the size of the last endgame over its limit."""


def _counted(message: str) -> str:
    # "this endgame has 897,754 positions to solve, more than ...": the size part.
    head = message.split(" positions to solve", 1)[0]
    return head.replace("this endgame has ", "") if head != message else "more than the limit of"


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a share `points / n`."""
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match(k: int, endgames: int, games: int, seed: int = 0) -> tuple[float, int, tuple[float, float]]:
    """The win bot's share of the points against the expected-worms bot from `endgames` seeded
    endgames of k servings, each played `games` times in each seating."""
    win, worms = WinBot(endgame=16, limit=2_000_000), OptimalBot()
    points, n = 0.0, 0
    for e in range(endgames):
        start = endgame_at(k, seed + e)
        for seats in ((win, worms), (worms, win)):
            me = seats.index(win)
            for g in range(games):
                end = play_out(start, list(seats), 10_000 * e + g)
                won = end.winners()
                points += 1.0 if won == (me,) else 0.5 if len(won) == 2 else 0.0
                n += 1
    return points / n, n, wilson(points, n)


def run() -> list[Result]:
    """Solve times and positions per k (floats and exact), the largest k in 60 s, the match."""
    out: list[Result] = []
    load = machine_load()
    for exact in (False, True):
        mode = "exact" if exact else "floats"
        target_k = 3 if exact else 6
        rate: float | None = None
        largest = 0
        for k in KS:
            state = endgame_at(k, seed=1)
            n, seconds, wall = _solve(state, exact, rate)
            if seconds is None:
                pace = f"{rate:,.0f} positions/s" if rate else "no rate measured yet"
                note = (f"{n:,} positions: over the 60 s budget at {pace}, not run" if n > 0
                        else f"{_size[0]} positions, over the limit of {_limit(rate):,} set from "
                             f"{pace}: not run")
                out.append(Result(f"henpen endgame {mode}: k={k} servings left, solve", float("nan"),
                                  "s", BUDGET, higher_is_better=False, note=note))
                break
            rate = n / seconds
            if seconds <= BUDGET:
                largest = k
            out.append(Result(f"henpen endgame {mode}: k={k} servings left, solve", seconds, "s",
                              BUDGET if k <= target_k else None, higher_is_better=False,
                              note=f"{n:,} positions, {_turn_solves[0]:,} float turn solves, "
                                   f"{rate:,.0f} positions/s (CPU), wall {wall:.1f} s; grill "
                                   f"{list(state.grill)}, stacks {[list(s) for s in state.stacks]}"))
            if seconds > BUDGET:
                break
        out.append(Result(f"henpen endgame {mode}: largest k solved in 60 s", largest, "k",
                          target_k, note=load))
    for k in SIZE_KS:
        # The size of the next endgames, counted without solving: why the float target of k <= 6
        # is out of reach (counting alone takes most of a budget at k = 5).
        state = endgame_at(k, seed=1)
        eg.cache_clear()
        t0 = time.process_time()
        n = eg.positions(state, limit=SIZE_LIMIT)
        cpu = time.process_time() - t0
        eg.cache_clear()
        out.append(Result(f"henpen endgame: k={k} servings left, positions (counted, not solved)",
                          n, "positions", note=f"counting them took {cpu:.1f} s of CPU; grill "
                                               f"{list(state.grill)}"))
    for k in MATCH_KS:
        share, n, (lo, hi) = match(k, MATCH_ENDGAMES[k], MATCH_GAMES)
        out.append(Result(f"henpen endgame: win bot vs expected worms, k={k}", share * 100, "%",
                          note=f"95 % interval {lo:.1%} to {hi:.1%}, {n:,} games from "
                               f"{MATCH_ENDGAMES[k]} endgames, both seatings"))
    return out

"""The one summary of many games, for either game: per bot, wins and scores with 95% intervals.

    results = simulate(bots, 200, seed=1)       # or run_tournament(...).records
    summarise(results)                        # per bot: win rate (Wilson 95%), mean score (95%)
    summarise(results, by_seat=True)          # the same per bot and seat
    print(results_table(results))
    score_distributions(results)              # per bot: how often each final score came up

Generic statistics the charts draw (charts draw, this module computes): `frequencies` of
observed values, the `running_frequency` of an event over trials, the `binomial_band` where
95% of running frequencies lie, `check_distribution` for a list of chances.

A result is a `henkit.core.GameResult` (both games' `simulate`, the arena's records): it says
which bot sat in which seat (`seats`), their labels (`bots`), the scores (`totals`) and the
winning seats (`winners`). A win shared by k winners counts 1/k for each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.core import GameResult

__all__ = [
    "Z95",
    "BotSummary",
    "ScoreDistribution",
    "binomial_band",
    "check_distribution",
    "check_results",
    "frequencies",
    "mean_interval",
    "results_table",
    "running_frequency",
    "score_distributions",
    "scores_by_bot",
    "summarise",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval (Phi^-1(0.975))."""


# -- intervals ---------------------------------------------------------------------------------


def _number(x: object, what: str) -> float:
    # A real number: Python or numpy ints and floats, finite; bools are not numbers here.
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.integer | np.floating):
        raise ValueError(f"{what} must be a number, not {x!r}")
    value = float(x) if not isinstance(x, int | np.integer) or abs(int(x)) < 2**53 else None
    if value is None or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number of sensible size, not {x!r}")
    return value


def _z(z: object) -> float:
    value = _number(z, "z")
    if not 0 < value <= 10:
        raise ValueError(f"z must be a positive number up to 10 (1.96 for 95%), not {z!r}")
    return value


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: (low, high), by default 95%.

    E. B. Wilson (1927), "Probable inference, the law of succession, and statistical
    inference", JASA 22(158): 209-212. With p = successes / trials and n = trials:
        centre = (p + z^2 / 2n) / (1 + z^2 / n)
        half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)
    Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty at p = 0 or 1
    (Agresti & Coull 1998 recommend it for small samples). Shared wins count as fractions.
    """
    n = whole(trials, "trials", 1, 2**53)  # (beyond, floats lose whole numbers)
    wins = _number(successes, "successes")
    if not 0 <= wins <= n:
        raise ValueError(f"successes must be between 0 and trials ({n}), not {successes!r}")
    z = _z(z)
    p, z2 = wins / n, z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    # Exactly p itself at p = 0 or 1 (the formula gives 0 and 1 up to rounding there).
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a normal-approximation 95% interval, mean +- z s/sqrt(n).

    s is the sample standard deviation (n - 1). The normal quantile instead of Student's t makes
    it slightly too narrow below about 30 games (t_{0.975, 29} = 2.05 vs z = 1.96); one game
    gives a zero-width interval.
    """
    if isinstance(values, str | bytes | dict) or not isinstance(values, Sequence | np.ndarray):
        raise ValueError(f"values must be a list of numbers, not {values!r}")
    xs = [_number(v, "each value") for v in values]
    z = _z(z)
    n = len(xs)
    if n == 0:
        raise ValueError("no values: the mean of nothing has no interval")
    mean = sum(xs) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


# -- frequencies of observed values and events ------------------------------------------------


MAX_VALUES = 1_000_000
"""The most distinct values `frequencies` counts (a guard: the counts take memory)."""


def frequencies(samples: Sequence[int] | np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """How often each value 0..size-1 occurs among `samples`: (counts, shares), two arrays of
    length `size`; shares are counts / number of samples.

    `samples`: a non-empty list (or 1-D array) of whole numbers from 0 to size - 1.
    """
    size = whole(size, "size", 1, MAX_VALUES)
    values = np.asarray(samples) if isinstance(samples, Sequence | np.ndarray) and not isinstance(
        samples, str | bytes) else None
    if values is None or values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iu":
        raise ValueError(f"samples must be a non-empty list of whole numbers, not {samples!r}"[:300])
    if values.min() < 0 or values.max() >= size:
        raise ValueError(f"samples must be whole numbers from 0 to {size - 1}")
    counts = np.bincount(values, minlength=size)
    return counts, counts / int(counts.sum())


def _hits(outcomes: object) -> np.ndarray:
    hits = np.asarray(outcomes) if isinstance(outcomes, Sequence | np.ndarray) and not isinstance(
        outcomes, str | bytes) else None
    if hits is None or hits.ndim != 1 or hits.size == 0 or hits.dtype.kind not in "biu":
        raise ValueError("outcomes must be a non-empty list of True/False, one per trial")
    if hits.dtype.kind != "b" and not np.isin(hits, (0, 1)).all():
        raise ValueError("outcomes must be True/False (or 0/1), one per trial")
    return hits


def running_frequency(outcomes: Sequence[bool] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The running frequency of an event: (trials, frequency), frequency[i] = the share of the
    first trials[i] = i + 1 outcomes that are True.

    `outcomes`: one True/False (or 1/0) per trial, at least one.
    """
    hits = _hits(outcomes)
    trials = np.arange(1, hits.size + 1)
    return trials, np.cumsum(hits, dtype=np.int64) / trials


def binomial_band(
    p: float, trials: Sequence[int] | np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """Where a running frequency of an event of chance `p` lies after n trials, for each n of
    `trials`: (low, high) = p -+ z sqrt(p (1 - p) / n), cut to [0, 1].

    By the central limit theorem about 95% of runs are inside at each n (z = 1.96); the band
    narrows like 1/sqrt(n). The normal approximation is rough for small n p.
    """
    chance = _number(p, "p")
    if not 0.0 <= chance <= 1.0:
        raise ValueError(f"p must be a chance from 0 to 1, not {p!r}")
    z = _z(z)
    n = np.asarray(trials) if isinstance(trials, Sequence | np.ndarray) and not isinstance(
        trials, str | bytes) else None
    if n is None or n.ndim != 1 or n.size == 0 or n.dtype.kind not in "iu" or n.min() < 1:
        raise ValueError(f"trials must be a non-empty list of whole numbers 1 or more, "
                         f"not {trials!r}"[:300])
    half = z * np.sqrt(chance * (1 - chance) / n)
    return np.clip(chance - half, 0, 1), np.clip(chance + half, 0, 1)


def check_distribution(chances: Sequence[object], what: str = "the chances",
                       tolerance: float = 1e-9) -> None:
    """ValueError unless `chances` are numbers from 0 to 1 that sum to 1 (within `tolerance`,
    for floats; Fractions are exact)."""
    if not isinstance(what, str):
        raise ValueError(f"what must be text, not {what!r}")
    tol = _number(tolerance, "tolerance")
    if not 0 <= tol < 1:
        raise ValueError(f"tolerance must be from 0 to 1, not {tolerance!r}")
    if isinstance(chances, str | bytes | dict) or not isinstance(chances, Sequence | np.ndarray):
        raise ValueError(f"{what} must be a list of chances, not {chances!r}"[:300])
    total = 0.0
    for c in chances:
        if isinstance(c, Fraction):
            value = float(c)
        else:
            value = _number(c, f"each of {what}")
        if not -tol <= value <= 1 + tol:
            raise ValueError(f"{what} must each be from 0 to 1, not {c!r}")
        total += value
    if abs(total - 1.0) > tol:
        raise ValueError(f"{what} sum to {total}, not 1")


# -- the summary -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotSummary:
    """How one bot did (in every seat, or in one seat): wins and scores with 95% intervals."""

    bot: str  # label
    seat: int | None  # None: all seats
    games: int
    wins: float  # a win shared by k winners counts 1/k
    win_rate: float
    win_low: float  # Wilson 95% interval
    win_high: float
    mean_score: float
    score_low: float  # mean +- 1.96 standard errors
    score_high: float

    @property
    def label(self) -> str:
        """The bot, with its seat in a per-seat summary: 'greedy' or 'greedy (seat 1)'.

        Readers count seats from 1, as the arena's seat pickers do; `seat` stays the index."""
        return self.bot if self.seat is None else f"{self.bot} (seat {self.seat + 1})"

    @property
    def win_error(self) -> tuple[float, float]:
        """How far the win rate's interval reaches below and above it (chart error bars)."""
        return max(0.0, self.win_rate - self.win_low), max(0.0, self.win_high - self.win_rate)

    @property
    def score_error(self) -> tuple[float, float]:
        """How far the mean score's interval reaches below and above it (chart error bars)."""
        return (max(0.0, self.mean_score - self.score_low),
                max(0.0, self.score_high - self.mean_score))

    def __str__(self) -> str:
        where = "" if self.seat is None else f" in seat {self.seat + 1}"
        return (f"{self.bot}{where}: won {self.win_rate:.1%} of {self.games} games "
                f"(95% CI {self.win_low:.1%} to {self.win_high:.1%}), mean score "
                f"{self.mean_score:.2f} ({self.score_low:.2f} to {self.score_high:.2f})")


def check_results(results: object) -> list[GameResult]:
    """`results` as a list of GameResult of one series (the same number of seats, each bot
    with one label); ValueError otherwise."""
    if isinstance(results, str | bytes | dict) or not isinstance(results, Sequence):
        raise ValueError("results must be a list of finished games (GameResult, from simulate "
                         f"or a tournament's records), not {results!r}")
    rows = list(results)
    if not rows:
        raise ValueError("no results to summarise: play at least one game")
    labels: dict[int, str] = {}
    k = len(rows[0].seats) if isinstance(rows[0], GameResult) else 0
    for r in rows:
        if not isinstance(r, GameResult):
            raise ValueError(f"each result must be a GameResult (from simulate or a tournament's "
                             f"records), not {type(r).__name__}")
        if len(r.seats) != k or len(r.bots) != k or len(r.totals) != k:
            raise ValueError("the results come from games with different numbers of seats: "
                             "summarise one series at a time")
        for b, label in zip(r.seats, r.bots, strict=True):
            if labels.setdefault(b, label) != label:
                raise ValueError(f"bot {b} is called both {labels[b]!r} and {label!r}: "
                                 "summarise one series at a time")
    return rows


def summarise(results: Sequence[GameResult], by_seat: bool = False) -> list[BotSummary]:
    """Per bot (bot order): games, wins (shared wins split), win rate with its Wilson 95%
    interval, mean score with its 95% interval; `by_seat=True`: per bot and seat."""
    rows = check_results(results)
    if not isinstance(by_seat, bool | np.bool_):
        raise ValueError(f"by_seat must be True or False, not {by_seat!r}")
    tally: dict[tuple[int, int | None], tuple[str, float, list[int]]] = {}
    for r in rows:
        for seat, (b, label, total) in enumerate(zip(r.seats, r.bots, r.totals, strict=True)):
            key = (b, seat if by_seat else None)
            _, wins, scores = tally.get(key, (label, 0.0, []))
            scores.append(total)
            tally[key] = (label, wins + (1 / len(r.winners) if seat in r.winners else 0.0),
                          scores)
    out = []
    for (_, seat), (label, wins, scores) in sorted(tally.items(), key=lambda kv: kv[0]):
        games = len(scores)
        low, high = wilson_interval(wins, games)
        mean, s_low, s_high = mean_interval(scores)
        out.append(BotSummary(label, seat, games, wins, wins / games, low, high, mean, s_low,
                              s_high))
    return out


def results_table(results: Sequence[GameResult], by_seat: bool = False) -> str:
    """A plain-text table of `summarise(results, by_seat)`."""
    rows = summarise(results, by_seat)
    seat = f"{'seat':>4}  " if by_seat else ""
    # "a to b", never "a-b": a range of negative scores would read "-8.12--4.88".
    head = (f"{seat}{'bot':<24} {'games':>6} {'wins':>8} {'win %':>7} {'95% CI':>18} "
            f"{'mean':>7} {'95% CI':>18}")
    lines = [head, "-" * len(head)]
    for s in rows:
        where = f"{s.seat:>4}  " if by_seat else ""
        lines.append(
            f"{where}{s.bot:<24} {s.games:>6} {s.wins:>8.2f} {s.win_rate:>7.1%} "
            f"{f'{s.win_low:.1%} to {s.win_high:.1%}':>18} {s.mean_score:>7.2f} "
            f"{f'{s.score_low:.2f} to {s.score_high:.2f}':>18}"
        )
    return "\n".join(lines)


# -- score distributions -----------------------------------------------------------------------


MAX_SCORE_RANGE = 10_000
"""The widest range of final scores `score_distributions` counts (Henpen and Hens scores stay
well within a hundred)."""


@dataclass(frozen=True)
class ScoreDistribution:
    """How often one bot's games ended at each final score (all seats pooled)."""

    bot: str
    scores: tuple[int, ...]  # every final score, in the order played
    low: int  # the range the counts cover (shared by the bots compared)
    counts: tuple[int, ...]  # counts[i]: games ending at score low + i

    @property
    def games(self) -> int:
        """How many games the bot played."""
        return len(self.scores)

    @property
    def mean(self) -> float:
        """The bot's mean final score."""
        return sum(self.scores) / len(self.scores)

    @property
    def shares(self) -> tuple[float, ...]:
        """counts as shares of the bot's games."""
        return tuple(c / len(self.scores) for c in self.counts)


def scores_by_bot(results: Any) -> dict[str, list[int]]:
    """Every final score of each bot, by bot label (all seats pooled, bots in order of first
    appearance), from finished games of either game: a list of GameResult (`simulate`'s, a
    tournament's records) or an arena Tournament (its `.records`)."""
    records = getattr(results, "records", results)  # an arena Tournament: its records
    if isinstance(records, str | bytes | dict) or not isinstance(records, Sequence):
        raise ValueError("results must be a list of finished games (GameResult, from simulate "
                         f"or a tournament's records), not {type(results).__name__}")
    out: dict[str, list[int]] = {}
    for r in records:
        if not isinstance(r, GameResult):
            raise ValueError(f"each result must be a GameResult (from simulate or a "
                             f"tournament's records), not {type(r).__name__}")
        for bot, points in zip(r.bots, r.totals, strict=True):
            out.setdefault(bot, []).append(points)
    if not out:
        raise ValueError("no results: play at least one game")
    return out


def score_distributions(results: Any) -> list[ScoreDistribution]:
    """Each bot's distribution of final scores over one shared range of scores (from the
    lowest score any bot reached to the highest), bots in order of first appearance."""
    by_bot = scores_by_bot(results)
    low = min(min(s) for s in by_bot.values())
    high = max(max(s) for s in by_bot.values())
    if high - low > MAX_SCORE_RANGE:
        raise ValueError(f"the scores run from {low} to {high}: more than {MAX_SCORE_RANGE} "
                         "apart, no game of henkit scores like that")
    out = []
    for bot, scores in by_bot.items():
        counts = [0] * (high - low + 1)
        for x in scores:
            counts[x - low] += 1
        out.append(ScoreDistribution(bot, tuple(scores), low, tuple(counts)))
    return out

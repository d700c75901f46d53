"""The one summary of many games, for either game: per bot, wins and scores with 95% intervals.

    results = simulate(bots, 200, seed=1)       # or run_tournament(...).records
    summarise(results)                        # per bot: win rate (Wilson 95%), mean score (95%)
    summarise(results, by_seat=True)          # the same per bot and seat
    print(results_table(results))

A result is a `henkit.core.GameResult` (both games' `simulate`, the arena's records): it says
which bot sat in which seat (`seats`), their labels (`bots`), the scores (`totals`) and the
winning seats (`winners`). A win shared by k winners counts 1/k for each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from henkit.checks import whole
from henkit.core import GameResult

__all__ = ["Z95", "BotSummary", "mean_interval", "results_table", "summarise", "wilson_interval"]

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
        """The bot, with its seat in a per-seat summary: 'greedy' or 'greedy (seat 1)'."""
        return self.bot if self.seat is None else f"{self.bot} (seat {self.seat})"

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
        where = "" if self.seat is None else f" in seat {self.seat}"
        return (f"{self.bot}{where}: won {self.win_rate:.1%} of {self.games} games "
                f"(95% CI {self.win_low:.1%}-{self.win_high:.1%}), mean score "
                f"{self.mean_score:.2f} ({self.score_low:.2f}-{self.score_high:.2f})")


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
    head = (f"{seat}{'bot':<24} {'games':>6} {'wins':>8} {'win %':>7} {'95% CI':>15} "
            f"{'mean':>7} {'95% CI':>15}")
    lines = [head, "-" * len(head)]
    for s in rows:
        where = f"{s.seat:>4}  " if by_seat else ""
        lines.append(
            f"{where}{s.bot:<24} {s.games:>6} {s.wins:>8.2f} {s.win_rate:>7.1%} "
            f"{f'{s.win_low:.1%}-{s.win_high:.1%}':>15} {s.mean_score:>7.2f} "
            f"{f'{s.score_low:.2f}-{s.score_high:.2f}':>15}"
        )
    return "\n".join(lines)

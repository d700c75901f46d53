"""Per-seat summaries of many games, for either game: wins, mean score, best and worst.

A game result is anything with `bots` (names by seat), `totals` (scores by seat) and `winners`
(seats; more than one on a shared win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Result(Protocol):
    """The fields of a finished game that the summaries read."""

    bots: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class SeatSummary:
    """How one seat did over many games."""

    seat: int
    bot: str
    games: int
    wins: float  # a shared win counts 1/k for each of k winners
    mean_score: float
    best: int
    worst: int


def summarise(results: Sequence[Result]) -> list[SeatSummary]:
    """Per-seat wins (shared wins split), mean, best and worst score."""
    if not results:
        raise ValueError("no results to summarise: play at least one game")
    n = len(results[0].totals)
    out = []
    for p in range(n):
        scores = [r.totals[p] for r in results]
        wins = sum(1 / len(r.winners) for r in results if p in r.winners)
        out.append(SeatSummary(p, results[0].bots[p], len(results), wins,
                               sum(scores) / len(scores), max(scores), min(scores)))
    return out


def results_table(results: Sequence[Result]) -> str:
    """A plain-text table of the per-seat summary."""
    rows = summarise(results)
    head = f"{'seat':>4}  {'bot':<12} {'games':>5} {'wins':>7} {'win %':>6} {'mean':>6} " \
           f"{'best':>5} {'worst':>5}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.seat:>4}  {r.bot:<12} {r.games:>5} {r.wins:>7.2f} {100 * r.wins / r.games:>5.1f}% "
            f"{r.mean_score:>6.2f} {r.best:>5} {r.worst:>5}"
        )
    return "\n".join(lines)

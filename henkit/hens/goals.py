"""The six goal cards, numbered 1-6 in the rulebook's order, each with a top and a bottom goal.

A goal half reads one measured fact of a barnyard (see `Facts`) and turns it into points: either
a bonus once the fact reaches a threshold, or points for each one counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from henkit.checks import whole


class Facts(NamedTuple):
    """What scoring measures in a barnyard (groups include lone hens, DECISIONS H11)."""

    largest_size: int
    largest_eggs: int
    rooster_size: int  # 0 when no rooster stands on a hen
    rooster_eggs: int
    medals: int
    coops: int
    groups2: int  # groups containing 2 or more hens
    groups3: int
    groups6: int
    lone: int  # hens not in a group
    breeds: int  # different breeds among the hens
    one_egg_rows: int  # full rows of hens hatching exactly 1 egg each (H14)
    two_egg_cols: int  # full columns of hens hatching exactly 2 eggs each (H14)
    coop_neighbours: int  # (hen, coop) pairs side by side: a hen between two coops counts twice


# How each measured fact reads in a reason, singular and plural.
MEASURES: dict[str, tuple[str, str]] = {
    "groups2": ("group of 2 or more hens", "groups of 2 or more hens"),
    "groups3": ("group of 3 or more hens", "groups of 3 or more hens"),
    "groups6": ("group of 6 or more hens", "groups of 6 or more hens"),
    "lone": ("hen not in a group", "hens not in a group"),
    "breeds": ("breed of hen", "different breeds of hen"),
    "one_egg_rows": ("row of hens hatching exactly 1 egg each",
                     "rows of hens hatching exactly 1 egg each"),
    "two_egg_cols": ("column of hens hatching exactly 2 eggs each",
                     "columns of hens hatching exactly 2 eggs each"),
    "coop_neighbours": ("hen-and-coop pair side by side",
                        "hen-and-coop pairs side by side"),
}


@dataclass(frozen=True)
class GoalHalf:
    """One half of a goal card: `points` once `measure` reaches `at_least`, or per one counted."""

    text: str
    measure: str
    points: int
    at_least: int | None = None  # None: `points` for each one counted

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"a goal's text must be text, not {self.text!r}"[:120])
        if type(self.points) is not int or not (
                self.at_least is None or type(self.at_least) is int):
            raise ValueError("a goal's points and at_least must be whole numbers")
        if not isinstance(self.measure, str) or self.measure not in MEASURES:
            raise ValueError(f"unknown goal measure {self.measure!r}; known: {sorted(MEASURES)}")
        # Facts is a tuple: reading by position lets fast scoring pass plain tuples.
        object.__setattr__(self, "index", Facts._fields.index(self.measure))

    def score(self, facts: tuple[int, ...]) -> int:
        """The points this half gives a barnyard with these facts (a Facts or same-shaped tuple)."""
        value = facts[self.index]
        if self.at_least is None:
            return self.points * value
        return self.points if value >= self.at_least else 0

    def reason(self, facts: Facts) -> str:
        """Why the half scores what it scores, in words."""
        value = getattr(facts, self.measure)
        one, many = MEASURES[self.measure]
        counted = f"{value} {one if value == 1 else many}"
        if self.at_least is None:
            return f"{counted}, {self.points:+d} each"
        if value >= self.at_least:
            return f"{counted}: at least {self.at_least}, goal met"
        return f"{counted}: needs at least {self.at_least}, goal not met"


@dataclass(frozen=True)
class GoalCard:
    """A goal card: its number (1-6, rulebook order), top goal and bottom goal."""

    number: int
    top: GoalHalf
    bottom: GoalHalf

    def __post_init__(self) -> None:
        if type(self.number) is not int or not isinstance(self.top, GoalHalf) or not isinstance(
                self.bottom, GoalHalf):
            raise ValueError("a GoalCard is a number and two GoalHalf goals (top, bottom)")

    def __str__(self) -> str:
        return f"goal card {self.number}: top - {self.top.text}; bottom - {self.bottom.text}"


_LONE_MINUS_2 = GoalHalf("-2 VP for each hen not in a group", "lone", -2)

GOALS: tuple[GoalCard, ...] = (
    GoalCard(
        1,
        GoalHalf("4 VP if you have at least 3 different groups of 2 or more hens", "groups2", 4, 3),
        _LONE_MINUS_2,
    ),
    GoalCard(
        2,
        GoalHalf("5 VP if you have at least 5 different hen breeds", "breeds", 5, 5),
        GoalHalf("1 VP for each hen not in a group", "lone", 1),
    ),
    GoalCard(
        3,
        GoalHalf("6 VP if you have at least 4 different groups of 2 or more hens", "groups2", 6, 4),
        _LONE_MINUS_2,
    ),
    GoalCard(
        4,
        GoalHalf("5 VP if you have a row of hens that hatch exactly 1 egg each",
                 "one_egg_rows", 5, 1),
        GoalHalf("-1 VP for each hen not in a group", "lone", -1),
    ),
    GoalCard(
        5,
        GoalHalf("6 VP if you have a column of hens that hatch exactly 2 eggs each",
                 "two_egg_cols", 6, 1),
        GoalHalf("2 VP for each group of 3 or more hens", "groups3", 2),
    ),
    GoalCard(
        6,
        GoalHalf("-1 VP for each hen beside a chicken coop, for each coop it touches",
                 "coop_neighbours", -1),
        GoalHalf("5 VP for each group of 6 or more hens", "groups6", 5),
    ),
)
"""The goal cards; `GOALS[n - 1]` is goal card n."""


def goal_card(number: int) -> GoalCard:
    """Goal card 1-6 (an int, numpy integers too); ValueError otherwise."""
    if type(number) is not int:
        try:
            number = whole(number, "goal")
        except ValueError:
            pass
    if type(number) is int and 1 <= number <= len(GOALS):
        return GOALS[number - 1]
    raise ValueError(f"{number!r} is not a goal card: goal cards are numbered 1 to {len(GOALS)}")

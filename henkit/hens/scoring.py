"""Scoring a barnyard in the rulebook's six steps, and breaking ties between players (H15).

`measure` finds the facts (groups, medals, coops, lines) from a barnyard's bit masks; `points`
turns facts into the six steps' points. `score` explains the same numbers in words, and bots use
`total` (or `total_masks`, which skips building a barnyard) - one rule, three speeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from henkit.checks import whole
from henkit.hens.barnyard import (
    NEIGHBOURS,
    STRIDE,
    Barnyard,
    Cell,
    bit,
    check_cell,
    components,
    largest_group_key,
    rooster_problem,
)
from henkit.hens.goals import GOALS, Facts, goal_card

STEPS = ("largest group", "rooster group", "medals", "chicken coops", "top goal", "bottom goal")
_KEEP = object()  # "use the barnyard's own rooster"
SHAPE_GOALS = frozenset({4, 5, 6})
"""Goal cards whose points depend on where hens and coops lie (full lines, hens beside coops),
not only on group statistics, medals and the number of coops."""


Stats = tuple[int, int, int, int, int, int, int, int, int]
"""Group statistics of some breeds: (largest size, its eggs, rooster group size, its eggs,
groups of 2+, groups of 3+, groups of 6+, lone hens, breeds present)."""
NO_STATS: Stats = (0, 0, 0, 0, 0, 0, 0, 0, 0)


def breed_stats(m: int, e2: int, e3: int, rbit: int) -> Stats:
    """Group statistics of one breed's hens (mask m); rbit is the rooster's bit mask or 0."""
    if type(m) is not int or m < 0:  # O(1): a negative mask would never end
        m = whole(m, "a mask", 0)
    if not m:
        return NO_STATS
    return _breed_stats(m, e2 & m, e3 & m, rbit & m)


@lru_cache(maxsize=1 << 19)  # bots try the same breed layouts over and over during a game
def _breed_stats(m: int, e2: int, e3: int, rbit: int) -> Stats:
    """`breed_stats` of masks already cut to the breed's hens."""
    best_size = best_eggs = r_size = r_eggs = g2 = g3 = g6 = lone = 0
    for comp in components(m):  # the groups of H11
        size = comp.bit_count()
        eggs = size + (comp & e2).bit_count() + (comp & e3).bit_count()
        if largest_group_key(size, eggs) > largest_group_key(best_size, best_eggs):
            best_size, best_eggs = size, eggs
        if comp & rbit:
            r_size, r_eggs = size, eggs
        if size == 1:
            lone += 1
        else:
            g2 += 1
            if size >= 3:
                g3 += 1
                if size >= 6:
                    g6 += 1
    return (best_size, best_eggs, r_size, r_eggs, g2, g3, g6, lone, 1)


def combine(a: Stats, b: Stats) -> Stats:
    """Statistics of two disjoint sets of breeds taken together."""
    # The largest group by `largest_group_key` (H12), compared inline: (size, eggs) pairs, ties
    # keep a's; bots combine breed statistics in their hot loop, where a call per pair costs.
    if b[0] > a[0] or (b[0] == a[0] and b[1] > a[1]):
        size, eggs = b[0], b[1]
    else:
        size, eggs = a[0], a[1]
    if a[2]:  # only one group holds the rooster
        r_size, r_eggs = a[2], a[3]
    else:
        r_size, r_eggs = b[2], b[3]
    return (size, eggs, r_size, r_eggs, a[4] + b[4], a[5] + b[5], a[6] + b[6], a[7] + b[7],
            a[8] + b[8])


Shape = tuple[int, int, int]
"""The facts that depend on where cards lie: (one-egg rows, two-egg columns, coop neighbours)."""
NO_SHAPE: Shape = (0, 0, 0)


def shape_facts(hen: int, coop: int, e2: int, e3: int, goal: int | None) -> Shape:
    """The shape facts that the goal card reads (the others stay 0, which saves the work)."""
    if goal == 4:
        return (_full_rows(hen | coop, hen & ~e2), 0, 0)
    if goal == 5:
        return (0, _full_columns(hen | coop, hen & e2 & ~e3), 0)
    if goal == 6 and coop:
        return (0, 0, (hen & coop << 1).bit_count() + (hen & coop >> 1).bit_count()
                + (hen & coop << STRIDE).bit_count() + (hen & coop >> STRIDE).bit_count())
    return NO_SHAPE


def facts_of(stats: Stats, hen: int, coop: int, e2: int, e3: int, medals: int,
             goal: int | None) -> Facts:
    """Facts from the combined group statistics and the masks (lines and coops as needed)."""
    return Facts(*stats[:4], medals, coop.bit_count(), *stats[4:],
                 *shape_facts(hen, coop, e2, e3, goal))


def fast_total(stats: Stats, coops: int, medals: int, shape: Shape, goal: int | None) -> int:
    """`sum(points(facts_of(...), goal))` from the parts of the facts, without building a Facts
    (bots call it a lot)."""
    return sum(points((*stats[:4], medals, coops, *stats[4:], *shape), goal))


@lru_cache(maxsize=1 << 18)
def joined_total(rest: Stats, stats: Stats, coops: int, medals: int, shape: Shape,
                 goal: int | None) -> int:
    """`fast_total(combine(rest, stats), ...)`, memoised: a bot scoring a trial placement joins
    the placed breed's statistics to the other breeds', and the same few thousand combinations
    come up over and over."""
    return fast_total(combine(rest, stats), coops, medals, shape, goal)


def measure(
    breeds: tuple[int, ...], hen: int, coop: int, e2: int, e3: int, medals: int,
    rooster: int, goal: int | None,
) -> Facts:
    """The facts scoring needs, from a barnyard's masks (`rooster` is a bit index or -1)."""
    rbit = 1 << rooster if rooster >= 0 else 0
    stats = NO_STATS
    for m in breeds:
        if m:
            stats = combine(stats, breed_stats(m, e2, e3, rbit))
    return facts_of(stats, hen, coop, e2, e3, medals, goal)


# Masks on the barnyard grid (6 rows of STRIDE bits, 6 cells used per row).
_ROW_STARTS = sum(1 << (STRIDE * r) for r in range(6))  # the first cell of every row
_ONE_ROW = (1 << 6) - 1  # every cell of the first row


def _rows_of(m: int) -> int:
    """The rows holding a cell of m, as the first cell of each such row."""
    # m | m >> 1 | ... | m >> 5 by doubling: shifts 0-1, then 0-3, then 0-5.
    m |= m >> 1
    m |= m >> 2
    return (m | m >> 2) & _ROW_STARTS


def _columns_of(m: int) -> int:
    """The columns holding a cell of m, as cells of the first row."""
    # m | m >> STRIDE | ... | m >> 5 * STRIDE by doubling, as in _rows_of.
    m |= m >> STRIDE
    m |= m >> 2 * STRIDE
    return (m | m >> 2 * STRIDE) & _ONE_ROW


def _full_rows(occ: int, good: int) -> int:
    """Rows of the barnyard's box whose every cell is in `good` (H14); occ is every card."""
    box = _columns_of(occ) * _ROW_STARTS  # the box's columns, in every row
    return (_rows_of(occ) & ~_rows_of(box & ~good)).bit_count()


def _full_columns(occ: int, good: int) -> int:
    """Columns of the barnyard's box whose every cell is in `good` (H14); occ is every card."""
    box = _rows_of(occ) * _ONE_ROW  # the box's rows, every cell of them
    return (_columns_of(occ) & ~_columns_of(box & ~good)).bit_count()


_ROW_MASK = tuple(0xFF << (i - i % STRIDE) for i in range(6 * STRIDE))  # bit -> its grid row
_COLUMN_MASK = tuple(_ROW_STARTS << i % STRIDE for i in range(6 * STRIDE))  # bit -> its column


class ShapeAfter:
    """The shape facts of a barnyard with one more hen, in a few bit operations per cell.

    `ShapeAfter(hen, coop, e2, e3, goal)(i, eggs)` equals `shape_facts` of the masks with a hen
    hatching `eggs` added at the empty cell bit i beside a card; bots ask for every cell they
    try. Why it is the same: the box spans every row of the grid for goal 4 (every column for
    goal 5), so a hen in a new column (row) leaves an empty box cell in every other line, and
    otherwise only the hen's own line can change; a hen beside coops adds one coop neighbour per
    coop beside it.
    """

    __slots__ = ("_box", "_full", "_good", "_miss", "coop", "goal")

    def __init__(self, hen: int, coop: int, e2: int, e3: int, goal: int | None) -> None:
        self.coop, self.goal = coop, goal
        occ = hen | coop
        if goal == 4:  # rows of one-egg hens: the box's columns, as cells of the first row
            self._good, self._box = 1, _columns_of(occ)
            self._miss = self._box * _ROW_STARTS & ~(hen & ~e2)  # box cells that are no such hen
            self._full = _rows_of(occ) & ~_rows_of(self._miss)
        elif goal == 5:  # columns of two-egg hens: the box's rows, as their first cells
            self._good, self._box = 2, _rows_of(occ)
            self._miss = self._box * _ONE_ROW & ~(hen & e2 & ~e3)
            self._full = _columns_of(occ) & ~_columns_of(self._miss)
        elif goal == 6:
            self._full = shape_facts(hen, coop, e2, e3, goal)[2]

    def __call__(self, i: int, eggs: int) -> Shape:
        """`shape_facts` after a hen hatching `eggs` goes at the empty cell bit i."""
        goal = self.goal
        if goal == 4:
            line, first = _ROW_MASK[i], 1 << (i - i % STRIDE)  # the hen's row
            widens = not self._box >> i % STRIDE & 1  # into a new column
        elif goal == 5:
            line, first = _COLUMN_MASK[i], 1 << i % STRIDE  # the hen's column
            widens = not self._box >> (i - i % STRIDE) & 1  # into a new row
        elif goal == 6 and self.coop:
            return (0, 0, self._full + (NEIGHBOURS[i] & self.coop).bit_count())
        else:
            return NO_SHAPE
        miss = self._miss & line  # the hen's line: cells that are no good hen
        miss = miss & ~(1 << i) if eggs == self._good else miss | 1 << i
        full = 0 if widens else self._full & ~first
        if not miss:
            full |= first
        return (full.bit_count(), 0, 0) if goal == 4 else (0, full.bit_count(), 0)


def points(facts: Facts | tuple[int, ...], goal: int | None) -> tuple[int, int, int, int, int, int]:
    """The six steps' points (H12: when the rooster's group is as large as the largest, only it
    scores). `facts` may be a plain tuple laid out like Facts."""
    largest_size, largest_eggs, rooster_size, rooster_eggs, medals, coops = facts[:6]
    largest = 0 if rooster_size and rooster_size == largest_size else largest_eggs
    medals = medals // 3 * 2
    if goal is None:
        return (largest, rooster_eggs, medals, -coops, 0, 0)
    card = GOALS[goal - 1]  # callers check the goal number once, not per evaluation
    return (largest, rooster_eggs, medals, -coops, card.top.score(facts), card.bottom.score(facts))


def total_masks(
    breeds: tuple[int, ...], hen: int, coop: int, e2: int, e3: int, medals: int,
    rooster: int, goal: int | None,
) -> int:
    """The total score of a barnyard given as masks (fast path for bots)."""
    return sum(points(measure(breeds, hen, coop, e2, e3, medals, rooster, goal), goal))


def _facts(barnyard: Barnyard, goal: int | None, rooster: object) -> Facts:
    if not isinstance(barnyard, Barnyard):
        raise ValueError(f"scoring needs a Barnyard (Barnyard.parse('Pa1 Pa2') reads one from "
                         f"text), not {type(barnyard).__name__}")
    if goal is not None:
        goal_card(goal)  # ValueError naming the goal cards
    rbit = barnyard.rooster
    if rooster is not _KEEP:
        if rooster is None:
            rbit = -1
        else:
            cell = check_cell(rooster)
            why = rooster_problem(barnyard, cell)
            if why:
                raise ValueError(why)
            rbit = bit(cell)
    return measure(barnyard.breeds, barnyard.hen, barnyard.coop, barnyard.e2, barnyard.e3,
                   barnyard.medals, rbit, goal)


def total(barnyard: Barnyard, goal: int | None = None, rooster: Cell | None | object = _KEEP) -> int:
    """The total score of a barnyard (the rooster defaults to the barnyard's own)."""
    return sum(points(_facts(barnyard, goal, rooster), goal))


@dataclass(frozen=True)
class ScoreLine:
    """One rulebook step of a score: its name, its points and why."""

    step: str
    points: int
    reason: str

    def __str__(self) -> str:
        return f"{self.step:<14} {self.points:>+4d}  {self.reason}"


@dataclass(frozen=True)
class Score:
    """A score broken down by the rulebook's six steps, and its total."""

    lines: tuple[ScoreLine, ...]
    total: int
    facts: Facts

    def __str__(self) -> str:
        return "\n".join([*map(str, self.lines), f"{'total':<14} {self.total:>+4d}"])

    def to_dict(self) -> dict:
        """A JSON-ready dict of the breakdown."""
        return {
            "lines": [{"step": x.step, "points": x.points, "reason": x.reason} for x in self.lines],
            "total": self.total,
        }


def _eggs(n: int) -> str:
    return f"{n} egg{'s' if n != 1 else ''}"


def score(barnyard: Barnyard, goal: int | None = None, rooster: Cell | None | object = _KEEP) -> Score:
    """Score a barnyard step by step with a goal card (1-6, or None for no goal card).

    `rooster` is the cell of the hen under the rooster token; by default the barnyard's own.
    """
    f = _facts(barnyard, goal, rooster)
    card = goal_card(goal) if goal is not None else None
    pts = points(f, goal)
    if f.largest_size == 0:
        why1 = "no hens in the barnyard"
    elif pts[0] == 0:
        why1 = (f"the rooster's group is as large as the largest ({f.largest_size} "
                f"hen{'s' if f.largest_size > 1 else ''}), "
                "so only the rooster's group scores")
    else:
        why1 = f"{f.largest_size} hen{'s' if f.largest_size > 1 else ''} hatching {_eggs(pts[0])}"
    if f.rooster_size:
        why2 = f"{f.rooster_size} hen{'s' if f.rooster_size > 1 else ''} hatching {_eggs(pts[1])}"
    else:
        why2 = "no rooster on a hen"
    why3 = f"{f.medals} medal{'s' if f.medals != 1 else ''}: 2 points for every 3"
    why4 = f"{f.coops} chicken coop{'s' if f.coops != 1 else ''}, -1 each"
    if goal is None:
        why5 = why6 = "no goal card"
    else:
        why5 = f"goal card {goal}: {card.top.text}; {card.top.reason(f)}"
        why6 = f"goal card {goal}: {card.bottom.text}; {card.bottom.reason(f)}"
    reasons = (why1, why2, why3, why4, why5, why6)
    lines = tuple(ScoreLine(s, p, w) for s, p, w in zip(STEPS, pts, reasons, strict=True))
    return Score(lines, sum(pts), f)


def group_sizes(barnyard: Barnyard) -> list[int]:
    """Sizes of every group of hens (H11: lone hens as 1), largest first."""
    _facts(barnyard, None, _KEEP)  # ValueError unless a barnyard
    return sorted((comp.bit_count() for m in barnyard.breeds for comp in components(m)),
                  reverse=True)


def tiebreak_key(
    barnyard: Barnyard, goal: int | None, points: int | None = None
) -> tuple[int, int, int, int]:
    """DECISIONS H15, what ranks players: points, largest group, second-largest group, medals.

    `points` is the barnyard's total when the caller has already worked it out."""
    sizes = group_sizes(barnyard) + [0, 0]
    return (total(barnyard, goal) if points is None else points, sizes[0], sizes[1],
            barnyard.medals)


def winners(
    barnyards: list[Barnyard] | tuple[Barnyard, ...], goal: int | None,
    totals: Sequence[int] | None = None,
) -> list[int]:
    """The players (indices) who win; more than one when the tie-breaks cannot split them.

    `totals` are the players' scores when the caller has already worked them out."""
    if not isinstance(barnyards, list | tuple) or not barnyards or not all(
            isinstance(b, Barnyard) for b in barnyards):
        raise ValueError("winners needs a non-empty list of Barnyards")
    if totals is not None:
        if not isinstance(totals, list | tuple) or len(totals) != len(barnyards):
            raise ValueError("totals must be a list of whole numbers, one per barnyard")
        totals = [t if type(t) is int else whole(t, "each of totals") for t in totals]
    if totals is None:
        totals = [total(b, goal) for b in barnyards]
    # The players whose `tiebreak_key` is the largest. Its first entry is the points, so only
    # the players tied on the most points need the rest of their keys (the group sizes take a
    # flood fill of every breed): a sole leader on points wins without them.
    top = max(totals)
    tied = [i for i, t in enumerate(totals) if t == top]
    if len(tied) == 1:
        return tied
    keys = [tiebreak_key(barnyards[i], goal, totals[i]) for i in tied]
    best = max(keys)
    return [i for i, k in zip(tied, keys, strict=True) if k == best]

"""Scoring a barnyard in the rulebook's six steps, and breaking ties between players (H15).

`measure` finds the facts (groups, medals, coops, lines) from a barnyard's bit masks; `points`
turns facts into the six steps' points. `score` explains the same numbers in words, and bots use
`total` (or `total_masks`, which skips building a barnyard) - one rule, three speeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from henkit.hens.barnyard import COL_BITS, ROW_BITS, STRIDE, Barnyard, Cell, bit, check_cell
from henkit.hens.goals import Facts, goal_card

STEPS = ("largest group", "rooster group", "medals", "chicken coops", "top goal", "bottom goal")
_KEEP = object()  # "use the barnyard's own rooster"


def measure(
    breeds: tuple[int, ...], hen: int, coop: int, e2: int, e3: int, medals: int,
    rooster: int, goal: int | None,
) -> Facts:
    """The facts scoring needs, from a barnyard's masks (`rooster` is a bit index or -1)."""
    best_size = best_eggs = r_size = r_eggs = 0
    g2 = g3 = g6 = lone = nbreeds = 0
    rbit = 1 << rooster if rooster >= 0 else 0
    for m in breeds:
        if not m:
            continue
        nbreeds += 1
        while m:
            comp = m & -m
            while True:  # flood fill one group inside its breed's mask
                grown = (comp | comp << 1 | comp >> 1 | comp << STRIDE | comp >> STRIDE) & m
                if grown == comp:
                    break
                comp = grown
            m ^= comp
            size = comp.bit_count()
            eggs = size + (comp & e2).bit_count() + (comp & e3).bit_count()
            if size > best_size or (size == best_size and eggs > best_eggs):
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
    rows = cols = adj = 0
    if goal == 4 or goal == 5:
        rows, cols = _lines(hen | coop, hen & ~e2, hen & e2 & ~e3)
        if goal == 4:
            cols = 0
        else:
            rows = 0
    elif goal == 6 and coop:
        adj = ((hen & coop << 1).bit_count() + (hen & coop >> 1).bit_count()
               + (hen & coop << STRIDE).bit_count() + (hen & coop >> STRIDE).bit_count())
    return Facts(best_size, best_eggs, r_size, r_eggs, medals, coop.bit_count(), g2, g3, g6, lone,
                 nbreeds, rows, cols, adj)


def _lines(occ: int, one_egg: int, two_egg: int) -> tuple[int, int]:
    """Rows whose every box cell is a 1-egg hen, and columns whose every cell is a 2-egg hen (H14)."""
    row_span = col_span = 0
    for m in ROW_BITS:
        if occ & m:
            row_span |= m
    for m in COL_BITS:
        if occ & m:
            col_span |= m
    rows = sum(1 for m in ROW_BITS if occ & m and (m & col_span) & ~one_egg == 0)
    cols = sum(1 for m in COL_BITS if occ & m and (m & row_span) & ~two_egg == 0)
    return rows, cols


def points(facts: Facts, goal: int | None) -> tuple[int, int, int, int, int, int]:
    """The six steps' points (H12: when the rooster's group is as large as the largest, only it
    scores)."""
    if facts.rooster_size and facts.rooster_size == facts.largest_size:
        largest = 0
    else:
        largest = facts.largest_eggs
    medals = facts.medals // 3 * 2
    if goal is None:
        return (largest, facts.rooster_eggs, medals, -facts.coops, 0, 0)
    card = goal_card(goal)
    return (largest, facts.rooster_eggs, medals, -facts.coops, card.top.score(facts),
            card.bottom.score(facts))


def total_masks(
    breeds: tuple[int, ...], hen: int, coop: int, e2: int, e3: int, medals: int,
    rooster: int, goal: int | None,
) -> int:
    """The total score of a barnyard given as masks (fast path for bots)."""
    return sum(points(measure(breeds, hen, coop, e2, e3, medals, rooster, goal), goal))


def _facts(barnyard: Barnyard, goal: int | None, rooster: object) -> Facts:
    rbit = barnyard.rooster
    if rooster is not _KEEP:
        if rooster is None:
            rbit = -1
        else:
            cell = check_cell(rooster)
            if barnyard.at(cell) is None:
                raise ValueError(f"the rooster must stand on a hen, and {cell} holds no hen")
            rbit = bit(cell)
    return measure(barnyard.breeds, barnyard.hen, barnyard.coop, barnyard.e2, barnyard.e3,
                   barnyard.medals, rbit, goal)


def total(barnyard: Barnyard, goal: int | None = None, rooster: Cell | None | object = _KEEP) -> int:
    """The total score of a barnyard (the rooster defaults to the barnyard's own)."""
    if goal is not None:
        goal_card(goal)
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
    if goal is not None:
        card = goal_card(goal)
    f = _facts(barnyard, goal, rooster)
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
    """Sizes of every group of hens (lone hens as 1), largest first."""
    return [g.size for g in barnyard.groups()]


def tiebreak_key(barnyard: Barnyard, goal: int | None) -> tuple[int, int, int, int]:
    """What ranks players (H15): points, largest group, second-largest group, medals."""
    sizes = group_sizes(barnyard) + [0, 0]
    return (total(barnyard, goal), sizes[0], sizes[1], barnyard.medals)


def winners(barnyards: list[Barnyard] | tuple[Barnyard, ...], goal: int | None) -> list[int]:
    """The players (indices) who win; more than one when the tie-breaks cannot split them."""
    keys = [tiebreak_key(b, goal) for b in barnyards]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]

"""A player's barnyard: an immutable grid of hens and chicken coops, and where a card may go.

Coordinates: a cell is (row, col). The barnyard is always *normalised*: its bounding box starts
at (0, 0), so row 0 is the top line when printed. A new card may go just outside the box, at
row -1 or col -1 (the barnyard then shifts so the box starts at (0, 0) again) - this is how the
barnyard grows in every direction from the first card (DECISIONS H5, H6).

The placement rules each have one home here, a function named after the rule:
`fits_beside` (rulebook "Place a Hen card": same breed, or numbers one apart; in cards.py),
`first_card_problem` (H5), `touch_problem` (a new card goes beside a placed one), `fits_box` (H6),
`placement_problem` (all of them for one card, with H9 for coops), `layout_problem` (a whole
barnyard), `rooster_problem` (H10) and `components` (the groups of H11: the one flood fill).

Speed: cells are bits of Python ints (8 bits per row, one spare row and column all around), so
neighbours are shifts. `Barnyard.hen_mask` and `Barnyard.open_mask` give every cell where a card
may go at once: they are a fast form of `placement_problem`, proved equal to it by
tests/hens/test_speedups.py; a bot can try hundreds of placements per turn without building
objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from henkit.checks import whole
from henkit.hens.cards import (
    BREED_OF,
    BREEDS,
    CARDS,
    CODES,
    COPIES_OF,
    EGGS_OF,
    MEDALS_OF,
    NUM_KINDS,
    NUMBER_OF,
    Card,
    card,
    fits_beside,
)

Cell = tuple[int, int]

STRIDE = 8  # bits per grid row; the spare bits keep left/right shifts from wrapping rows
SPAN = STRIDE - 1  # see `spread`
OFF = 1  # cells (-1, -1) .. (4, 4) map to bits; row and column -1 are the growth margin
NBITS = 6 * STRIDE
EMPTY = -1
COOP = 64  # grid content COOP + k: card k placed face down
HIDDEN = COOP + NUM_KINDS  # a face-down coop whose card this viewer cannot see


def bit(cell: Cell) -> int:
    """The bit index of a cell."""
    return (cell[0] + OFF) * STRIDE + cell[1] + OFF


CELL_OF: tuple[Cell | None, ...] = tuple(
    (i // STRIDE - OFF, i % STRIDE - OFF) if i % STRIDE < 6 else None for i in range(NBITS)
)
VALID_CELLS = frozenset(c for c in CELL_OF if c is not None)
BIT_OF: dict[Cell, int] = {c: i for i, c in enumerate(CELL_OF) if c is not None}
"""The bit index of every valid cell (a lookup also checks that a cell is valid)."""
ROW_BITS = tuple(sum(1 << bit((r, c)) for c in range(-1, 5)) for r in range(-1, 5))
COL_BITS = tuple(sum(1 << bit((r, c)) for r in range(-1, 5)) for c in range(-1, 5))


def spread(m: int) -> int:
    """Cells beside (not diagonal to) any cell of mask m: m shifted one cell left, right, up
    and down."""
    # m << 1 | m >> 1 | m << STRIDE | m >> STRIDE in five operations, not seven (each makes a
    # new int): with y = m | m << (STRIDE - 1), y << 1 is m << 1 | m << STRIDE and y >> STRIDE
    # is m >> STRIDE | m >> 1. The inlined copies below use the same form (tests/hens/
    # test_speedups.py checks it against the four shifts).
    y = m | m << SPAN
    return y << 1 | y >> STRIDE


NEIGHBOURS: tuple[int, ...] = tuple(spread(1 << i) for i in range(NBITS))
"""NEIGHBOURS[i]: `spread(1 << i)`, the cells beside cell bit i (a table: bots ask it a lot)."""


def bits_of(m: int) -> Iterator[int]:
    """The set bit indices of a mask, lowest first."""
    if type(m) is not int or m < 0:  # O(1): a negative mask would never end
        m = whole(m, "a mask", 0)
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


# Speed table of `bits_of` for the grid's masks: the bit indices of every byte value in every
# grid row, so a mask's bits come a row at a time (a byte of `int.to_bytes`), not a bit at a time.
_ROW_BITS_AT = tuple(tuple(tuple(r * STRIDE + j for j in range(8) if v >> j & 1) for v in range(256))
                     for r in range(NBITS // STRIDE))
_GRID = 1 << NBITS


@lru_cache(maxsize=1 << 16)  # masks recur a lot in play
def bit_list(m: int) -> tuple[int, ...]:
    """The set bit indices of a mask as a tuple, lowest first (`bits_of`)."""
    if type(m) is int and 0 <= m < _GRID:
        out: tuple[int, ...] = ()
        for row, v in zip(_ROW_BITS_AT, m.to_bytes(NBITS // 8, "little")):
            if v:
                out += row[v]
        return out
    return tuple(bits_of(m))


def components(m: int) -> Iterator[int]:
    """The groups of cells of mask m joined by sides (not corners), each as a mask, lowest
    first: the one flood fill behind groups (H11), group sizes and the "cards touch" check."""
    if type(m) is not int or m < 0:  # O(1): a negative mask would never end
        m = whole(m, "a mask", 0)
    while m:
        comp = m & -m
        while True:
            y = comp | comp << SPAN
            grown = (comp | y << 1 | y >> STRIDE) & m  # comp and spread(comp), inline
            if grown == comp:
                break
            comp = grown
        m ^= comp
        yield comp


BOX_RULE = "the barnyard must fit inside a 3x4 or 4x3 box"
"""DECISIONS H6 in words: the one message of every check of the box (see `fits_box`)."""


def fits_box(rows: int, cols: int) -> bool:
    """DECISIONS H6: a barnyard spanning rows x cols fits inside a 3x4 or a 4x3 box."""
    if type(rows) is not int or type(cols) is not int:
        rows, cols = whole(rows, "rows", 0), whole(cols, "cols", 0)
    return (rows <= 3 and cols <= 4) or (rows <= 4 and cols <= 3)


FIRST_CELL: Cell = (0, 0)
"""Where the first card goes (H5: anywhere; the barnyard's frame starts at it)."""


def _grown(h: int, w: int, cell: Cell) -> tuple[int, int]:
    """The (rows, cols) of a h x w barnyard once a card goes at cell (just outside it at most)."""
    r, c = cell
    return (h + (r == -1) + (r == h), w + (c == -1) + (c == w))


def _open_in_box(h: int, w: int) -> int:
    """Mask of the cells where a card keeps a h x w barnyard inside the box (H6)."""
    return sum(1 << bit((r, c)) for r in range(-1, h + 1) for c in range(-1, w + 1)
               if fits_box(*_grown(h, w, (r, c))))


# Speed table of `fits_box`: the cells each barnyard shape may grow into.
IN_BOX = {(h, w): _open_in_box(h, w) for h in range(1, 5) for w in range(1, 5) if fits_box(h, w)}
_DIRS = ((-1, 0, "above"), (1, 0, "below"), (0, -1, "to the left"), (0, 1, "to the right"))
_NOT_A_CELL = "a cell is (row, col): two whole numbers from -1 to 4"


def check_cell(cell: object) -> Cell:
    """Return cell as a (row, col) tuple of ints, or raise ValueError saying what a cell is.

    The one cell check of every action and method: a tuple or list of two whole numbers (numpy
    integers too, never bools) from -1 to 4."""
    if type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int \
            and type(cell[1]) is int and cell in BIT_OF:
        return cell  # the engine's own cells: the quick path
    if isinstance(cell, (tuple, list)) and len(cell) == 2:
        try:
            r, c = whole(cell[0], "a row", -1, 4), whole(cell[1], "a column", -1, 4)
        except ValueError:
            pass
        else:
            return (r, c)
    raise ValueError(f"{_short(cell)} is not a cell: {_NOT_A_CELL}")


def _card_int(k: object) -> int:
    """k as a card's int 0-47 (an int or numpy integer, never a bool); ValueError otherwise."""
    if type(k) is int and 0 <= k < NUM_KINDS:
        return k
    try:
        return whole(k, "a card's int", 0, NUM_KINDS - 1)
    except ValueError:
        raise ValueError(f"hen_mask needs a card's int 0-47, not {_short(k)}") from None


def _short(x: object) -> str:
    """repr(x), cut short (a bad value may be huge)."""
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _yard_cell(yard: object, cell: object) -> Cell:
    """The checked cell of a rule function's (barnyard, cell) arguments; ValueError unless yard
    is a Barnyard and cell a cell."""
    if not isinstance(yard, Barnyard):
        raise ValueError(f"needs a Barnyard, not {type(yard).__name__}")
    return check_cell(cell)


def largest_group_key(size: int, eggs: int) -> tuple[int, int]:
    """DECISIONS H12: of two groups the larger is the one with more cards, then more eggs; the
    larger group has the larger key."""
    if type(size) is not int or type(eggs) is not int:
        size, eggs = whole(size, "size", 0), whole(eggs, "eggs", 0)
    return (size, eggs)


def first_card_problem(cell: Cell) -> str | None:
    """DECISIONS H5: the first card goes anywhere; it starts the frame at (0, 0)."""
    if check_cell(cell) != FIRST_CELL:
        return "the first card starts the barnyard at (0, 0)"
    return None


def touch_problem(yard: Barnyard, cell: Cell) -> str | None:
    """Rulebook "Place a Hen card": a new card goes on a free place beside (not diagonal to) a
    placed card."""
    r, c = _yard_cell(yard, cell)
    if yard.content(r, c) != EMPTY:
        return "that place is already taken"
    if all(yard.content(r + dr, c + dc) == EMPTY for dr, dc, _ in _DIRS):
        return "a new card must touch a placed card by a side"
    return None


def box_problem(yard: Barnyard, cell: Cell) -> str | None:
    """DECISIONS H6: after the placement the cards fit inside a 3x4 or a 4x3 box."""
    cell = _yard_cell(yard, cell)
    if not fits_box(*_grown(yard.h, yard.w, cell)):
        return BOX_RULE
    return None


def neighbour_problem(yard: Barnyard, k: int, cell: Cell) -> str | None:
    """Rulebook "Place a Hen card": a hen respects each neighbouring hen (`fits_beside`); a coop
    neighbour constrains nothing (H9)."""
    r, c = _yard_cell(yard, cell)
    k = card(k)
    for dr, dc, where in _DIRS:
        v = yard.content(r + dr, c + dc)
        if 0 <= v < NUM_KINDS and not fits_beside(k, v):
            return (f"the hen {where}, {CODES[v]}, is another breed and its number is not one apart "
                    f"from {NUMBER_OF[k]} (a hen must match each neighbouring hen's breed or be "
                    "one number higher or lower)")
    return None


def placement_problem(yard: Barnyard, k: int, cell: Cell, coop: bool = False) -> str | None:
    """Why card k may not go at cell (as a hen, or face down as a coop); None when it may.

    The plain placement rules, in the rulebook's order: the first card (H5), beside a placed
    card, inside the box (H6), and for a hen each neighbouring hen (a coop has no constraint
    and makes none, H9)."""
    cell, k = _yard_cell(yard, cell), card(k)
    if not isinstance(coop, bool):
        raise ValueError(f"coop must be True or False, not {_short(coop)}")
    if not yard.n:
        return first_card_problem(cell)
    why = touch_problem(yard, cell) or box_problem(yard, cell)
    if why or coop:
        return why
    return neighbour_problem(yard, k, cell)


def rooster_problem(yard: Barnyard, cell: Cell | None) -> str | None:
    """DECISIONS H10: the rooster stands on one of the player's hens (never a coop); it stays
    off (None) only when the barnyard has no hen."""
    if not isinstance(yard, Barnyard):
        raise ValueError(f"needs a Barnyard, not {type(yard).__name__}")
    if cell is None:
        return "the rooster must go on one of your hens: name its cell" if yard.hen else None
    if yard.at(cell) is None:
        what = "a chicken coop" if yard.is_coop(cell) else "an empty place"
        return f"the rooster must stand on one of your hens, and {cell} is {what}"
    return None


@dataclass(frozen=True)
class Group:
    """A group of same-breed hens joined by sides (a lone hen is a group of size 1)."""

    breed: str
    cells: tuple[Cell, ...]
    eggs: int

    @property
    def size(self) -> int:
        """How many hens the group holds."""
        return len(self.cells)


class Barnyard:
    """An immutable barnyard; `place` returns a new one. Build with `Barnyard()` or `parse`."""

    __slots__ = (
        "_front",
        "_hidden",
        "breeds",
        "coop",
        "e2",
        "e3",
        "grid",
        "h",
        "hen",
        "medals",
        "n",
        "nums",
        "occ",
        "rooster",
        "w",
    )

    def __init__(self) -> None:
        self.grid: tuple[int, ...] = (EMPTY,) * NBITS
        self.occ = self.hen = self.coop = self.e2 = self.e3 = 0
        self.breeds: tuple[int, ...] = (0,) * len(BREEDS)
        self.nums: tuple[int, ...] = (0,) * 8  # index = number; 0 and 7 stay empty
        self.medals = self.h = self.w = self.n = 0
        self.rooster = -1  # bit of the hen under the rooster token, or -1
        self._hidden: Barnyard | None = None
        self._front = -1  # the frontier mask, computed on first use

    # ----- reading -----
    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the bounding box; (0, 0) when empty."""
        return (self.h, self.w)

    def __len__(self) -> int:
        return self.n

    @property
    def coops(self) -> int:
        """How many chicken coops the barnyard holds."""
        return self.coop.bit_count()

    @property
    def rooster_cell(self) -> Cell | None:
        """Where the rooster token stands, or None."""
        return CELL_OF[self.rooster] if self.rooster >= 0 else None

    def content(self, row: int, col: int) -> int:
        """The grid content at (row, col): a card's int for a hen, COOP + card for a coop
        (HIDDEN when its card is unknown), EMPTY for a free place or a place off the grid."""
        if type(row) is not int or type(col) is not int:
            row, col = whole(row, "a row"), whole(col, "a column")
        if -1 <= row <= 4 and -1 <= col <= 4:
            return self.grid[bit((row, col))]
        return EMPTY

    def at(self, cell: Cell) -> Card | None:
        """The hen at cell, or None for an empty place or a coop."""
        v = self.grid[bit(check_cell(cell))]
        return CARDS[v] if 0 <= v < NUM_KINDS else None

    def is_coop(self, cell: Cell) -> bool:
        """True when a chicken coop stands at cell."""
        return self.grid[bit(check_cell(cell))] >= COOP

    def coop_card(self, cell: Cell) -> Card | None:
        """The face-down card of the coop at cell (None when hidden from this viewer or no coop)."""
        v = self.grid[bit(check_cell(cell))]
        return CARDS[v - COOP] if COOP <= v < HIDDEN else None

    def hens(self) -> list[tuple[Cell, Card]]:
        """Every hen with its cell, top row first."""
        return [(CELL_OF[i], CARDS[self.grid[i]]) for i in bits_of(self.hen)]

    def coop_cells_taken(self) -> list[Cell]:
        """Cells holding a chicken coop, top row first."""
        return [CELL_OF[i] for i in bits_of(self.coop)]

    def hidden_coops(self) -> int:
        """How many coops show no card (face down to this viewer)."""
        return sum(1 for i in bits_of(self.coop) if self.grid[i] == HIDDEN)

    def cards(self) -> list[Card]:
        """Every card in the barnyard, hens and (known) coops alike, for accounting."""
        out = []
        for i in bits_of(self.occ):
            v = self.grid[i]
            if v < NUM_KINDS:
                out.append(CARDS[v])
            elif v < HIDDEN:
                out.append(CARDS[v - COOP])
        return out

    # ----- placement -----
    def open_mask(self) -> int:
        """Mask of the cells where the next card may go face down (touching, inside the box):
        the fast form of `placement_problem(..., coop=True)`."""
        front = self._front
        if front < 0:
            if self.n == 0:
                front = 1 << bit(FIRST_CELL)
            else:
                occ = self.occ
                y = occ | occ << SPAN
                near = (y << 1 | y >> STRIDE) & IN_BOX[(self.h, self.w)]  # spread(occ) in the box
                front = near ^ (near & occ)  # less the taken cells (no negative ints: faster)
            self._front = front
        return front

    def hen_mask(self, k: int) -> int:
        """Mask of the cells where card k may go as a hen: the fast form of `placement_problem`
        (no cell beside a hen that is another breed and not one number apart, `fits_beside`).

        The same bit operations as `hen_masks` for one card, written out: the greedy bot asks
        for one card at a time, hundreds of times a game (tests/hens/test_speedups.py proves
        both equal to `placement_problem`)."""
        if type(k) is not Card:
            k = _card_int(k)
        front = self._front
        if front < 0:
            front = self.open_mask()
        hen = self.hen
        n = NUMBER_OF[k]
        bad = hen ^ (self.breeds[BREED_OF[k]] | self.nums[n - 1] | self.nums[n + 1])  # as below
        if bad:
            y = bad | bad << SPAN  # front less spread(bad), inline
            return front ^ (front & (y << 1 | y >> STRIDE))
        return front

    def hen_masks(self, kinds: tuple[int, ...]) -> list[int]:
        """`hen_mask` of each card of `kinds` (Cards or their ints 0-47), in one pass: the place
        phase asks it for every distinct card in hand."""
        if type(kinds) is not tuple and type(kinds) is not list:
            raise ValueError(f"hen_masks needs a tuple of cards, not {_short(kinds)}")
        front = self._front
        if front < 0:
            front = self.open_mask()
        hen, breeds, nums = self.hen, self.breeds, self.nums
        out = []
        for k in kinds:
            if type(k) is not Card:
                k = _card_int(k)
            n = NUMBER_OF[k]
            # The hens card k may not touch: neither its breed nor one number apart. The masks
            # of a breed and of a number hold hens only, so hen less them is hen ^ them (and x ^ y
            # needs no negative int, which x & ~y would, and Python works out more slowly).
            bad = hen ^ (breeds[BREED_OF[k]] | nums[n - 1] | nums[n + 1])
            if bad:
                # front less spread(bad), inline: this runs for every card at every placement.
                y = bad | bad << SPAN
                near = front & (y << 1 | y >> STRIDE)
                out.append(front ^ near)
            else:
                out.append(front)
        return out

    def hen_cells(self, k: int | str) -> list[Cell]:
        """Cells where card k (a Card, its int or a code like 'Pa3') may go as a hen."""
        return [CELL_OF[i] for i in bit_list(self.hen_mask(card(k)))]

    def coop_cells(self) -> list[Cell]:
        """Cells where any card may go face down as a chicken coop."""
        return [CELL_OF[i] for i in bit_list(self.open_mask())]

    def check_place(self, k: int | str, cell: Cell, coop: bool = False) -> None:
        """Raise ValueError naming the rule (and the neighbour) that forbids this placement."""
        k = card(k)
        cell = check_cell(cell)
        if not isinstance(coop, bool):
            raise ValueError(f"coop must be True or False, not {_short(coop)}")
        why = placement_problem(self, k, cell, coop)
        if why:
            what = f"{k} as a chicken coop" if coop else str(k)
            raise ValueError(f"{what} cannot go at {cell}: {why}")

    def place(self, k: int | str, cell: Cell, coop: bool = False) -> Barnyard:
        """A new barnyard with card k at cell, as a hen or face down as a coop; ValueError naming
        the rule when it may not go there."""
        if type(k) is not Card:
            k = card(k)
        # check_cell's quick path, inline (every placement of every game comes through here):
        # the engine's own cells are tuples of two ints, and BIT_OF holds exactly the valid ones.
        if type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int \
                and type(cell[1]) is int and cell in BIT_OF:
            i = BIT_OF[cell]
        else:
            cell = check_cell(cell)
            i = BIT_OF[cell]
        if coop is False:
            mask = self.hen_mask(k)
        elif coop is True:
            mask = self.open_mask()
        else:
            raise ValueError(f"coop must be True or False, not {_short(coop)}")
        if not (mask >> i & 1):
            self.check_place(k, cell, coop)  # raises the rule's reason
        return self._put(k, i, coop)

    def _put(self, k: int, i: int, coop: bool) -> Barnyard:
        """Place card k at cell bit i without checking; shifts the frame when the card goes at
        row or col -1."""
        new = object.__new__(Barnyard)
        r, c = CELL_OF[i]
        n = self.n
        if n:
            h, w = self.h, self.w
            new.h = h + (r == -1) + (r == h)
            new.w = w + (c == -1) + (c == w)
        else:
            new.h = new.w = 1
        new.n = n + 1
        new.rooster = self.rooster
        new._hidden = None
        new._front = -1
        grid = self.grid
        grid = grid[:i] + (COOP + k if coop else k,) + grid[i + 1:]
        b = 1 << i
        if coop:
            new.occ, new.hen, new.coop = self.occ | b, self.hen, self.coop | b
            new.breeds, new.nums = self.breeds, self.nums
            new.e2, new.e3, new.medals = self.e2, self.e3, self.medals
        else:
            new.occ, new.hen, new.coop = self.occ | b, self.hen | b, self.coop
            breeds = list(self.breeds)
            breeds[BREED_OF[k]] |= b
            new.breeds = tuple(breeds)
            nums = list(self.nums)
            nums[NUMBER_OF[k]] |= b
            new.nums = tuple(nums)
            eggs = EGGS_OF[k]
            new.e2 = self.e2 | b if eggs >= 2 else self.e2
            new.e3 = self.e3 | b if eggs >= 3 else self.e3
            new.medals = self.medals + MEDALS_OF[k]
        if r == -1 or c == -1:
            # The frame shifts so that the box starts at (0, 0) again. The margin row/col is
            # empty beyond the box, so shifting never drops a card.
            shift = (STRIDE if r == -1 else 0) + (c == -1)
            grid = (EMPTY,) * shift + grid[:-shift]
            new.occ <<= shift
            new.hen <<= shift
            new.coop <<= shift
            new.e2 <<= shift
            new.e3 <<= shift
            new.breeds = tuple([m << shift for m in new.breeds])
            new.nums = tuple([m << shift for m in new.nums])
            if new.rooster >= 0:
                new.rooster += shift
        new.grid = grid
        return new

    def with_rooster(self, cell: Cell | None) -> Barnyard:
        """A new barnyard with the rooster token on the hen at cell (None takes it off)."""
        new = self._copy()
        if cell is None:
            new.rooster = -1
            return new
        cell = check_cell(cell)
        why = rooster_problem(self, cell)
        if why:
            raise ValueError(why)
        new.rooster = bit(cell)
        return new

    def with_coop_cards(self, cards: list[int] | tuple[int, ...]) -> Barnyard:
        """The barnyard whose face-down coops of unknown card (top row first) hold `cards`
        (for states sampled from a view; this one when it has no such coop); ValueError unless
        there is one card per such coop."""
        grid = self.grid
        hidden = [i for i in bit_list(self.coop) if grid[i] == HIDDEN] if self.coop else []
        if not isinstance(cards, (list, tuple)) or len(cards) != len(hidden):
            raise ValueError(f"give one card for each of the {len(hidden)} coops of unknown card")
        if not hidden:
            return self  # nothing to fill in: an equal copy would do, and barnyards never change
        grid = list(grid)
        for i, k in zip(hidden, cards, strict=True):
            grid[i] = COOP + (k if type(k) is Card else card(k))  # a Card is checked already
        new = self._copy()
        new.grid = tuple(grid)
        return new

    def _copy(self) -> Barnyard:
        """A new barnyard sharing every field with this one (its hidden form worked out anew).

        One assignment a slot, not a loop of getattr/setattr over `__slots__` (several times
        slower; every sampled state copies barnyards); tests/hens/test_speedups.py checks
        that every slot is copied."""
        new = object.__new__(Barnyard)
        new._front = self._front
        new._hidden = None
        new.breeds = self.breeds
        new.coop = self.coop
        new.e2 = self.e2
        new.e3 = self.e3
        new.grid = self.grid
        new.h = self.h
        new.hen = self.hen
        new.medals = self.medals
        new.n = self.n
        new.nums = self.nums
        new.occ = self.occ
        new.rooster = self.rooster
        new.w = self.w
        return new

    def hidden(self) -> Barnyard:
        """The barnyard as opponents see it: coops face down, their cards unknown."""
        if self._hidden is None:
            if not self.coop:
                self._hidden = self
            else:
                new = self._copy()
                new.grid = tuple(HIDDEN if v >= COOP else v for v in self.grid)
                self._hidden = new
        return self._hidden

    # ----- groups -----
    def groups(self) -> list[Group]:
        """Every group of same-breed hens joined by sides, lone hens included, largest first
        (H11)."""
        out = []
        for br, m in enumerate(self.breeds):
            for comp in components(m):
                cells = tuple(CELL_OF[i] for i in bits_of(comp))
                eggs = sum(EGGS_OF[self.grid[i]] for i in bits_of(comp))
                out.append(Group(BREEDS[br].code, cells, eggs))
        out.sort(key=lambda g: g.cells)  # equal groups in reading order (the sorts are stable)
        out.sort(key=lambda g: largest_group_key(g.size, g.eggs), reverse=True)
        return out

    def lone_hens(self) -> list[Cell]:
        """Cells of hens with no same-breed neighbour ("hens not in a group")."""
        return [g.cells[0] for g in self.groups() if g.size == 1]

    # ----- text -----
    def __str__(self) -> str:
        lines = []
        for r in range(self.h):
            cells = []
            for c in range(self.w):
                i = bit((r, c))
                v = self.grid[i]
                if v == EMPTY:
                    text = ".."
                elif v >= COOP:
                    text = "##"
                else:
                    text = CODES[v] + ("*" if i == self.rooster else "")
                cells.append(text.ljust(3))
            lines.append(" ".join(cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Barnyard.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Barnyard):
            return NotImplemented
        return self.grid == other.grid and self.rooster == other.rooster

    def __hash__(self) -> int:
        return hash((self.grid, self.rooster))

    @classmethod
    def parse(cls, text: str, check: bool = True) -> Barnyard:
        """Read rows of cells ('Pa3', 'Pa3*' with the rooster, '##' coop, '..' empty).

        Row 0 is the first non-blank line. With `check`, the cards must touch, fit a 3x4 or 4x3
        box and obey the placement rule between every two touching hens.
        """
        if not isinstance(text, str):
            raise ValueError(f"a barnyard is text, not {type(text).__name__}")
        rows: list[list[tuple[int, bool]]] = []  # (content, rooster) per cell
        lines = text.strip("\n").split("\n") if text.strip() else []
        width = None
        for ln, line in enumerate(lines, start=1):
            cells = line.split()
            if not cells:
                raise ValueError(f"line {ln} is blank: every row needs cells ('..' for empty)")
            if width is not None and len(cells) != width:
                raise ValueError(
                    f"line {ln} has {len(cells)} cells but line 1 has {width}: "
                    "every row needs the same number of cells"
                )
            width = len(cells)
            row = []
            for cn, word in enumerate(cells, start=1):
                row.append(_parse_cell(word, ln, cn))
            rows.append(row)
        placed = [
            (r, c, v, rooster)
            for r, row in enumerate(rows)
            for c, (v, rooster) in enumerate(row)
            if v != EMPTY
        ]
        new = cls()
        if not placed:
            return new
        r0 = min(p[0] for p in placed)
        c0 = min(p[1] for p in placed)
        h = max(p[0] for p in placed) - r0 + 1
        w = max(p[1] for p in placed) - c0 + 1
        if not fits_box(h, w):
            raise ValueError(
                f"the cards span {_span('line', r0 + 1, r0 + h)} and "
                f"{_span('cell', c0 + 1, c0 + w)}"
                f" ({_count(h, 'row')} by {_count(w, 'column')}): {BOX_RULE}"
            )
        grid = list(new.grid)
        roosters = []
        for r, c, v, rooster in placed:
            grid[bit((r - r0, c - c0))] = v
            if rooster:
                roosters.append((r - r0, c - c0, r + 1, c + 1))
        if len(roosters) > 1:
            raise ValueError(
                f"line {roosters[1][2]}, cell {roosters[1][3]}: a barnyard has one rooster only"
            )
        built = _from_grid(tuple(grid))
        if roosters:
            built.rooster = bit(roosters[0][:2])
        if check:
            # Errors name cells as the text shows them: line and cell counted from 1, before
            # the empty border was trimmed.
            def where(i: int) -> str:
                r, c = CELL_OF[i]
                return f"line {r + r0 + 1}, cell {c + c0 + 1}"

            built.check_layout(where)
        return built

    def check_layout(self, where: Callable[[int], str] | None = None) -> None:
        """Raise ValueError unless the cards could have been placed one by one under the rules
        (`layout_problem`); `where(bit)` names a cell in the message (default: its (row, col))."""
        why = layout_problem(self, where or _at_cell)
        if why:
            raise ValueError(why)

    # ----- JSON -----
    def to_dict(self) -> dict:
        """A JSON-ready dict: hens and coops as [row, col, code] (a hidden coop's code is null)."""
        hens = [[r, c, CODES[k]] for (r, c), k in self.hens()]
        coops = []
        for i in bits_of(self.coop):
            v = self.grid[i]
            coops.append([*CELL_OF[i], CODES[v - COOP] if v < HIDDEN else None])
        return {"hens": hens, "coops": coops, "rooster": list(self.rooster_cell or []) or None}

    @classmethod
    def from_dict(cls, data: dict) -> Barnyard:
        """Rebuild a barnyard written by `to_dict`; ValueError names what is malformed."""
        if not isinstance(data, dict) or not {"hens", "coops", "rooster"} <= set(data):
            raise ValueError("a barnyard dict needs the keys 'hens', 'coops' and 'rooster'")
        unknown = set(data) - {"hens", "coops", "rooster"}
        if unknown:
            raise ValueError(
                f"unknown barnyard keys {sorted(map(str, unknown))}: a barnyard dict has only "
                "'hens', 'coops' and 'rooster'"
            )
        new = cls()
        grid = list(new.grid)
        for key in ("hens", "coops"):
            if not isinstance(data[key], list):
                raise ValueError(f"barnyard '{key}' must be a list of [row, col, code]")
            for entry in data[key]:
                if not (isinstance(entry, list) and len(entry) == 3):
                    raise ValueError(f"barnyard '{key}' entry {entry!r} is not [row, col, code]")
                r, c = check_cell(tuple(entry[:2]))
                if r < 0 or c < 0:
                    raise ValueError(f"barnyard cell {(r, c)} is outside the normalised box")
                if grid[bit((r, c))] != EMPTY:
                    raise ValueError(f"barnyard cell {(r, c)} is given twice")
                if key == "coops" and entry[2] is None:
                    grid[bit((r, c))] = HIDDEN
                else:
                    k = card(entry[2])
                    grid[bit((r, c))] = k + (COOP if key == "coops" else 0)
        built = _from_grid(tuple(grid))
        if built.n:
            rows = [CELL_OF[i][0] for i in bits_of(built.occ)]
            cols = [CELL_OF[i][1] for i in bits_of(built.occ)]
            if min(rows) != 0 or min(cols) != 0 or not fits_box(built.h, built.w):
                raise ValueError(f"barnyard cells must start at (0, 0), and {BOX_RULE}")
            built.check_layout()  # the same placement rules as `parse(check=True)`
        rooster = data["rooster"]
        if rooster is not None:
            try:
                cell = check_cell(rooster)
            except ValueError as e:
                raise ValueError(f"barnyard 'rooster' must be null or [row, col]: {e}") from None
            built = built.with_rooster(cell)
        return built


def layout_problem(yard: Barnyard, where: Callable[[int], str]) -> str | None:
    """Why a whole barnyard could not arise from the placement rules; None when it could.

    Its cards form one piece (each card was placed beside another), fit the box (H6), use no
    card kind more often than the deck holds it (rulebook components) and every two touching
    hens obey `fits_beside`. Any such layout can be built card by card in reading order of a
    flood fill, so these are exactly the reachable layouts. `where(bit)` names a cell."""
    if not isinstance(yard, Barnyard) or not callable(where):
        raise ValueError("layout_problem needs a Barnyard and a function naming a cell's bit")
    if not yard.occ:
        return None
    if not fits_box(yard.h, yard.w):
        return BOX_RULE
    first = next(components(yard.occ))
    if first != yard.occ:
        lost = [f"{_word(yard.grid[i])} at {where(i)}" for i in bits_of(yard.occ & ~first)]
        what = f"the cards {'; '.join(lost)} are" if len(lost) > 1 else f"the card {lost[0]} is"
        return f"{what} cut off: every card must touch the others by a side"
    found: dict[int, list[int]] = {}
    for i in bits_of(yard.occ):
        v = yard.grid[i]
        k = v if v < NUM_KINDS else v - COOP
        if k < NUM_KINDS:  # a hidden coop's card is unknown
            found.setdefault(k, []).append(i)
    for k, cells in found.items():
        if len(cells) > COPIES_OF[k]:
            return (f"{CODES[k]} appears {len(cells)} times but the deck holds only "
                    f"{COPIES_OF[k]} (" + "; ".join(where(i) for i in cells) + ")")
    for i in bits_of(yard.hen):
        for j in (i + 1, i + STRIDE):  # the hen to the right and the hen below
            a, b = yard.grid[i], yard.grid[j]
            if yard.hen >> j & 1 and not fits_beside(a, b):
                return (f"{CODES[a]} at {where(i)} and {CODES[b]} at {where(j)} touch but are "
                        "neither the same breed nor one number apart")
    return None


def _parse_cell(word: str, ln: int, cn: int) -> tuple[int, bool]:
    """One cell of barnyard text: (grid content, rooster here?)."""
    if word == "..":
        return EMPTY, False
    if word == "##":
        return HIDDEN, False
    rooster = word.endswith("*")
    try:
        k = card(word[:-1] if rooster else word)
    except ValueError:
        raise ValueError(
            f"line {ln}, cell {cn}: {word!r} is not a cell: write a card such as Pa3 (a breed "
            "code Pa, Wy, Se, Ba, Su, Fa, Ce or Mo and a number 1-6), Pa3* for the hen with the "
            "rooster, ## for a chicken coop or .. for an empty place"
        ) from None
    return int(k), rooster


def _at_cell(i: int) -> str:
    """A cell bit named as its (row, col)."""
    return str(CELL_OF[i])


def _word(v: int) -> str:
    """A grid content as barnyard text shows it."""
    return CODES[v] if v < NUM_KINDS else "a chicken coop"


def _span(what: str, first: int, last: int) -> str:
    """'line 2' or 'lines 2-6'."""
    return f"{what} {first}" if first == last else f"{what}s {first}-{last}"


def _count(n: int, what: str) -> str:
    """'1 row', '5 columns'."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _from_grid(grid: tuple[int, ...]) -> Barnyard:
    """Build every mask of a barnyard from its grid (cards already normalised to (0, 0))."""
    new = Barnyard()
    breeds = [0] * len(BREEDS)
    nums = [0] * 8
    for i, v in enumerate(grid):
        if v == EMPTY:
            continue
        b = 1 << i
        new.occ |= b
        new.n += 1
        if v >= COOP:
            new.coop |= b
            continue
        new.hen |= b
        breeds[BREED_OF[v]] |= b
        nums[NUMBER_OF[v]] |= b
        if EGGS_OF[v] >= 2:
            new.e2 |= b
        if EGGS_OF[v] >= 3:
            new.e3 |= b
        new.medals += MEDALS_OF[v]
    new.grid = grid
    new.breeds = tuple(breeds)
    new.nums = tuple(nums)
    if new.n:
        cells = [CELL_OF[i] for i in bits_of(new.occ)]
        new.h = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
        new.w = max(c for _, c in cells) - min(c for _, c in cells) + 1
    return new

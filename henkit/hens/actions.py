"""The moves of Hens as small frozen dataclasses that print in plain words.

Chance outcomes (the card a deck draw brings) are plain `Card`s. A card may be given by its code
('Pa3') or its int: the action holds the `Card`, so `Place("Pa3", (0, 1)) == Place(card("Pa3"),
(0, 1))`. A cell given as a list [row, col] is held as a tuple. Every action checks what it is
given when it is built (one card check, `cards.card`; one cell check, `barnyard.check_cell`) and
raises ValueError saying what is allowed; whether the move is legal is the state's to say.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from henkit.hens.barnyard import CELL_OF, Cell, bit, check_cell
from henkit.hens.cards import CARDS, NUM_KINDS, Card, card

DECK = -1
"""The `source` of a draw from the deck (any other source is the seat index, from 0, of the player
whose pile it is; the words count players from 1: `Draw(0, ...)` draws from player 1's pile)."""


def _cell_ok(cell: object) -> bool:
    """True for the engine's own cells (a tuple of two ints in range): the quick path."""
    return type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int \
        and type(cell[1]) is int and -1 <= cell[0] <= 4 and -1 <= cell[1] <= 4


# The engine builds its actions from Cards and tuples, so each check below is one type test;
# only hand-made actions (codes, ints, list cells) take the slower path.


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card: from the deck (`source=DECK`) or the top of a player's discard pile."""

    source: int
    card: Card | None = None  # the top card of the pile; None for the deck (its card is chance)

    def __post_init__(self) -> None:
        source = self.source
        if type(source) is not int:
            if isinstance(source, bool) or not isinstance(source, int | np.integer):
                what = f"{source!r} is not a player" if isinstance(source, bool | np.bool_) \
                    else f"cannot draw from {_short(source)}"
                raise ValueError(f"{what}: a Draw's source is the deck (DECK) or the seat index "
                                 "of the player whose pile it is (0 is player 1)")
            object.__setattr__(self, "source", int(source))
        if self.source < DECK:
            raise ValueError(f"cannot draw from {self.source}: a Draw's source is the deck (DECK) "
                             "or the seat index of the player whose pile it is (0 is player 1)")
        if self.card is not None:
            if self.source == DECK:
                raise ValueError("a draw from the deck names no card: the deck's card is chance")
            if type(self.card) is not Card:
                object.__setattr__(self, "card", card(self.card))

    def __str__(self) -> str:
        if self.source == DECK:
            return "draw from the deck"
        return f"draw {self.card} from player {self.source + 1}'s discard pile"  # seats from 0

    def __repr__(self) -> str:
        return "Draw(DECK)" if self.source == DECK else f"Draw({self.source}, {self.card})"


def _normalise_placement(action: Place | PlaceCoop) -> None:
    """Accept a card as its code ('Pa2') or number and a cell as a list ([0, 1]), as JSON has them;
    ValueError for anything else."""
    if type(action.card) is not Card:
        object.__setattr__(action, "card", card(action.card))
    if not _cell_ok(action.cell):
        object.__setattr__(action, "cell", check_cell(action.cell))


@dataclass(frozen=True, slots=True)
class Place:
    """Place a card from the hand as a hen at a cell of one's barnyard."""

    card: Card
    cell: Cell

    def __post_init__(self) -> None:
        _normalise_placement(self)

    def __str__(self) -> str:
        return f"place {self.card} at row {self.cell[0]}, column {self.cell[1]}"

    def __repr__(self) -> str:
        return f"Place({self.card}, {self.cell})"


@dataclass(frozen=True, slots=True)
class PlaceCoop:
    """Place a card from the hand face down as a chicken coop at a cell."""

    card: Card
    cell: Cell

    def __post_init__(self) -> None:
        _normalise_placement(self)

    def __str__(self) -> str:
        return (f"place {self.card} face down as a chicken coop at row {self.cell[0]}, "
                f"column {self.cell[1]}")

    def __repr__(self) -> str:
        return f"PlaceCoop({self.card}, {self.cell})"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put a card from the hand on top of one's discard pile."""

    card: Card

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            object.__setattr__(self, "card", card(self.card))

    def __str__(self) -> str:
        return f"discard {self.card}"

    def __repr__(self) -> str:
        return f"Discard({self.card})"


@dataclass(frozen=True, slots=True)
class PlaceRooster:
    """Put the rooster token on the hen at a cell (None: no hen to put it on)."""

    cell: Cell | None

    def __post_init__(self) -> None:
        if self.cell is not None and not _cell_ok(self.cell):
            object.__setattr__(self, "cell", check_cell(self.cell))

    def __str__(self) -> str:
        if self.cell is None:
            return "keep the rooster off the barnyard (there is no hen to put it on)"
        return f"put the rooster on the hen at row {self.cell[0]}, column {self.cell[1]}"

    def __repr__(self) -> str:
        return f"PlaceRooster({self.cell})"


Action = Draw | Place | PlaceCoop | Discard | PlaceRooster
ACTIONS = (Draw, Place, PlaceCoop, Discard, PlaceRooster)  # for isinstance checks


# Legal-action lists reuse these shared objects: building thousands of dataclasses per game
# is slow. Tables are indexed by card int and cell bit (see `henkit.hens.barnyard.bit`).
PLACE_AT: tuple[tuple[Place | None, ...], ...] = tuple(
    tuple(Place(CARDS[k], c) if c is not None else None for c in CELL_OF) for k in range(NUM_KINDS)
)
COOP_AT: tuple[tuple[PlaceCoop | None, ...], ...] = tuple(
    tuple(PlaceCoop(CARDS[k], c) if c is not None else None for c in CELL_OF)
    for k in range(NUM_KINDS)
)
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in CARDS)
DRAW_DECK = Draw(DECK)
DRAW_AT: tuple[tuple[Draw, ...], ...] = tuple(tuple(Draw(q, c) for c in CARDS) for q in range(4))
"""DRAW_AT[seat][card]: the shared Draw of the top card of a seat's pile."""


def place(k: int, cell: Cell) -> Place:
    """The shared Place action of card k at cell."""
    return PLACE_AT[card(k)][bit(check_cell(cell))]


def place_coop(k: int, cell: Cell) -> PlaceCoop:
    """The shared PlaceCoop action of card k at cell."""
    return COOP_AT[card(k)][bit(check_cell(cell))]


def discard(k: int) -> Discard:
    """The shared Discard action of card k."""
    return DISCARDS[k] if type(k) is Card else DISCARDS[card(k)]


def draw(source: int, k: int | None = None) -> Draw:
    """The (shared) Draw action from source (DECK or a seat), naming the pile's top card k."""
    if type(source) is int and 0 <= source < 4 and type(k) is Card:
        return DRAW_AT[source][k]
    if source == DECK and k is None:
        return DRAW_DECK
    return Draw(source, k)


def _short(x: object) -> str:
    """repr(x), cut short (a bad value may be huge)."""
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."

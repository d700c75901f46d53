"""The one table of Hens cards: breeds, colours, numbers, eggs, medals, copies and the decks.

A card *kind* is a breed and a number (48 kinds); the physical deck holds 72 cards because some
kinds have two copies. Copies of a kind are indistinguishable, so henkit names a card by its kind:
`Pa3` is a Padovana number 3. Internally a card is a small int (breed * 6 + number - 1) so
that barnyards and hands are fast tuples of ints; `Card` is an int that prints as its code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any, Self

import numpy as np


@dataclass(frozen=True)
class Breed:
    """One breed of hen: its code, name, colour, and per-number eggs and copies (numbers 1-6)."""

    code: str
    name: str
    colour: str
    eggs: tuple[int, int, int, int, int, int]
    copies: tuple[int, int, int, int, int, int]
    medals: int

    @property
    def size(self) -> int:
        """How many cards of this breed the full deck holds."""
        return sum(self.copies)


# Rulebook "Breakdown of Eggs and Medals", with DECISIONS H1 (12-card breeds: every number
# doubled), H2 (colours) and H3 (medals on every card of the 8- and 6-card breeds).
_EGGS_12 = (2, 1, 1, 1, 1, 2)
_COPIES_12 = (2, 2, 2, 2, 2, 2)
_EGGS_10 = (2, 2, 1, 1, 2, 2)
_COPIES_10 = (1, 2, 2, 2, 2, 1)
_EGGS_8 = (3, 2, 1, 1, 2, 3)
_COPIES_8 = (1, 1, 2, 2, 1, 1)
_EGGS_6 = (3, 2, 2, 2, 2, 3)
_COPIES_6 = (1, 1, 1, 1, 1, 1)

BREEDS: tuple[Breed, ...] = (
    Breed("Pa", "Padovana", "brown", _EGGS_12, _COPIES_12, 0),
    Breed("Wy", "Wyandotte", "blue", _EGGS_12, _COPIES_12, 0),
    Breed("Se", "Sebright", "red", _EGGS_10, _COPIES_10, 0),
    Breed("Ba", "Barnevelder", "purple", _EGGS_10, _COPIES_10, 0),
    Breed("Su", "Sultan", "grey", _EGGS_8, _COPIES_8, 1),
    Breed("Fa", "Faverolles", "yellow", _EGGS_8, _COPIES_8, 1),
    Breed("Ce", "Cemani", "black", _EGGS_6, _COPIES_6, 2),
    Breed("Mo", "Modern Game", "green", _EGGS_6, _COPIES_6, 2),
)
"""The eight breeds in a fixed order; a breed's index is used inside cards and masks."""

BREED_INDEX: dict[str, int] = {b.code: i for i, b in enumerate(BREEDS)}
NUM_KINDS = len(BREEDS) * 6

# Flat per-kind tables (index = card int) so hot loops never build objects.
BREED_OF: tuple[int, ...] = tuple(k // 6 for k in range(NUM_KINDS))
NUMBER_OF: tuple[int, ...] = tuple(k % 6 + 1 for k in range(NUM_KINDS))
EGGS_OF: tuple[int, ...] = tuple(BREEDS[k // 6].eggs[k % 6] for k in range(NUM_KINDS))
MEDALS_OF: tuple[int, ...] = tuple(BREEDS[k // 6].medals for k in range(NUM_KINDS))
COPIES_OF: tuple[int, ...] = tuple(BREEDS[k // 6].copies[k % 6] for k in range(NUM_KINDS))


class Card(int):
    """A card kind: an int (breed * 6 + number - 1) that prints as its code, e.g. `Pa3`."""

    __slots__ = ()

    def __new__(cls, k: int = 0) -> Self:
        """The card of int k, 0-47 (see `card` for codes)."""
        if type(k) is not int and isinstance(k, np.integer):
            k = int(k)  # numpy integers are whole numbers (bools are not: np.bool_ is not one)
        if type(k) is not int or not 0 <= k < 48:
            raise ValueError(f"a Card is built from a whole number 0-47, not {k!r}"[:120])
        return int.__new__(cls, k)

    @property
    def breed(self) -> Breed:
        """The card's breed."""
        return BREEDS[BREED_OF[self]]

    @property
    def number(self) -> int:
        """The card's number, 1-6."""
        return NUMBER_OF[self]

    @property
    def eggs(self) -> int:
        """How many eggs the hen hatches."""
        return EGGS_OF[self]

    @property
    def medals(self) -> int:
        """How many medals the card carries."""
        return MEDALS_OF[self]

    @property
    def code(self) -> str:
        """The short notation: breed code and number, e.g. `Ce6`."""
        return CODES[self]

    def __repr__(self) -> str:
        return CODES[self]

    __str__ = __repr__

    def describe(self) -> str:
        """The card in words, e.g. 'Cemani 6 (black, 3 eggs, 2 medals)'."""
        b = self.breed
        medals = f", {b.medals} medal{'s' if b.medals > 1 else ''}" if b.medals else ""
        eggs = f"{self.eggs} egg{'s' if self.eggs > 1 else ''}"
        return f"{b.name} {self.number} ({b.colour}, {eggs}{medals})"


CODES: tuple[str, ...] = tuple(f"{BREEDS[k // 6].code}{k % 6 + 1}" for k in range(NUM_KINDS))
CARDS: tuple[Card, ...] = tuple(Card(k) for k in range(NUM_KINDS))
"""Every card kind, indexed by its int."""

_BY_CODE: dict[str, Card] = {c.code.lower(): c for c in CARDS}
_CODE_HELP = (
    "a card is a breed code (" + ", ".join(b.code for b in BREEDS) + ") and a number 1-6, "
    "e.g. Pa3"
)


def card(code: str | int) -> Card:
    """The card named by a code like 'Pa3' (any letter case) or by its int; ValueError if none."""
    if type(code) is Card:
        return code
    if isinstance(code, (int, np.integer)) and not isinstance(code, bool):  # numpy ints too
        if 0 <= code < NUM_KINDS:
            return CARDS[int(code)]
        raise ValueError(f"card number {code} is out of range: cards are 0-{NUM_KINDS - 1}")
    if isinstance(code, str):
        found = _BY_CODE.get(code.strip().lower())
        if found is not None:
            return found
    text = repr(code)
    raise ValueError(f"{text if len(text) <= 40 else text[:37] + '...'} is not a card: "
                     f"{_CODE_HELP}")


def breed_index(code: str) -> int:
    """The index of a breed given by its code ('Pa') or name ('Padovana'); ValueError if none."""
    if isinstance(code, str):
        for i, b in enumerate(BREEDS):
            if code.strip().lower() in (b.code.lower(), b.name.lower()):
                return i
    text = repr(code)
    raise ValueError(
        f"{text if len(text) <= 40 else text[:37] + '...'} is not a breed: use one of "
        + ", ".join(f"{b.code} ({b.name})" for b in BREEDS)
    )


def breed_named(text: object) -> Breed | None:
    """The breed a text names, as a breed ('Pa', 'Padovana') or a card ('Pa3'); None otherwise."""
    if not isinstance(text, str):
        return None
    found = _BY_CODE.get(text.strip().lower())
    if found is not None:
        return found.breed
    for b in BREEDS:
        if text.strip().lower() in (b.code.lower(), b.name.lower()):
            return b
    return None


def fits_beside(a: int, b: int) -> bool:
    """Rulebook "Place a Hen card": two hens may touch when they are the same breed or their
    numbers are one apart ("each side of the placed card must always respect these two rules")."""
    if type(a) is not Card or type(b) is not Card:  # O(1) check of anything but the engine's cards
        a, b = card(a), card(b)
    return BREED_OF[a] == BREED_OF[b] or abs(NUMBER_OF[a] - NUMBER_OF[b]) == 1


def check_removed(players: int, removed: tuple[int, ...]) -> None:
    """Rulebook "Setup" with DECISIONS H4: raise ValueError unless `removed` (breed indices) is
    what the rulebook removes for `players` (4: none; 3: one 10-card breed; 2: one 12-card and
    one 10-card breed)."""
    if players not in (2, 3, 4) or not isinstance(removed, tuple) or not all(
        type(i) is int and 0 <= i < len(BREEDS) for i in removed
    ):
        raise ValueError("check_removed needs 2-4 players and a tuple of breed indices 0-7")
    sizes = sorted((BREEDS[i].size for i in removed), reverse=True)
    wanted = {4: [], 3: [10], 2: [12, 10]}[players]
    if sizes != wanted or len(set(removed)) != len(removed):
        names = ", ".join(BREEDS[i].code for i in removed) or "none"
        allowed = {
            4: "no breed",
            3: "one 10-card breed (Se or Ba)",
            2: "one 12-card breed (Pa or Wy) and one 10-card breed (Se or Ba)",
        }[players]
        raise ValueError(f"with {players} players remove {allowed}, not {names}")


def deck_counts(removed: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Copies of every card kind (48 counts) in the deck once the `removed` breeds (indices, or
    codes such as 'Se') are taken out."""
    return _deck_counts(_breed_indices(removed))


@cache  # asked at every lookahead decision; the tuple it returns is safe to share
def _deck_counts(removed: frozenset[int]) -> tuple[int, ...]:
    return tuple(0 if BREED_OF[k] in removed else COPIES_OF[k] for k in range(NUM_KINDS))


def _breed_indices(removed: object) -> frozenset[int]:
    """Breed indices from a tuple or list of indices or codes; ValueError otherwise."""
    if isinstance(removed, (tuple, list, frozenset, set)):
        try:
            return frozenset(_breed_indices_cached(tuple(removed)))
        except TypeError:  # unhashable items
            pass
    raise ValueError(f"removed breeds must be a tuple of breed codes such as ('Se',) or of "
                     f"breed indices 0-7, not {removed!r}"[:300])


@cache
def _breed_indices_cached(removed: tuple) -> tuple[int, ...]:
    out = []
    for x in removed:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < len(BREEDS):
            out.append(int(x))
        else:
            out.append(breed_index(x))
    return tuple(out)


def deck_cards(removed: tuple[int, ...] = ()) -> tuple[Card, ...]:
    """The deck as a sorted tuple of cards, one entry per physical card, without the `removed`
    breeds (indices or codes)."""
    return _deck_cards(_breed_indices(removed))


@cache  # one deck per player count and removed breeds
def _deck_cards(removed: frozenset[int]) -> tuple[Card, ...]:
    return tuple(CARDS[k] for k, n in enumerate(_deck_counts(removed)) for _ in range(n))


def count_cards(cards: object) -> Counter:
    """A Counter of card kinds (handy for accounting tests and odds)."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        raise ValueError(f"count_cards needs a list of cards, not {type(cards).__name__}")
    return Counter(card(c) for c in cards)


def cards_from(items: Any, where: str) -> tuple[Card, ...]:
    """The cards of a list or tuple of codes (or Cards); `where` names the field in errors."""
    if not isinstance(items, list | tuple):
        raise ValueError(f"{where} must be a list of card codes like 'Pa3', not {items!r}"[:300])
    out = []
    for x in items:
        try:
            out.append(card(x))
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    return tuple(out)

"""Draw odds from what a player can see: drawing without replacement (hypergeometric).

From a player's view the unseen cards (deck, opponents' hands, opponents' coops) are equally
likely to be anywhere, so the next k deck draws are k cards taken at random, without
replacement, from the unseen cards. All results are exact `Fraction`s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from henkit.hens.barnyard import Barnyard, Cell, check_cell
from henkit.hens.cards import BREEDS, Card, breed_index, card
from henkit.hens.view import HensView


@dataclass(frozen=True)
class Kind:
    """A kind of card to hope for: a description in words and a test on cards.

    `one` and `many` finish the sentences "1 of the unseen cards ..." and "5 of the unseen cards
    ..." (e.g. "is a Padovana", "are Padovanas"); when left out they are built from the
    description."""

    description: str
    test: Callable[[Card], bool]
    one: str = ""
    many: str = ""

    def __post_init__(self) -> None:
        if not self.one:
            object.__setattr__(self, "one", f"is {self.description}")
        if not self.many:
            object.__setattr__(self, "many", f"are of the kind {self.description!r}")

    def __str__(self) -> str:
        return self.description


def of_breed(code: str) -> Kind:
    """Any card of a breed, given by code ('Pa') or name ('Padovana')."""
    i = breed_index(code)
    name = BREEDS[i].name
    plural = name if name.endswith("s") else f"{name}s"  # one Faverolles, two Faverolles
    return Kind(f"a {name}", lambda c: c.breed is BREEDS[i], f"is a {name}", f"are {plural}")


def of_number(number: int) -> Kind:
    """Any card with this number (1-6)."""
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 6:
        raise ValueError(f"card numbers go from 1 to 6, not {number!r}")
    return Kind(f"a number {number}", lambda c: c.number == number,
                f"is numbered {number}", f"are numbered {number}")


def exactly(code: str) -> Kind:
    """One particular card kind, e.g. 'Pa3' (either copy)."""
    k = card(code)
    return Kind(f"a {k}", lambda c: c == k, f"is a {k}", f"are {k}s")


def fits_cell(barnyard: Barnyard, cell: Cell) -> Kind:
    """Any card that may go as a hen at `cell` of `barnyard`."""
    cell = check_cell(cell)
    could = f"could go as a hen at row {cell[0]}, column {cell[1]}"
    return Kind(f"a hen that fits {cell}", lambda c: cell in barnyard.hen_cells(c), could, could)


def hypergeometric(population: int, successes: int, draws: int) -> list[Fraction]:
    """P(exactly j successes) for j = 0..draws, drawing without replacement."""
    for name, v in (("population", population), ("successes", successes), ("draws", draws)):
        if not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number of at least 0, not {v!r}")
    if successes > population or draws > population:
        raise ValueError(
            f"cannot draw {draws} cards or have {successes} successes among {population} cards"
        )
    total = comb(population, draws)
    return [Fraction(comb(successes, j) * comb(population - successes, draws - j), total)
            for j in range(draws + 1)]


@dataclass(frozen=True)
class DrawOdds:
    """The odds that the next `draws` deck draws bring cards of `kind`, from one player's view."""

    kind: str
    draws: int
    unseen: int  # cards the player cannot see
    matching: int  # of which are of the kind
    distribution: tuple[Fraction, ...]  # P(exactly j of the kind), j = 0..draws
    one: str = ""  # finishes "1 of the unseen cards ...", e.g. "is a Padovana" (see Kind)
    many: str = ""  # finishes "5 of the unseen cards ...", e.g. "are Padovanas"

    @property
    def at_least_one(self) -> Fraction:
        """P(at least one card of the kind)."""
        return 1 - self.distribution[0]

    @property
    def expected(self) -> Fraction:
        """Expected number of cards of the kind among the draws (draws * matching / unseen)."""
        return sum((j * p for j, p in enumerate(self.distribution)), Fraction(0))

    def __str__(self) -> str:
        one = self.one or f"is {self.kind}"
        many = self.many or f"are of the kind {self.kind!r}"
        cards = "card" if self.unseen == 1 else "cards"
        if self.matching == 0:
            head = f"none of the {self.unseen} unseen {cards} {one}"
        else:
            head = f"{self.matching} of the {self.unseen} unseen {cards} " \
                   f"{one if self.matching == 1 else many}"
        draws = "1 draw" if self.draws == 1 else f"{self.draws} draws"
        return (f"{head}: P(at least one in {draws}) = {self.at_least_one} "
                f"({float(self.at_least_one):.1%}), expected number drawn {self.expected}")


def _kind(view: HensView, kind: Kind | str | int | Cell) -> Kind:
    if isinstance(kind, Kind):
        return kind
    if isinstance(kind, int) and not isinstance(kind, bool):
        return of_number(kind)
    if isinstance(kind, tuple):
        return fits_cell(view.barnyard, kind)
    if isinstance(kind, str):
        try:
            return exactly(kind)
        except ValueError:
            return of_breed(kind)
    raise ValueError(
        f"{kind!r} is not a kind of card: give a breed ('Pa'), a number (1-6), a card ('Pa3'), "
        "a cell of your barnyard ((row, col)) or a Kind"
    )


def draw_odds(view: HensView, kind: Kind | str | int | Cell, draws: int = 2) -> DrawOdds:
    """Exact odds for the next `draws` deck draws, from `view` (see the module note)."""
    if not isinstance(draws, int) or isinstance(draws, bool) or draws < 1:
        raise ValueError(f"draws must be a whole number of at least 1, not {draws!r}")
    if draws > view.deck_size:
        raise ValueError(f"the deck holds {view.deck_size} cards: cannot draw {draws}")
    k = _kind(view, kind)
    unseen = view.unseen()
    population = sum(unseen.values())
    matching = sum(n for c, n in unseen.items() if k.test(c))
    return DrawOdds(k.description, draws, population, matching,
                    tuple(hypergeometric(population, matching, draws)), k.one, k.many)


def chance_at_least_one(view: HensView, kind: Kind | str | int | Cell, draws: int = 2) -> Fraction:
    """P(at least one card of `kind` in the next `draws` deck draws), from `view`."""
    return draw_odds(view, kind, draws).at_least_one


def expected_number(view: HensView, kind: Kind | str | int | Cell, draws: int = 2) -> Fraction:
    """Expected number of cards of `kind` in the next `draws` deck draws, from `view`."""
    return draw_odds(view, kind, draws).expected

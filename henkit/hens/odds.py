"""The hidden cards as one player sees them: draw odds (hypergeometric) and sampled states.

The model. A player cannot locate some cards (`View.unlocated()`): the deck, the part of each
opponent's hand not publicly known, and opponents' face-down coops. Every arrangement of those
cards over those places is taken as equally likely (nothing is assumed about why opponents
kept, hid or discarded what they did). Two things follow from it, each computed here:

- `draw_odds`: the deck is a random handful of the unlocated cards, so the next k deck draws are
  k cards drawn at random, without replacement, from them:

      P(the next draw is X) = (copies of X the player cannot locate) / (cards it cannot locate)

  and the number of cards of a kind among k draws is hypergeometric. A card publicly known to
  be in an opponent's hand (taken from a discard pile, not yet played or discarded) is located:
  it is not in the deck, so it never counts. All results are exact `Fraction`s.
- `sample_state`: a full state dealt at random under that model, agreeing with everything the
  view shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from henkit.checks import whole
from henkit.core import Seed, make_rng
from henkit.hens.barnyard import Barnyard, Cell, check_cell
from henkit.hens.cards import BREEDS, Card, breed_index, card
from henkit.hens.state import Phase, State
from henkit.hens.view import View

MAX_POPULATION = 1000
"""The largest population `hypergeometric` takes (a Hens deck holds 72 cards)."""


@dataclass(frozen=True)
class Kind:
    """A kind of card to hope for: a description in words and a test on cards.

    `test(card)` says whether a card is of the kind. `one` and `many` finish the sentences
    "1 of the unseen cards ..." and "5 of the unseen cards ..." (e.g. "is a Padovana", "are
    Padovanas"); when left out they are built from the description."""

    description: str
    test: Callable[[Card], bool]
    one: str = ""
    many: str = ""

    def __post_init__(self) -> None:
        for name in ("description", "one", "many"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"a Kind's {name} must be text, not {getattr(self, name)!r}")
        if not self.description:
            raise ValueError("a Kind needs a description, e.g. 'a red hen'")
        if not callable(self.test):
            raise ValueError(
                f"a Kind's test must be a function of a card giving True or False, not "
                f"{self.test!r}"
            )
        if not self.one:
            object.__setattr__(self, "one", f"is {self.description}")
        if not self.many:
            object.__setattr__(self, "many", f"are of the kind {self.description!r}")

    def matches(self, c: Card) -> bool:
        """Whether card `c` is of this kind (ValueError if the test fails on it)."""
        try:
            return bool(self.test(c))
        except Exception as e:  # noqa: BLE001 - a caller's test may raise anything
            raise ValueError(
                f"the test of the kind {self.description!r} failed on the card {c}: "
                f"{type(e).__name__}: {e} (a Kind's test takes a Card and gives True or False)"
            ) from None

    def __str__(self) -> str:
        return self.description


def of_breed(code: str) -> Kind:
    """Any card of a breed, given by code ('Pa') or name ('Padovana')."""
    breed = BREEDS[breed_index(code)]
    name = breed.name
    plural = name if name.endswith("s") else f"{name}s"  # one Faverolles, two Faverolles
    return Kind(f"a {name}", lambda c: c.breed is breed, f"is a {name}", f"are {plural}")


def of_number(number: int) -> Kind:
    """Any card with this number (1-6)."""
    n = whole(number, "a card number", 1, 6)
    return Kind(f"a number {n}", lambda c: c.number == n, f"is numbered {n}", f"are numbered {n}")


def exactly(code: str) -> Kind:
    """One particular card kind, e.g. 'Pa3' (either copy)."""
    k = card(code)
    return Kind(f"a {k}", lambda c: c == k, f"is a {k}", f"are {k}s")


def fits_cell(barnyard: Barnyard, cell: Cell) -> Kind:
    """Any card that may go as a hen at `cell` of `barnyard`."""
    if not isinstance(barnyard, Barnyard):
        raise ValueError(f"fits_cell needs a Barnyard, not {barnyard!r}")
    cell = check_cell(cell)
    could = f"could go as a hen at row {cell[0]}, column {cell[1]}"
    return Kind(f"a hen that fits {cell}", lambda c: cell in barnyard.hen_cells(c), could, could)


def hypergeometric(population: int, successes: int, draws: int) -> list[Fraction]:
    """P(exactly j successes) for j = 0..draws, drawing `draws` of `population` items without
    replacement when `successes` of them are successes (population at most MAX_POPULATION)."""
    population = whole(population, "population", 0, MAX_POPULATION)
    successes = whole(successes, "successes", 0, population)
    draws = whole(draws, "draws", 0, population)
    total = comb(population, draws)
    return [Fraction(comb(successes, j) * comb(population - successes, draws - j), total)
            for j in range(draws + 1)]


@dataclass(frozen=True)
class DrawOdds:
    """The odds that the next `draws` deck draws bring cards of `kind`, from one player's view:
    `matching` of the `unseen` cards the player cannot locate are of the kind, and
    `distribution[j]` is P(exactly j of the kind), j = 0..draws (hypergeometric)."""

    kind: str
    draws: int
    unseen: int  # cards the player cannot locate (see the module note)
    matching: int  # of which are of the kind
    distribution: tuple[Fraction, ...]  # P(exactly j of the kind), j = 0..draws
    one: str = ""  # finishes "1 of the unseen cards ...", e.g. "is a Padovana" (see Kind)
    many: str = ""  # finishes "5 of the unseen cards ...", e.g. "are Padovanas"

    def __post_init__(self) -> None:
        for name in ("kind", "one", "many"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"DrawOdds' {name} must be text, not {getattr(self, name)!r}")
        unseen = whole(self.unseen, "unseen (cards the player cannot locate)", 0, MAX_POPULATION)
        matching = whole(self.matching, "matching (cards of the kind)", 0, unseen)
        draws = whole(self.draws, "draws", 1, unseen)
        want = tuple(hypergeometric(unseen, matching, draws))
        if not isinstance(self.distribution, tuple) or self.distribution != want:
            raise ValueError(
                f"distribution must be the hypergeometric odds of {self.matching} matching among "
                f"{self.unseen} cards in {self.draws} draws, {want}, not {self.distribution!r}"
            )
        # numpy integers are stored as ints
        for name, value in (("draws", draws), ("unseen", unseen), ("matching", matching)):
            object.__setattr__(self, name, value)

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


def as_kind(view: View, kind: Kind | str | int | Cell) -> Kind:
    """The Kind meant by `kind`: a Kind itself, a card ('Pa3'), a breed ('Pa' or 'Padovana'),
    a number (1-6) or a cell (row, col) of the viewer's barnyard."""
    if not isinstance(view, View):
        raise ValueError(f"odds need a View (state.view(player)), not {view!r}")
    if isinstance(kind, Kind):
        return kind
    if isinstance(kind, str):
        try:
            return exactly(kind)
        except ValueError:
            pass
        try:
            return of_breed(kind)
        except ValueError:
            pass
    elif isinstance(kind, (tuple, list)):
        return fits_cell(view.barnyard, kind)
    else:
        try:
            number = whole(kind, "a card number")
        except ValueError:
            pass
        else:
            return of_number(number)
    raise ValueError(
        f"{kind!r} is not a kind of card: give a breed ('Pa'), a number (1-6), a card ('Pa3'), "
        "a cell of your barnyard ((row, col)) or a Kind"
    )


def draw_odds(view: View, kind: Kind | str | int | Cell, draws: int = 2) -> DrawOdds:
    """Exact odds of cards of `kind` in the next `draws` deck draws, from `view`: hypergeometric
    over the cards the viewer cannot locate (see the module note)."""
    if not isinstance(view, View):
        raise ValueError(f"draw_odds needs a View (state.view(player)), not {view!r}")
    draws = whole(draws, "draws", 1)
    if draws > view.deck_size:
        raise ValueError(f"the deck holds {view.deck_size} cards: cannot draw {draws}")
    k = as_kind(view, kind)
    pool = view.unlocated()
    population = sum(pool.values())
    matching = sum(n for c, n in pool.items() if k.matches(c))
    return DrawOdds(k.description, draws, population, matching,
                    tuple(hypergeometric(population, matching, draws)), k.one, k.many)


def chance_at_least_one(view: View, kind: Kind | str | int | Cell, draws: int = 2) -> Fraction:
    """P(at least one card of `kind` in the next `draws` deck draws), from `view`."""
    return draw_odds(view, kind, draws).at_least_one


def expected_number(view: View, kind: Kind | str | int | Cell, draws: int = 2) -> Fraction:
    """Expected number of cards of `kind` in the next `draws` deck draws, from `view`."""
    return draw_odds(view, kind, draws).expected


def sample_state(view: View, seed: Seed = None) -> State:
    """A full state that `view` could come from, dealt at random under the module's model.

    The cards the viewer cannot locate (`view.unlocated()`) are shuffled and dealt into the
    places the viewer cannot see: the unknown part of each opponent's hand (whose known cards
    stay in it), each opponent's face-down coops (top row first), and the deck. The cards known
    to be in an opponent's hand or coops (`known_in_hand_or_coops`) are first put with that
    opponent's dealt share and the share shuffled, so each lands in that hand or under one of
    those coops, never in the deck. In the rooster
    phase an opponent who has chosen gets a rooster cell on one of their hens at random (H10:
    hidden until all have chosen); every other public fact, revealed roosters included, is
    copied. The sample validates and its view from `view.player` equals `view`; ValueError if no
    game could show this view. The same seed gives the same sample.
    """
    if not isinstance(view, View):
        raise ValueError(f"sample_state needs a View (state.view(player)), not {view!r}"[:200])
    rng = make_rng(seed)
    known = _CHECKED.get(id(view))
    if known is not None and known[0] is view:
        return _trusted(known[1], *_deal(view, known[2], rng))
    plan = _plan(view)
    deck, hands, yards, choices = _deal(view, plan, rng)
    try:
        s = State(
            rules=view.rules, goal=view.goal, removed_breeds=view.removed_breeds,
            first_player=view.first_player, phase=view.phase, player=view.to_move,
            round=view.round, turn=(view.to_move - view.first_player) % view.players,
            draws=view.draws, deck=deck, hands=hands, discards=view.discards, barnyards=yards,
            rooster_chosen=view.rooster_chosen, rooster_choices=choices,
            known_in_hand=view.known_in_hand, known_in_hand_or_coops=view.known_in_hand_or_coops,
        )
    except ValueError as e:
        raise ValueError(f"this view could not come from a game: {e}") from None
    if s.view(view.player) != view:
        raise ValueError("this view could not come from a game: a state holding its public "
                         "facts shows a different view")
    # Whether a deal validates, and shows `view` again, depends on the view alone, not on the
    # shuffle: every deal puts the same multiset of cards in the same places (the unlocated
    # cards, in the same number per hand, coops and deck, each card known to be held in its
    # player's hand or coops), with the same public fields, and an opponent's rooster on one
    # of the same hens (any hen obeys H10). Layouts do not change either: a coop's card only
    # counts towards its kind's copies, which the whole-deck check bounds. So once one deal of
    # this view passed every check, later deals of it skip them (tests/hens/test_sample_fast.py
    # checks each against the full construction). The view is kept with its entry, so its id
    # cannot be reused by another object while the entry lives.
    with _CHECKED_LOCK:  # kernels may sample from several threads
        if len(_CHECKED) >= _CHECKED_MAX:
            del _CHECKED[next(iter(_CHECKED))]  # the oldest entry
        _CHECKED[id(view)] = (view, s, plan)
    return s


_CHECKED: dict[int, tuple[View, State, tuple]] = {}
"""Views whose deals passed every check: id -> (the view, its first sample, its `_plan`)."""
_CHECKED_MAX = 64
_CHECKED_LOCK = threading.Lock()
"""Entries `_CHECKED` keeps (a lesson samples a few views thousands of times each)."""


def _plan(view: View) -> tuple:
    """What every deal of `view` shares: the cards to deal (sorted), and per seat the unknown
    hand slots, the face-down coops and the cards known to be held; ValueError if they do not
    add up."""
    n, me = view.players, view.player
    pool = [k for k, c in sorted(view.unlocated().items()) for _ in range(c)]
    coops = view.hidden_coops()
    slots = [view.hand_sizes[q] - len(view.known_in_hand[q]) if q != me else 0 for q in range(n)]
    held = [view.known_in_hand_or_coops[q] if q != me else () for q in range(n)]
    if any(len(held[q]) > slots[q] + coops[q] for q in range(n)):
        raise ValueError("this view could not come from a game: more cards are known to be in a "
                         "hand or under its player's coops than that hand and those coops hold")
    wanted = (sum(slots) + sum(coops[q] for q in range(n) if q != me) + view.deck_size
              - sum(map(len, held)))
    if min(slots) < 0 or wanted != len(pool):
        raise ValueError(
            f"this view could not come from a game: {len(pool)} cards are unaccounted for, but "
            f"opponents' unknown hand cards, their face-down coops and the deck take {wanted}"
        )
    return pool, coops, slots, held


def _deal(view: View, plan: tuple, rng: np.random.Generator) -> tuple:
    """One random deal of `view`'s unlocated cards under `plan`: the deck (sorted), the hands,
    the barnyards and the rooster choices of the sampled state."""
    pool, coops, slots, held = plan
    n, me = view.players, view.player
    # Shuffling a list swaps as `permutation` does (the same draws from the stream, the same
    # order: tests/hens/test_speedups.py), without an index array to read the cards through.
    cards = pool.copy()
    rng.shuffle(cards)
    at = 0
    hands, yards, choices = list(view.hand_sizes), list(view.barnyards), list(view.rooster_choices)
    hands[me] = view.hand
    for q in range(n):
        if q == me:
            continue
        m = slots[q] + coops[q] - len(held[q])
        places = cards[at:at + m]
        at += m
        if held[q]:  # the held cards take random places among the hand's unknown cards and coops
            places += held[q]
            rng.shuffle(places)
        hands[q] = view.known_in_hand[q] + tuple(places[:slots[q]])
        yards[q] = yards[q].with_coop_cards(places[slots[q]:])
        if view.phase == Phase.ROOSTER and view.rooster_chosen[q]:
            hens = [c for c, _ in yards[q].hens()]
            choices[q] = hens[int(rng.integers(len(hens)))] if hens else None
    return tuple(sorted(cards[at:])), tuple(hands), tuple(yards), tuple(choices)


def _trusted(first: State, deck: tuple, hands: tuple, yards: tuple, choices: tuple) -> State:
    """A deal of a view whose first sample `first` passed every check, built as `State(...)`
    would build it (sorted deck and hands) without checking it again."""
    s = first._copy()
    s.deck = deck
    s.hands = tuple([tuple(sorted(h)) for h in hands])
    s.barnyards = yards
    s.rooster_choices = choices
    return s


__all__ = [
    "MAX_POPULATION", "DrawOdds", "Kind", "as_kind", "chance_at_least_one", "draw_odds",
    "exactly", "expected_number", "fits_cell", "hypergeometric", "of_breed", "of_number",
    "sample_state",
]

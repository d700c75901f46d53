"""Bayes with cards: what an opponent's draw says about the hand you cannot see.

The model is the one of `henkit.hens.odds`: from one player's view, every arrangement of the
cards that player cannot locate (`View.unlocated()`) over the places they cannot see is equally
likely. So the unknown part of an opponent's hand is a random handful of those cards, and the
chance of each possible handful is the **prior** (`hand_prior`, exact by counting).

When the opponent then draws, what they did is evidence. Its **likelihood** given each possible
hand comes from a model of how they decide: here the greedy bot's draw rule (`greedy_draw`:
take a discard top only when it scores more now than every card in hand). Bayes' rule weighs
every hand by prior x likelihood, and dividing by their sum, the chance of the evidence, gives
the **posterior** (`posterior`). From it follow what the evidence says about the hand (the
number of cards of a kind in it, `Posterior.count_table`) and how the odds of the deck's top
card move (`Posterior.deck_top`): given the hand, the deck is a random part of the unlocated
cards the hand does not hold.

Every chance is an exact `Fraction`. Bad input is a ValueError naming what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain
from math import comb

import numpy as np

from henkit.checks import whole
from henkit.hens.actions import DECK
from henkit.hens.barnyard import Barnyard
from henkit.hens.cards import NUM_KINDS, Card, card, cards_from
from henkit.hens.goals import goal_card
from henkit.hens.odds import Kind, as_kind
from henkit.hens.scoring import total
from henkit.hens.state import pile_problem
from henkit.hens.view import View

MAX_HANDS = 100_000
"""The most possible hands `hand_prior` lists (a 4-card hand of 32 unseen cards has at most
35,960; early in a 4-player game there can be far more)."""

Likelihood = Callable[[tuple[Card, ...]], Fraction | int | bool]
"""The chance of the evidence given the opponent's whole hand (known cards and unknown ones)."""


def _opponent(view: View, seat: object) -> int:
    """`seat` checked as an opponent of the viewer whose unknown hand cards the prior can list."""
    if not isinstance(view, View):
        raise ValueError(f"a hand's prior needs a View (state.view(player)), not {view!r}"[:200])
    q = whole(seat, "seat (the opponent, counted from 0)", 0, view.players - 1)
    if q == view.player:
        raise ValueError(f"seat {q} is the viewer: give an opponent's seat, whose hand is hidden")
    if view.known_in_hand_or_coops[q]:
        # Such a card is in that hand or under a coop: the hand's cards are then not a plain
        # random handful of the unlocated cards.
        raise ValueError(
            f"seat {q} has cards known to be in its hand or under its coops "
            f"({', '.join(map(str, view.known_in_hand_or_coops[q]))}): the prior here lists only "
            "hands whose unknown cards are a random handful of the unlocated cards"
        )
    return q


def unknown_cards(view: View, seat: int) -> int:
    """How many cards of `seat`'s hand the viewer does not know (hand size less known cards)."""
    q = _opponent(view, seat)
    return view.hand_sizes[q] - len(view.known_in_hand[q])


def _handfuls(view: View, seat: int) -> tuple[list[tuple[Card, ...]], list[int], int]:
    """Every possible unknown part of `seat`'s hand (sorted cards), the number of ways to pick
    each from the unlocated cards, and the number of ways to pick any (their sum)."""
    q = _opponent(view, seat)
    m = view.hand_sizes[q] - len(view.known_in_hand[q])
    pool = view.unlocated()
    population = sum(pool.values())
    if m > population:
        raise ValueError(f"seat {q} holds {m} unknown cards but only {population} are unlocated: "
                         "this view could not come from a game")
    kinds = sorted(pool)
    if comb(len(kinds) + m - 1, m) > MAX_HANDS:
        raise ValueError(f"more than {MAX_HANDS:,} possible hands: too many to list one by one "
                         "(ask later in the game, when fewer cards are unseen)")
    # Handfuls of kinds with repeats, in sorted order (that of combinations_with_replacement);
    # a kind may repeat only as often as it has copies, and copies are alike: C(copies, n) ways
    # to pick n of them. Built kind by kind, so no handful with too many copies is ever made:
    # the handfuls from kinds[i:] are those that start with kind i (more copies first: Pa1 Pa1
    # Pa2 sorts before Pa1 Pa2 Pa2), then those from kinds[i + 1:]. The shorter tails are
    # listed once each and shared (not rebuilt for every prefix, as recursing would).
    copies = [pool[k] for k in kinds]
    tails: dict[tuple[int, int], tuple[list[tuple[Card, ...]], list[int]]] = {}

    def after(i: int, left: int) -> tuple[list[tuple[Card, ...]], list[int]]:
        """The handfuls of `left` cards from kinds[i:], in sorted order, with their ways."""
        if not left:
            return [()], [1]
        got = tails.get((i, left))
        if got is None:
            hands: list[tuple[Card, ...]] = []
            ways: list[int] = []
            if i < len(kinds):
                k, c = kinds[i], copies[i]
                for t in range(min(c, left), 0, -1):
                    head, n = (k,) * t, comb(c, t)
                    rest, rest_ways = after(i + 1, left - t)
                    hands += [head + h for h in rest]
                    ways += [n * w for w in rest_ways]
                rest, rest_ways = after(i + 1, left)
                hands += rest
                ways += rest_ways
            got = tails[i, left] = hands, ways
        return got

    hands, ways = after(0, m)
    return hands, ways, comb(population, m)


def hand_prior(view: View, seat: int) -> tuple[tuple[tuple[Card, ...], Fraction], ...]:
    """Every possible unknown part of opponent `seat`'s hand, from `view`, with its chance.

    Copies of a card are alike, so a hand is a sorted tuple of cards; its chance is the number
    of ways to pick it from the unlocated cards over the number of ways to pick any handful of
    that size (all handfuls equally likely: the module's model). The chances add up to 1."""
    hands, ways, everything = _handfuls(view, seat)
    return tuple((h, Fraction(n, everything)) for h, n in zip(hands, ways, strict=True))


def greedy_value(barnyard: Barnyard, goal: int, c: Card | str | int) -> int:
    """The score the greedy bot gives card `c`: the barnyard's best total once `c` is placed now
    (as a hen where it fits; as a coop when no hen reaches the present total less 1, which is all
    a coop can score; the present total when it cannot be placed at all)."""
    if not isinstance(barnyard, Barnyard):
        raise ValueError(f"greedy_value needs a Barnyard, not {barnyard!r}"[:200])
    goal_card(goal)  # ValueError unless a goal card number 1-6
    c = card(c)
    now = total(barnyard, goal)
    best = max((total(barnyard.place(c, cell), goal) for cell in barnyard.hen_cells(c)),
               default=None)
    if best is None or best < now - 1:
        coop = max((total(barnyard.place(c, cell, coop=True), goal)
                    for cell in barnyard.coop_cells()), default=None)
        if coop is not None and (best is None or coop > best):
            best = coop
    return now if best is None else best


def _empty_hand(barnyard: Barnyard, goal: int) -> int:
    """What the greedy bot's rule gives an empty hand: the best coop's total (nothing is placed
    as a hen), or the present total when no coop fits."""
    return max((total(barnyard.place(0, cell, coop=True), goal) for cell in barnyard.coop_cells()),
               default=total(barnyard, goal))


def greedy_draw(barnyard: Barnyard, goal: int, hand: Sequence[Card | str | int],
                tops: Sequence[tuple[int, Card | str | int]], deck: bool = True) -> int:
    """Where the greedy bot draws from: the seat whose discard top scores most now, if that
    beats every card in `hand`; else DECK (or, when the deck is empty, the first pile).

    `tops` lists (seat, top card) of the piles it may take from, in the engine's order (seat
    order; a tie goes to the first); `deck` says whether the deck holds a card. Each card's
    score is `greedy_value`."""
    cards = cards_from(hand, "hand")
    if not isinstance(tops, list | tuple) or not all(
            isinstance(t, list | tuple) and len(t) == 2 for t in tops):
        raise ValueError(f"tops must list (seat, top card) pairs, e.g. [(0, 'Ba3')], not "
                         f"{tops!r}"[:200])
    tops = [(whole(s, "a pile's seat", 0, 3), card(t)) for s, t in tops]
    if not isinstance(deck, bool):
        raise ValueError(f"deck must be True (the deck holds a card) or False, not {deck!r}"[:200])
    if not deck and not tops:
        raise ValueError("nothing to draw: the deck is empty and no pile may be taken from")
    best = max((greedy_value(barnyard, goal, c) for c in cards), default=None)
    if best is None:
        best = _empty_hand(barnyard, goal)
    pick = None
    for source, top in tops:
        v = greedy_value(barnyard, goal, top)
        if v > best:
            best, pick = v, source
    if pick is not None:
        return pick
    return DECK if deck else tops[0][0]


def _tops(view: View, seat: int) -> list[tuple[int, Card]]:
    """(seat, top card) of every pile `seat` may take from now, in the engine's order."""
    return [(s, pile[-1]) for s, pile in enumerate(view.discards)
            if pile_problem(s, seat, view.players, view.round, len(pile)) is None]


class _Scores(dict):
    """`greedy_value` of each card on one barnyard, worked out the first time it is asked for
    (a dict, so a hand's scores are plain lookups)."""

    def __init__(self, barnyard: Barnyard, goal: int) -> None:
        super().__init__()
        self.barnyard, self.goal = barnyard, goal

    def __missing__(self, c: Card) -> int:
        v = self[c] = greedy_value(self.barnyard, self.goal, c)
        return v


def greedy_takes(view: View, seat: int, source: int) -> Likelihood:
    """The likelihood "the greedy bot at `seat` drew the top of `source`'s pile", as a function
    of its whole hand: 1 when the greedy rule (`greedy_draw`) picks that pile, else 0.

    `view` is the viewer's view *before* the draw, with `seat` about to make its first or second
    draw; each card's score is worked out once, so a whole prior is weighed quickly."""
    q = _opponent(view, seat)
    if view.phase != "draw" or view.to_move != q:
        raise ValueError(f"the view must show seat {q} about to draw (phase 'draw'), not "
                         f"seat {view.to_move} in phase {view.phase!r}")
    source = whole(source, "source (the seat whose pile was taken)", 0, view.players - 1)
    tops = _tops(view, q)
    if source not in [s for s, _ in tops]:
        raise ValueError(f"seat {q} cannot take from seat {source}'s pile now (its own pile, an "
                         "empty pile and every pile in round 1 are not allowed)")
    yard, goal = view.barnyards[q], view.goal
    scores = _Scores(yard, goal)
    empty = _empty_hand(yard, goal)
    top_values = [(s, scores[t]) for s, t in tops]
    otherwise = DECK if view.deck_size else tops[0][0]
    picks: dict[int, int] = {}  # the best score in hand -> the likelihood it gives

    def likelihood(hand: tuple[Card, ...]) -> int:
        best = max(map(scores.__getitem__, hand), default=empty)
        got = picks.get(best)
        if got is None:
            # The greedy rule: the first pile whose top beats the best card so far.
            pick, top = otherwise, best
            for s, v in top_values:
                if v > top:
                    top, pick = v, s
            got = picks[best] = int(pick == source)
        return got

    return likelihood


@dataclass(frozen=True)
class CountRow:
    """One row of a Bayes table: hands holding `j` cards of a kind (among the unknown ones)."""

    j: int
    prior: Fraction  # P(j cards of the kind) before the evidence
    likelihood: Fraction  # P(evidence | j cards of the kind)
    joint: Fraction  # prior x likelihood = P(j cards and the evidence)
    posterior: Fraction  # joint / P(evidence) = P(j cards | the evidence)


@dataclass(frozen=True)
class Posterior:
    """Bayes' rule over every possible unknown part of an opponent's hand (build one with
    `posterior`): `hands[i]` can be picked from the unlocated cards in `ways[i]` ways out of
    `everything` (its prior is the ratio), the evidence has chance `likelihoods[i]` given it,
    and `evidence` is the chance of the evidence (the sum of prior x likelihood)."""

    view: View
    seat: int
    hands: tuple[tuple[Card, ...], ...]
    ways: tuple[int, ...]
    everything: int
    likelihoods: tuple[Fraction, ...]
    evidence: Fraction

    def __post_init__(self) -> None:
        _opponent(self.view, self.seat)
        n = len(self.hands) if isinstance(self.hands, tuple) else -1
        if not (n > 0 and isinstance(self.ways, tuple) and len(self.ways) == n
                and isinstance(self.likelihoods, tuple) and len(self.likelihoods) == n
                and isinstance(self.everything, int) and isinstance(self.evidence, Fraction)
                and 0 < self.evidence <= 1):
            raise ValueError("a Posterior holds hands with their ways and likelihoods, and the "
                             "evidence's chance: build one with posterior(view, seat, likelihood)")

    def chances(self, hand: Sequence[Card | str | int]) -> tuple[Fraction, Fraction, Fraction]:
        """(prior, likelihood, posterior) of one unknown part of the hand (cards in any order)."""
        key = tuple(sorted(cards_from(hand, "hand")))
        try:
            i = self.hands.index(key)
        except ValueError:
            raise ValueError(f"{', '.join(map(str, key)) or 'no card'} is not a possible unknown "
                             f"part of seat {self.seat}'s hand ({len(self.hands[0])} unlocated "
                             "cards)") from None
        prior = Fraction(self.ways[i], self.everything)
        return prior, self.likelihoods[i], prior * self.likelihoods[i] / self.evidence

    def _by_count(self, kind: Kind | str | int) -> tuple[list[int], list[Fraction]]:
        """Ways, and ways x likelihood, summed over the hands holding j cards of `kind`."""
        k = as_kind(self.view, kind)
        size = len(self.hands[0])
        # Test each kind of card once, not every card of every hand.
        hit = {c: k.matches(c) for c in self.view.unlocated()}
        table = self._table
        if table is None:  # ways too large for 64-bit sums: count in Python
            return self._by_count_slowly(hit, size)
        cards, ways, like_at, likes = table
        marks = np.zeros(NUM_KINDS, dtype=np.int64)
        for c, yes in hit.items():
            marks[c] = bool(yes)
        j = marks[cards].sum(axis=1)  # cards of the kind in each hand
        by_j = np.zeros(size + 1, dtype=np.int64)
        np.add.at(by_j, j, ways)
        # Whole numbers of ways per (likelihood, j), each multiplied by its likelihood once
        # (Fractions are slow to add one by one).
        some = like_at >= 0
        sums = np.zeros((len(likes), size + 1), dtype=np.int64)
        np.add.at(sums, (like_at[some], j[some]), ways[some])
        joint = [sum((like * int(sums[i, n]) for i, like in enumerate(likes)), Fraction(0))
                 for n in range(size + 1)]
        return [int(n) for n in by_j], joint

    def _by_count_slowly(self, hit: dict[Card, bool], size: int
                         ) -> tuple[list[int], list[Fraction]]:
        """`_by_count` one hand at a time, in Python's unbounded whole numbers."""
        ways = [0] * (size + 1)
        by_like: dict[Fraction, list[int]] = {}
        for hand, n, like in zip(self.hands, self.ways, self.likelihoods, strict=True):
            j = sum(hit[c] for c in hand)
            ways[j] += n
            if like:
                by_like.setdefault(like, [0] * (size + 1))[j] += n
        joint = [sum((like * sums[j] for like, sums in by_like.items()), Fraction(0))
                 for j in range(size + 1)]
        return ways, joint

    @cached_property
    def _table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[Fraction, ...]] | None:
        """The hands as arrays, for `_by_count`: their cards (a row a hand), their ways, the
        index of each hand's likelihood among the distinct nonzero ones (-1 for 0), and those
        likelihoods; None when the ways could overflow 64-bit sums."""
        size = len(self.hands[0])
        if (set(map(type, self.ways)) != {int} or min(self.ways) < 0
                or sum(self.ways) >= 1 << 62 or set(map(len, self.hands)) != {size}
                or not set(map(type, chain.from_iterable(self.hands))) <= {Card}):
            return None  # hands, ways or likelihoods not as `posterior` makes them
        # Equal likelihoods are mostly one object (`posterior` makes each distinct one once):
        # looking up ids spares hashing a Fraction per hand.
        by_id: dict[int, int] = {}
        by_value: dict[Fraction, int] = {}
        places = []
        for like in self.likelihoods:
            i = by_id.get(id(like))
            if i is None:
                i = by_value.setdefault(like, len(by_value)) if like else -1
                by_id[id(like)] = i
            places.append(i)
        like_at, likes = np.array(places, dtype=np.int64), tuple(by_value)
        # fromiter over the cards one by one is quicker than numpy reading a tuple per hand.
        cards = np.fromiter(chain.from_iterable(self.hands), dtype=np.int64,
                            count=len(self.hands) * size).reshape(len(self.hands), size)
        return cards, np.array(self.ways, dtype=np.int64), like_at, likes

    def count_table(self, kind: Kind | str | int) -> tuple[CountRow, ...]:
        """The Bayes table for the number j of cards of `kind` among the unknown hand cards:
        prior, likelihood, prior x likelihood and posterior for j = 0, 1, ..."""
        ways, joint = self._by_count(kind)
        rows = []
        for j, (n, both) in enumerate(zip(ways, joint, strict=True)):
            prior = Fraction(n, self.everything)
            together = both / self.everything
            rows.append(CountRow(j, prior, together / prior if n else Fraction(0), together,
                                 together / self.evidence))
        return tuple(rows)

    def holds(self, kind: Kind | str | int) -> tuple[Fraction, Fraction]:
        """(prior, posterior) chance that the unknown hand cards hold at least one of `kind`."""
        rows = self.count_table(kind)
        return 1 - rows[0].prior, 1 - rows[0].posterior

    def deck_top(self, kind: Kind | str | int) -> tuple[Fraction, Fraction]:
        """(prior, posterior) chance that the deck's top card is of `kind`.

        Given the hand, the deck is a random part of the unlocated cards the hand does not hold:
        P(top is of the kind | hand) = (unlocated of the kind - in the hand) / (unlocated - hand
        size), averaged with the prior's and with the posterior's weights."""
        k = as_kind(self.view, kind)
        pool = self.view.unlocated()
        population = sum(pool.values())
        matching = sum(n for c, n in pool.items() if k.matches(c))
        size = len(self.hands[0])
        if not self.view.deck_size:
            raise ValueError("the deck is empty: it has no top card")
        before = after = Fraction(0)
        for j, row in enumerate(self.count_table(k)):
            top = Fraction(matching - j, population - size)
            before += row.prior * top
            after += row.posterior * top
        return before, after


def posterior(view: View, seat: int, likelihood: Likelihood) -> Posterior:
    """Bayes' rule over every possible unknown part of `seat`'s hand (`hand_prior`): each hand's
    weight is prior x likelihood(whole hand), divided by their sum (the chance of the evidence).
    The whole hand given to `likelihood` is the cards known to be in it plus the unknown ones."""
    if not callable(likelihood):
        raise ValueError(f"likelihood must be a function of a hand giving a chance from 0 to 1, "
                         f"not {likelihood!r}"[:200])
    hands, ways, everything = _handfuls(view, seat)
    known = view.known_in_hand[seat]
    # Each distinct likelihood is made a Fraction once and each hand keeps its place among
    # them: hashing the likelihood as returned (mostly an int or a bool) is quick, hashing a
    # Fraction per hand is not.
    place: dict[int | Fraction, int] = {}
    distinct: list[Fraction] = []
    at: list[int] = []
    for hand in hands:
        try:
            like = likelihood(tuple(sorted(known + hand)) if known else hand)
        except Exception as e:  # noqa: BLE001 - a caller's likelihood may raise anything
            raise ValueError(f"the likelihood failed on the hand {', '.join(map(str, hand))}: "
                             f"{type(e).__name__}: {e}"[:300]) from None
        i = place.get(like) if isinstance(like, int | Fraction) else None
        if i is None:
            if isinstance(like, bool):
                like = int(like)
            if not isinstance(like, int | Fraction) or not 0 <= like <= 1:
                raise ValueError(f"a likelihood must be an exact chance from 0 to 1 (an int, a "
                                 f"Fraction or a bool), not {like!r} for the hand "
                                 f"{', '.join(map(str, hand))}"[:200])
            i = place[like] = len(distinct)
            distinct.append(Fraction(like))
        at.append(i)
    # Whole numbers of ways per likelihood, multiplied once (Fractions are slow one by one).
    sums = [0] * len(distinct)
    for i, n in zip(at, ways, strict=True):
        sums[i] += n
    weight = sum((like * n for like, n in zip(distinct, sums, strict=True)), Fraction(0))
    if weight == 0:
        raise ValueError("the evidence has chance 0 under this likelihood: no possible hand "
                         "explains it")
    likes = tuple(map(distinct.__getitem__, at))
    return Posterior(view, seat, tuple(hands), tuple(ways), everything, likes,
                     weight / everything)


__all__ = [
    "MAX_HANDS", "CountRow", "Likelihood", "Posterior", "greedy_draw", "greedy_takes",
    "greedy_value", "hand_prior", "posterior", "unknown_cards",
]

"""The state of a Hens game: immutable, with chance nodes for deck draws (`henkit.core` shape).

A turn is the rulebook's "Player Turn": two draws (each a decision "deck or which pile"; a deck
draw is followed by a chance node over the cards left in the deck), one placement, a discard down
to 4 cards (H7, H8). After round 6 every player chooses a rooster cell in turn; the choices stay
hidden from the other players' views until all have chosen (H10). The game is over after round
12.

The deck is held as a sorted tuple of cards: its order is never decided in advance, each deck
draw is a fresh chance outcome, which is the same as drawing from a shuffled deck.

Every public field of `State` is a key of `to_dict()` (plus "game": "hens"), and `State(**fields)`
builds a state from them (engine values or their JSON forms), checked by `validate`.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.core import CHANCE, TERMINAL, Seed, make_rng
from henkit.hens.actions import (
    ACTIONS,
    COOP_AT,
    DECK,
    DISCARDS,
    DRAW_AT,
    DRAW_DECK,
    PLACE_AT,
    Discard,
    Draw,
    Place,
    PlaceCoop,
    PlaceRooster,
)
from henkit.hens.barnyard import (
    CELL_OF,
    Barnyard,
    Cell,
    bit_list,
    bits_of,
    check_cell,
    rooster_problem,
)
from henkit.hens.cards import (
    BREED_INDEX,
    BREEDS,
    Card,
    breed_index,
    card,
    cards_from,
    check_removed,
    deck_cards,
)
from henkit.hens.rules import Rules, check_players
from henkit.hens.scoring import Score, score, total, winners
from henkit.hens.view import View, view_of


class Phase(StrEnum):
    """The phase of a Hens game; the values are the JSON strings of `to_dict`."""

    DRAW = "draw"  # the player to move draws from the deck or a pile (rulebook step 1, H7)
    CHANCE = "chance"  # the deck brings a card
    PLACE = "place"  # the player places a card (step 2, H5, H6, H9)
    DISCARD = "discard"  # the player discards a card (step 3, H8)
    ROOSTER = "rooster"  # after round 6, each player puts the rooster on a hen (H10)
    OVER = "over"  # every player has placed 12 cards


DRAW, CHANCE_DRAW, PLACE, DISCARD, ROOSTER, OVER = Phase  # the engine compares with `is`
HAND_SIZE = 4
ROUNDS = 12
ROOSTER_ROUND = 6
FIELDS = ("rules", "goal", "removed_breeds", "first_player", "phase", "player", "round", "turn",
          "draws", "deck", "hands", "discards", "barnyards", "rooster_chosen", "rooster_choices",
          "known_in_hand", "known_in_hand_or_coops")
"""The public fields of a State, in the order of `to_dict`."""


_TWO64 = 1 << 64


@cache
def _limit(n: int) -> int:
    """The largest multiple of n not above 2**64 (randbelow rejects raw numbers from there)."""
    return _TWO64 - _TWO64 % n


_LIMITS = tuple(_limit(n) if n else 0 for n in range(256))
"""`_limit(n)` for the n of play (legal moves, deck sizes), as a table: a cached call costs more
than the rest of randbelow."""


def randbelow(rng: np.random.Generator, n: int) -> int:
    """A uniform whole number 0..n-1 from the generator's raw 64-bit stream.

    Exactly uniform (rejection of the top partial block), and several times faster per call than
    `rng.integers(n)`, which matters at a few hundred draws per game.
    """
    if type(n) is int and 0 < n < 256:
        limit = _LIMITS[n]
    else:
        n = whole(n, "randbelow's n", 1, 1 << 63)
        limit = _limit(n)
    try:
        raw = rng.bit_generator.random_raw
    except AttributeError:
        raise ValueError(f"rng must be a numpy Generator, not {type(rng).__name__}") from None
    x = raw()
    while x >= limit:
        x = raw()
    return x % n


def _removed_from_seed(players: int, rng: np.random.Generator) -> tuple[int, ...]:
    """DECISIONS H4: the breeds taken out for 3 and 2 players, chosen at random."""
    tens = [BREED_INDEX["Se"], BREED_INDEX["Ba"]]
    twelves = [BREED_INDEX["Pa"], BREED_INDEX["Wy"]]
    if players == 4:
        return ()
    ten = tens[int(rng.integers(2))]
    if players == 3:
        return (ten,)
    return (twelves[int(rng.integers(2))], ten)


@cache
def _codes(removed: tuple[int, ...]) -> tuple[str, ...]:
    """The breed codes of sorted breed indices."""
    return tuple(BREEDS[i].code for i in removed)


@cache  # Rules are frozen: one shared default per player count
def _default_rules(players: int) -> Rules:
    """`Rules(players=players)`: what `State.new` plays without rules given."""
    return Rules(players=players)


class _Setup:
    """What a game fixes at its start, shared by all of its states: the rules, the goal card,
    the removed breeds (sorted indices and their codes), the first player and the player count.
    A state holds one reference to it, so copying a state in `apply` copies one field, not six."""

    __slots__ = ("first_player", "goal", "players", "removed", "removed_breeds", "rules")

    def __init__(self, rules: Rules, goal: int, removed: tuple[int, ...], first_player: int) -> None:
        self.rules, self.goal, self.first_player = rules, goal, first_player
        self.removed, self.removed_breeds = removed, _codes(removed)
        self.players = rules.players


class State:
    """A Hens game position. Immutable: `apply` returns a new state.

    Fields (each a key of `to_dict`): `rules`; `goal` (1-6); `removed_breeds` (codes, H4);
    `first_player` (seat); `phase` (a `Phase`); `player` (the seat to move, or to draw at a chance
    node); `round` (1-12); `turn` (how many players have played this round, or chosen a rooster);
    `draws` (cards drawn this turn); `deck` (sorted cards); `hands` (sorted, per seat);
    `discards` (bottom to top, per seat); `barnyards`; `rooster_chosen` and `rooster_choices`
    (per seat, H10); `known_in_hand` (per seat: the cards publicly known to be in that hand, see
    `known_after_draw`); `known_in_hand_or_coops` (per seat: cards publicly known to be in that
    hand or under that player's coops, so not in the deck: known hand cards once the player
    places a coop, see `known_after_coop`).

    `current_player` (not a field: it follows from `phase` and `player`) is who decides now: a
    seat, CHANCE (-1) at a deck draw, TERMINAL (-2) once the game is over.
    """

    # The setup fields (rules, goal, removed_breeds, first_player) live in one shared `_Setup`
    # and read as properties; the others change during play.
    # `current_player` is worked out whenever the phase or the player changes (the game loop
    # reads it at every move).
    __slots__ = (
        "_setup",
        "barnyards",
        "current_player",
        "deck",
        "discards",
        "draws",
        "hands",
        "known_in_hand",
        "known_in_hand_or_coops",
        "phase",
        "player",
        "rooster_choices",
        "rooster_chosen",
        "round",
        "turn",
    )

    def __init__(self, **fields: Any) -> None:
        """A state from all of its fields, as engine values or as `to_dict` writes them;
        ValueError names a missing, unknown or malformed field, or (through `validate`) any way
        the state could not arise in a game."""
        missing = [k for k in FIELDS if k not in fields]
        unknown = sorted(map(str, set(fields) - set(FIELDS)))
        if unknown:
            raise ValueError(f"unknown Hens state fields {unknown}; allowed: {list(FIELDS)}")
        if missing:
            raise ValueError(f"a Hens state needs the fields {missing}")
        _read_fields(self, fields)
        self.validate()

    @classmethod
    def new(cls, players: int = 2, rules: Rules | None = None, *, seed: Seed = None,
            first_player: int | None = None) -> State:
        """Set up a game: the deck for the player count (H4), 4 cards each, the goal card (H13)
        and the first player. `rules=None` means `Rules(players=players)`; given, its players
        must equal `players`. What the rules leave open (removed breeds, goal, and the first
        player unless `first_player` names a seat) is drawn from `seed`, in that order."""
        n = check_players(players)
        if rules is None:
            rules = _default_rules(n)
        elif not isinstance(rules, Rules):
            raise ValueError(f"rules must be henkit.hens Rules or None, not {type(rules).__name__}")
        elif rules.players != n:
            raise ValueError(f"the rules are for {rules.players} players but players is {n}")
        if first_player is not None:
            first_player = whole(first_player, "first_player (a seat index: 0 is player 1)", 0,
                                 n - 1)
            if rules.first_player is not None and rules.first_player != first_player:
                raise ValueError(f"first_player is {first_player} but the rules say "
                                 f"{rules.first_player}: give one of them")
        rng = make_rng(seed)
        if rules.removed_breeds is not None:
            removed = tuple(sorted(BREED_INDEX[c] for c in rules.removed_breeds))
        else:
            removed = tuple(sorted(_removed_from_seed(n, rng)))
        goal = rules.goal if rules.goal is not None else int(rng.integers(1, 7))
        if rules.first_player is not None:
            first = rules.first_player
        elif first_player is not None:
            first = first_player
        else:
            first = int(rng.integers(n))
        cards = deck_cards(removed)
        order = rng.permutation(len(cards)).tolist()  # plain ints index a tuple faster
        s = object.__new__(cls)
        s._setup = _Setup(rules, goal, removed, first)
        s.player, s.round, s.turn = first, 1, 0
        # Card order[j] goes to hand j // 4, the rest to the deck. `cards` is sorted, so the
        # cards at sorted positions come sorted (and plain ints sort faster than Cards).
        s.hands = tuple(tuple([cards[i] for i in sorted(order[p * HAND_SIZE:(p + 1) * HAND_SIZE])])
                        for p in range(n))
        s.deck = tuple([cards[i] for i in sorted(order[n * HAND_SIZE:])])
        s.discards = s.known_in_hand = s.known_in_hand_or_coops = ((),) * n
        s.barnyards = (Barnyard(),) * n
        s.rooster_chosen = (False,) * n
        s.rooster_choices = (None,) * n
        s._start_turn()
        return s

    def _copy(self) -> State:
        """A new state sharing every field with this one (`apply` then changes a few).

        One assignment a field: unpacking tuples of fields builds a tuple first (a sixth slower
        here, and every move of every game makes a copy)."""
        s = object.__new__(State)
        s._setup = self._setup
        s.phase = self.phase
        s.player = self.player
        s.current_player = self.current_player
        s.round = self.round
        s.turn = self.turn
        s.draws = self.draws
        s.deck = self.deck
        s.hands = self.hands
        s.discards = self.discards
        s.barnyards = self.barnyards
        s.known_in_hand = self.known_in_hand
        s.known_in_hand_or_coops = self.known_in_hand_or_coops
        s.rooster_chosen = self.rooster_chosen
        s.rooster_choices = self.rooster_choices
        return s

    def replace(self, **changes: Any) -> State:
        """A new state with some fields changed (checked like `State(**fields)`)."""
        return State(**{**{k: getattr(self, k) for k in FIELDS}, **changes})

    # ----- the setup fields -----
    @property
    def rules(self) -> Rules:
        """The rules the game was set up with."""
        return self._setup.rules

    @property
    def goal(self) -> int:
        """The goal card, 1-6 (H13)."""
        return self._setup.goal

    @property
    def removed_breeds(self) -> tuple[str, ...]:
        """The codes of the breeds taken out of the deck (H4)."""
        return self._setup.removed_breeds

    @property
    def first_player(self) -> int:
        """The seat that starts every round."""
        return self._setup.first_player

    # ----- the henkit.core protocol -----
    @property
    def players(self) -> int:
        """How many players play."""
        return self._setup.players

    @property
    def is_over(self) -> bool:
        """True once every player has placed 12 cards."""
        return self.phase is OVER

    @property
    def is_chance(self) -> bool:
        """True when the next card comes off the deck."""
        return self.phase is CHANCE_DRAW

    @property
    def roosters_revealed(self) -> bool:
        """True once every player has chosen and the roosters stand on the barnyards (H10)."""
        return self.round > ROOSTER_ROUND

    # ----- the rules of a turn -----
    def pile_problem(self, source: int) -> str | None:
        """Why the player to move may not draw the top of seat `source`'s discard pile; None when
        they may (`pile_problem` of the module)."""
        if type(source) is not int and isinstance(source, np.integer):
            source = int(source)  # numpy integers are seat indices too
        return pile_problem(source, self.player, self._setup.players, self.round,
                            len(self.discards[source]) if type(source) is int
                            and 0 <= source < self._setup.players else 0)

    def draw_sources(self) -> list[int]:
        """Where the player to move may draw from now (H7): DECK while it holds cards, then the
        seats whose pile may be drawn (`pile_problem`)."""
        return list(self._sources())

    def _sources(self) -> tuple[int, ...]:
        """`draw_sources()` as a tuple: `_pile_sources` less the piles that hold no card."""
        piles = self.discards
        return tuple(q for q in _PILE_SOURCES[len(piles)][self.player][self.round == 1][
            bool(self.deck)] if q == DECK or piles[q])

    def _can_draw(self) -> bool:
        """True when some draw source is left: `draw_sources()` is not empty."""
        return bool(self.deck) or bool(self._sources())

    def legal_actions(self) -> list[Any]:
        """Every legal move now (at a chance node: the cards the deck may bring).

        Placements come hen by hen (card by card, cells top row first), then coop by coop."""
        ph = self.phase
        p = self.player
        if ph is DRAW:
            return self.legal_moves()  # a fresh list
        if ph is PLACE:
            return self.legal_moves().to_list()
        if ph is DISCARD:
            return list(self.legal_moves())
        if ph is CHANCE_DRAW:
            return list(_distinct(self.deck))
        if ph is ROOSTER:
            yard = self.barnyards[p]
            if not yard.hen:
                return [PlaceRooster(None)]
            return [PlaceRooster(CELL_OF[i]) for i in bits_of(yard.hen)]
        return []

    def legal_moves(self) -> Sequence[Any]:
        """The legal moves as a sequence in the order of `legal_actions()`, quick to count and
        index without building every action (a placement has ~100): `Placements` in the place
        phase, a list in the draw phase, a tuple in the discard phase, else `legal_actions()`. A random bot
        picks `moves[randbelow(rng, len(moves))]`."""
        ph = self.phase
        if ph is DRAW:
            piles = self.discards
            # `_sources()` inline (a random bot asks this at every draw), its moves built by a
            # plain loop: for three or four moves a list comprehension's own call costs more.
            moves = []
            for q in _PILE_SOURCES[len(piles)][self.player][self.round == 1][bool(self.deck)]:
                if q == DECK:
                    moves.append(DRAW_DECK)
                elif piles[q]:  # a pile holding no card cannot be drawn (`_pile_sources`)
                    moves.append(DRAW_AT[q][piles[q][-1]])
            return moves
        if ph is PLACE:
            p = self.player
            return Placements(_distinct(self.hands[p]), self.barnyards[p])
        if ph is DISCARD:
            kinds = _distinct(self.hands[self.player])
            # The Discard of each distinct card, looked up in C (a hand to discard from holds
            # five cards, so at least one kind).
            return itemgetter(*kinds)(DISCARDS) if len(kinds) > 1 else (DISCARDS[kinds[0]],)
        return self.legal_actions()

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """Each card the deck may bring with its exact chance (copies left / deck size)."""
        if self.phase is not CHANCE_DRAW:
            raise ValueError(f"no chance node here: the game is in its {self.phase} phase")
        size = len(self.deck)
        return [(k, Fraction(c, size)) for k, c in sorted(Counter(self.deck).items())]

    def sample_chance(self, rng: np.random.Generator) -> Card:
        """Draw a chance outcome with the same distribution as `chance_outcomes`."""
        if self.phase is not CHANCE_DRAW:
            raise ValueError(f"no chance node here: the game is in its {self.phase} phase")
        return self.deck[randbelow(rng, len(self.deck))]

    def apply(self, action: Any) -> State:
        """The state after `action`; ValueError (naming the rule) if it is not legal here. The
        state itself never changes."""
        ph = self.phase
        if ph is DRAW:
            return self._draw(action)
        if ph is CHANCE_DRAW:
            return self._draw_from_deck(action)
        if ph is PLACE:
            return self._place(action)
        if ph is DISCARD:
            return self._discard(action)
        if ph is ROOSTER:
            return self._put_rooster(action)
        raise ValueError("the game is over: no move is left to play")

    def _draw(self, action: Any) -> State:
        """Rulebook step 1, "Draw two cards", one at a time (H7): the deck (its card is chance)
        or the top of an opponent's discard pile."""
        if type(action) is not Draw:
            raise self._not_now(action, "draw a card (Draw)")
        source = action.source
        if source == DECK:
            if not self.deck:
                raise ValueError("the deck is empty: draw from an opponent's discard pile")
            s = self._copy()
            s.phase, s.current_player = CHANCE_DRAW, CHANCE
            return s
        n = self._setup.players
        piles = self.discards
        # The table of `pile_problem` first (a seat it allows, holding a card, may be drawn);
        # the rule itself for anything else, to say why not.
        if not (source in _PILE_SOURCES[n][self.player][self.round == 1][False]
                and piles[source]):
            why = pile_problem(source, self.player, n, self.round,
                               len(piles[source]) if type(source) is int and 0 <= source < n
                               else 0)
            if why:
                raise ValueError(why)
        pile = piles[source]
        top = pile[-1]
        if action.card is not None and action.card != top:
            raise ValueError(
                f"the top of player {source + 1}'s discard pile is {top}, not {action.card}")
        s = self._copy()
        s.discards = _set(self.discards, source, pile[:-1])
        s.known_in_hand = _set(self.known_in_hand, self.player,
                               _known_after_draw(self.known_in_hand[self.player], top))
        s._take(top)
        return s

    def _draw_from_deck(self, outcome: Any) -> State:
        """The chance outcome of a deck draw: the card the deck brings."""
        k = outcome
        if type(k) is not Card:  # sample_chance gives Cards; accept 'Pa3' or an int too
            try:
                k = card(outcome)
            except ValueError:
                raise ValueError(f"{_short(outcome)} is not a chance outcome: the deck brings a "
                                 "card") from None
        deck = self.deck
        i = bisect_left(deck, k)  # the deck is sorted; copies of a card are alike
        if i == len(deck) or deck[i] != k:
            raise ValueError(f"the deck holds no {k}: it cannot be drawn")
        s = self._copy()
        s.deck = deck[:i] + deck[i + 1:]
        s._take(deck[i])
        return s

    def _take(self, k: Card) -> None:
        """(On a fresh copy) the player to move takes card k into their hand; after two draws,
        or when nothing is left to draw, they place (H7)."""
        p = self.player
        hands = self.hands
        hand = hands[p]
        i = bisect_right(hand, k)  # hands stay sorted
        hands = list(hands)
        hands[p] = hand[:i] + (k,) + hand[i:]
        self.hands = tuple(hands)
        self.draws = draws = self.draws + 1
        # `_can_draw()` inline: the deck first (it usually holds cards).
        self.phase = PLACE if draws >= 2 or not (self.deck or self._sources()) else DRAW
        self.current_player = p

    def _place(self, action: Any) -> State:
        """Rulebook step 2, "Place a Hen card in your barnyard": a card from the hand as a hen or
        face down as a coop, where the placement rules allow (`Barnyard.place`)."""
        kind = type(action)
        if kind is not Place and kind is not PlaceCoop:
            raise self._not_now(action, "place a card (Place or PlaceCoop)")
        p = self.player
        hands = self.hands
        hand = hands[p]
        k = action.card
        try:
            j = hand.index(k)
        except ValueError:
            raise ValueError(f"cannot place {k}: it is not in player {p + 1}'s hand "
                             f"({' '.join(map(str, hand))})") from None
        coop = kind is PlaceCoop
        yard = self.barnyards[p].place(k, action.cell, coop)  # ValueError naming the rule
        s = self._copy()
        yards = list(self.barnyards)
        yards[p] = yard
        s.barnyards = tuple(yards)
        if yard.rooster != self.barnyards[p].rooster:
            # A card at row or column -1 shifts the frame: the revealed rooster's cell moves.
            s.rooster_choices = _set(self.rooster_choices, p, yard.rooster_cell)
        hands = list(hands)
        hands[p] = hand[:j] + hand[j + 1:]
        s.hands = tuple(hands)
        known = self.known_in_hand[p]
        if known:
            if coop:
                s.known_in_hand = _set(self.known_in_hand, p, _known_after_coop(known))
                s.known_in_hand_or_coops = _set(
                    self.known_in_hand_or_coops, p,
                    _held_after_coop(known, self.known_in_hand_or_coops[p]))
            elif k in known:
                s.known_in_hand = _set(self.known_in_hand, p, _known_after_seen(known, k))
            elif k in self.known_in_hand_or_coops[p]:
                s._seen_held(p, k)
        elif not coop and k in self.known_in_hand_or_coops[p]:
            s._seen_held(p, k)
        if _MUST_DISCARD[len(hand) - 1]:
            s.phase = DISCARD
        else:
            s._end_turn()
        return s

    def _seen_held(self, p: int, k: Card) -> None:
        """Player p showed card k leaving the hand (not a card known to be in it, but one known
        to be in p's hand or coops): that copy may have been it, so it is no longer certain
        (`known_after_seen`)."""
        self.known_in_hand_or_coops = _set(
            self.known_in_hand_or_coops, p, _known_after_seen(self.known_in_hand_or_coops[p], k))

    def _discard(self, action: Any) -> State:
        """Rulebook step 3, "Discard a Hen card" on one's own pile, down to 4 cards (H8)."""
        if type(action) is not Discard:
            raise self._not_now(action, "discard a card (Discard)")
        p = self.player
        hands = self.hands
        hand = hands[p]
        k = action.card
        try:
            j = hand.index(k)
        except ValueError:
            raise ValueError(f"cannot discard {k}: it is not in player {p + 1}'s hand "
                             f"({' '.join(map(str, hand))})") from None
        s = self._copy()
        hands = list(hands)
        hands[p] = hand[:j] + hand[j + 1:]
        s.hands = tuple(hands)
        piles = list(self.discards)
        piles[p] += (hand[j],)  # the hand's own Card object (action.card may be an equal int)
        s.discards = tuple(piles)
        known = self.known_in_hand[p]
        if k in known:
            s.known_in_hand = _set(self.known_in_hand, p, _known_after_seen(known, k))
        elif k in self.known_in_hand_or_coops[p]:
            s._seen_held(p, k)
        if _MUST_DISCARD[len(hand) - 1]:
            return s
        s._end_turn()
        return s

    def _put_rooster(self, action: Any) -> State:
        """DECISIONS H10: after round 6 each player in turn chooses the hen for the rooster,
        unseen by the others; once all have chosen the roosters are revealed and round 7 begins."""
        if type(action) is not PlaceRooster:
            raise self._not_now(action, "put the rooster on a hen (PlaceRooster)")
        p = self.player
        why = rooster_problem(self.barnyards[p], action.cell)
        if why:
            raise ValueError(why)
        s = self._copy()
        s.rooster_chosen = _set(self.rooster_chosen, p, True)
        s.rooster_choices = _set(self.rooster_choices, p, action.cell)
        s.turn += 1
        n = self._setup.players
        if s.turn < n:
            s.player = s.current_player = (self._setup.first_player + s.turn) % n
            return s
        s.barnyards = tuple(y.with_rooster(c)
                            for y, c in zip(s.barnyards, s.rooster_choices, strict=True))
        s.round = ROOSTER_ROUND + 1
        s.turn = 0
        s.player = self._setup.first_player
        s._start_turn()
        return s

    def _not_now(self, action: Any, wanted: str) -> ValueError:
        # An action is named in code and in words: its repr holds seat indices (from 0), its
        # words count players from 1.
        what = f"{action!r} ({action})" if isinstance(action, ACTIONS) else _short(action)
        return ValueError(f"{what} is not a move now: player {self.player + 1} must {wanted}")

    def _start_turn(self) -> None:
        """(On a fresh copy) the player to move begins a turn: they draw, or place when nothing
        is left to draw."""
        self.draws = 0
        # `_can_draw()` inline: the deck first (it usually holds cards).
        self.phase = DRAW if self.deck or self._sources() else PLACE
        self.current_player = self.player

    def _end_turn(self) -> None:
        """Rulebook "Player Turn": play passes clockwise; after the round's last player comes the
        rooster (after round 6, H10) or the next round, and after round 12 the end."""
        setup = self._setup
        n = setup.players
        self.turn += 1
        if self.turn < n:
            self.player = (setup.first_player + self.turn) % n
            self._start_turn()
            return
        self.turn = 0
        self.player = self.current_player = setup.first_player
        if self.round == ROUNDS:
            self.phase, self.current_player = OVER, TERMINAL
        elif self.round == ROOSTER_ROUND:
            self.phase = ROOSTER
        else:
            self.round += 1
            self._start_turn()

    # ----- results -----
    def score_sheets(self) -> tuple[Score, ...]:
        """Every player's score broken down by the rulebook's six steps, as the barnyards stand."""
        return tuple(score(y, self.goal) for y in self.barnyards)

    def scores(self) -> tuple[int, ...]:
        """Every player's points as the barnyards stand."""
        return _totals(self.barnyards, self._setup.goal)

    def winners(self) -> tuple[int, ...]:
        """The winning seats (ties broken by H15; several when still tied)."""
        return tuple(winners(self.barnyards, self._setup.goal,
                             _totals(self.barnyards, self._setup.goal)))

    def returns(self) -> tuple[float, ...]:
        """1 for a sole winner, 1/k each for k tied winners, 0 otherwise."""
        w = self.winners()
        return tuple(1 / len(w) if p in w else 0.0 for p in range(self._setup.players))

    # ----- views -----
    def view(self, player: int) -> View:
        """What `player` can see (see `henkit.hens.view.View`)."""
        return view_of(self, player)

    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it is: deck, hands, discard piles and barnyards."""
        out = list(self.deck)
        for p in range(self._setup.players):
            out.extend(self.hands[p])
            out.extend(self.discards[p])
            out.extend(self.barnyards[p].cards())
        return out

    def _fields(self) -> tuple:
        return tuple(getattr(self, k) for k in FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((self.phase, self.player, self.round, self.deck, self.hands, self.discards,
                     self.barnyards))

    def describe(self) -> str:
        """The whole state in words: players count from 1, seats from 0 in code."""
        lines = [(f"Hens, {self.players} players, goal card {self.goal}, round {self.round}, "
                 f"{self.phase} phase, player {self.player + 1} to play, "
                 f"deck {len(self.deck)}")]
        for p in range(self.players):
            lines.append(f"player {p + 1}: hand {' '.join(map(str, self.hands[p])) or '-'}; "
                         f"pile {' '.join(map(str, self.discards[p])) or '-'}")
            lines.extend("    " + row for row in str(self.barnyards[p]).split("\n") if row)
        return "\n".join(lines)

    __str__ = describe

    def __repr__(self) -> str:
        return (f"<hens State: {self.players} players, round {self.round}, {self.phase} phase, "
                f"player {self.player + 1} to play>")

    # ----- JSON -----
    def to_dict(self) -> dict:
        """A JSON-ready dict of the whole state (hidden information included): "game" and every
        field."""
        return {
            "game": "hens",
            "rules": self.rules.to_dict(),
            "goal": self.goal,
            "removed_breeds": list(self.removed_breeds),
            "first_player": self.first_player,
            "phase": self.phase.value,
            "player": self.player,
            "round": self.round,
            "turn": self.turn,
            "draws": self.draws,
            "deck": [str(k) for k in self.deck],
            "hands": [[str(k) for k in h] for h in self.hands],
            "discards": [[str(k) for k in pile] for pile in self.discards],
            "barnyards": [y.to_dict() for y in self.barnyards],
            "rooster_chosen": list(self.rooster_chosen),
            "rooster_choices": [list(c) if c is not None else None for c in self.rooster_choices],
            "known_in_hand": [[str(k) for k in h] for h in self.known_in_hand],
            "known_in_hand_or_coops": [[str(k) for k in h] for h in self.known_in_hand_or_coops],
        }

    @classmethod
    def from_dict(cls, data: dict) -> State:
        """Rebuild a state from `to_dict`; ValueError names the key that is missing or wrong, and
        (through `validate`) any way the state could not arise in a game."""
        if not isinstance(data, dict):
            raise ValueError(f"a Hens state must be a dict, not {type(data).__name__}")
        keys = ("game", *FIELDS)
        unknown = sorted(map(repr, set(data) - set(keys)))
        if unknown:
            raise ValueError(f"unknown Hens state keys [{', '.join(unknown)}]"[:300]
                             + f"; allowed: {list(keys)}")
        missing = [k for k in keys if k not in data]
        if missing:
            raise ValueError(f"a Hens state dict lacks the keys {missing}")
        if data["game"] != "hens":
            raise ValueError(f"this dict is a {_short(data['game'])} state, not a 'hens' one")
        return cls(**{k: data[k] for k in FIELDS})

    def to_json(self) -> str:
        """`to_dict()` as JSON text."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> State:
        """A state from `to_json` text; ValueError when it is no JSON or no valid state."""
        if not isinstance(text, str | bytes | bytearray):
            raise ValueError(f"from_json needs JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as e:
            raise ValueError(f"not JSON text: {e}") from None
        return cls.from_dict(data)

    # ----- checks -----
    def validate(self) -> None:
        """Raise ValueError unless this state passes these checks of a reachable game: the
        rules agree with the setup; turn order, round, phase and draws fit together; hands,
        piles and barnyards hold as many cards as the turns played allow (a pile at most one
        card a turn, exactly one in round 1); no more cards were taken from piles, and no player
        is known to hold more taken cards, than two draws a turn after round 1 allow; roosters
        follow H10; known cards are in their hands (`known_in_hand_or_coops`: in the hand beyond
        the known cards, or under that player's coops); every barnyard obeys the placement
        rules; and every card of the deck is somewhere, once. These are necessary conditions,
        not a proof that some sequence of moves reaches the state. `State(...)` and `from_dict` run it; `apply` keeps states valid by
        construction, so play never pays for it."""
        _check_setup(self)
        _check_turn(self)
        _check_cards_held(self)
        _check_roosters(self)
        have = sorted(self.all_cards())
        if have != sorted(deck_cards(self._setup.removed)) or any(
            y.hidden_coops() for y in self.barnyards
        ):
            raise ValueError(
                "the cards in deck, hands, discards and barnyards are not exactly the deck for "
                f"{self.players} players without {', '.join(self.removed_breeds) or 'any breed'}"
            )


class Placements(Sequence):
    """The legal placements of distinct hand cards `kinds` in a barnyard, in the order of
    `State.legal_actions`: every hen placement card by card (cells top row first, from
    `Barnyard.hen_mask`), then every coop placement card by card (from `Barnyard.open_mask`)."""

    __slots__ = ("_hens", "_n", "kinds", "masks", "open")

    def __init__(self, kinds: tuple[Card, ...], yard: Barnyard) -> None:
        if type(yard) is not Barnyard or type(kinds) is not tuple:
            raise ValueError("Placements needs a tuple of distinct Cards and a Barnyard")
        self.kinds = kinds
        self.open = yard.open_mask()
        self.masks = masks = yard.hen_masks(kinds)  # ValueError for anything but cards
        hens = 0
        for m in masks:
            hens += m.bit_count()
        self._hens = hens
        self._n = hens + len(kinds) * self.open.bit_count()

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        if type(i) is not int:
            if isinstance(i, slice):
                return self.to_list()[i]
            i = whole(i, "an index")
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("placement index out of range")
        if i < self._hens:
            masks = self.masks
            for j in range(len(masks)):
                m = masks[j]
                size = m.bit_count()
                if i < size:
                    return PLACE_AT[self.kinds[j]][bit_list(m)[i]]
                i -= size
        j, i = divmod(i - self._hens, self.open.bit_count())
        return COOP_AT[self.kinds[j]][bit_list(self.open)[i]]

    def to_list(self) -> list[Place | PlaceCoop]:
        """Every placement, as `legal_actions` lists them."""
        out: list[Any] = []
        for k, m in zip(self.kinds, self.masks, strict=True):
            row = PLACE_AT[k]
            out += [row[i] for i in bit_list(m)]
        cells = bit_list(self.open)
        for k in self.kinds:
            row = COOP_AT[k]
            out += [row[i] for i in cells]
        return out

    def __iter__(self) -> Iterator[Any]:
        return iter(self.to_list())


# ----- the discard rule -----


def must_discard(held: int) -> bool:
    """DECISIONS H8: once a player has placed, they discard a card while they hold more than 4
    (`HAND_SIZE`), down to 4; they hold more only after drawing two cards, so a player who drew
    fewer (the deck ran out) discards nothing."""
    if type(held) is not int:
        held = whole(held, "held (how many cards the player holds)", 0)
    return held > HAND_SIZE


_MUST_DISCARD = tuple(must_discard(held) for held in range(ROUNDS * 6 + 1))
"""A speed layer: `must_discard(held)` for every hand size a game can see (at most the whole
deck), looked up after each placement and discard for less than a call costs."""


# ----- the draw rule -----


def pile_problem(source: int, player: int, players: int, round: int, pile: int) -> str | None:
    """Why `player` may not draw the top of seat `source`'s discard pile, which holds `pile`
    cards, in `round`; None when they may. Rulebook "Draw Two Cards" with H7: an opponent's pile
    only, never one's own, none in the first round, and only a pile holding a card."""
    if not (type(player) is int and type(players) is int and type(round) is int
            and type(pile) is int and 2 <= players <= 4 and 0 <= player < players):
        players = check_players(players)  # O(1) checks; the engine passes plain ints
        player = whole(player, "player", 0, players - 1)
        round, pile = whole(round, "round", 1, ROUNDS), whole(pile, "pile", 0)
    if type(source) is not int and isinstance(source, np.integer):
        source = int(source)  # numpy integers are seat indices too
    if type(source) is not int or not 0 <= source < players:
        return f"cannot draw from {_short(source)}: {_sources_help(players)}"
    if source == player:
        return "you can never draw from your own discard pile"
    if round == 1:
        return "in the first round no one may draw from a discard pile"
    if not pile:
        return f"player {source + 1}'s discard pile is empty"
    return None


def _pile_sources(player: int, players: int, first_round: bool, deck: bool) -> tuple[int, ...]:
    """DECK if the deck holds cards, then the seats whose pile `player` may draw from if it holds
    a card (`pile_problem` of a one-card pile is None). Callers drop the seats whose pile is
    empty (`pile_problem`'s last clause): keying the table below on which piles hold cards would
    cost more than the check, piles being emptied all the time."""
    piles = tuple(q for q in range(players)
                  if pile_problem(q, player, players, 2 - first_round, 1) is None)
    return (DECK, *piles) if deck else piles


# A speed layer over `pile_problem`: `_pile_sources` for every key (72 of them), as a table
# indexed [players][player][first round?][deck holds cards?] (a random bot asks at every draw,
# and four subscripts cost less than a cached call of four arguments).
_PILE_SOURCES: tuple = tuple(
    tuple(tuple(tuple(_pile_sources(p, n, f, d) for d in (False, True)) for f in (False, True))
          for p in range(n)) if n >= 2 else ()
    for n in range(5))


@lru_cache(maxsize=256)  # a speed layer: `scores()` and `winners()` of a finished game ask alike
def _totals(barnyards: tuple[Barnyard, ...], goal: int) -> tuple[int, ...]:
    """Every barnyard's `scoring.total` under the goal card."""
    return tuple(total(y, goal) for y in barnyards)


# ----- what is publicly known about the hands -----


def _known_after_draw(known: tuple[Card, ...], k: Card) -> tuple[Card, ...]:
    """The cards known to be in a hand once its player takes k from a discard pile: everyone saw
    k taken, so it joins the known cards (which stay sorted)."""
    i = bisect_right(known, k)
    return known[:i] + (k,) + known[i:]


def _known_after_seen(known: tuple[Card, ...], k: Card) -> tuple[Card, ...]:
    """The cards known to be in a hand once its player shows card k leaving it (placed as a hen
    or discarded): one known copy of k, if any, is no longer in the hand."""
    return _without(known, k) if k in known else known


def _known_after_coop(known: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards still known to be in a hand after its player places a card face down (H9).

    The coop may hide any card of the hand, a known one too, so of each known card kind one copy
    fewer is certain: {Pa1, Pa1, Wy3} becomes {Pa1}. (A hen placed or a card discarded is seen:
    exactly that card leaves the known cards.)"""
    out: list[Card] = []
    last = None
    for k in known:  # sorted: copies of a card come together; keep all but the first of each
        if k == last:
            out.append(k)
        last = k
    return tuple(out)


def _held_after_coop(known: tuple[Card, ...], held: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards known to be in a hand or under its player's coops (`held`) once the player,
    whose hand holds the known cards `known`, places a card face down (H9): the known copies
    that `known_after_coop` drops may be under the new coop or still in the hand, but they are
    not in the deck, so they join `held` (which stays sorted)."""
    return tuple(sorted(held + _distinct(known)))  # `known_after_coop` drops one of each kind


def _known(known: object) -> tuple[Card, ...]:
    """The checked `known` argument of the public known_after_* functions."""
    if not isinstance(known, tuple | list) or len(known) > 2 * HAND_SIZE:
        raise ValueError("known must be a tuple of at most 8 cards")
    return tuple(sorted(map(card, known)))


def known_after_draw(known: tuple[Card, ...], k: Card) -> tuple[Card, ...]:
    """The cards known to be in a hand once its player takes k from a discard pile: everyone saw
    k taken, so it joins the known cards (which stay sorted). Checks its input."""
    return _known_after_draw(_known(known), card(k))


def known_after_seen(known: tuple[Card, ...], k: Card) -> tuple[Card, ...]:
    """The cards known to be in a hand once its player shows card k leaving it (placed as a hen
    or discarded). Checks its input."""
    return _known_after_seen(_known(known), card(k))


def known_after_coop(known: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards still known to be in a hand after its player places a card face down (H9): of
    each known card kind one copy fewer is certain. Checks its input."""
    return _known_after_coop(_known(known))


# ----- helpers -----


def _set(t: tuple, i: int, v: Any) -> tuple:
    """t with item i replaced by v."""
    out = list(t)
    out[i] = v
    return tuple(out)


def _without(cards: tuple[Card, ...], k: Card) -> tuple[Card, ...]:
    """cards less one copy of k (which it holds)."""
    i = cards.index(k)
    return cards[:i] + cards[i + 1:]


def _distinct(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The distinct cards of a sorted tuple, in order (the tuple itself when no card repeats)."""
    # Most hands hold no card twice: counting a set is quicker than building the ordered dict,
    # which keeps the first of equal cards, in order.
    return cards if len(set(cards)) == len(cards) else tuple(dict.fromkeys(cards))


def _short(x: object) -> str:
    """repr(x), cut short (a bad value may be huge)."""
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


_SEATS = " (a seat index: 0 is player 1)"


def _sources_help(n: int) -> str:
    """What a Draw's source may be, in code and in words."""
    return (f"a Draw's source is the deck (DECK) or the seat index 0-{n - 1} of the player whose "
            f"pile it is (0 is player 1, {n - 1} is player {n})")


def _whole(key: str, v: Any, lo: int, hi: int, note: str = "") -> int:
    if isinstance(v, bool) or not isinstance(v, int | np.integer) or not lo <= v <= hi:
        raise ValueError(f"'{key}' must be a whole number from {lo} to {hi}{note}, not "
                         f"{_short(v)}")
    return int(v)


def _per_seat(key: str, value: Any, n: int) -> list:
    if not isinstance(value, list | tuple) or len(value) != n:
        raise ValueError(f"'{key}' must be a list with one entry per player ({n})")
    return list(value)


def _read_fields(s: State, f: dict) -> None:
    """Set every field of a blank state from engine values or their JSON forms."""
    rules = f["rules"]
    if not isinstance(rules, Rules):
        try:
            rules = Rules.from_dict(rules)
        except ValueError as e:
            raise ValueError(f"'rules': {e}") from None
    n = rules.players
    codes = f["removed_breeds"]
    if not isinstance(codes, list | tuple):
        raise ValueError(f"'removed_breeds' must be a list of breed codes such as ['Se'], not "
                         f"{_short(codes)}")
    try:
        removed = tuple(sorted({breed_index(c) for c in codes}))
    except ValueError as e:
        raise ValueError(f"'removed_breeds': {e}") from None
    if len(removed) != len(codes):
        raise ValueError(f"'removed_breeds' names a breed twice: {_short(codes)}")
    s._setup = _Setup(rules, _whole("goal", f["goal"], 1, 6), removed,
                      _whole("first_player", f["first_player"], 0, n - 1, _SEATS))
    phase = f["phase"]
    if not isinstance(phase, str) or phase not in Phase.__members__.values():
        raise ValueError(f"phase {_short(phase)} is unknown: use one of {[p.value for p in Phase]}")
    s.phase = Phase(phase)
    s.player = _whole("player", f["player"], 0, n - 1, _SEATS)
    s.current_player = (CHANCE if s.phase is CHANCE_DRAW else TERMINAL if s.phase is OVER
                        else s.player)
    s.round = _whole("round", f["round"], 1, ROUNDS)
    s.turn = _whole("turn", f["turn"], 0, n - 1)
    s.draws = _whole("draws", f["draws"], 0, 2)
    s.deck = tuple(sorted(cards_from(f["deck"], "'deck'")))
    s.hands = tuple(tuple(sorted(cards_from(h, f"'hands[{i}]' (player {i + 1})")))
                    for i, h in enumerate(_per_seat("hands", f["hands"], n)))
    s.discards = tuple(cards_from(h, f"'discards[{i}]' (player {i + 1})")
                       for i, h in enumerate(_per_seat("discards", f["discards"], n)))
    s.known_in_hand = tuple(tuple(sorted(cards_from(h, f"'known_in_hand[{i}]' (player {i + 1})")))
                            for i, h in enumerate(_per_seat("known_in_hand", f["known_in_hand"],
                                                            n)))
    s.known_in_hand_or_coops = tuple(
        tuple(sorted(cards_from(h, f"'known_in_hand_or_coops[{i}]' (player {i + 1})")))
        for i, h in enumerate(_per_seat("known_in_hand_or_coops", f["known_in_hand_or_coops"],
                                        n)))
    yards = []
    for i, y in enumerate(_per_seat("barnyards", f["barnyards"], n)):
        if isinstance(y, Barnyard):
            try:
                y.check_layout()
            except ValueError as e:
                raise ValueError(f"'barnyards[{i}]' (player {i + 1}): {e}") from None
            yards.append(y)
            continue
        try:
            yards.append(Barnyard.from_dict(y))
        except ValueError as e:
            raise ValueError(f"'barnyards[{i}]' (player {i + 1}): {e}") from None
    s.barnyards = tuple(yards)
    chosen = _per_seat("rooster_chosen", f["rooster_chosen"], n)
    for i, x in enumerate(chosen):
        if not isinstance(x, bool):
            raise ValueError(
                f"'rooster_chosen[{i}]' (player {i + 1}) must be true or false, not {_short(x)}")
    s.rooster_chosen = tuple(chosen)
    choices: list[Cell | None] = []
    for i, c in enumerate(_per_seat("rooster_choices", f["rooster_choices"], n)):
        try:
            choices.append(check_cell(c) if c is not None else None)
        except ValueError as e:
            raise ValueError(f"'rooster_choices[{i}]' (player {i + 1}) must be null or "
                             f"[row, col]: {e}") from None
    s.rooster_choices = tuple(choices)


def _check_setup(s: State) -> None:
    """The setup agrees with the rulebook (H4) and with the rules options."""
    n, rules = s.players, s.rules
    try:
        check_removed(n, s._setup.removed)
    except ValueError as e:
        raise ValueError(f"'removed_breeds': {e}") from None
    if rules.removed_breeds is not None and (
        sorted(BREED_INDEX[c] for c in rules.removed_breeds) != list(s._setup.removed)
    ):
        raise ValueError(
            f"'removed_breeds' is {list(s.removed_breeds)} but the rules remove "
            f"{list(rules.removed_breeds)}: they must agree"
        )
    if rules.goal is not None and rules.goal != s.goal:
        raise ValueError(
            f"'goal' is {s.goal} but the rules set goal card {rules.goal}: they must agree")
    if rules.first_player is not None and rules.first_player != s.first_player:
        raise ValueError(
            f"'first_player' is {s.first_player} (player {s.first_player + 1}) but the rules say "
            f"player {rules.first_player + 1} (first_player {rules.first_player}) plays "
            "first: they must agree"
        )


def _check_turn(s: State) -> None:
    """Turn order, round, phase and draws fit together (rulebook "Player Turn", H7, H8, H10)."""
    n, ph = s.players, s.phase
    mover = (s.first_player + s.turn) % n
    if s.player != mover:
        raise ValueError(
            f"'player' is {s.player} (player {s.player + 1}) but at turn {s.turn} "
            f"of a round that player {s.first_player + 1} starts, player {mover + 1} moves "
            f"('player' = ('first_player' + 'turn') mod {n} = {mover})"
        )
    if ph is ROOSTER and s.round != ROOSTER_ROUND:
        raise ValueError(
            f"'phase' is 'rooster' in round {s.round}: roosters are placed only after "
            f"round {ROOSTER_ROUND}"
        )
    if ph is OVER and (s.round != ROUNDS or s.turn != 0):
        raise ValueError(
            f"'phase' is 'over' at round {s.round}, turn {s.turn}: the game ends only "
            f"after round {ROUNDS} (round {ROUNDS}, turn 0)"
        )
    if ph in (DRAW, CHANCE_DRAW) and s.draws > 1:
        raise ValueError(
            f"'draws' is {s.draws} in the {ph} phase: after two draws the "
            "player places a card, so 'draws' must be 0 or 1"
        )
    if ph is DRAW and not s._can_draw():
        raise ValueError(
            "'phase' is 'draw' but there is nothing to draw: the deck is empty and no "
            "opponent's discard pile may be drawn from"
        )
    if ph is CHANCE_DRAW and not s.deck:
        raise ValueError("'phase' is 'chance' (a deck draw) but the deck is empty")
    if ph is PLACE and s.draws < 2 and s._can_draw():
        raise ValueError(
            f"'draws' is {s.draws} in the place phase while cards are left to draw: "
            "a player draws two cards before placing when they can"
        )
    if ph is DISCARD and s.draws != 2:
        raise ValueError(
            f"'draws' is {s.draws} in the discard phase: only a player who drew two cards "
            "discards (H8)"
        )


def _check_cards_held(s: State) -> None:
    """Hands, piles, known cards and barnyards hold what the turns played allow."""
    n, ph = s.players, s.phase
    taken_most = taken = 0  # cards that can have been, and that were, taken from piles
    for q in range(n):
        size = len(s.hands[q])
        mine = q == s.player and ph in (DRAW, CHANCE_DRAW, PLACE, DISCARD)
        most = HAND_SIZE + (s.draws if mine and ph is not DISCARD else 0)
        if mine and ph is DISCARD:
            most = HAND_SIZE + 1  # `must_discard`: only a player over 4 cards (two draws)
            if size != most:
                raise ValueError(
                    f"'hands[{q}]' (player {q + 1}) holds {size} cards in the discard "
                    f"phase: a player discards holding {most}"
                )
        if size > most or (s.deck and size != most):
            raise ValueError(
                f"'hands[{q}]' (player {q + 1}) holds {size} cards: player {q + 1} "
                f"{'may hold at most' if size > most else 'holds'} {most} now ({HAND_SIZE} "
                "between turns while the deck lasts, plus the cards drawn this turn)"
            )
        if mine and ph is PLACE and not size:
            raise ValueError(
                f"'hands[{q}]' (player {q + 1}) is empty in the place phase: nothing to place")
        if ph is ROOSTER:
            placed = ROOSTER_ROUND
        elif ph is OVER:
            placed = ROUNDS
        else:
            played = (q - s.first_player) % n < s.turn or (q == s.player and ph is DISCARD)
            placed = s.round - 1 + played
        if len(s.barnyards[q]) != placed:
            raise ValueError(
                f"'barnyards[{q}]' (player {q + 1}) holds {len(s.barnyards[q])} cards but "
                f"player {q + 1} has placed {placed} by round {s.round}, turn {s.turn} "
                f"({s.phase} phase): one card a turn"
            )
        # A pile grows by one card a turn at most (H8), and in round 1 by exactly one: the
        # deck is full and no pile may be drawn from.
        discarded = placed - (q == s.player and ph is DISCARD)
        pile = len(s.discards[q])
        if pile > discarded or (s.round == 1 and pile != discarded):
            raise ValueError(
                f"'discards[{q}]' (player {q + 1}) holds {pile} cards but player {q + 1} has "
                f"discarded {discarded} (one a turn){' and none was taken in round 1' if s.round == 1 else ''}"
            )
        known = Counter(s.known_in_hand[q])
        if known - Counter(s.hands[q]):
            raise ValueError(
                f"'known_in_hand[{q}]' (player {q + 1}) names cards that are not in "
                f"'hands[{q}]': every card known to be in a hand must be there"
            )
        if known and s.round == 1:
            raise ValueError(
                f"'known_in_hand[{q}]' (player {q + 1}) is not empty in round 1: cards become "
                "known only when taken from a discard pile, which no one may do in round 1"
            )
        # At most two cards a turn come from piles (rulebook "Draw Two Cards"), none in round 1
        # (H7): each turn q finished after round 1, and this turn's draws so far.
        finished = placed - (q == s.player and ph is DISCARD)
        most = 2 * max(finished - 1, 0) + (s.draws if mine and s.round > 1 else 0)
        taken_most += most
        taken += discarded - pile
        if len(known) + len(s.known_in_hand_or_coops[q]) > most:
            raise ValueError(
                f"player {q + 1} is known to hold {len(known)} cards taken from discard piles "
                f"(and {len(s.known_in_hand_or_coops[q])} in hand or coops), but can have taken "
                f"at most {most} so far: two a turn, none in round 1"
            )
        held = Counter(s.known_in_hand_or_coops[q])
        coops = s.barnyards[q]
        under = Counter(coops.coop_card(c) for c in coops.coop_cells_taken())
        if held - (Counter(s.hands[q]) - known + under):
            raise ValueError(
                f"'known_in_hand_or_coops[{q}]' (player {q + 1}) names cards that are neither "
                f"in 'hands[{q}]' beyond 'known_in_hand[{q}]' nor under player {q + 1}'s coops"
            )
    if taken > taken_most:
        raise ValueError(
            f"the discard piles hold {taken} cards fewer than were discarded, but the players "
            f"can have taken at most {taken_most} from them so far: two a turn, none in round 1"
        )


def _check_roosters(s: State) -> None:
    """H10: roosters are chosen in turn after round 6, hidden until all have chosen, then stand
    where they were chosen."""
    n, ph = s.players, s.phase
    for q in range(n):
        chosen, choice, yard = s.rooster_chosen[q], s.rooster_choices[q], s.barnyards[q]
        if s.round < ROOSTER_ROUND or (s.round == ROOSTER_ROUND and ph is not ROOSTER):
            has_chosen = False
        elif ph is ROOSTER:
            has_chosen = (q - s.first_player) % n < s.turn
        else:
            has_chosen = True
        if chosen != has_chosen:
            raise ValueError(
                f"'rooster_chosen[{q}]' (player {q + 1}) is {chosen} but in round "
                f"{s.round}, {ph} phase, turn {s.turn} player {q + 1} "
                f"{'has' if has_chosen else 'has not yet'} chosen where the rooster goes"
            )
        if not chosen:
            if choice is not None or yard.rooster >= 0:
                raise ValueError(
                    f"player {q + 1} has not chosen a rooster cell, so "
                    f"'rooster_choices[{q}]' and 'barnyards[{q}]' 'rooster' must be null"
                )
            continue
        if ph is ROOSTER:
            if yard.rooster >= 0:
                raise ValueError(
                    f"'barnyards[{q}]' (player {q + 1}) shows a rooster during the rooster "
                    "phase: roosters stay hidden until every player has chosen (H10)"
                )
        elif yard.rooster_cell != choice:
            raise ValueError(
                f"'rooster_choices[{q}]' (player {q + 1}) is {choice} but the rooster of "
                f"'barnyards[{q}]' stands on {yard.rooster_cell}: once revealed, the rooster "
                "stands where it was chosen"
            )
        # While the others choose, the choice obeys H10 as it stands; once revealed the rooster
        # stands on a hen (`Barnyard.with_rooster`), or stays off if the player had no hen then.
        why = rooster_problem(yard, choice) if ph is ROOSTER else None
        if why:
            raise ValueError(f"'rooster_choices[{q}]' (player {q + 1}) is {choice}: {why}")


__all__ = ["FIELDS", "HAND_SIZE", "ROOSTER_ROUND", "ROUNDS", "TERMINAL", "Phase", "State",
           "known_after_coop", "known_after_draw", "known_after_seen", "must_discard",
           "randbelow"]

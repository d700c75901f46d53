"""The state of a Hens game: immutable, with chance nodes for deck draws (`henkit.core` shape).

A turn is: two draws (each a decision "deck or which pile"; a deck draw is followed by a chance
node over the cards left in the deck), one placement, a discard down to 4 cards (H7, H8). After
round 6 every player chooses a rooster cell in turn; the choices stay hidden from the other
players' views until all have chosen (H10). The game is over after round 12.

The deck is held as a sorted tuple of cards: its order is never decided in advance, each deck
draw is a fresh chance outcome, which is the same as drawing from a shuffled deck.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from henkit.core import CHANCE, TERMINAL, Seed, make_rng
from henkit.hens.actions import (
    ACTIONS,
    COOP_AT,
    DECK,
    DISCARDS,
    DRAW_DECK,
    PLACE_AT,
    Discard,
    Draw,
    Place,
    PlaceCoop,
    PlaceRooster,
    draw,
)
from henkit.hens.barnyard import (
    BIT_OF,
    CELL_OF,
    Barnyard,
    bit,
    bit_list,
    bits_of,
    check_cell,
    spread,
)
from henkit.hens.cards import (
    BREED_INDEX,
    BREED_OF,
    BREEDS,
    CARDS,
    NUM_KINDS,
    NUMBER_OF,
    Card,
    breed_index,
    card,
    check_removed,
    deck_cards,
)
from henkit.hens.rules import Rules
from henkit.hens.scoring import Score, score, total, winners

PHASES = ("draw", "chance", "place", "discard", "rooster", "over")
DRAW, CHANCE_DRAW, PLACE, DISCARD, ROOSTER, OVER = range(6)
HAND_SIZE = 4
ROUNDS = 12
ROOSTER_ROUND = 6


_TWO64 = 1 << 64
_LIMITS: dict[int, int] = {}  # n -> the largest multiple of n not above 2**64


def randbelow(rng: np.random.Generator, n: int) -> int:
    """A uniform whole number 0..n-1 from the generator's raw 64-bit stream.

    Exactly uniform (rejection of the top partial block), and several times faster per call than
    `rng.integers(n)`, which matters at a few hundred draws per game.
    """
    limit = _LIMITS.get(n)
    if limit is None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"randbelow needs a whole number n >= 1, not {n!r}")
        limit = _LIMITS[n] = _TWO64 - _TWO64 % n
    raw = rng.bit_generator.random_raw
    while True:
        x = raw()
        if x < limit:
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
def _full_deck(removed: tuple[int, ...]) -> tuple[Card, ...]:
    """The sorted deck without the removed breeds (one per player count and draw of breeds)."""
    return deck_cards(removed)


def new_game(rules: Rules | int = 4, seed: Seed = None) -> HensState:
    """Set up a game: deck for the player count, 4 cards each, goal card and first player."""
    if isinstance(rules, int) and not isinstance(rules, bool):
        rules = Rules(players=rules)
    if not isinstance(rules, Rules):
        raise ValueError(f"new_game needs Rules or a player count 2-4, not {rules!r}")
    rng = make_rng(seed)
    n = rules.players
    if rules.removed_breeds is not None:
        removed = tuple(sorted(BREED_INDEX[c] for c in rules.removed_breeds))
    else:
        removed = tuple(sorted(_removed_from_seed(n, rng)))
    goal = rules.goal if rules.goal is not None else int(rng.integers(1, 7))
    first = rules.first_player if rules.first_player is not None else int(rng.integers(n))
    cards = _full_deck(removed)
    order = rng.permutation(len(cards)).tolist()  # plain ints index a tuple faster
    dealt = [cards[i] for i in order]
    hands = tuple(
        tuple(sorted(dealt[p * HAND_SIZE:(p + 1) * HAND_SIZE])) for p in range(n)
    )
    deck = tuple(sorted(dealt[n * HAND_SIZE:]))
    s = HensState._blank(rules, goal, removed, first)
    s.hands = hands
    s.deck = deck
    s._start_turn()
    return s


class HensState:
    """A Hens game position. Immutable: `apply` returns a new state."""

    __slots__ = (
        "_shown",
        "choices",
        "chosen",
        "deck",
        "drawn",
        "draws",
        "first",
        "goal",
        "hands",
        "n",
        "phase",
        "piles",
        "player",
        "removed",
        "round",
        "rules",
        "turn",
        "yards",
    )

    @classmethod
    def _blank(cls, rules: Rules, goal: int, removed: tuple[int, ...], first: int) -> HensState:
        s = object.__new__(cls)
        n = rules.players
        s.rules, s.goal, s.removed, s.first, s.n = rules, goal, removed, first, n
        s.phase, s.player, s.round, s.turn, s.draws, s.drawn = DRAW, first, 1, 0, 0, 0
        s.deck = ()
        s.hands = ((),) * n
        s.piles = ((),) * n
        s.yards = (Barnyard(),) * n
        s._shown = None  # the barnyards as opponents see them, worked out when first asked
        s.chosen = (False,) * n
        s.choices = (None,) * n
        return s

    def _copy(self) -> HensState:
        s = object.__new__(HensState)
        s.rules, s.goal, s.removed, s.first, s.n = (
            self.rules, self.goal, self.removed, self.first, self.n)
        s.phase, s.player, s.round, s.turn, s.draws, s.drawn = (
            self.phase, self.player, self.round, self.turn, self.draws, self.drawn)
        s.deck, s.hands, s.piles, s.yards = self.deck, self.hands, self.piles, self.yards
        s._shown = self._shown
        s.chosen, s.choices = self.chosen, self.choices
        return s

    # ----- the henkit.core protocol -----
    @property
    def current_player(self) -> int:
        """Who decides now: a player, CHANCE (-1) at a deck draw, TERMINAL (-2) at the end."""
        if self.phase == CHANCE_DRAW:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.player

    @property
    def is_over(self) -> bool:
        """True once every player has placed 12 cards."""
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        """True when the next card comes off the deck."""
        return self.phase == CHANCE_DRAW

    @property
    def phase_name(self) -> str:
        """'draw', 'chance', 'place', 'discard', 'rooster' or 'over'."""
        return PHASES[self.phase]

    @property
    def players(self) -> int:
        """How many players play."""
        return self.n

    def _sources(self) -> list[int]:
        """Where the player may draw from now (H7)."""
        out = [DECK] if self.deck else []
        if self.round > 1:
            p, piles = self.player, self.piles
            for q in range(self.n):
                if q != p and piles[q]:
                    out.append(q)
        return out

    def _can_draw(self) -> bool:
        """True when some draw source is left (the quick form of `_sources()`)."""
        if self.deck:
            return True
        if self.round == 1:
            return False
        p, piles = self.player, self.piles
        for q in range(self.n):
            if q != p and piles[q]:
                return True
        return False

    def _hen_masks(self) -> tuple[list[Card], list[int], int]:
        """(distinct cards in hand, the cell mask of each as a hen, the frontier mask)."""
        p = self.player
        yard = self.yards[p]
        front = yard._frontier()
        hen, breeds, nums = yard.hen, yard.breeds, yard.nums
        kinds, masks = [], []
        last = None
        for k in self.hands[p]:  # hands are sorted: copies of a card come together
            if k == last:
                continue
            last = k
            # The same test as Barnyard._hen_mask, inlined: this runs for every card in every
            # placement. A hen may not touch a hen of another breed whose number is not +-1.
            n = NUMBER_OF[k]
            bad = hen & ~breeds[BREED_OF[k]] & ~nums[n - 1] & ~nums[n + 1]
            kinds.append(k)
            masks.append(front & ~spread(bad) if bad else front)
        return kinds, masks, front

    def legal_actions(self) -> list[Any]:
        """Every legal move now (at a chance node: the cards the deck may bring)."""
        ph = self.phase
        p = self.player
        if ph == PLACE:
            # Order: every hen placement card by card, then every coop placement card by card.
            kinds, masks, front = self._hen_masks()
            out = []
            for k, m in zip(kinds, masks):
                row = PLACE_AT[k]
                out += [row[i] for i in bit_list(m)]
            cells = bit_list(front)
            for k in kinds:
                row = COOP_AT[k]
                out += [row[i] for i in cells]
            return out
        if ph == DRAW:
            piles = self.piles
            return [draw(q, piles[q][-1]) if q != DECK else DRAW_DECK for q in self._sources()]
        if ph == DISCARD:
            return [DISCARDS[k] for k in dict.fromkeys(self.hands[p])]  # hands are sorted
        if ph == CHANCE_DRAW:
            return sorted(set(self.deck))
        if ph == ROOSTER:
            yard = self.yards[p]
            if not yard.hen:
                return [PlaceRooster(None)]
            return [PlaceRooster(CELL_OF[i]) for i in bits_of(yard.hen)]
        return []

    def random_action(self, rng: np.random.Generator) -> Any:
        """A uniformly random legal move: exactly `legal_actions()[randbelow(rng, n)]` with n the
        number of legal moves, without building the list (a placement has ~100 choices)."""
        ph = self.phase
        if ph == PLACE:
            kinds, masks, front = self._hen_masks()
            hens = 0
            for m in masks:
                hens += m.bit_count()
            cells = front.bit_count()
            i = randbelow(rng, hens + len(kinds) * cells)
            if i < hens:
                for k, m in zip(kinds, masks):
                    size = m.bit_count()
                    if i < size:
                        return PLACE_AT[k][bit_list(m)[i]]
                    i -= size
            j, i = divmod(i - hens, cells)  # coops: card by card, cells in order within a card
            return COOP_AT[kinds[j]][bit_list(front)[i]]
        if ph == DRAW:
            sources = self._sources()
            q = sources[randbelow(rng, len(sources))]
            return DRAW_DECK if q == DECK else draw(q, self.piles[q][-1])
        if ph == DISCARD:
            kinds = tuple(dict.fromkeys(self.hands[self.player]))
            return DISCARDS[kinds[randbelow(rng, len(kinds))]]
        actions = self.legal_actions()
        if not actions:
            raise ValueError("the game is over: no move is left to play")
        return actions[randbelow(rng, len(actions))]

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """Each card the deck may bring with its exact chance (copies left / deck size)."""
        if self.phase != CHANCE_DRAW:
            raise ValueError(f"no chance node here: the game is in its {self.phase_name} phase")
        counts: dict[Card, int] = {}
        for k in self.deck:
            counts[k] = counts.get(k, 0) + 1
        size = len(self.deck)
        return [(k, Fraction(c, size)) for k, c in sorted(counts.items())]

    def sample_chance(self, rng: np.random.Generator) -> Card:
        """Draw a chance outcome with the same distribution as `chance_outcomes`."""
        if self.phase != CHANCE_DRAW:
            raise ValueError(f"no chance node here: the game is in its {self.phase_name} phase")
        return self.deck[randbelow(rng, len(self.deck))]

    def _deal(self, rng: np.random.Generator) -> HensState:
        """The player takes a random card off the deck: the same state (and the same use of rng)
        as `apply(sample_chance(rng))` at the chance node, or as `apply(Draw(DECK))` followed by
        that from the draw phase; self-play skips the chance state in between."""
        deck = self.deck
        i = randbelow(rng, len(deck))
        s = self._copy()
        s.deck = deck[:i] + deck[i + 1:]
        s._gain(deck[i])
        return s

    def apply(self, action: Any) -> HensState:
        """The state after `action`; ValueError (naming the rule) if it is not legal here."""
        ph = self.phase
        p = self.player
        # Phases in the order of how often they come up in a game (draws are most common).
        if ph == DRAW:
            if type(action) is not Draw:
                raise self._wrong(action, "draw a card (Draw)")
            src = action.source
            if src == DECK:
                if not self.deck:
                    raise ValueError("the deck is empty: draw from an opponent's discard pile")
                s = self._copy()
                s.phase = CHANCE_DRAW
                return s
            self._check_pile(src, action.card)
            s = self._copy()
            piles = list(self.piles)
            top = piles[src][-1]
            piles[src] = piles[src][:-1]
            s.piles = tuple(piles)
            s._gain(top)
            return s
        if ph == CHANCE_DRAW:
            return self._apply_chance(action)
        if ph == PLACE:
            if type(action) is Place or type(action) is PlaceCoop:
                return self._apply_place(action)
            raise self._wrong(action, "place a card (Place or PlaceCoop)")
        if ph == DISCARD:
            if type(action) is not Discard:
                raise self._wrong(action, "discard a card (Discard)")
            k = action.card
            hand = self.hands[p]
            if k not in hand:
                raise ValueError(
                    f"cannot discard {_name(k)}: it is not in player {p + 1}'s hand "
                    f"({' '.join(map(str, hand))})"
                )
            s = self._copy()
            i = hand.index(k)
            s.hands = _set(self.hands, p, hand[:i] + hand[i + 1:])
            s.piles = _set(self.piles, p, self.piles[p] + (CARDS[int(k)],))
            if len(hand) > HAND_SIZE + 1:
                return s
            s._end_turn()
            return s
        if ph == ROOSTER:
            return self._apply_rooster(action)
        raise ValueError("the game is over: no move is left to play")

    # ----- the steps of a turn -----
    def _wrong(self, action: Any, wanted: str) -> ValueError:
        # An action is named in code and in words: its repr holds seat indices (from 0), its
        # words count players from 1.
        what = f"{action!r} ({action})" if isinstance(action, ACTIONS) else repr(action)
        return ValueError(f"{what} is not a move now: player {self.player + 1} must {wanted}")

    def _check_pile(self, src: Any, top: Any) -> None:
        p = self.player
        if isinstance(src, bool):  # True == 1 as an int, but a bool is no player number
            raise ValueError(f"{src!r} is not a player: {_sources_help(self.n)}")
        if not isinstance(src, int) or not 0 <= src < self.n:
            raise ValueError(f"cannot draw from {src!r}: {_sources_help(self.n)}")
        if src == p:
            raise ValueError("you can never draw from your own discard pile")
        if self.round == 1:
            raise ValueError("in the first round no one may draw from a discard pile")
        if not self.piles[src]:
            raise ValueError(f"player {src + 1}'s discard pile is empty")
        if top is not None and top != self.piles[src][-1]:
            raise ValueError(
                f"the top of player {src + 1}'s discard pile is {self.piles[src][-1]}, "
                f"not {_name(top)}"
            )

    def _gain(self, k: Card) -> None:
        """(On a fresh copy) the current player takes card k into their hand."""
        p = self.player
        hand = self.hands[p]
        i = bisect_right(hand, k)  # hands stay sorted
        self.hands = _set(self.hands, p, hand[:i] + (k,) + hand[i:])
        self.draws += 1
        self.drawn += 1
        self.phase = DRAW
        if self.draws >= 2 or not self._can_draw():
            self.phase = PLACE

    def _apply_chance(self, outcome: Any) -> HensState:
        k = outcome
        if type(k) is not Card:  # sample_chance gives Cards; accept 'Pa3' or an int too
            try:
                k = card(outcome)
            except ValueError:
                raise ValueError(
                    f"{outcome!r} is not a chance outcome: the deck brings a card") from None
        deck = self.deck
        i = bisect_left(deck, k)  # the deck is sorted
        if i == len(deck) or deck[i] != k:
            raise ValueError(f"the deck holds no {k}: it cannot be drawn")
        s = self._copy()
        s.deck = deck[:i] + deck[i + 1:]
        s._gain(CARDS[k])
        return s

    def _apply_place(self, action: Place | PlaceCoop) -> HensState:
        p = self.player
        hand = self.hands[p]
        k = action.card
        if k not in hand:
            raise ValueError(
                f"cannot place {_name(k)}: it is not in player {p + 1}'s hand "
                f"({' '.join(map(str, hand))})"
            )
        k = CARDS[int(k)]
        cell = action.cell
        i = BIT_OF.get(cell)  # None for anything but a valid (row, col) tuple
        if i is None:
            cell = check_cell(cell)  # raises, or accepts a list such as [0, 1]
            i = bit(cell)
        coop = type(action) is PlaceCoop
        yard = self.yards[p]
        mask = yard._frontier() if coop else yard._hen_mask(k)
        if not (mask >> i & 1):
            yard.check_place(k, cell, coop)  # raises the precise reason
            raise ValueError(f"{action} is not allowed here")  # pragma: no cover - safety net
        s = self._copy()
        s.yards = _set(self.yards, p, yard._put(k, i, coop))
        s._shown = None
        j = hand.index(k)
        s.hands = _set(self.hands, p, hand[:j] + hand[j + 1:])
        if len(hand) > HAND_SIZE + 1:
            s.phase = DISCARD
        else:
            s._end_turn()  # H8: a player who drew fewer than two cards discards only down to 4
        return s

    def _apply_rooster(self, action: Any) -> HensState:
        if type(action) is not PlaceRooster:
            raise self._wrong(action, "put the rooster on a hen (PlaceRooster)")
        p = self.player
        yard = self.yards[p]
        if action.cell is None:
            if yard.hen:
                raise ValueError("the rooster must go on one of your hens: name its cell")
            cell = None
        else:
            cell = check_cell(action.cell)
            if not (yard.hen >> bit(cell) & 1):
                what = "a chicken coop" if yard.is_coop(cell) else "an empty place"
                raise ValueError(f"the rooster must stand on one of your hens, and {cell} is {what}")
        s = self._copy()
        s.chosen = _set(self.chosen, p, True)
        s.choices = _set(self.choices, p, cell)
        s.turn += 1
        if s.turn < s.n:
            s.player = (s.first + s.turn) % s.n
            return s
        # Everyone has chosen: reveal all roosters at once (H10), then round 7 begins.
        s.yards = tuple(y.with_rooster(c) for y, c in zip(s.yards, s.choices, strict=True))
        s._shown = None
        s.round = ROOSTER_ROUND + 1
        s.turn = 0
        s.player = s.first
        s._start_turn()
        return s

    def _start_turn(self) -> None:
        self.phase = DRAW
        self.draws = self.drawn = 0
        if not self._can_draw():
            self.phase = PLACE

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn < self.n:
            self.player = (self.first + self.turn) % self.n
            self._start_turn()
            return
        self.turn = 0
        self.player = self.first
        if self.round == ROUNDS:
            self.phase = OVER
        elif self.round == ROOSTER_ROUND:
            self.phase = ROOSTER
        else:
            self.round += 1
            self._start_turn()

    # ----- results -----
    def scores(self) -> list[Score]:
        """Every player's score breakdown as the barnyards stand."""
        return [score(y, self.goal) for y in self.yards]

    def totals(self) -> list[int]:
        """Every player's total score as the barnyards stand."""
        return [total(y, self.goal) for y in self.yards]

    def winners(self) -> list[int]:
        """The winning players (ties broken by H15; several when still tied)."""
        return winners(self.yards, self.goal)

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k each for k tied winners, 0 otherwise (at the end)."""
        w = self.winners()
        return [1 / len(w) if p in w else 0.0 for p in range(self.n)]

    # ----- views -----
    def _shown_yards(self) -> tuple[Barnyard, ...]:
        """Every barnyard with its coops face down, as opponents see it (cached: bots look at
        ~200 views a game, and the barnyards change only at placements)."""
        shown = self._shown
        if shown is None:
            shown = self._shown = tuple(y.hidden() for y in self.yards)
        return shown

    def view(self, player: int):
        """What `player` can see (see `henkit.hens.view.HensView`)."""
        global _view_of
        if _view_of is None:  # view.py imports this module, so import it on first use
            from henkit.hens.view import view_of as _view_of
        return _view_of(self, player)

    @property
    def removed_breeds(self) -> tuple[str, ...]:
        """Codes of the breeds taken out of the deck for this player count."""
        codes = _REMOVED_CODES.get(self.removed)  # every view asks: look it up, don't rebuild
        if codes is None:
            codes = _REMOVED_CODES[self.removed] = tuple(BREEDS[i].code for i in self.removed)
        return codes

    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it is: deck, hands, discard piles and barnyards."""
        out = list(self.deck)
        for p in range(self.n):
            out.extend(self.hands[p])
            out.extend(self.piles[p])
            out.extend(self.yards[p].cards())
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HensState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.phase, self.player, self.round, self.deck, self.hands, self.piles,
                     self.yards))

    def __str__(self) -> str:
        lines = [(f"Hens, {self.n} players, goal card {self.goal}, round {self.round}, "
                 f"{self.phase_name} phase, player {self.player + 1} to play, "
                 f"deck {len(self.deck)}")]
        for p in range(self.n):  # players count from 1 in words, seats from 0 in code
            lines.append(f"player {p + 1}: hand {' '.join(map(str, self.hands[p])) or '-'}; "
                         f"pile {' '.join(map(str, self.piles[p])) or '-'}")
            lines.extend("    " + row for row in str(self.yards[p]).split("\n") if row)
        return "\n".join(lines)

    # ----- JSON -----
    def to_dict(self) -> dict:
        """A JSON-ready dict of the whole state (hidden information included)."""
        return {
            "game": "hens",
            "rules": self.rules.to_dict(),
            "goal": self.goal,
            "removed_breeds": list(self.removed_breeds),
            "first_player": self.first,
            "phase": self.phase_name,
            "player": self.player,
            "round": self.round,
            "turn": self.turn,
            "draws": self.draws,
            "drawn": self.drawn,
            "deck": [str(k) for k in self.deck],
            "hands": [[str(k) for k in h] for h in self.hands],
            "discards": [[str(k) for k in pile] for pile in self.piles],
            "barnyards": [y.to_dict() for y in self.yards],
            "rooster_chosen": list(self.chosen),
            "rooster_choices": [list(c) if c is not None else None for c in self.choices],
        }

    @classmethod
    def from_dict(cls, data: dict) -> HensState:
        """Rebuild a state from `to_dict`; ValueError names the key that is missing or wrong, and
        (through `validate`) any way the state could not arise in a game."""
        if not isinstance(data, dict):
            raise ValueError(f"a Hens state must be a dict, not {type(data).__name__}")
        keys = ("game", "rules", "goal", "removed_breeds", "first_player", "phase", "player",
                "round", "turn", "draws", "drawn", "deck", "hands", "discards", "barnyards",
                "rooster_chosen", "rooster_choices")
        missing = [k for k in keys if k not in data]
        if missing:
            raise ValueError(f"a Hens state dict lacks the keys {missing}")
        unknown = sorted(map(str, set(data) - set(keys)))
        if unknown:
            raise ValueError(f"unknown Hens state keys {unknown}; allowed: {list(keys)}")
        if data["game"] != "hens":
            raise ValueError(f"this dict is a {data['game']!r} state, not a 'hens' one")
        try:
            rules = Rules.from_dict(data["rules"])
        except ValueError as e:
            raise ValueError(f"'rules': {e}") from None
        n = rules.players
        removed = _breeds(data["removed_breeds"])
        s = cls._blank(rules, _int(data, "goal", 1, 6), removed,
                       _int(data, "first_player", 0, n - 1, _SEATS))
        phase = data["phase"]
        if not isinstance(phase, str) or phase not in PHASES:
            raise ValueError(f"phase {phase!r} is unknown: use one of {list(PHASES)}")
        s.phase = PHASES.index(phase)
        s.player = _int(data, "player", 0, n - 1, _SEATS)
        s.round = _int(data, "round", 1, ROUNDS)
        s.turn = _int(data, "turn", 0, n - 1)
        s.draws = _int(data, "draws", 0, 2)
        s.drawn = _int(data, "drawn", 0, 2)
        for key in ("hands", "discards", "barnyards", "rooster_chosen", "rooster_choices"):
            if not isinstance(data[key], list) or len(data[key]) != n:
                raise ValueError(f"'{key}' must be a list with one entry per player ({n})")
        s.deck = tuple(sorted(_cards(data["deck"], "'deck'")))
        s.hands = tuple(tuple(sorted(_cards(h, f"'hands[{i}]' (player {i + 1})")))
                        for i, h in enumerate(data["hands"]))
        s.piles = tuple(tuple(_cards(h, f"'discards[{i}]' (player {i + 1})"))
                        for i, h in enumerate(data["discards"]))
        yards = []
        for i, y in enumerate(data["barnyards"]):
            try:
                yards.append(Barnyard.from_dict(y))
            except ValueError as e:
                raise ValueError(f"'barnyards[{i}]' (player {i + 1}): {e}") from None
        s.yards = tuple(yards)
        for i, x in enumerate(data["rooster_chosen"]):
            if not isinstance(x, bool):
                raise ValueError(
                    f"'rooster_chosen[{i}]' (player {i + 1}) must be true or false, not {x!r}")
        s.chosen = tuple(data["rooster_chosen"])
        choices = []
        for i, c in enumerate(data["rooster_choices"]):
            try:
                choices.append(check_cell(c) if c is not None else None)
            except ValueError as e:
                raise ValueError(f"'rooster_choices[{i}]' (player {i + 1}) must be null or "
                                 f"[row, col]: {e}") from None
        s.choices = tuple(choices)
        s.validate()
        return s

    def validate(self) -> None:
        """Raise ValueError unless this state could arise in a game: the rules agree with the
        setup; turn order, round, phase and draws fit together; hands and barnyards hold as many
        cards as the turns played allow; roosters follow H10; every barnyard obeys the placement
        rules; and every card of the deck is somewhere, once. `from_dict` runs it; `apply` keeps
        states valid by construction, so play never pays for it."""
        n, rules, ph = self.n, self.rules, self.phase
        try:
            check_removed(n, self.removed)
        except ValueError as e:
            raise ValueError(f"'removed_breeds': {e}") from None
        if rules.removed_breeds is not None and (
            sorted(BREED_INDEX[c] for c in rules.removed_breeds) != sorted(self.removed)
        ):
            raise ValueError(
                f"'removed_breeds' is {list(self.removed_breeds)} but the rules remove "
                f"{list(rules.removed_breeds)}: they must agree"
            )
        if rules.goal is not None and rules.goal != self.goal:
            raise ValueError(
                f"'goal' is {self.goal} but the rules set goal card {rules.goal}: they must agree"
            )
        if rules.first_player is not None and rules.first_player != self.first:
            raise ValueError(
                f"'first_player' is {self.first} (player {self.first + 1}) but the rules say "
                f"player {rules.first_player + 1} (first_player {rules.first_player}) plays "
                "first: they must agree"
            )
        # Turn order, round and phase.
        mover = (self.first + self.turn) % n
        if self.player != mover:
            raise ValueError(
                f"'player' is {self.player} (player {self.player + 1}) but at turn {self.turn} "
                f"of a round that player {self.first + 1} starts, player {mover + 1} moves "
                f"('player' = ('first_player' + 'turn') mod {n} = {mover})"
            )
        if ph == ROOSTER and self.round != ROOSTER_ROUND:
            raise ValueError(
                f"'phase' is 'rooster' in round {self.round}: roosters are placed only after "
                f"round {ROOSTER_ROUND}"
            )
        if ph == OVER and (self.round != ROUNDS or self.turn != 0):
            raise ValueError(
                f"'phase' is 'over' at round {self.round}, turn {self.turn}: the game ends only "
                f"after round {ROUNDS} (round {ROUNDS}, turn 0)"
            )
        # Draws: two a turn while there is something to draw (H7, H8).
        if ph in (DRAW, CHANCE_DRAW) and self.draws > 1:
            raise ValueError(
                f"'draws' is {self.draws} in the {self.phase_name} phase: after two draws the "
                "player places a card, so 'draws' must be 0 or 1"
            )
        if self.drawn != self.draws:
            raise ValueError(f"'drawn' ({self.drawn}) must equal 'draws' ({self.draws})")
        if ph == DRAW and not self._can_draw():
            raise ValueError(
                "'phase' is 'draw' but there is nothing to draw: the deck is empty and no "
                "opponent's discard pile may be drawn from"
            )
        if ph == CHANCE_DRAW and not self.deck:
            raise ValueError("'phase' is 'chance' (a deck draw) but the deck is empty")
        if ph == PLACE and self.draws < 2 and self._can_draw():
            raise ValueError(
                f"'draws' is {self.draws} in the place phase while cards are left to draw: "
                "a player draws two cards before placing when they can"
            )
        if ph == DISCARD and self.draws != 2:
            raise ValueError(
                f"'draws' is {self.draws} in the discard phase: only a player who drew two cards "
                "discards (H8)"
            )
        # Hands and barnyards: 4 cards in hand between turns, one card placed per turn.
        for q in range(n):
            size = len(self.hands[q])
            mine = q == self.player and ph in (DRAW, CHANCE_DRAW, PLACE, DISCARD)
            most = HAND_SIZE + (self.draws if mine and ph != DISCARD else 0)
            if mine and ph == DISCARD:
                most = HAND_SIZE + 1
                if size != most:
                    raise ValueError(
                        f"'hands[{q}]' (player {q + 1}) holds {size} cards in the discard "
                        f"phase: a player discards holding {most}"
                    )
            if size > most:
                raise ValueError(
                    f"'hands[{q}]' (player {q + 1}) holds {size} cards: player {q + 1} may hold "
                    f"at most {most} now ({HAND_SIZE} between turns, plus the cards drawn this "
                    "turn)"
                )
            if mine and ph == PLACE and not size:
                raise ValueError(
                    f"'hands[{q}]' (player {q + 1}) is empty in the place phase: nothing to place")
            if ph == ROOSTER:
                want = ROOSTER_ROUND
            elif ph == OVER:
                want = ROUNDS
            else:
                played = (q - self.first) % n < self.turn or (q == self.player and ph == DISCARD)
                want = self.round - 1 + played
            if len(self.yards[q]) != want:
                raise ValueError(
                    f"'barnyards[{q}]' (player {q + 1}) holds {len(self.yards[q])} cards but "
                    f"player {q + 1} has placed {want} by round {self.round}, turn {self.turn} "
                    f"({self.phase_name} phase): one card a turn"
                )
            self.yards[q]._check_layout()
        self._validate_roosters()
        have = sorted(self.all_cards())
        want_cards = sorted(_full_deck(self.removed))
        if have != want_cards or any(
            y.coop_card(c) is None for y in self.yards for c in y.coop_cells_taken()
        ):
            raise ValueError(
                "the cards in deck, hands, discards and barnyards are not exactly the deck for "
                f"{n} players without {', '.join(self.removed_breeds) or 'any breed'}"
            )

    def _validate_roosters(self) -> None:
        """H10: roosters are chosen in turn after round 6, hidden until all have chosen."""
        n, ph = self.n, self.phase
        for q in range(n):
            chosen, choice, yard = self.chosen[q], self.choices[q], self.yards[q]
            if self.round < ROOSTER_ROUND or (self.round == ROOSTER_ROUND and ph != ROOSTER):
                has_chosen = False
            elif ph == ROOSTER:
                has_chosen = (q - self.first) % n < self.turn
            else:
                has_chosen = True
            if chosen != has_chosen:
                raise ValueError(
                    f"'rooster_chosen[{q}]' (player {q + 1}) is {chosen} but in round "
                    f"{self.round}, {self.phase_name} phase, turn {self.turn} player {q + 1} "
                    f"{'has' if has_chosen else 'has not yet'} chosen where the rooster goes"
                )
            if not chosen:
                if choice is not None or yard.rooster >= 0:
                    raise ValueError(
                        f"player {q + 1} has not chosen a rooster cell, so "
                        f"'rooster_choices[{q}]' and 'barnyards[{q}]' 'rooster' must be null"
                    )
                continue
            if ph == ROOSTER:
                if yard.rooster >= 0:
                    raise ValueError(
                        f"'barnyards[{q}]' (player {q + 1}) shows a rooster during the rooster "
                        "phase: roosters stay hidden until every player has chosen (H10)"
                    )
                if (choice is None) != (not yard.hen) or (
                    choice is not None and yard.at(choice) is None
                ):
                    raise ValueError(
                        f"'rooster_choices[{q}]' is {choice}: it must be the cell of one of "
                        f"player {q + 1}'s hens (null only when the barnyard has no hen)"
                    )
            elif (choice is None) != (yard.rooster < 0):
                raise ValueError(
                    f"'rooster_choices[{q}]' (player {q + 1}) is {choice} but 'barnyards[{q}]' "
                    f"{'has' if yard.rooster >= 0 else 'has no'} rooster: they must agree"
                )


_view_of = None
_REMOVED_CODES: dict[tuple[int, ...], tuple[str, ...]] = {}


def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _name(k: Any) -> str:
    return str(k) if isinstance(k, Card) else repr(k)


_SEATS = " (a seat index: 0 is player 1)"


def _sources_help(n: int) -> str:
    """What a Draw's source may be, in code and in words."""
    return (f"a Draw's source is the deck (DECK) or the seat index 0-{n - 1} of the player whose "
            f"pile it is (0 is player 1, {n - 1} is player {n})")


def _int(data: dict, key: str, lo: int, hi: int, note: str = "") -> int:
    v = data[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"'{key}' must be a whole number from {lo} to {hi}{note}, not {v!r}")
    return v


def _breeds(codes: Any) -> tuple[int, ...]:
    """The sorted breed indices of a state dict's 'removed_breeds' (a list of breed codes)."""
    if not isinstance(codes, list):
        raise ValueError(
            f"'removed_breeds' must be a list of breed codes such as ['Se'], not {codes!r}"
        )
    out = []
    for c in codes:
        try:
            out.append(breed_index(c))
        except ValueError as e:
            raise ValueError(f"'removed_breeds': {e}") from None
    return tuple(sorted(out))


def _cards(items: Any, where: str) -> list[Card]:
    """The cards of a list of codes; `where` names the field (quoted) for error messages."""
    if not isinstance(items, list):
        raise ValueError(f"{where} must be a list of card codes like 'Pa3'")
    out = []
    for x in items:
        try:
            out.append(card(x))
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    return out


__all__ = ["NUM_KINDS", "PHASES", "TERMINAL", "HensState", "new_game"]

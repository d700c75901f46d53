"""Bots for Hens: random, greedy and lookahead. Each has a `name` and `choose(state, rng)`.

Bots decide from what their player can see: the lookahead bot reads `state.view(player)`, the
greedy bot reads only the parts of the state that view shows (its own hand and barnyard, the goal,
the phase); every bot picks among `state.legal_actions()`, which depend only on the player's own
hand and barnyard and on public piles and deck size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.hens.actions import COOP_AT, DECK, DISCARDS, DRAW_DECK, PLACE_AT, PlaceRooster
from henkit.hens.barnyard import CELL_OF, NEIGHBOURS, Barnyard, bit_list, bits_of, spread
from henkit.hens.cards import BREED_OF, BREEDS, EGGS_OF, NUM_KINDS
from henkit.hens.scoring import (
    NO_SHAPE,
    NO_STATS,
    SHAPE_GOALS,
    Shape,
    ShapeAfter,
    Stats,
    breed_stats,
    combine,
    fast_total,
    joined_total,
    shape_facts,
    total_masks,
)
from henkit.hens.state import CHANCE_DRAW, DISCARD, DRAW, OVER, ROOSTER, State, randbelow

# A hen's "kind" for scoring: its breed and eggs (medals go with the breed), packed in an int
# with 6 low bits free for a cell bit, so `kind | cell` keys a cache without building a tuple.
_KIND: tuple[int, ...] = tuple(BREED_OF[k] << 8 | EGGS_OF[k] << 6 for k in range(NUM_KINDS))
# Medals per hen of each breed (every card of a breed carries the same medals).
_BREED_MEDALS: tuple[int, ...] = tuple(b.medals for b in BREEDS)


def _rooster_bit(yard: Barnyard) -> int:
    """The rooster's cell as a bit of the barnyard's masks (0 without a rooster)."""
    return 1 << yard.rooster if yard.rooster >= 0 else 0


class Evaluator:
    """Scores of one barnyard after each possible placement, cached (for bots).

    Every score is the rulebook total (`scoring.fast_total`), worked out from what a placement
    changes: a hen changes only its own breed's groups, so the other breeds' group statistics
    are combined once and each trial flood-fills a single breed (memoised), and the shape facts
    come from `ShapeAfter`. A placement's score depends on the card only through its breed and
    eggs (medals go with the breed), so scores are cached per (breed, eggs, cell) and shared by
    cards alike; a card's number only decides where it may go. Every cell touching no hen of the
    card's breed gives the same groups (one more lone hen), so such cells are scored once per
    kind and shape facts. `after` builds the next barnyard's evaluator from this one's.
    """

    __slots__ = (
        "_cells",
        "_coop",
        "_coops",
        "_hen",
        "_lone",
        "_one",
        "_per",
        "_rest",
        "_shaper",
        "all",
        "coops",
        "goal",
        "now",
        "rbit",
        "shaped",
        "yard",
    )

    def __init__(self, yard: Barnyard, goal: int) -> None:
        rbit = _rooster_bit(yard)
        # Statistics of each breed present; combining them in any order gives the same result.
        per = {br: breed_stats(m, yard.e2, yard.e3, rbit) for br, m in enumerate(yard.breeds) if m}
        every = NO_STATS
        for stats in per.values():
            every = combine(every, stats)
        now = fast_total(every, yard.coop.bit_count(), yard.medals,
                         shape_facts(yard.hen, yard.coop, yard.e2, yard.e3, goal), goal)
        self._start(yard, goal, per, every, now)

    def _start(self, yard: Barnyard, goal: int, per: dict[int, Stats], every: Stats,
               now: int) -> None:
        """Set up for `yard`, given its statistics per breed, all together, and its total."""
        self.yard = yard
        self.goal = goal
        # Whether a hen's shape facts depend on its cell: the line goals, and coop neighbours
        # once there is a coop (goal 6 reads nothing else of the shape).
        self.shaped = goal in (4, 5) or (goal == 6 and yard.coop != 0)
        self.coops = yard.coop.bit_count()
        self.rbit = _rooster_bit(yard)
        self._per = per  # breed -> its statistics (never changed once set: evaluators share it)
        self.all = every
        self.now = now
        self._rest: dict[int, Stats] = {}  # breed -> all the other breeds combined, on demand
        self._hen: dict[int, tuple[int | None, int]] = {}  # card -> (best total, its cell)
        self._cells: dict[int, int] = {}  # _KIND[card] | cell -> total
        self._lone: dict[tuple[int, Shape], int] = {}  # (_KIND[card], shape facts) -> total at a
        # cell touching no hen of its breed
        self._shaper: ShapeAfter | None = None  # shape facts per trial hen, when shaped
        self._coop: tuple[int | None, int] | None = None
        self._coops: dict[int, int] = {}  # cell -> total with a coop there
        self._one: dict[int, int] = {}  # card -> best_of([card])

    def after(self, k: int, i: int, coop: bool = False) -> Evaluator:
        """The evaluator of the barnyard once card k goes at cell bit i (face down if `coop`),
        built from what this one knows: only the placed breed's statistics change, and the new
        total is the placement's score."""
        yard = self.yard.place(k, CELL_OF[i], coop)
        new = object.__new__(Evaluator)
        if coop:  # a coop changes no group
            new._start(yard, self.goal, self._per, self.all, self.coop_total(i))
            return new
        br = BREED_OF[k]
        # Group statistics do not depend on where the barnyard's frame starts, so a shift of the
        # frame (a card at row or column -1) changes nothing here.
        stats = breed_stats(yard.breeds[br], yard.e2, yard.e3, _rooster_bit(yard))
        new._start(yard, self.goal, {**self._per, br: stats}, combine(self._rest_of(br), stats),
                   self.hen_total(_KIND[k], i))
        return new

    def hen(self, k: int) -> tuple[int | None, int]:
        """(best total after placing card k as a hen, its cell bit); (None, -1) if it fits nowhere.

        Ties go to the lowest cell bit."""
        got = self._hen.get(k)
        if got is None:
            kind = _KIND[k]
            mask = self.yard.hen_mask(k)
            best, where = None, -1
            if not self.shaped:
                # When the shape facts do not depend on the cell, every cell touching no hen of
                # the card's breed scores the same (one more lone hen): only the lowest such
                # cell can be the best.
                near = mask & spread(self.yard.breeds[kind >> 8])
                lone = mask ^ near  # mask & ~spread(...), without a negative int
                if lone:
                    where = (lone & -lone).bit_length() - 1
                    best = self.hen_total(kind, where)
                    mask ^= lone
            cells = self._cells
            for i in bit_list(mask):  # the hot loop of every bot decision
                v = cells.get(kind | i)
                if v is None:
                    v = self.hen_total(kind, i)
                if best is None or v > best or (v == best and i < where):
                    best, where = v, i
            got = self._hen[k] = (best, where)
        return got

    def hen_total(self, kind: int, i: int) -> int:
        """The total after a hen of this kind (`_KIND[card]`) goes at cell bit i (cached)."""
        key = kind | i
        got = self._cells.get(key)
        if got is None:
            shape = self._shape(i, kind >> 6 & 3) if self.shaped else NO_SHAPE
            if NEIGHBOURS[i] & self.yard.breeds[kind >> 8]:
                got = self._score(kind, i, shape)
            else:
                # Touching none of its breed, the hen is one more lone hen wherever it goes: the
                # same groups, so only the shape facts can tell such cells apart.
                lone = (kind, shape)
                got = self._lone.get(lone)
                if got is None:
                    got = self._lone[lone] = self._score(kind, i, shape)
            self._cells[key] = got
        return got

    def _score(self, kind: int, i: int, shape: Shape) -> int:
        """The total after a hen of this kind goes at cell bit i, given the shape facts then."""
        y = self.yard
        br = kind >> 8
        b = 1 << i
        eggs = kind >> 6 & 3
        stats = breed_stats(y.breeds[br] | b, y.e2 | b if eggs >= 2 else y.e2,
                            y.e3 | b if eggs >= 3 else y.e3, self.rbit)
        return joined_total(self._rest_of(br), stats, self.coops, y.medals + _BREED_MEDALS[br], shape,
                            self.goal)

    def _shape(self, i: int, eggs: int) -> Shape:
        """The shape facts after a hen hatching `eggs` goes at cell bit i (shape goals)."""
        shaper = self._shaper
        if shaper is None:
            y = self.yard
            shaper = self._shaper = ShapeAfter(y.hen, y.coop, y.e2, y.e3, self.goal)
        return shaper(i, eggs)

    def _rest_of(self, br: int) -> Stats:
        """The statistics of every breed but br, combined (cached)."""
        rest = self._rest.get(br)
        if rest is not None:
            return rest
        per = self._per
        if br not in per:
            rest = self.all
        else:
            rest = NO_STATS
            for other, stats in per.items():
                if other != br:
                    rest = combine(rest, stats)
        self._rest[br] = rest
        return rest

    def coop_total(self, i: int) -> int:
        """The total after a card goes face down as a coop at cell bit i (cached)."""
        got = self._coops.get(i)
        if got is None:
            y = self.yard
            # A coop leaves every group as it is: only its count and place change the score.
            shape = shape_facts(y.hen, y.coop | 1 << i, y.e2, y.e3, self.goal)
            got = self._coops[i] = fast_total(self.all, self.coops + 1, y.medals, shape, self.goal)
        return got

    def coop(self) -> tuple[int | None, int]:
        """(best total after placing any card as a coop, its cell bit)."""
        if self._coop is None:
            best, where = None, -1
            for i in bit_list(self.yard.open_mask()):
                v = self.coop_total(i)
                if best is None or v > best:
                    best, where = v, i
                if self.goal not in SHAPE_GOALS:
                    break  # the goal ignores where the coop goes: every cell scores the same
            self._coop = (best, where)
        return self._coop

    def best_one(self, k: int) -> int:
        """`best_of([k])`, cached: the lookahead asks it for each sampled card many times over."""
        got = self._one.get(k)
        if got is None:
            got = self._one[k] = self._or_coop(self.hen(k)[0])
        return got

    def best_of(self, cards) -> int:
        """The best total any one of `cards` reaches, coops included (a coop never beats -1)."""
        best = None
        for k in cards:
            v = self.hen(k)[0]
            if v is not None and (best is None or v > best):
                best = v
        return self._or_coop(best)

    def _or_coop(self, best: int | None) -> int:
        """The best of a hen's total `best` (None: no hen fits) and a coop's, which is looked at
        only when no hen reaches now - 1; now itself when nothing can be placed."""
        if best is None or best < self.now - 1:
            c = self.coop()[0]
            if c is not None and (best is None or c > best):
                best = c
        return best if best is not None else self.now


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a bot's name must be a non-empty text, not {name!r}"[:200])
    return name


_GENERATOR = np.random.Generator


def _check_turn(state: object, rng: object) -> None:
    """ValueError unless a bot has a move at `state` (a Hens State at a decision node) and rng
    is a numpy Generator."""
    if type(rng) is not _GENERATOR and not isinstance(rng, _GENERATOR):
        raise ValueError(f"rng must be a numpy Generator, not {type(rng).__name__}")
    if type(state) is not State and not isinstance(state, State):
        raise ValueError(f"a Hens bot chooses at a henkit.hens State, not {type(state).__name__}")
    if state.phase is OVER or state.phase is CHANCE_DRAW:
        raise ValueError(f"no player decides in the {state.phase} phase")


class RandomBot:
    """Picks uniformly among the legal moves."""

    def __init__(self, name: str = "random") -> None:
        self.name = _name(name)

    def choose(self, state: State, rng: np.random.Generator) -> Any:
        """A uniformly random legal move: `legal_actions()[randbelow(rng, n)]`, picked from
        `legal_moves()` without building every placement."""
        if type(state) is not State or type(rng) is not _GENERATOR or (
                state.current_player < 0):  # CHANCE or TERMINAL: no player decides
            _check_turn(state, rng)  # raises unless a subclass passes
        moves = state.legal_moves()
        return moves[randbelow(rng, len(moves))]


class GreedyBot:
    """Maximises the immediate score (goal card included).

    Draws a discard top only when it would score more now than any card in hand; places the
    card and cell scoring most (a coop only when no hen does better); discards the card that
    would score least now; puts the rooster where the score is highest.
    """

    def __init__(self, name: str = "greedy") -> None:
        self.name = _name(name)
        self._ev: Evaluator | None = None
        self._next: Evaluator | None = None  # the evaluator of the barnyard this bot's last
        # placement leads to

    def _evaluator(self, yard: Barnyard, goal: int) -> Evaluator:
        """The evaluator of this bot's barnyard, reusing the last one while the barnyard stays."""
        ev = self._ev
        if ev is None or ev.yard is not yard or ev.goal != goal:
            ev = self._next
            # An evaluator depends only on the barnyard's cards, rooster and the goal, so one
            # built for an equal barnyard (after the placement this bot just chose) gives the
            # same answers and keeps what it already worked out.
            if ev is None or ev.goal != goal or ev.yard != yard:
                ev = Evaluator(yard, goal)
            ev.yard = yard
            self._ev = ev
            self._next = None
        return ev

    def choose(self, state: State, rng: np.random.Generator) -> Any:
        """The greedy move for the player to move, from what that player can see."""
        # The bot reads only what `state.view(player)` shows it - its own hand and barnyard, the
        # goal, the phase, the discard tops and the deck size - straight from the state: building
        # a whole view per decision cost more than the greedy bot's thinking.
        _check_turn(state, rng)
        p = state.player
        phase = state.phase
        if phase is ROOSTER:
            return _best_rooster(state.barnyards[p], state.goal)
        ev = self._evaluator(state.barnyards[p], state.goal)
        hand = tuple(dict.fromkeys(state.hands[p]))  # distinct cards in order: hands are sorted
        if phase is DRAW:
            return self._draw(state, ev, hand)
        if phase is DISCARD:
            return DISCARDS[self._worst(ev, hand)]
        k, i, coop = self._place(ev, hand)
        self._next = ev.after(k, i, coop)  # the barnyard of this bot's next decision
        return (COOP_AT if coop else PLACE_AT)[k][i]

    @staticmethod
    def _draw(state: State, ev: Evaluator, hand: tuple[int, ...]) -> Any:
        """A discard top that would score more now than any card in hand, else the deck."""
        best = ev.best_of(hand)
        pick = None
        actions = state.legal_actions()
        for a in actions:
            if a.source != DECK:
                val = ev.best_one(a.card)
                if val > best:
                    best, pick = val, a
        if pick is not None:
            return pick
        return actions[0]  # the deck when it has cards (it comes first), else the first pile

    @classmethod
    def _place(cls, ev: Evaluator, hand: tuple[int, ...]) -> tuple[int, int, bool]:
        """(card, cell bit, as a coop?) of the hen placement scoring most; a coop only when it
        scores more than every hen."""
        best, choice = None, None
        for k in hand:
            val, i = ev.hen(k)
            if val is not None and (best is None or val > best):
                best, choice = val, (k, i, False)
        if best is None or best < ev.now - 1:
            val, i = ev.coop()
            if val is not None and (best is None or val > best):
                return cls._worst(ev, hand), i, True
        return choice

    @staticmethod
    def _worst(ev: Evaluator, hand: tuple[int, ...]) -> int:
        """The card in hand that would score least now (never placeable counts lowest; ties go
        to the higher card)."""
        worst, low = -1, None
        for k in hand:
            val = ev.hen(k)[0]
            if val is None:
                val = -10**6
            if low is None or val < low or (val == low and k > worst):
                worst, low = k, val
        return worst


def _best_rooster(yard: Barnyard, goal: int) -> PlaceRooster:
    """The rooster cell giving the highest score now (first hen when tied)."""
    if not yard.hen:
        return PlaceRooster(None)
    best, where = None, -1
    for i in bits_of(yard.hen):
        val = total_masks(yard.breeds, yard.hen, yard.coop, yard.e2, yard.e3, yard.medals, i,
                          goal)
        if best is None or val > best:
            best, where = val, i
    return PlaceRooster(CELL_OF[where])


class LookaheadBot(GreedyBot):
    """Looks one turn ahead: values a move by the best score reachable next turn, averaging over
    hidden cards sampled from the unseen cards its view allows (the deck's next two draws).

    Draw: exact expectation over the unseen cards of the deck draw versus each pile top (worked
    out only when some pile top beats the hand: otherwise the deck is at least as good).
    Place: the `candidates` best immediate placements, each judged by `samples` sampled pairs of
    next draws. Discard: keeps the hand that does best on the same samples.
    """

    def __init__(self, name: str = "lookahead", samples: int = 12, candidates: int = 4) -> None:
        super().__init__(name)
        self.samples = whole(samples, "samples", 1, 10_000)
        self.candidates = whole(candidates, "candidates", 1, 10_000)

    def choose(self, state: State, rng: np.random.Generator) -> Any:
        """The lookahead move for the player to move, from that player's view."""
        _check_turn(state, rng)
        v = state.view(state.current_player)
        if v.phase == "rooster":
            return _best_rooster(v.barnyard, v.goal)
        ev = self._evaluator(v.barnyard, v.goal)
        hand = sorted(set(v.hand))
        if v.phase == "draw":
            return self._draw_ahead(state, ev, hand, v.unseen)
        pool = [int(k) for k, c in sorted(v.unseen().items()) for _ in range(c)]
        futures = self._samples(pool, rng)
        if v.phase == "place":
            return self._place_ahead(ev, hand, list(v.hand), futures)
        if v.phase == "discard":
            best, pick = None, None
            for k in hand:
                rest = list(v.hand)
                rest.remove(k)
                val = self._future(ev, rest, futures)
                if best is None or val > best:
                    best, pick = val, k
            return DISCARDS[pick]
        raise ValueError(f"the lookahead bot has no move in the {v.phase} phase")

    @staticmethod
    def _draw_ahead(state: State, ev: Evaluator, hand: list[int],
                    unseen: Callable[[], Counter]) -> Any:
        """The draw with the best expected score after it: the deck (exact expectation over the
        `unseen()` cards) or a pile top; the deck wins ties."""
        mine = ev.best_of(hand)
        actions = state.legal_actions()
        options = {a: max(mine, ev.best_one(a.card)) for a in actions if a.source != DECK}
        if actions[0] == DRAW_DECK:
            if all(val == mine for val in options.values()):
                # Each card the deck may bring is worth at least `mine`, so the deck's expectation
                # is too, and the deck wins ties: no need to work it out.
                return DRAW_DECK
            cards = unseen()
            n = sum(cards.values())
            options[DRAW_DECK] = sum(c * max(mine, ev.best_one(k)) for k, c in cards.items()) / n
        best = max(options.values())
        return DRAW_DECK if options.get(DRAW_DECK) == best else max(options, key=options.get)

    def _place_ahead(self, ev: Evaluator, hand: list[int], held: list[int],
                     futures: list[tuple[int, ...]]) -> Any:
        """The placement best by its score now plus half the mean gain it leaves for next turn,
        among the `candidates` placements scoring most now (`held` is the whole hand)."""
        yard = ev.yard
        # Every placement's score now, in the order of `legal_actions` (hens card by card, then
        # coops); the stable sort keeps that order among equal scores.
        moves = []
        for k in hand:
            kind = _KIND[k]
            for i in bit_list(yard.hen_mask(k)):
                moves.append((ev.hen_total(kind, i), k, i, False))
        front = yard.open_mask()
        if front:
            worst = self._worst(ev, hand)  # the card a coop would hide
            for i in bit_list(front):
                moves.append((ev.coop_total(i), worst, i, True))
        moves.sort(key=lambda t: -t[0])
        best, pick, chosen = None, None, None
        for now_total, k, i, coop in moves[: self.candidates]:
            after = ev.after(k, i, coop)  # its .now is now_total
            rest = list(held)
            rest.remove(k)
            val = now_total + 0.5 * self._future(after, rest, futures)
            if best is None or val > best:
                best, pick, chosen = val, (k, i, coop), after
        self._next = chosen  # the discard after this placement reads the same barnyard
        k, i, coop = pick
        return (COOP_AT if coop else PLACE_AT)[k][i]

    def _samples(self, pool: list[int], rng: np.random.Generator) -> list[tuple[int, ...]]:
        """`samples` pairs of unseen cards, drawn without replacement within a pair."""
        if not pool:
            return [()]
        n = len(pool)
        take = min(2, n)
        choice = rng.choice
        # Choosing positions (an int population) uses the generator exactly as choosing from the
        # pool array itself would, and is several times faster.
        return [tuple([pool[j] for j in choice(n, take, False).tolist()])
                for _ in range(self.samples)]

    @staticmethod
    def _future(ev: Evaluator, hand: list[int], futures: list[tuple[int, ...]]) -> float:
        """Mean gain of the best next placement from `hand` plus each sampled pair of draws."""
        now = ev.now
        kept = ev.best_of(hand) if hand else now - 1
        one = ev.best_one
        total = 0
        for pair in futures:
            best = kept
            for k in pair:
                best = max(best, one(k))
            total += best - now
        return total / len(futures)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot}
"""Bot classes by name."""


def make_bot(name: str) -> RandomBot | GreedyBot | LookaheadBot:
    """A fresh bot from its name ('random', 'greedy' or 'lookahead')."""
    if isinstance(name, str) and name.strip().lower() in BOTS:
        return BOTS[name.strip().lower()]()
    text = repr(name)
    raise ValueError(f"{text if len(text) < 60 else text[:57] + '...'} is not a bot: choose one "
                     f"of {', '.join(BOTS)}")



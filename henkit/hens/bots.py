"""Bots for Hens: random, greedy and lookahead. Each has a `name` and `choose(state, rng)`.

Bots decide from what their player can see: the greedy and lookahead bots read
`state.view(player)` only; every bot picks among `state.legal_actions()`, which depend only on the
player's own hand and barnyard and on public piles and deck size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from henkit.hens.actions import DECK, PlaceRooster, discard, draw, place, place_coop
from henkit.hens.barnyard import CELL_OF, Barnyard, bit_list, bits_of, spread
from henkit.hens.cards import BREED_OF, CARDS, EGGS_OF, MEDALS_OF
from henkit.hens.scoring import (
    NO_SHAPE,
    NO_STATS,
    SHAPE_GOALS,
    Stats,
    breed_stats,
    combine,
    fast_total,
    shape_facts,
    total_masks,
)
from henkit.hens.state import HensState


class Evaluator:
    """Scores of one barnyard after each possible placement, cached per card (for bots).

    A hen changes only its own breed's groups, so the other breeds' group statistics are
    combined once and each trial placement flood-fills a single breed. When the goal card reads
    only group statistics (not where cards lie), placements that leave the same statistics score
    the same, so each distinct outcome is scored once.
    """

    __slots__ = (
        "_by_stats",
        "_coop",
        "_hen",
        "_one",
        "_per",
        "_rest",
        "all",
        "goal",
        "now",
        "rbit",
        "yard",
    )

    def __init__(self, yard: Barnyard, goal: int) -> None:
        self.yard = yard
        self.goal = goal
        self.rbit = rbit = 1 << yard.rooster if yard.rooster >= 0 else 0
        # Statistics of each breed present; combining them in any order gives the same result.
        self._per = {br: breed_stats(m, yard.e2, yard.e3, rbit)
                     for br, m in enumerate(yard.breeds) if m}
        every = NO_STATS
        for stats in self._per.values():
            every = combine(every, stats)
        self.all = every
        self._rest: dict[int, Stats] = {}  # breed -> all the other breeds combined, on demand
        self.now = fast_total(every, yard.coop.bit_count(), yard.medals,
                              shape_facts(yard.hen, yard.coop, yard.e2, yard.e3, goal), goal)
        self._hen: dict[int, tuple[int | None, int]] = {}
        self._coop: tuple[int | None, int] | None = None
        # (breed, its statistics, shape facts after the placement) -> total: the breed fixes the
        # medals and the other breeds, so placements with the same key score the same.
        self._by_stats: dict[tuple, int] = {}
        self._one: dict[int, int] = {}  # card -> best_of([card])

    def hen(self, k: int) -> tuple[int | None, int]:
        """(best total after placing card k as a hen, its cell bit); (None, -1) if it fits nowhere."""
        got = self._hen.get(k)
        if got is not None:
            return got
        y = self.yard
        goal = self.goal
        br = BREED_OF[k]
        eggs = EGGS_OF[k]
        medals = y.medals + MEDALS_OF[k]
        rest = self._rest.get(br)
        if rest is None:
            rest = NO_STATS
            for other, stats in self._per.items():
                if other != br:
                    rest = combine(rest, stats)
            self._rest[br] = rest
        mine = y.breeds[br]
        hen, coop, e2, e3, rbit = y.hen, y.coop, y.e2, y.e3, self.rbit
        coops = coop.bit_count()
        shaped = goal in SHAPE_GOALS
        by_stats = self._by_stats
        shape = NO_SHAPE
        # Without a shape goal, every cell touching no hen of this breed gives the same groups
        # (one more lone hen), so the same score: only the first such cell can be the best.
        near = 0 if shaped else spread(mine)
        lone_seen = False
        best, where = None, -1
        for i in bit_list(y._hen_mask(k)):  # the hot loop of every greedy decision
            b = 1 << i
            if not shaped and not (b & near):
                if lone_seen:
                    continue
                lone_seen = True
            e2_after = e2 | b if eggs >= 2 else e2
            e3_after = e3 | b if eggs >= 3 else e3
            mine_after = breed_stats(mine | b, e2_after, e3_after, rbit)
            if shaped:
                shape = shape_facts(hen | b, coop, e2_after, e3_after, goal)
            key = (br, mine_after, shape)
            v = by_stats.get(key)
            if v is None:
                v = by_stats[key] = fast_total(combine(rest, mine_after), coops, medals, shape, goal)
            if best is None or v > best:
                best, where = v, i
        self._hen[k] = (best, where)
        return best, where

    def coop(self) -> tuple[int | None, int]:
        """(best total after placing any card as a coop, its cell bit)."""
        if self._coop is None:
            y = self.yard
            goal = self.goal
            coops = y.coop.bit_count() + 1
            by_shape: dict[tuple, int] = {}
            best, where = None, -1
            for i in bit_list(y._frontier()):
                # A coop leaves every group as it is: only its count and place change the score.
                shape = shape_facts(y.hen, y.coop | 1 << i, y.e2, y.e3, goal)
                v = by_shape.get(shape)
                if v is None:
                    v = by_shape[shape] = fast_total(self.all, coops, y.medals, shape, goal)
                if best is None or v > best:
                    best, where = v, i
                if goal not in SHAPE_GOALS:
                    break  # the goal ignores where the coop goes: every cell scores the same
            self._coop = (best, where)
        return self._coop

    def best_one(self, k: int) -> int:
        """`best_of([k])`, cached: the lookahead asks it for each sampled card many times over."""
        got = self._one.get(k)
        if got is None:
            got = self._one[k] = self.best_of((k,))
        return got

    def best_of(self, cards) -> int:
        """The best total any one of `cards` reaches, coops included (a coop never beats -1)."""
        best = None
        for k in cards:
            v = self.hen(k)[0]
            if v is not None and (best is None or v > best):
                best = v
        if best is None or best < self.now - 1:
            c = self.coop()[0]
            if c is not None and (best is None or c > best):
                best = c
        return best if best is not None else self.now


def _rank(values: dict[int, float]) -> list[int]:
    return sorted(values, key=lambda k: (values[k], -k))


class RandomBot:
    """Picks uniformly among the legal moves."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, state: HensState, rng: np.random.Generator) -> Any:
        """A uniformly random legal move."""
        return state.random_action(rng)


class GreedyBot:
    """Maximises the immediate score (goal card included).

    Draws a discard top only when it would score more now than any card in hand; places the
    card and cell scoring most (a coop only when no hen does better); discards the card that
    would score least now; puts the rooster where the score is highest.
    """

    def __init__(self, name: str = "greedy") -> None:
        self.name = name
        self._ev: Evaluator | None = None
        self._next: Evaluator | None = None  # the lookahead's evaluator of the yard it chose

    def _evaluator(self, yard: Barnyard, goal: int) -> Evaluator:
        ev = self._ev
        if ev is None or ev.yard is not yard or ev.goal != goal:
            ev = self._next
            # An evaluator depends only on the barnyard's cards, rooster and the goal, so one
            # built for an equal barnyard (the placement the lookahead just chose) gives the same
            # answers and keeps what it already worked out.
            if ev is None or ev.goal != goal or ev.yard != yard:
                ev = Evaluator(yard, goal)
            ev.yard = yard
            self._ev = ev
            self._next = None
        return ev

    def choose(self, state: HensState, rng: np.random.Generator) -> Any:
        """The greedy move for the player to move, from that player's view."""
        v = state.view(state.current_player)
        if v.phase == "rooster":
            return _best_rooster(v.barnyard, v.goal)
        ev = self._evaluator(v.barnyard, v.goal)
        hand = list(dict.fromkeys(v.hand))  # distinct cards in order: hands are sorted
        if v.phase == "draw":
            return self._draw(state, v, ev, hand)
        if v.phase == "place":
            return self._place(ev, hand)
        if v.phase == "discard":
            return discard(self._worst(ev, hand))
        raise ValueError(f"the greedy bot has no move in the {v.phase} phase")

    def _draw(self, state, v, ev: Evaluator, hand: list[int]) -> Any:
        mine = ev.best_of(hand)
        best, pick = mine, None
        for a in state.legal_actions():
            if a.source != DECK:
                val = ev.best_of([a.card])
                if val > best:
                    best, pick = val, a
        if pick is not None or v.deck_size == 0:
            return pick if pick is not None else state.legal_actions()[0]
        return draw(DECK)

    def _place(self, ev: Evaluator, hand: list[int]) -> Any:
        best, choice = None, None
        for k in hand:
            val, i = ev.hen(k)
            if val is not None and (best is None or val > best):
                best, choice = val, place(CARDS[k], CELL_OF[i])
        if best is None or best < ev.now - 1:
            val, i = ev.coop()
            if val is not None and (best is None or val > best):
                return place_coop(CARDS[self._worst(ev, hand)], CELL_OF[i])
        return choice

    @staticmethod
    def _worst(ev: Evaluator, hand: list[int]) -> int:
        """The card in hand that would score least now (never placeable counts lowest)."""
        values = {}
        for k in hand:
            val = ev.hen(k)[0]
            values[k] = -10**6 if val is None else val
        return _rank(values)[0]


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

    Draw: exact expectation over the unseen cards of the deck draw versus each pile top.
    Place: the `candidates` best immediate placements, each judged by `samples` sampled pairs of
    next draws. Discard: keeps the hand that does best on the same samples.
    """

    def __init__(self, name: str = "lookahead", samples: int = 12, candidates: int = 4) -> None:
        super().__init__(name)
        if samples < 1 or candidates < 1:
            raise ValueError("samples and candidates must be at least 1")
        self.samples = samples
        self.candidates = candidates

    def choose(self, state: HensState, rng: np.random.Generator) -> Any:
        """The lookahead move for the player to move, from that player's view."""
        v = state.view(state.current_player)
        if v.phase == "rooster":
            return _best_rooster(v.barnyard, v.goal)
        ev = self._evaluator(v.barnyard, v.goal)
        hand = sorted(set(v.hand))
        unseen = v.unseen()
        pool = np.array([k for k, c in sorted(unseen.items()) for _ in range(c)], dtype=np.int64)
        if v.phase == "draw":
            mine = ev.best_of(hand)
            options = {}
            for a in state.legal_actions():
                if a.source == DECK:
                    n = len(pool)
                    options[a] = sum(c * max(mine, ev.best_one(k)) for k, c in unseen.items()) / n
                else:
                    options[a] = max(mine, ev.best_one(a.card))
            deck = draw(DECK)
            best = max(options.values())
            return deck if options.get(deck) == best else max(options, key=options.get)
        futures = self._samples(pool, rng)
        if v.phase == "place":
            moves = []
            for k in hand:
                for i in bits_of(ev.yard._hen_mask(k)):
                    moves.append((k, i, False))
            for i in bits_of(ev.yard._frontier()):
                moves.append((self._worst(ev, hand), i, True))
            scored = []
            for k, i, coop in moves:
                yard = ev.yard._put(k, i, coop)
                now = Evaluator(yard, v.goal)
                scored.append((now.now, k, i, coop, yard, now))
            scored.sort(key=lambda t: -t[0])
            best, pick, chosen = None, None, None
            for now_total, k, i, coop, _yard, now in scored[: self.candidates]:
                rest = list(v.hand)
                rest.remove(k)
                val = now_total + 0.5 * self._future(now, rest, futures)
                if best is None or val > best:
                    best, pick, chosen = val, (k, i, coop), now
            self._next = chosen  # the discard after this placement reads the same barnyard
            k, i, coop = pick
            return (place_coop if coop else place)(CARDS[k], CELL_OF[i])
        if v.phase == "discard":
            best, pick = None, None
            for k in hand:
                rest = list(v.hand)
                rest.remove(k)
                val = self._future(ev, rest, futures)
                if best is None or val > best:
                    best, pick = val, k
            return discard(CARDS[pick])
        raise ValueError(f"the lookahead bot has no move in the {v.phase} phase")

    def _samples(self, pool: np.ndarray, rng: np.random.Generator) -> list[tuple[int, ...]]:
        """`samples` pairs of unseen cards, drawn without replacement within a pair."""
        if len(pool) == 0:
            return [()]
        take = min(2, len(pool))
        return [tuple(int(x) for x in rng.choice(pool, size=take, replace=False))
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
    try:
        return BOTS[name.strip().lower()]()
    except (KeyError, AttributeError):
        raise ValueError(f"{name!r} is not a bot: choose one of {', '.join(BOTS)}") from None



"""The exact values the class board compares a class's pooled frequencies with.

Every chance here is a `Fraction`, worked out from the games' own rules and tables:

- the first roll of a turn: how many of n dice show a worm is Binomial(n, 1/6)
  (`first_roll_law`);
- a bust: a roll of n dice after taking k faces shows only taken faces with chance (k/6)^n
  (`bust_law`), whatever happened before in the turn;
- how a turn ends (`turn_end_law`): a bot's exact end distribution, found by walking every roll
  of a fresh turn (full grill, 8 dice) through the engine with the bot's own choices. A student
  has no single exact law (students choose as they like): their turns are compared with the
  optimal play's distribution, and the board says so;
- a Hens draw from the deck (`deck_breed_law`, `breed_count_law`): the deck is shuffled once
  and never reshuffled (discards go to the players' piles, `henkit.hens.state`), so the j-th
  card off the deck, not conditioned on anything seen, is a uniformly random card of the deck;
  the count of a breed among m deck cards is hypergeometric. With 2 or 3 players the rules take
  breeds out at random (H4), so the law is the mixture over what was taken out.

The board's `Comparison`s pair pooled counts with these laws, and the distance between them
(`total_variation`, `max_deviation`) shrinks like 1/sqrt(n): `distance_band` says where 95% of
classes' distances lie after n observations (seeded simulation of the exact law).

Pure: no widgets, no plotting.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.classpool.base import Board
from henkit.classpool.records import DECK, STUDENT, check_who
from henkit.henpen.dice import MAX_DICE, SIDES, check_dice
from henkit.henpen.rules import Rules
from henkit.henpen.state import FAILURES
from henkit.hens.cards import BREEDS, breed_index, card
from henkit.hens.rules import check_players

__all__ = [
    "FAILED",
    "BustCell",
    "Comparison",
    "DistanceBand",
    "TurnLaw",
    "bot_spec",
    "breed_count_law",
    "bust_cells",
    "bust_law",
    "deck_breed_law",
    "distance_band",
    "draw_comparison",
    "ending_comparisons",
    "first_roll_comparisons",
    "first_roll_law",
    "hypergeometric",
    "max_deviation",
    "removal_choices",
    "total_variation",
    "turn_end_law",
    "tv_constant",
]

SIXTH = Fraction(1, SIDES)
FAILED = FAILURES
"""A failed turn's endings, in the board's order: bust, no worm, no serving."""
MAX_SIMS = 100_000
"""The most simulated classes `distance_band` draws per n."""
MAX_N = 10**9
"""The largest number of observations `distance_band` simulates."""
COMPARED_WITH_OPTIMAL = ("students choose as they like, so their turns have no single exact "
                         "law: they are compared with the optimal play's (most expected worms)")
FRESH_TURN = ("exact for a fresh turn (8 dice, every serving on the grill); later turns of a game, "
              "with servings gone, end a little differently")


# -- one roll ----------------------------------------------------------------------------------


def _chance(p: object, what: str) -> Fraction:
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | Fraction | np.integer):
        raise ValueError(f"{what} is an exact chance (a Fraction from 0 to 1), not {p!r}"[:300])
    q = Fraction(int(p)) if isinstance(p, int | np.integer) else p
    if not 0 <= q <= 1:
        raise ValueError(f"{what} is a chance from 0 to 1, not {p!r}")
    return q


def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """Binomial(n, p) exactly: the chance of k successes in n trials, k = 0..n."""
    n = whole(n, "n (trials)", 0, 10_000)
    p = _chance(p, "p")
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def first_roll_law(dice: int = 8) -> tuple[Fraction, ...]:
    """The chance that k of `dice` dice show a worm, k = 0..dice: Binomial(dice, 1/6)."""
    return binomial(check_dice(dice, "dice (rolled)", 1), SIXTH)


def bust_law(dice: int, taken: int) -> Fraction:
    """The chance that a roll of `dice` dice after taking `taken` faces (0-5) is a bust:
    every die shows a taken face, (taken/6)^dice (rulebook, Failed turns)."""
    dice = check_dice(dice, "dice (rolled)", 1)
    taken = whole(taken, "the number of faces taken before the roll", 0, SIDES - 1)
    return Fraction(taken, SIDES) ** dice


# -- Hens deck draws ---------------------------------------------------------------------------


def hypergeometric(population: int, successes: int, draws: int) -> tuple[Fraction, ...]:
    """Hypergeometric(N, K, m) exactly: the chance of k marked cards among m drawn without
    replacement from N cards of which K are marked, k = 0..m."""
    n = whole(population, "population (cards in the deck)", 1, 100_000)
    k = whole(successes, "successes (marked cards)", 0, n)
    m = whole(draws, "draws", 0, n)
    total = comb(n, m)
    return tuple(Fraction(comb(k, i) * comb(n - k, m - i), total) for i in range(m + 1))


def removal_choices(players: int = 2) -> tuple[tuple[tuple[str, ...], Fraction], ...]:
    """The breeds the rules take out of the deck for `players` (H4), each choice with its chance:
    4 players none; 3 players Se or Ba; 2 players (Pa or Wy) and (Se or Ba), evenly."""
    players = check_players(players)
    tens, twelves = ("Se", "Ba"), ("Pa", "Wy")
    if players == 4:
        return (((), Fraction(1)),)
    if players == 3:
        return tuple(((t,), Fraction(1, 2)) for t in tens)
    return tuple(((w, t), Fraction(1, 4)) for w in twelves for t in tens)


def _breed_copies(removed: tuple[str, ...]) -> dict[str, int]:
    return {b.code: 0 if b.code in removed else b.size for b in BREEDS}


def deck_breed_law(players: int = 2) -> dict[str, Fraction]:
    """The chance that a card off the deck is of each breed (code -> chance), not conditioned
    on anything seen: the breed's share of the deck, averaged over the breeds the rules may
    have taken out for `players` (the deck is never reshuffled)."""
    law = {b.code: Fraction(0) for b in BREEDS}
    for removed, p in removal_choices(players):
        copies = _breed_copies(removed)
        size = sum(copies.values())
        for code, c in copies.items():
            law[code] += p * Fraction(c, size)
    return law


def breed_count_law(breed: str, draws: int, players: int = 2) -> tuple[Fraction, ...]:
    """How many of the first `draws` cards off the deck are of `breed`: hypergeometric (the deck's
    size and the breed's copies), mixed over the breeds the rules may take out (2-3 players)."""
    code = BREEDS[breed_index(breed)].code  # ValueError naming the breeds
    draws = whole(draws, "draws", 0, 10_000)
    out = [Fraction(0)] * (draws + 1)
    for removed, p in removal_choices(players):
        copies = _breed_copies(removed)
        size = sum(copies.values())
        if draws > size:
            raise ValueError(f"a {players}-player deck holds {size} cards: draw at most that "
                             f"many, not {draws}")
        for i, q in enumerate(hypergeometric(size, copies[code], draws)):
            out[i] += p * q
    return tuple(out)


# -- how a turn ends ---------------------------------------------------------------------------


_THRESHOLD = re.compile(r"threshold (\d{1,4})")
# A record's who has no "/": `observe.who_of` writes a steal weight 1/2 as 1_2.
_STEAL = re.compile(r"optimal \(steal weight ([0-9_.]{1,20})\)")


def bot_spec(who: str) -> str | None:
    """The `make_bot` spec of a bot recorded as `who` ('threshold 25' -> 'threshold:25'); the
    optimal play's for "student" (compared with it); None for a name no henkit bot has."""
    who = check_who(who)
    if who == STUDENT:
        return "optimal"
    if who in ("random", "greedy", "optimal"):
        return who
    if m := _THRESHOLD.fullmatch(who):
        return f"threshold:{int(m.group(1))}"
    if m := _STEAL.fullmatch(who):
        return f"optimal:{m.group(1).replace('_', '/')}"
    return None


@dataclass(frozen=True)
class TurnLaw:
    """How a fresh turn ends, exactly: `chances[ending]`, an ending being a failure reason
    ("bust", "no worm", "no serving") or the total of a turn that took a serving.

    `who` is the player recorded, `played_by` the bot whose play gives the law (the optimal
    play for a student), `note` says in words how far the law holds.
    """

    who: str
    played_by: str
    chances: dict[int | str, Fraction]
    note: str

    def chance(self, ending: int | str) -> Fraction:
        """The exact chance of one ending (0 for an ending the play never reaches)."""
        return self.chances.get(ending, Fraction(0))

    @property
    def fail(self) -> Fraction:
        """The chance the turn fails, for any reason."""
        return sum((self.chance(f) for f in FAILED), Fraction(0))


def turn_end_law(who: str, rules: Rules | None = None) -> TurnLaw | None:
    """The exact end distribution of a fresh turn played by `who` (a bot's name as the class
    pool records it; "student": the optimal play's, see TurnLaw.note); None for an unknown bot.

    Found by walking every roll of the turn through the engine (`State.apply`) with the bot's
    own choices (a random bot: each legal move with equal chance): exact. Under the default
    rules the laws of the usual bots are stored, worked out beforehand by that same walk
    (`henkit.classpool.turn_laws`, tested against it); any other bot or rules is walked here,
    a few seconds the first time (tens of seconds on a busy server), then cached.
    """
    spec = bot_spec(who)
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be henkit.henpen Rules or None, not {rules!r}"[:300])
    if spec is None:
        return None
    chances = stored_law(spec) if rules == Rules() else None
    if chances is None:
        with _WALK_LOCK:  # a second caller (the board's thread, a notebook cell) waits
            chances = _walk(spec, rules)
    note = COMPARED_WITH_OPTIMAL if who == STUDENT else FRESH_TURN
    return TurnLaw(who, "optimal" if who == STUDENT else spec, dict(chances), note)


def stored_law(spec: str) -> tuple[tuple[int | str, Fraction], ...] | None:
    """A bot's stored law under the default rules (by make_bot spec), or None if not stored."""
    from henkit.classpool.turn_laws import LAWS

    law = LAWS.get(spec)
    if law is None:
        return None
    return tuple((int(k) if k.isdigit() else k, Fraction(v)) for k, v in law.items())


STORED_SPECS = ("random", "greedy", "optimal", *(f"threshold:{t}" for t in range(20, 31)))
"""The bots whose laws `henkit.classpool.turn_laws` stores (default rules)."""


def write_turn_laws(path: str, specs: Iterable[str] = STORED_SPECS) -> None:
    """Walk each bot's fresh turn (default rules) and write the laws as the module
    henkit/classpool/turn_laws.py (`python -m henkit.classpool.exact PATH`)."""
    import json

    laws = {spec: {str(k): str(p) for k, p in _walk(spec, Rules())} for spec in specs}
    body = json.dumps(laws, indent=1)
    with open(path, "w", encoding="utf-8") as f:
        f.write('"""Exact end distributions of a fresh Henpen turn (default rules) for the usual '
                'bots,\nby make_bot spec: ending -> chance (a fraction as text). Generated by '
                '`python -m\nhenkit.classpool.exact henkit/classpool/turn_laws.py` (the walk '
                'of `exact._walk`); tests/classpool/test_exact.py checks them against it."""\n\n'
                f"LAWS: dict[str, dict[str, str]] = {body}\n")


_WALK_LOCK = threading.Lock()


@lru_cache(maxsize=32)
def _walk(spec: str, rules: Rules) -> tuple[tuple[int | str, Fraction], ...]:
    from henkit.henpen.bots import RandomBot, make_bot
    from henkit.henpen.state import State

    bot = make_bot(spec)
    mixed = isinstance(bot, RandomBot)
    rng = np.random.default_rng(0)  # the other bots never draw from it
    memo: dict[tuple[Any, ...], dict[int | str, Fraction]] = {}

    def ends(s: State) -> dict[int | str, Fraction]:
        if s.turns_played:
            end = s.last_turn
            return {end.failure if end.failure is not None else end.total: Fraction(1)}
        key = (s.phase, s.kept, s.roll)
        got = memo.get(key)
        if got is not None:
            return got
        out: dict[int | str, Fraction] = {}
        if s.is_chance:
            branches = s.chance_outcomes()
        elif mixed:
            acts = s.legal_actions()
            branches = [(a, Fraction(1, len(acts))) for a in acts]
        else:
            branches = [(bot.choose(s, rng), Fraction(1))]
        for move, p in branches:
            for e, q in ends(s.apply(move)).items():
                out[e] = out.get(e, Fraction(0)) + p * q
        memo[key] = out
        return out

    law = ends(State.new(1, rules))
    return tuple(sorted(law.items(), key=lambda kv: _ending_order(kv[0])))


def _ending_order(ending: int | str) -> tuple[int, int]:
    return (0, FAILED.index(ending)) if isinstance(ending, str) else (1, ending)


# -- distances ---------------------------------------------------------------------------------


def _law(law: object) -> dict[Any, float]:
    if isinstance(law, Mapping):
        items = list(law.items())
    elif isinstance(law, Sequence) and not isinstance(law, str | bytes):
        items = list(enumerate(law))
    else:
        raise ValueError(f"an exact law is a dict of outcome -> chance or a list of chances, "
                         f"not {law!r}"[:300])
    out = {k: float(_chance(p, "each chance of the law")) for k, p in items}
    if abs(sum(out.values()) - 1) > 1e-9:
        raise ValueError(f"an exact law's chances sum to 1, not {sum(out.values())}")
    return out


def _counts(counts: object) -> dict[Any, int]:
    if isinstance(counts, Mapping):
        items = list(counts.items())
    elif isinstance(counts, Sequence | np.ndarray) and not isinstance(counts, str | bytes):
        items = list(enumerate(counts))
    else:
        raise ValueError(f"counts are a dict of outcome -> count or a list of counts, "
                         f"not {counts!r}"[:300])
    out = {k: whole(c, "each count", 0) for k, c in items}
    if not sum(out.values()):
        raise ValueError("no observations: the distance of nothing to the law is undefined")
    return out


def total_variation(counts: Mapping[Any, int] | Sequence[int],
                    law: Mapping[Any, Fraction] | Sequence[Fraction]) -> float:
    """The total variation distance between pooled frequencies and an exact law: half the sum
    of |frequency - chance| over every outcome (0: the same; 1: nothing in common)."""
    c, p = _counts(counts), _law(law)
    n = sum(c.values())
    return 0.5 * sum(abs(c.get(k, 0) / n - p.get(k, 0.0)) for k in c.keys() | p.keys())


def max_deviation(counts: Mapping[Any, int] | Sequence[int],
                  law: Mapping[Any, Fraction] | Sequence[Fraction]) -> float:
    """The largest |frequency - chance| over the outcomes."""
    c, p = _counts(counts), _law(law)
    n = sum(c.values())
    return max(abs(c.get(k, 0) / n - p.get(k, 0.0)) for k in c.keys() | p.keys())


def tv_constant(law: Mapping[Any, Fraction] | Sequence[Fraction]) -> float:
    """C in E[total variation] ~ C / sqrt(n) for n observations of the law: each frequency is
    off by about sqrt(p(1-p)/n), and E|N(0, s^2)| = s sqrt(2/pi), so C = sum sqrt(p(1-p)/(2 pi))."""
    return sum(math.sqrt(p * (1 - p) / (2 * math.pi)) for p in _law(law).values())


def expected_distance(law: Mapping[Any, Fraction] | Sequence[Fraction],
                      ns: Iterable[int]) -> tuple[float, ...]:
    """C / sqrt(n) (C = `tv_constant(law)`) at each n of `ns`: the expected distance there."""
    if isinstance(ns, str | bytes) or not isinstance(ns, Iterable):
        raise ValueError(f"ns is a list of numbers of observations, not {ns!r}"[:300])
    c = tv_constant(law)
    return tuple(c / math.sqrt(whole(n, "each n (observations)", 1, MAX_N)) for n in ns)


@dataclass(frozen=True)
class DistanceBand:
    """Where the total variation distance of n observations of a law lies: at each n of `n`,
    its mean and the `level` band (low, high) over `sims` simulated classes (seeded)."""

    n: tuple[int, ...]
    mean: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    level: float
    sims: int


def distance_band(law: Mapping[Any, Fraction] | Sequence[Fraction], ns: Iterable[int],
                  level: float = 0.95, sims: int = 2000, seed: int = 0) -> DistanceBand:
    """Where the total variation distance lies after n observations of the exact law, for each
    n of `ns`: `sims` classes drawn from the law itself (multinomial, seeded: deterministic)."""
    p = np.array(list(_law(law).values()))
    if isinstance(ns, str | bytes) or not isinstance(ns, Iterable):
        raise ValueError(f"ns is a list of numbers of observations, not {ns!r}"[:300])
    sizes = tuple(whole(n, "each n (observations)", 1, MAX_N) for n in ns)
    if not sizes:
        raise ValueError("ns must list at least one number of observations")
    if isinstance(level, bool) or not isinstance(level, float | int) or not 0 < level < 1:
        raise ValueError(f"level is a share between 0 and 1 (0.95 for 95%), not {level!r}")
    sims = whole(sims, "sims", 10, MAX_SIMS)
    seed = whole(seed, "seed", 0)
    p = p / p.sum()
    mean, low, high = [], [], []
    for i, n in enumerate(sizes):
        rng = np.random.default_rng([seed, i])
        tv = 0.5 * np.abs(rng.multinomial(n, p, size=sims) / n - p).sum(axis=1)
        mean.append(float(tv.mean()))
        lo, hi = np.quantile(tv, [(1 - level) / 2, (1 + level) / 2])
        low.append(float(lo))
        high.append(float(hi))
    return DistanceBand(sizes, tuple(mean), tuple(low), tuple(high), float(level), sims)


# -- the board against the exact values --------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """Pooled counts beside an exact law: `counts[i]` observations of `keys[i]`, whose exact
    chance is `exact[i]`; `note` says in words what the law is and how far it holds."""

    title: str
    keys: tuple[Any, ...]
    counts: tuple[int, ...]
    exact: tuple[Fraction, ...]
    note: str = ""

    def __post_init__(self) -> None:
        if not (len(self.keys) == len(self.counts) == len(self.exact)):
            raise ValueError("a comparison has one count and one exact chance per outcome")

    @property
    def n(self) -> int:
        """How many observations are pooled."""
        return sum(self.counts)

    @property
    def shares(self) -> tuple[float, ...]:
        """The pooled frequencies (all 0 with no observation)."""
        n = self.n
        return tuple(c / n if n else 0.0 for c in self.counts)

    @property
    def has_law(self) -> bool:
        """Whether there is an exact law to compare with (an unknown bot has none)."""
        return sum(self.exact) == 1

    @property
    def distance(self) -> float | None:
        """The total variation distance to the exact law (None with no observation or law)."""
        return total_variation(self.counts, self.exact) if self.n and self.has_law else None


def first_roll_comparisons(board: Board, dice: Iterable[int] = (8,)) -> list[Comparison]:
    """Worms on a turn's first roll, by dice rolled: the pooled counts beside Binomial(n, 1/6);
    one comparison for each n of `dice` and each n the board holds, fewest dice first."""
    _board(board)
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise ValueError(f"dice is a list of numbers of dice, not {dice!r}"[:300])
    sizes = sorted({check_dice(d, "dice", 1) for d in dice} | {n for n, _ in board.first_rolls})
    out = []
    for n in sizes:
        law = first_roll_law(n)
        counts = tuple(board.first_rolls.get((n, k), 0) for k in range(n + 1))
        out.append(Comparison(f"worms on a first roll of {n} dice", tuple(range(n + 1)),
                              counts, law, f"Binomial({n}, 1/6): each die shows a worm with "
                              "chance 1/6, independently"))
    return out


@dataclass(frozen=True)
class BustCell:
    """Rolls of `dice` dice after taking `taken` faces: how many, how many busts, and the exact
    bust chance (taken/6)^dice."""

    dice: int
    taken: int
    busts: int
    rolls: int
    exact: Fraction

    @property
    def share(self) -> float | None:
        """The pooled bust frequency (None with no roll)."""
        return self.busts / self.rolls if self.rolls else None


def bust_cells(board: Board) -> list[BustCell]:
    """Every (dice rolled, faces taken) the board holds rolls of, with busts and the exact
    chance, by faces taken then dice (the order a turn goes through them)."""
    _board(board)
    return [BustCell(n, k, busts, rolls, bust_law(n, k))
            for (n, k), (busts, rolls) in sorted(board.busts.items(), key=lambda kv: kv[0][::-1])
            if 1 <= n <= MAX_DICE and 0 <= k < SIDES]


def ending_comparisons(board: Board, rules: Rules | None = None,
                       laws: bool | Collection[str] = True) -> list[Comparison]:
    """Each player's turn endings (students first, then bots by name) beside the exact end
    distribution of a fresh turn (`turn_end_law`). `laws`: True for every player, False for
    none (counts only, exact all 0: a quick look without the seconds a new bot's law takes),
    or the names of the players whose law to use."""
    _board(board)
    if isinstance(laws, bool | np.bool_):
        wanted = None if laws else frozenset()
    elif isinstance(laws, Collection) and not isinstance(laws, str | bytes):
        wanted = frozenset(laws)
    else:
        raise ValueError(f"laws is True, False or a list of players' names, not {laws!r}"[:300])
    who = sorted({w for w, _ in board.endings}, key=lambda w: (w != STUDENT, w))
    out = []
    for name in who:
        law = turn_end_law(name, rules) if wanted is None or name in wanted else None
        seen = {e for w, e in board.endings if w == name}
        keys = sorted(seen | set(law.chances if law else ()) | set(FAILED), key=_ending_order)
        counts = tuple(board.endings.get((name, k), 0) for k in keys)
        exact = tuple(law.chance(k) if law else Fraction(0) for k in keys)
        if law is not None:
            note = f"compared with {law.played_by}: {law.note}"
        elif bot_spec(name) is None:
            note = "no exact law: not a henkit bot"
        else:
            note = ""
        title = "students' turns" if name == STUDENT else f"{name}'s turns"
        out.append(Comparison(title, tuple(keys), counts, exact, note))
    return out


def draw_comparison(board: Board, players: int | None = None) -> Comparison:
    """Cards off the deck by breed, pooled, beside their exact chance: each draw's in the deck of
    its own game (`deck_breed_law` of its player count), so the pooled law is those decks mixed
    as the draws came; with `players`, only the draws of games of that many players. Draws from
    the players' piles are not chance draws, and draws a store kept without their player count
    cannot be given a law: both are left out (the note says how many of the latter)."""
    _board(board)
    if players is not None:
        players = check_players(players)
    codes = tuple(b.code for b in BREEDS)
    counts = dict.fromkeys(codes, 0)
    games: dict[int, int] = {}  # player count -> deck draws
    unknown = 0
    for (source, code, n_players), n in board.draws.items():
        if source != DECK or (players is not None and n_players != players):
            continue
        if n_players is None:
            unknown += n
            continue
        counts[card(code).breed.code] += n
        games[n_players] = games.get(n_players, 0) + n
    total = sum(games.values())
    exact = dict.fromkeys(codes, Fraction(0))
    for p, n in games.items():
        for code, chance in deck_breed_law(p).items():
            exact[code] += Fraction(n, total) * chance
    decks = sorted(games) if players is None else [players]
    which = (" and ".join(map(str, decks)) + "-player games") if decks else "no draws yet"
    note = ("each card off the deck is one card of its game's shuffled deck (with 2 or 3 "
            "players the rules take breeds out at random): the count of a breed among m cards "
            "is hypergeometric")
    if len(games) > 1:
        mix = ", ".join(f"{games[p]} from {p}-player games" for p in sorted(games))
        note += f"; the exact shares mix the decks as the draws came ({mix})"
    if unknown:
        note += f"; {unknown} draws kept without their game's player count are left out"
    return Comparison(f"breeds of cards drawn from the deck ({which})", codes,
                      tuple(counts[c] for c in codes), tuple(exact[c] for c in codes), note)


def _board(board: object) -> None:
    if not isinstance(board, Board):
        raise ValueError(f"board is a class pool Board (ClassStore.board()), not {board!r}"[:300])


if __name__ == "__main__":  # regenerate the stored laws
    import sys

    write_turn_laws(sys.argv[1] if len(sys.argv) > 1 else "henkit/classpool/turn_laws.py")

"""The Henpen dice: faces, their values and the exact distribution of a roll.

A roll of n dice is described by its counts: a tuple of six numbers, how many dice show
1, 2, 3, 4, 5 and a worm. Which die shows what does not matter to the game, so the counts
are the outcomes, each with its multinomial probability n! / (c1! ... c6!) / 6**n.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from math import factorial, prod
from typing import Any

import numpy as np

from henkit.checks import whole

WORM = 6
"""The worm face. Faces are the ints 1..5 and WORM; a face's index in a counts tuple is face - 1."""

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, WORM)
SIDES = len(FACES)
WORM_VALUE = 5
_GENERATOR = np.random.Generator  # looked up once: sample_roll runs at every roll of a game
MAX_DICE = 20
"""The most dice a roll (and a turn, `Rules.dice`) may have."""
MAX_ROLLS = 10_000_000
"""The most rolls `sample_rolls` draws in one call (six counts of 8 bytes each: 480 MB)."""


def check_face(face: object) -> int:
    """Return `face` as an int if it is a die face (1..5 or WORM=6), else raise ValueError."""
    if isinstance(face, bool) or not isinstance(face, int | np.integer) or not 1 <= face <= SIDES:
        raise ValueError(f"a die face is 1, 2, 3, 4, 5 or {WORM} (the worm), not {face!r}")
    return int(face)


def check_faces(faces: object, what: str = "taken") -> frozenset[int]:
    """A set of distinct die faces from any collection of faces; ValueError otherwise."""
    if isinstance(faces, str | bytes | Mapping) or not isinstance(faces, Iterable):
        raise ValueError(f"{what} must be a collection of faces 1..5 or {WORM} (the worm), "
                         f"not {faces!r}")
    out = [check_face(f) for f in faces]
    if len(set(out)) != len(out):
        raise ValueError(f"{what} lists a face twice: {sorted(out)}")
    return frozenset(out)


def check_dice(n: object, what: str = "the number of dice", low: int = 0) -> int:
    """Return `n` as an int if it is a number of dice from `low` to MAX_DICE, else ValueError."""
    return whole(n, what, low, MAX_DICE)


def face_value(face: int) -> int:
    """Decision P2: the points a face adds to the total per die showing it (a worm counts 5)."""
    if type(face) is not int or not 1 <= face <= SIDES:  # a plain face needs no checks
        face = check_face(face)
    return WORM_VALUE if face == WORM else face


VALUES: tuple[int, ...] = tuple(face_value(f) for f in FACES)
"""Points per die of each face, in face order (the fast path of `face_value`)."""


def face_name(face: int, plural: bool = False) -> str:
    """How a face is said in words: '3' / '3s', 'worm' / 'worms'."""
    face = check_face(face)
    if face == WORM:
        return "worms" if plural else "worm"
    return f"{face}s" if plural else str(face)


def _plain_count(c: object) -> bool:
    return type(c) is int and c >= 0  # type: ignore[operator]


def check_roll(roll: Any, dice: int) -> tuple[int, ...]:
    """Return `roll` as a counts tuple if it is a roll of `dice` dice, else ValueError.

    A roll is SIDES whole numbers (numpy integers too): how many dice show 1, 2, 3, 4, 5 and a
    worm, adding up to the dice rolled.
    """
    if type(roll) is tuple and type(dice) is int and 0 <= dice <= MAX_DICE:
        try:
            if _same_outcome(dice).get(roll) is roll:
                return roll  # one of the engine's own rolls (`roll_outcomes`, `sample_roll`)
        except TypeError:  # an unhashable entry: checked below
            pass
    if type(roll) is tuple and len(roll) == SIDES and all(map(_plain_count, roll)):
        counts = roll  # plain counts: only their sum is left to check
    else:
        items = _items(roll)
        if items is None or len(items) != SIDES:
            raise ValueError(f"a roll of {dice} dice is {SIDES} counts (dice showing 1s..5s, "
                             f"worms) adding up to {dice}, not {roll!r}")
        counts = tuple(whole(c, f"each count of a roll of {dice} dice (dice showing a face)", 0)
                       for c in items)
    if sum(counts) != dice:
        raise ValueError(
            f"a roll of {dice} dice is {SIDES} counts (dice showing 1s..5s, worms) adding up to "
            f"{dice}, not {roll!r}"
        )
    return counts


def _items(xs: Any) -> list[Any] | None:
    # The entries of a list, tuple or 1-d numpy array (None for anything else).
    if isinstance(xs, np.ndarray):
        return xs.tolist() if xs.ndim == 1 else None
    if isinstance(xs, list | tuple):
        return list(xs)
    return None


@cache
def _outcomes(n: int) -> tuple[tuple[int, ...], ...]:
    def parts(left: int, slots: int) -> list[tuple[int, ...]]:
        if slots == 1:
            return [(left,)]
        return [(k, *rest) for k in range(left, -1, -1) for rest in parts(left - k, slots - 1)]

    return tuple(parts(n, SIDES))


@cache
def _same_outcome(n: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    # Each roll of n dice -> the tuple object `roll_outcomes(n)` holds. A roll that IS that
    # object (every roll `sample_roll` makes) is known valid, so `check_roll` needs one look-up;
    # an equal tuple of other objects (True for 1, numpy integers) is not the same object and
    # goes through the full check.
    return {o: o for o in _outcomes(n)}


def roll_outcomes(n: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct roll of n dice (0..MAX_DICE) as a counts tuple, in a fixed
    (lexicographic) order."""
    return _outcomes(check_dice(n))


def multinomial_count(counts: Any) -> int:
    """Number of ordered rolls (out of 6**n) that show these counts."""
    items = _items(counts)
    if items is None or len(items) != SIDES:
        raise ValueError(f"counts must be {SIDES} counts (dice showing 1s..5s, worms), not {counts!r}")
    cs = [whole(c, "a roll count", 0, MAX_DICE) for c in items]
    n = check_dice(sum(cs), "the dice of a roll (the counts' sum)")
    ways = factorial(n)
    for c in cs:
        ways //= factorial(c)
    return ways


@cache
def _ways(n: int) -> tuple[int, ...]:
    # `multinomial_count` of each roll of n dice, in `roll_outcomes` order, without checking
    # the engine's own rolls (every kernel that rolls dice makes these once per dice count).
    fact = [factorial(i) for i in range(n + 1)]
    top = fact[n]
    return tuple(top // prod(map(fact.__getitem__, c)) for c in _outcomes(n))


@cache
def _probabilities(n: int) -> tuple[Fraction, ...]:
    total = SIDES**n
    return tuple(Fraction(w, total) for w in _ways(n))


def roll_probabilities(n: int) -> tuple[Fraction, ...]:
    """Exact probability of each roll in `roll_outcomes(n)`; they sum to 1."""
    return _probabilities(check_dice(n))


@cache
def _table(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts = np.array(_outcomes(n), dtype=np.int64).reshape(-1, SIDES)
    # w / 6**n is the correctly rounded float of the chance, as float(Fraction(w, 6**n)) is.
    total = SIDES**n
    probs = np.array([w / total for w in _ways(n)], dtype=np.float64)
    cumulative = np.cumsum(probs)
    cumulative[-1] = 1.0  # guard the last bucket against rounding
    for a in (counts, probs, cumulative):
        a.flags.writeable = False
    return counts, probs, cumulative


def roll_table(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float arrays for fast work: counts (k, 6), probabilities (k,), cumulative (k,)."""
    return _table(check_dice(n))


def check_rng(rng: object) -> np.random.Generator:
    """Return `rng` if it is a numpy Generator, else raise ValueError."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator (numpy.random.default_rng(seed)), "
                         f"not {rng!r}")
    return rng


def sample_roll(n: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Roll n fair dice with `rng` and return the counts."""
    if type(n) is not int or not 0 <= n <= MAX_DICE:
        n = check_dice(n)
    if type(rng) is not _GENERATOR:
        check_rng(rng)
    # bisect_right on the same floats finds the same bucket as np.searchsorted(side="right"),
    # without numpy's per-call overhead (a game rolls a few hundred times).
    outcomes, cumulative = _SAMPLERS[n] or _sampler(n)
    bits = rng.bit_generator
    if type(bits) in _RAW_DOUBLE:
        # rng.random() itself, read off the raw stream: these generators make a double as
        # (next 64 bits >> 11) / 2**53, and skipping the Generator's call costs a third less
        # (a lesson rolls 200,000 times).
        return outcomes[bisect_right(cumulative, (bits.random_raw() >> 11) * _TWO_TO_MINUS_53)]
    return outcomes[bisect_right(cumulative, rng.random())]


def sample_rolls(n: int, rng: np.random.Generator, rolls: int) -> np.ndarray:
    """`rolls` rolls of n fair dice at once, as counts (an int array, one row per roll): the
    rolls that as many `sample_roll(n, rng)` calls would give, in the same order."""
    n = check_dice(n)
    check_rng(rng)
    rolls = whole(rolls, "rolls", 1, MAX_ROLLS)
    counts, _probs, cumulative = _table(n)
    # rng.random(k) gives the doubles that k calls of rng.random() would, and searchsorted finds
    # the bucket bisect_right finds in sample_roll: the same rolls, a simulation's worth at once.
    return counts[np.searchsorted(cumulative, rng.random(rolls), side="right")]


_RAW_DOUBLE = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64)
"""Bit generators whose `random()` is their next raw 64 bits >> 11, times 2**-53 (numpy's C
code for each; MT19937 builds its doubles from two 32-bit draws instead)."""
_TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0
_SAMPLERS: list[tuple[tuple[tuple[int, ...], ...], list[float]] | None] = [None] * (MAX_DICE + 1)
"""`_sampler(n)` once made, by n: a list look-up costs less than a cached call."""


def _sampler(n: int) -> tuple[tuple[tuple[int, ...], ...], list[float]]:
    # The rolls of n dice and their cumulative probabilities, as plain Python values.
    made = _SAMPLERS[n] = (_outcomes(n), _table(n)[2].tolist())
    return made


def describe_roll(counts: Any) -> str:
    """A roll in words, e.g. '1 1 3 5 W W' (W for a worm)."""
    counts = check_roll(counts, _dice_of(counts))
    shown = []
    for face, c in zip(FACES, counts, strict=True):
        shown += ["W" if face == WORM else str(face)] * c
    return " ".join(shown) if shown else "(no dice)"


def _dice_of(counts: Any) -> int:
    # The dice a counts tuple describes (describe_roll takes a roll of any size up to MAX_DICE).
    items = _items(counts)
    if items is None:
        raise ValueError(f"a roll is {SIDES} counts (dice showing 1s..5s, worms), not {counts!r}")
    n = sum(whole(c, "a roll count", 0, MAX_DICE) for c in items)
    return check_dice(n, "the dice of a roll (the counts' sum)")

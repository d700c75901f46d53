"""The Henpen dice: faces, their values and the exact distribution of a roll.

A roll of n dice is described by its counts: a tuple of six numbers, how many dice show
1, 2, 3, 4, 5 and a worm. Which die shows what does not matter to the game, so the counts
are the outcomes, each with its multinomial probability n! / (c1! ... c6!) / 6**n.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from functools import cache
from math import factorial

import numpy as np

WORM = 6
"""The worm face. Faces are the ints 1..5 and WORM; a face's index in a counts tuple is face - 1."""

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, WORM)
SIDES = len(FACES)
WORM_VALUE = 5


def face_value(face: int) -> int:
    """Points a face adds to the total for each die showing it (a worm counts 5)."""
    return WORM_VALUE if face == WORM else face


VALUES: tuple[int, ...] = tuple(face_value(f) for f in FACES)


def face_name(face: int, plural: bool = False) -> str:
    """How a face is said in words: '3' / '3s', 'worm' / 'worms'."""
    if face == WORM:
        return "worms" if plural else "worm"
    return f"{face}s" if plural else str(face)


def check_face(face: object) -> int:
    """Return `face` if it is a die face (1..5 or WORM=6), else raise ValueError."""
    if isinstance(face, bool) or not isinstance(face, int | np.integer) or not 1 <= face <= SIDES:
        raise ValueError(f"a die face is 1, 2, 3, 4, 5 or {WORM} (the worm), not {face!r}")
    return int(face)


@cache
def roll_outcomes(n: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct roll of n dice as a counts tuple, in a fixed (lexicographic) order."""
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, not {n}")

    def parts(left: int, slots: int) -> list[tuple[int, ...]]:
        if slots == 1:
            return [(left,)]
        return [(k, *rest) for k in range(left, -1, -1) for rest in parts(left - k, slots - 1)]

    return tuple(parts(n, SIDES))


def multinomial_count(counts: tuple[int, ...]) -> int:
    """Number of ordered rolls (out of 6**n) that show these counts."""
    ways = factorial(sum(counts))
    for c in counts:
        ways //= factorial(c)
    return ways


@cache
def roll_probabilities(n: int) -> tuple[Fraction, ...]:
    """Exact probability of each roll in `roll_outcomes(n)`; they sum to 1."""
    total = SIDES**n
    return tuple(Fraction(multinomial_count(c), total) for c in roll_outcomes(n))


@cache
def roll_table(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Float arrays for fast work: counts (k, 6), probabilities (k,), cumulative (k,)."""
    counts = np.array(roll_outcomes(n), dtype=np.int64).reshape(-1, SIDES)
    probs = np.array([float(p) for p in roll_probabilities(n)])
    cumulative = np.cumsum(probs)
    cumulative[-1] = 1.0  # guard the last bucket against rounding
    for a in (counts, probs, cumulative):
        a.flags.writeable = False
    return counts, probs, cumulative


def sample_roll(n: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Roll n fair dice with `rng` and return the counts."""
    # bisect_right on the same floats finds the same bucket as np.searchsorted(side="right"),
    # without numpy's per-call overhead (a game rolls a few hundred times).
    return roll_outcomes(n)[bisect_right(_cumulative(n), rng.random())]


@cache
def _cumulative(n: int) -> list[float]:
    return roll_table(n)[2].tolist()


def describe_roll(counts: tuple[int, ...]) -> str:
    """A roll in words, e.g. '1 1 3 5 W W' (W for a worm)."""
    shown = []
    for face, c in zip(FACES, counts, strict=True):
        shown += ["W" if face == WORM else str(face)] * c
    return " ".join(shown) if shown else "(no dice)"

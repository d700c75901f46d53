"""The roll tables every kernel that rolls dice builds once per dice count: the exact chances
and the float table the sampler reads are the multinomial formula's, value for value."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from henkit.henpen.dice import (
    SIDES,
    WORM,
    check_face,
    face_value,
    multinomial_count,
    roll_outcomes,
    roll_probabilities,
    roll_table,
    sample_roll,
)


@pytest.mark.parametrize("n", [*range(11), 20])
def test_roll_tables_are_the_checked_multinomial_counts(n: int) -> None:
    want = [Fraction(multinomial_count(c), SIDES**n) for c in roll_outcomes(n)]
    assert list(roll_probabilities(n)) == want
    counts, probs, cumulative = roll_table(n)
    assert counts.tolist() == [list(c) for c in roll_outcomes(n)]
    assert probs.dtype == np.float64
    assert probs.tolist() == [float(p) for p in want]  # the correctly rounded floats
    expected = np.cumsum([float(p) for p in want])
    expected[-1] = 1.0
    assert np.array_equal(cumulative, expected)
    assert not (counts.flags.writeable or probs.flags.writeable or cumulative.flags.writeable)


def test_seeded_rolls_follow_the_cumulative_table() -> None:
    # The sampler's buckets are the table's: the roll is the first bucket above the uniform.
    for n in (1, 4, 8):
        _counts, _probs, cumulative = roll_table(n)
        a, b = np.random.default_rng(3), np.random.default_rng(3)
        for _ in range(200):
            u = b.random()
            assert sample_roll(n, a) == roll_outcomes(n)[int(np.searchsorted(cumulative, u, "right"))]


@pytest.mark.parametrize("face", [*range(-2, 10), True, False, np.int64(6), np.int8(3), 6.0, "6",
                                  None, 2**70])
def test_face_value_is_the_checked_rule(face: object) -> None:
    # A plain face skips check_face: every face gets the rule's value, anything else its error.
    try:
        want: object = 5 if check_face(face) == WORM else check_face(face)
    except ValueError as e:
        with pytest.raises(ValueError, match=re.escape(str(e))):
            face_value(face)
    else:
        assert face_value(face) == want and type(face_value(face)) is int

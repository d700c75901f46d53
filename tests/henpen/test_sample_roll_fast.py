"""sample_roll reads its uniform off the raw stream of the usual bit generators (issue 14): the
roll, and what is left of the stream, must be exactly those of `rng.random()`."""

from bisect import bisect_right

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.henpen import dice
from henkit.henpen.dice import MAX_DICE, MAX_ROLLS, sample_roll, sample_rolls

BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64,
                  np.random.MT19937]


def same_state(a: object, b: object) -> bool:
    """Bit generator states equal (they hold numpy arrays for some generators)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def by_random(n: int, rng: np.random.Generator) -> tuple[int, ...]:
    """The roll as `sample_roll` made it before: one `rng.random()` in the cumulative table."""
    return dice._outcomes(n)[bisect_right(dice._table(n)[2].tolist(), rng.random())]


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(BIT_GENERATORS), seed=st.integers(0, 2**63),
       dice_counts=st.lists(st.integers(0, MAX_DICE), min_size=1, max_size=30))
def test_the_rolls_and_the_stream_are_those_of_random(kind, seed, dice_counts):
    mine = np.random.Generator(kind(seed))
    twin = np.random.Generator(kind(seed))
    for n in dice_counts:
        assert sample_roll(n, mine) == by_random(n, twin)
    assert same_state(mine.bit_generator.state, twin.bit_generator.state)
    assert mine.integers(2**62) == twin.integers(2**62)


@pytest.mark.parametrize("kind", BIT_GENERATORS)
def test_mixed_with_other_draws_the_stream_stays_the_same(kind):
    mine, twin = np.random.Generator(kind(5)), np.random.Generator(kind(5))
    for i in range(3000):
        n = i % 9
        assert sample_roll(n, mine) == by_random(n, twin)
        if i % 7 == 0:  # 32-bit draws keep a buffered half word in some generators
            assert mine.integers(1000, dtype=np.int32) == twin.integers(1000, dtype=np.int32)
        if i % 11 == 0:
            assert mine.random() == twin.random()
    assert same_state(mine.bit_generator.state, twin.bit_generator.state)


def test_a_seeded_series_of_rolls_is_what_it_was():
    rng = np.random.default_rng(7)
    rolls = [sample_roll(3, rng) for _ in range(2000)]
    twin = np.random.default_rng(7)
    assert rolls == [by_random(3, twin) for _ in range(2000)]
    assert all(sum(r) == 3 and len(r) == 6 for r in rolls)
    assert len(set(rolls)) > 20


@settings(max_examples=30, deadline=None)
@given(kind=st.sampled_from(BIT_GENERATORS), seed=st.integers(0, 2**63),
       n=st.integers(0, MAX_DICE), rolls=st.integers(1, 400))
def test_sample_rolls_gives_the_rolls_of_as_many_sample_roll_calls(kind, seed, n, rolls):
    mine, twin = np.random.Generator(kind(seed)), np.random.Generator(kind(seed))
    batch = sample_rolls(n, mine, rolls)
    assert batch.shape == (rolls, 6)
    assert [tuple(row) for row in batch.tolist()] == [sample_roll(n, twin) for _ in range(rolls)]
    assert same_state(mine.bit_generator.state, twin.bit_generator.state)


@pytest.mark.parametrize("bad", [
    {"n": -1}, {"n": MAX_DICE + 1}, {"n": 2.5}, {"rolls": 0}, {"rolls": MAX_ROLLS + 1},
    {"rolls": "9"}, {"rng": 7}, {"rng": np.random.RandomState(1)}])
def test_sample_rolls_refuses_bad_input_and_leaves_the_stream_alone(bad):
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    args = {"n": 3, "rng": rng, "rolls": 10} | bad
    with pytest.raises(ValueError, match=r"rolls|dice|Generator"):
        sample_rolls(**args)
    assert rng.bit_generator.state == before

"""Posterior's counts by arrays (issue 14): `count_table`, `holds` and `deck_top` must give
exactly what summing hand by hand gives, for every kind, with likelihoods of any shape."""

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, groupby
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.hens.cards import BREEDS
from henkit.hens.inference import Posterior, greedy_takes, hand_prior, posterior
from henkit.hens.odds import Kind

from .test_inference import draw_states, lesson_posterior

KINDS = [b.code for b in BREEDS] + [1, 2, 3, 4, 5, 6, "Pa3", "Ba3", "Su6", (1, 1), (0, 2),
                                    Kind("a high card", lambda c: c.number >= 4)]


def slow_twin(p: Posterior) -> Posterior:
    """The same posterior, counting hand by hand in Python."""
    twin = Posterior(p.view, p.seat, p.hands, p.ways, p.everything, p.likelihoods, p.evidence)
    twin.__dict__["_table"] = None  # as when ways would overflow 64-bit sums
    return twin


def assert_same_answers(p: Posterior, kinds=KINDS) -> None:
    twin = slow_twin(p)
    assert p._table is not None  # the array path is the one tested
    for kind in kinds:
        try:
            want = twin.count_table(kind)
        except ValueError as e:
            with pytest.raises(ValueError, match="."):
                p.count_table(kind)
            assert str(e)
            continue
        got = p.count_table(kind)
        assert got == want
        assert [type(x) for r in got for x in (r.prior, r.joint, r.posterior)] == [
            type(x) for r in want for x in (r.prior, r.joint, r.posterior)]
        assert p.holds(kind) == twin.holds(kind)
        if p.view.deck_size:
            assert p.deck_top(kind) == twin.deck_top(kind)


def test_the_lessons_posterior_is_counted_alike():
    assert_same_answers(lesson_posterior())


@cache
def positions(players: int, seed: int, limit: int = 6):
    """(view, seat, source) of first draws where a pile may be taken and the prior can list
    the hands."""
    out = []
    for s in draw_states(players, seed):
        q = s.player
        v = s.view((q + 1) % players)
        if v.known_in_hand_or_coops[q] or sum(v.unlocated().values()) > 26:
            continue
        for source, pile in enumerate(s.discards):
            if pile and s.pile_problem(source) is None:
                out.append((v, q, source))
                break
        if len(out) == limit:
            break
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_posteriors_of_played_games_are_counted_alike(players):
    found = 0
    for seed in range(2):
        for v, q, source in positions(players, seed, 3):
            try:
                p = posterior(v, q, greedy_takes(v, q, source))
            except ValueError:  # the evidence is impossible for a greedy player here
                continue
            assert_same_answers(p, KINDS[:8] + [2, "Pa3", (1, 1)])
            found += 1
    assert found


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1), at=st.integers(0, 100), salt=st.integers(0, 10**6),
       shape=st.sampled_from(["fractions", "bools", "ints", "one"]))
def test_any_likelihood_is_counted_alike(seed, at, salt, shape):
    spots = positions(2, seed)
    v, q, _ = spots[at % len(spots)]

    def likelihood(hand):
        h = hash((salt, *hand)) % 7
        if shape == "fractions":
            return Fraction(h, 6) if h < 7 else 1
        if shape == "bools":
            return h % 2 == 0
        if shape == "ints":
            return int(h < 4)
        return 1

    try:
        p = posterior(v, q, likelihood)
    except ValueError:  # no hand explains the evidence
        return
    assert_same_answers(p, ["Pa", "Ba", 3, "Pa3", Kind("even", lambda c: c.number % 2 == 0)])


def test_ways_too_large_for_64_bits_are_counted_hand_by_hand():
    p = lesson_posterior()
    big = 1 << 70  # every hand's ways scaled alike: the same chances
    huge = Posterior(p.view, p.seat, p.hands, tuple(n * big for n in p.ways), p.everything * big,
                     p.likelihoods, p.evidence)
    assert huge._table is None
    for kind in ("Ba", "Pa", 3):
        assert huge.count_table(kind) == p.count_table(kind)
        assert huge.deck_top(kind) == p.deck_top(kind)


def test_a_failing_kind_test_still_names_the_card():
    def broken(c):
        raise KeyError(c)

    with pytest.raises(ValueError, match="the test of the kind 'broken' failed on the card"):
        lesson_posterior().count_table(Kind("broken", broken))


def reference_prior(view, seat):
    """Every handful by brute force: combinations with repeats, those with too many copies
    dropped, C(copies, n) ways for n alike cards."""
    pool = view.unlocated()
    m = view.hand_sizes[seat] - len(view.known_in_hand[seat])
    everything = comb(sum(pool.values()), m)
    out = []
    for hand in combinations_with_replacement(sorted(pool), m):
        n = 1
        for k, group in groupby(hand):
            n *= comb(pool[k], len(list(group)))
        if n:
            out.append((hand, Fraction(n, everything)))
    return tuple(out)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_prior_lists_the_handfuls_brute_force_lists_in_the_same_order(players):
    checked = 0
    for s in draw_states(players, 7)[::2]:
        for seat in range(players):
            v = s.view((seat + 1) % players)
            if sum(v.unlocated().values()) > 24:  # brute force is slow with many cards unseen
                continue
            try:
                got = hand_prior(v, seat)
            except ValueError:  # the viewer's own seat, or known cards in hand or coops
                continue
            want = reference_prior(v, seat)
            assert got == want
            assert [type(c) for h, _ in got for c in h] == [type(c) for h, _ in want for c in h]
            checked += 1
    assert checked > 5

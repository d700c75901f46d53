"""sample_state's trusted path (issue 14): once one deal of a view passed every check, later
deals of the same view skip them. Each such deal must equal the fully checked construction, the
same seed must give the same state either way, and views no game could show must still be
refused with the same errors."""

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.hens import odds
from henkit.hens.odds import sample_state
from henkit.hens.state import FIELDS, Phase, State
from henkit.hens.view import View

from .test_view import play, sample_views

SEEDS = st.integers(min_value=0, max_value=2**31)


@cache
def states(players: int, seed: int) -> tuple[State, ...]:
    """Every state of a seeded game of random bots."""
    return tuple(play(players, seed))


def checked(t: State) -> State:
    """The state `State(...)` builds, with every check, from `t`'s fields."""
    return State(**{k: getattr(t, k) for k in FIELDS})


def full_sample(view, seed) -> State:
    """sample_state by its fully checked path: nothing remembered about `view`."""
    odds._CHECKED.pop(id(view), None)
    return sample_state(view, seed)


def assert_same(a: State, b: State) -> None:
    assert a == b
    assert a.to_dict() == b.to_dict()
    assert a.to_json() == b.to_json()


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), game=st.integers(0, 40), at=st.integers(0, 10**6),
       seat=st.integers(0, 3), seeds=st.lists(SEEDS, min_size=2, max_size=5))
def test_a_trusted_deal_equals_the_fully_checked_one(players, game, at, seat, seeds):
    all_states = states(players, game)
    s = all_states[at % len(all_states)]
    view = s.view(seat % players)
    first = full_sample(view, seeds[0])  # checks everything, then remembers the view
    assert odds._CHECKED[id(view)][0] is view
    for seed in seeds:
        fast = sample_state(view, seed)
        assert odds._CHECKED[id(view)][0] is view  # still the trusted path
        full = full_sample(view, seed)
        assert_same(fast, full)
        assert_same(fast, checked(fast))  # and it passes every check of a built state
        assert fast.view(view.player) == view
        assert [type(x) for x in fast._fields()] == [type(x) for x in full._fields()]
        assert fast.current_player == full.current_player
    assert_same(first, full_sample(view, seeds[0]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_phase_is_sampled_alike_both_ways(players):
    # Every phase of a few games, each seat: deals on the trusted path are the checked ones.
    seen = set()
    for game in range(3):
        for i, s in enumerate(states(players, 100 + game)):
            if i % 7 and s.phase in seen:
                continue
            seen.add(s.phase)
            view = s.view(i % players)
            full_sample(view, i)
            for seed in (i, i + 1):
                assert_same(sample_state(view, seed), full_sample(view, seed))
    assert seen == set(Phase)


def test_a_generator_moves_on_alike_on_both_paths():
    view = states(3, 5)[60].view(1)
    full_sample(view, 0)
    fast_rng, full_rng = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(20):
        assert_same(sample_state(view, fast_rng), full_sample(view, full_rng))
    assert fast_rng.integers(2**62) == full_rng.integers(2**62)  # the same draws were used


@settings(max_examples=60, deadline=None)
@given(i=st.integers(0, 10**6), j=st.integers(0, 10**6), field=st.sampled_from(View._fields),
       seeds=st.lists(SEEDS, min_size=1, max_size=4))
def test_a_mixed_view_accepted_once_gives_only_checked_states(i, j, field, seeds):
    # Views built by hand from two games' views: when one deal passes, every later deal of it
    # passes the full checks too (what the trusted path relies on); when one fails, every
    # later call fails too, and the view is not remembered.
    views = sample_views()
    v, w = views[i % len(views)], views[j % len(views)]
    try:
        mixed = v._replace(**{field: getattr(w, field)})
    except ValueError:
        return
    odds._CHECKED.pop(id(mixed), None)
    try:
        sample_state(mixed, 0)
    except ValueError:
        for seed in seeds:
            with pytest.raises(ValueError):
                sample_state(mixed, seed)
        assert id(mixed) not in odds._CHECKED
        return
    for seed in seeds:
        fast = sample_state(mixed, seed)
        assert_same(fast, checked(fast))
        assert fast.view(mixed.player) == mixed
        assert_same(fast, full_sample(mixed, seed))


@pytest.mark.parametrize(("field", "value"), [
    ("hand_sizes", 1), ("deck_size", 1), ("deck_size", -1), ("to_move", 1), ("draws", 1),
])
def test_bad_views_raise_the_same_errors_after_a_good_view_was_remembered(field, value):
    s = next(s for s in states(3, 9) if s.round == 4 and s.phase is Phase.PLACE)
    v = s.view(0)
    sample_state(v, 1)
    sample_state(v, 2)  # the good view is remembered
    old = getattr(v, field)
    if field == "hand_sizes":
        new = (old[0], old[1] + value, old[2])
    elif field == "to_move":
        new = (old + value) % 3
    elif field == "draws":
        new = 1 - min(old, 1)
    else:
        new = old + value
    bad = v._replace(**{field: new})
    errors = set()
    for seed in range(3):
        with pytest.raises(ValueError, match="could not come from a game") as e:
            sample_state(bad, seed)
        errors.add(str(e.value))
    assert len(errors) == 1
    assert id(bad) not in odds._CHECKED


def test_the_memory_of_views_is_bounded():
    views = [s.view(0) for s in states(2, 3)[: odds._CHECKED_MAX + 20]]
    for k, v in enumerate(views):
        sample_state(v, k)
    assert len(odds._CHECKED) <= odds._CHECKED_MAX
    assert odds._CHECKED[id(views[-1])][0] is views[-1]  # the newest entries stay
    assert id(views[0]) not in odds._CHECKED or odds._CHECKED[id(views[0])][0] is not views[0]
    assert all(key == id(entry[0]) for key, entry in odds._CHECKED.items())


def test_threads_sampling_many_views_at_once_get_the_checked_states():
    from concurrent.futures import ThreadPoolExecutor

    views = [s.view(k % 3) for k, s in enumerate(states(3, 21)[::3])][: odds._CHECKED_MAX + 30]

    def work(k):
        v = views[k % len(views)]
        return v, k, sample_state(v, k)

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(3 * len(views))))
    assert len(odds._CHECKED) <= odds._CHECKED_MAX
    for v, k, t in results[:: 7]:
        assert_same(t, full_sample(v, k))

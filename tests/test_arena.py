"""The arena: interval formulas, seat rotation, and identical records on every executor."""

from __future__ import annotations

import math
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from henkit import arena, results
from henkit.arena import mean_interval, run_tournament, wilson_interval

# -- intervals ---------------------------------------------------------------------------------


def test_wilson_interval_by_hand():
    # 7 wins in 10 games, z = 1.96: p = 0.7, z^2 = 3.8416, 1 + z^2/n = 1.38416,
    # centre = (0.7 + 0.19208) / 1.38416, half = 1.96 / 1.38416 * sqrt(0.021 + 0.009604).
    centre = (0.7 + 3.8416 / 20) / 1.38416
    half = 1.96 / 1.38416 * math.sqrt(0.7 * 0.3 / 10 + 3.8416 / 400)
    low, high = wilson_interval(7, 10, z=1.96)
    assert (low, high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert (low, high) == pytest.approx((0.3968, 0.8922), abs=1e-4)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of
    # seven methods", Statistics in Medicine 17: 857-872, Table I, method 3 (Wilson score).
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718)],
)
def test_wilson_interval_matches_published_values(wins, games, low, high):
    assert wilson_interval(wins, games) == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_is_symmetric_and_inside_zero_one():
    for n in (1, 5, 40):
        for s in range(n + 1):
            low, high = wilson_interval(s, n)
            assert 0 <= low <= s / n <= high <= 1
            mlow, mhigh = wilson_interval(n - s, n)
            assert (low, high) == pytest.approx((1 - mhigh, 1 - mlow), abs=1e-12)


@pytest.mark.parametrize(("wins", "games"), [(3, 0), (-1, 5), (6, 5), ("3", 5), (1, 2.0)])
def test_wilson_interval_rejects_bad_input(wins, games):
    with pytest.raises(ValueError):
        wilson_interval(wins, games)


def test_mean_interval_by_hand():
    # mean 2.5, sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3, standard error sqrt(5/12).
    mean, low, high = mean_interval([1, 2, 3, 4])
    half = results.Z95 * math.sqrt(5 / 12)
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert mean_interval([7]) == (7, 7, 7)
    with pytest.raises(ValueError):
        mean_interval([])


# -- tournaments -------------------------------------------------------------------------------


HENPEN = ("threshold:25", "greedy", "random")


def test_rotation_gives_every_bot_every_seat_equally_and_shares_the_deal():
    t = run_tournament("henpen", list(HENPEN), games=12, seed=5)
    assert t.games == 12 and [r.game for r in t.records] == list(range(12))
    for s in t.seat_summary():
        assert s.games == 4  # 12 games / 3 seats
    for d in range(4):  # deal d: 3 games with seed 5 + d, one per rotation
        deal = t.records[3 * d: 3 * d + 3]
        assert {r.seed for r in deal} == {5 + d}
        assert sorted(r.seats for r in deal) == sorted([(0, 1, 2), (1, 2, 0), (2, 0, 1)])
    for r in t.records:
        assert r.bots == tuple(t.bots[b] for b in r.seats)


def test_without_rotation_bots_keep_their_seats():
    t = run_tournament("hens", ["greedy", "random"], games=4, seed=9, rotate=False)
    assert [r.seed for r in t.records] == [9, 10, 11, 12]
    assert all(r.seats == (0, 1) for r in t.records)


@pytest.mark.parametrize("rotate", [True, False])
def test_records_are_the_games_simulate_plays(rotate):
    # One seating rule and one game loop: a tournament of spec strings and `simulate` with the
    # same bots play the same games (simulate keeps the final states, the arena does not).
    from henkit.henpen.bots import make_bot as henpen_bot
    from henkit.henpen.simulate import simulate as henpen_simulate
    from henkit.hens.bots import make_bot as hens_bot
    from henkit.hens.simulate import simulate as hens_simulate

    for specs, make, simulate, game in (
        (HENPEN, henpen_bot, henpen_simulate, "henpen"),
        (("greedy", "random", "lookahead"), hens_bot, hens_simulate, "hens"),
    ):
        t = run_tournament(game, list(specs), games=7, seed=2, rotate=rotate, cache=False)
        results = simulate([make(b) for b in specs], 7, seed=2, rotate=rotate)
        assert list(t.records) == results
        assert all(r.final is None for r in t.records)
        assert all(r.final.is_over and r.final.scores() == r.totals for r in results)


# The first games of three tournaments as the arena played them before issue 10 (commit
# 22266c4): [seed, seats, totals, winners, first player]. The engines keep their random streams,
# and the one game loop and seating rule play exactly these games.
BEFORE = [
    (("henpen", ["optimal", "threshold:25", "greedy"], 1, True), [
        [1, [0, 1, 2], [20, 0, 1], [0], 0], [1, [1, 2, 0], [12, 0, 9], [0], 0],
        [1, [2, 0, 1], [6, 9, 0], [1], 0], [2, [0, 1, 2], [11, 2, 2], [0], 0],
        [2, [1, 2, 0], [12, 0, 3], [0], 0], [2, [2, 0, 1], [1, 7, 5], [1], 0]]),
    (("hens", ["lookahead", "greedy", "random"], 2, True), [
        [2, [0, 1, 2], [29, 28, -2], [0], 0], [2, [1, 2, 0], [19, 3, 26], [2], 0],
        [2, [2, 0, 1], [-3, 31, 20], [1], 0], [3, [0, 1, 2], [10, 12, -8], [1], 0],
        [3, [1, 2, 0], [12, 0, 24], [2], 0], [3, [2, 0, 1], [-4, 12, 9], [1], 0]]),
    (("hens", ["greedy", "random", "greedy", "random"], 11, False), [
        [11, [0, 1, 2, 3], [7, -14, 7, -8], [0], 0], [12, [0, 1, 2, 3], [15, -8, 13, -1], [0], 1],
        [13, [0, 1, 2, 3], [17, -18, 15, -13], [0], 3],
        [14, [0, 1, 2, 3], [2, -14, 18, -14], [2], 3]]),
]


@pytest.mark.parametrize(("settings", "rows"), BEFORE)
def test_tournaments_play_the_same_games_as_before_issue_10(settings, rows):
    game, bots, seed, rotate = settings
    t = run_tournament(game, bots, len(rows), seed, rotate=rotate, cache=False)
    assert [[r.seed, list(r.seats), list(r.totals), list(r.winners), r.first_player]
            for r in t.records] == rows


def test_summary_wins_add_up_and_win_rates_sum_to_one():
    t = run_tournament("hens", ["greedy", "random", "greedy"], games=9, seed=1)
    assert t.bots == ("greedy #1", "random", "greedy #2")
    summary = t.summary()
    assert sum(s.wins for s in summary) == pytest.approx(t.games)  # shared wins are split
    assert sum(s.win_rate for s in summary) == pytest.approx(1.0)  # every bot plays every game
    for s in summary:
        scores = [r.totals[r.seats.index(t.bots.index(s.bot))] for r in t.records]
        assert s.mean_score == pytest.approx(sum(scores) / len(scores))
        assert s.win_low <= s.win_rate <= s.win_high
        assert s.score_low <= s.mean_score <= s.score_high
    assert "greedy #2" in t.table()


def test_same_seed_same_records_and_another_seed_differs():
    a = run_tournament("henpen", list(HENPEN), games=6, seed=3)
    b = run_tournament("henpen", list(HENPEN), games=6, seed=3)
    c = run_tournament("henpen", list(HENPEN), games=6, seed=4)
    assert a == b
    assert a.records != c.records


def test_progress_is_reported_as_chunks_finish():
    seen = []
    run_tournament("henpen", ["greedy", "random"], games=10, seed=0, chunk_size=4,
                   on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 10), (4, 10), (8, 10), (10, 10)]


@pytest.fixture(scope="module")
def serial():
    return {
        "henpen": run_tournament("henpen", ["optimal", "threshold:25"], games=8, seed=11),
        "hens": run_tournament("hens", ["lookahead", "greedy", "random"], games=9, seed=11),
    }


def test_threads_and_chunk_sizes_give_identical_records(serial):
    with ThreadPoolExecutor(max_workers=3) as ex:
        for size in (1, 2, 5):
            for game, want in serial.items():
                got = run_tournament(game, list(want.specs), games=want.games, seed=11,
                                     executor=ex, chunk_size=size)
                assert got == want


def test_processes_give_identical_records(serial):
    with ProcessPoolExecutor(max_workers=2) as ex:
        for game, want in serial.items():
            got = run_tournament(game, list(want.specs), games=want.games, seed=11, executor=ex,
                                 chunk_size=3)
            assert got == want


def test_default_process_pool_gives_identical_records(monkeypatch, serial):
    monkeypatch.setattr(arena, "SERIAL_BELOW", 0)  # use the shared pool even for a short run
    try:
        want = serial["henpen"]
        assert run_tournament("henpen", list(want.specs), games=want.games, seed=11) == want
    finally:
        arena.shutdown_default_executor()


def test_dask_cluster_gives_identical_records(serial):
    import distributed  # the cluster extra is part of the test install: never skip this test

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as cluster, \
            distributed.Client(cluster) as client:
        ex = client.get_executor()
        progress = []
        for game, want in serial.items():
            got = run_tournament(game, list(want.specs), games=want.games, seed=11, executor=ex,
                                 chunk_size=2, on_progress=lambda d, n: progress.append(d))
            assert got == want
        assert progress[-1] == serial["hens"].games


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (("chess", ["greedy", "random"], 4), {}, "game"),
        (("henpen", ["greedy", "nobody"], 4), {}, "nobody"),
        (("henpen", "greedy", 4), {}, "list"),
        (("henpen", [object(), "greedy"], 4), {}, "spec"),
        (("henpen", ["greedy", "random"], 0), {}, "games"),
        (("henpen", ["greedy", "random"], 4), {"seed": -1}, "seed"),
        (("henpen", ["greedy", "random"], 4), {"chunk_size": 0}, "chunk_size"),
        (("henpen", ["greedy", "random"], 4), {"executor": "fast"}, "executor"),
        (("henpen", ["greedy", "random"], 4), {"rotate": "yes"}, "rotate"),
        (("henpen", ["greedy", "random"], 4), {"cache": None}, "cache"),
        (("henpen", ["greedy", "random"], 10**6 + 1), {}, "games"),
        (("henpen", [], 4), {}, "list"),
        ((["henpen"], ["greedy", "random"], 4), {}, "game"),
        (("henpen", ["greedy", "random"], 4), {"on_progress": 3}, "on_progress"),
        (("hens", ["greedy"] * 5, 4), {}, "2 to 4"),
        (("henpen", ["greedy"] * 8, 4), {}, "players"),
        (("hens", ["greedy", "random"], 4), {"rules": "x"}, "Rules"),
    ],
)
def test_bad_input_is_a_value_error(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_tournament(*args, **kwargs)


def test_hens_rules_must_match_the_bots():
    from henkit.hens.rules import Rules

    with pytest.raises(ValueError, match="3 players"):
        run_tournament("hens", ["greedy", "random"], 2, rules=Rules(players=3))
    t = run_tournament("hens", ["greedy", "random"], 2, rules=Rules(players=2, goal=3))
    assert t.games == 2


# -- properties --------------------------------------------------------------------------------



@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_contains_p_and_narrows_with_more_games(case):
    wins, games = case
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    # The same share of wins over 4x the games gives a narrower interval.
    low4, high4 = wilson_interval(4 * wins, 4 * games)
    assert high4 - low4 < high - low


def test_serial_executor_plays_in_this_process_with_the_same_records(serial):
    want = serial["henpen"]
    seen = []
    got = run_tournament("henpen", list(want.specs), games=want.games, seed=11, executor="serial",
                         on_progress=lambda done, total: seen.append(threading.get_ident()))
    assert got == want and set(seen) == {threading.get_ident()}
    with pytest.raises(ValueError, match="'serial' or None"):
        run_tournament("henpen", list(want.specs), games=4, executor="threads")


def test_a_prefix_of_a_partly_cached_tournament_counts_only_its_own_cached_games():
    """Notebook 7 reads prefixes of a tournament; with the results cache on (a served
    dashboard) the tournament may have been read whole, and its prefix must still be valid."""
    import dataclasses

    t = run_tournament("henpen", ["greedy", "random"], games=6, seed=1, cache=False)
    read = dataclasses.replace(t, cached=6)
    assert dataclasses.replace(read, records=read.records[:2]).cached == 2
    assert dataclasses.replace(t, cached=1, records=t.records[:4]).cached == 1
    with pytest.raises(ValueError, match="cached"):
        dataclasses.replace(t, cached=-1)

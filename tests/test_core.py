"""The shared layer: one game loop, one seating rule, one result type, one summary."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from henkit.core import (
    CHANCE,
    Game,
    GameResult,
    Step,
    make_rng,
    play_out,
    play_seated,
    seating,
    seating_text,
    unique_labels,
)
from henkit.henpen import State as HenpenState
from henkit.henpen.bots import make_bot as henpen_bot
from henkit.henpen.simulate import play_game as henpen_game
from henkit.henpen.simulate import simulate as henpen_simulate
from henkit.hens import State as HensState
from henkit.hens.bots import make_bot as hens_bot
from henkit.hens.simulate import play_game as hens_game
from henkit.hens.simulate import simulate as hens_simulate
from henkit.results import BotSummary, results_table, summarise

# -- the game loop -----------------------------------------------------------------------------


def henpen_start(players: int = 2) -> HenpenState:
    return HenpenState.new(players)


def test_the_loop_applies_chance_and_bot_moves_and_tells_the_observer():
    bots = [henpen_bot("greedy"), henpen_bot("random")]
    seen: list[tuple[object, Step, object]] = []
    end = play_out(henpen_start(), bots, make_rng(3), observer=lambda *m: seen.append(m))
    assert end.is_over and seen[-1][2] is end
    for (_, _, after), (before, _, _) in itertools.pairwise(seen):
        assert after is before  # each move starts where the last ended
    for before, step, after in seen:
        assert step.player == before.current_player
        if step.player == CHANCE:
            assert step.action in dict(before.chance_outcomes())
        else:
            assert step.action in before.legal_actions()
        assert before.apply(step.action) == after
    # Watched or not, the same seed plays the same game.
    assert play_out(henpen_start(), bots, make_rng(3)) == end


def test_the_loop_stops_for_a_human_until_and_max_moves():
    bots = [None, henpen_bot("greedy")]
    s = play_out(henpen_start(), bots, make_rng(1))
    assert s == henpen_start()  # seat 0, a human, is to move at once
    bots = [henpen_bot("greedy"), henpen_bot("greedy")]
    one = play_out(henpen_start(), bots, make_rng(1), max_moves=1)
    assert one != henpen_start()
    s = play_out(henpen_start(), bots, make_rng(1), until=lambda st: st.current_player == 1)
    assert s.current_player == 1


@pytest.mark.parametrize("game", ["henpen", "hens"])
def test_game_records_the_same_game_the_loop_plays(game):
    if game == "henpen":
        start, bots = henpen_start(3), [henpen_bot(b) for b in ("optimal", "greedy", "random")]
    else:
        start, bots = HensState.new(3, seed=4), [hens_bot(b) for b in ("greedy", "random", "greedy")]
    watched: list[Step] = []
    g = Game(start, bots, seed=8, observer=lambda before, step, after: watched.append(step))
    g.run()
    assert g.state == play_out(start, bots, make_rng(8))
    assert len(g.history) == len(g.states) - 1 == len(watched) and g.history == watched
    for i, step in enumerate(g.history):
        assert g.states[i].apply(step.action) == g.states[i + 1]


def test_game_steps_and_human_moves():
    bots = [None, henpen_bot("greedy")]
    g = Game(henpen_start(), bots, seed=5)
    assert g.waiting_for_human
    with pytest.raises(ValueError, match="human"):
        g.step()
    g.play(g.state.legal_actions()[0])  # roll
    assert g.state.is_chance and not g.waiting_for_human
    g.step()  # the dice land
    assert g.history[-1].player == CHANCE and len(g.states) == 3
    with pytest.raises(ValueError):
        g.run()  # a human plays


def test_game_advance_stops_after_max_moves_or_until_and_records_every_move():
    bots = [henpen_bot("greedy"), henpen_bot("greedy")]
    g = Game(henpen_start(), bots, seed=5)
    g.advance(max_moves=3)
    assert len(g.history) == 3 == len(g.states) - 1
    g.advance(until=lambda s: s.current_player == 1)
    assert g.state.current_player == 1
    whole_game = Game(henpen_start(), bots, seed=5)
    whole_game.run()
    g.advance()
    assert g.history == whole_game.history and g.state == whole_game.state
    for bad in (0, -1, 1.5, "3", True):
        with pytest.raises(ValueError, match="max_moves"):
            Game(henpen_start(), bots, seed=5).advance(max_moves=bad)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("not a state", [None, None]), "state"),
        ((HenpenState.new(2), [None]), "2 bots"),
        ((HenpenState.new(2), "ab"), "list of bots"),
        ((HenpenState.new(2), [None, 3]), "choose"),
        ((HenpenState.new(2), [None, None], -1), "seed"),
        ((HenpenState.new(2), [None, None], 1.5), "seed"),
    ],
)
def test_game_refuses_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        Game(*args)


def test_numpy_integers_are_integers():
    assert make_rng(np.int64(3)).integers(100) == make_rng(3).integers(100)
    assert seating(np.int32(4), np.uint8(2), np.int64(10)) == seating(4, 2, 10)
    bots = [henpen_bot("greedy"), henpen_bot("random")]
    assert henpen_simulate(bots, np.int64(2), np.int16(1)) == henpen_simulate(bots, 2, 1)
    for bad in (True, np.bool_(False), 2.0, "1"):
        with pytest.raises(ValueError):
            make_rng(bad)


# -- the seating rule --------------------------------------------------------------------------


def test_seating_rotates_within_deals_or_keeps_seats():
    assert [seating(g, 3, 10) for g in range(4)] == [
        (10, (0, 1, 2)), (10, (1, 2, 0)), (10, (2, 0, 1)), (11, (0, 1, 2))]
    assert [seating(g, 3, 10, rotate=False) for g in range(3)] == [
        (10, (0, 1, 2)), (11, (0, 1, 2)), (12, (0, 1, 2))]
    for bad in ((-1, 2, 0), (0, 0, 0), (0, 2, -1), ("0", 2, 0)):
        with pytest.raises(ValueError):
            seating(*bad)


def test_the_seating_rule_in_words():
    assert seating_text(6, 2, 1) == "6 games, seeds 1 to 3, each seed played in all 2 seatings"
    assert seating_text(7, 3, 0) == ("7 games, seeds 0 to 2, each seed played in all 3 "
                                     "seatings (seed 2 in only 1)")
    assert seating_text(6, 2, 1, rotate=False) == "6 games, seeds 1 to 6, bot i in seat i"
    assert seating_text(1, 4, 9) == ("1 game, seed 9, each seed played in all 4 seatings "
                                     "(seed 9 in only 1)")


def test_henpen_seat_0_starts_every_game_and_the_seating_rotates():
    bots = [henpen_bot("greedy"), henpen_bot("random"), henpen_bot("threshold:25")]
    games = henpen_simulate(bots, 6, seed=3)
    assert [r.first_player for r in games] == [0] * 6
    assert [r.seats for r in games] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)] * 2
    assert [r.seed for r in games] == [3, 3, 3, 4, 4, 4]
    assert games[1].bots == ("random", "threshold 25", "greedy")
    fixed = henpen_simulate(bots, 3, seed=3, rotate=False)
    assert [r.seats for r in fixed] == [(0, 1, 2)] * 3 and [r.seed for r in fixed] == [3, 4, 5]


def test_hens_first_player_comes_from_the_seed():
    bots = [hens_bot("greedy"), hens_bot("random")]
    games = hens_simulate(bots, 8, seed=5, rotate=False)
    for r in games:
        assert r.first_player == HensState.new(2, seed=r.seed).current_player
    assert len({r.first_player for r in games}) == 2  # both seats start some games
    deal = hens_simulate(bots, 2, seed=5)  # one deal, both seatings: the same first seat
    assert deal[0].first_player == deal[1].first_player


def test_play_game_is_game_0_with_bots_in_their_seats():
    bots = [henpen_bot("greedy"), henpen_bot("random")]
    assert henpen_game(bots, 7) == henpen_simulate(bots, 1, 7, rotate=False)[0]
    hbots = [hens_bot("greedy"), hens_bot("random")]
    r = hens_game(hbots, 7)
    assert r == hens_simulate(hbots, 1, 7, rotate=False)[0]
    assert r.final.scores() == r.totals and r.winners == r.final.winners()
    assert r.to_dict()["totals"] == list(r.totals)


def test_play_seated_labels_duplicate_bots():
    bots = [hens_bot("greedy"), hens_bot("greedy")]
    r = play_seated(HensState.new, bots, 1, 0)
    assert r.seats == (1, 0) and r.bots == ("greedy #2", "greedy #1")
    assert unique_labels(["a", "b", "a"]) == ("a #1", "b", "a #2")


@pytest.mark.parametrize("simulate", [henpen_simulate, hens_simulate])
@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (([], 3), {}, "at least one bot"),
        (("greedy", 3), {}, "list of bots"),
        (([object(), object()], 3), {}, "choose"),
        ((None, 3), {}, "list of bots"),
        (("bots", 0), {}, "games"),
        (("bots", 100_001), {}, "games"),
        (("bots", 2.0), {}, "games"),
        (("bots", 2, -1), {}, "seed"),
        (("bots", 2, 0, "rules"), {}, "rules"),
        (("bots", 2), {"rotate": "no"}, "rotate"),
    ],
)
def test_simulate_refuses_bad_input(simulate, args, kwargs, match):
    make = henpen_bot if simulate is henpen_simulate else hens_bot
    args = tuple([make("greedy"), make("random")] if a == "bots" else a for a in args)
    with pytest.raises(ValueError, match=match):
        simulate(*args, **kwargs)


# -- the summary -------------------------------------------------------------------------------


def test_summary_per_bot_and_per_seat():
    bots = [henpen_bot("optimal"), henpen_bot("threshold:25"), henpen_bot("greedy")]
    games = henpen_simulate(bots, 9, seed=3)
    rows = summarise(games)
    assert [s.bot for s in rows] == ["optimal", "threshold 25", "greedy"]
    assert all(isinstance(s, BotSummary) and s.games == 9 and s.seat is None for s in rows)
    assert sum(s.wins for s in rows) == pytest.approx(9)
    for b, s in enumerate(rows):
        scores = [r.totals[r.seats.index(b)] for r in games]
        assert s.mean_score == pytest.approx(sum(scores) / 9)
        assert s.win_low <= s.win_rate <= s.win_high
        assert s.score_low <= s.mean_score <= s.score_high
        below, above = s.win_error
        assert (s.win_rate - below, s.win_rate + above) == pytest.approx((s.win_low, s.win_high))
    seats = summarise(games, by_seat=True)
    assert [(s.bot, s.seat) for s in seats][:3] == [("optimal", 0), ("optimal", 1), ("optimal", 2)]
    assert all(s.games == 3 for s in seats) and seats[0].label == "optimal (seat 1)"
    assert str(seats[2]).startswith("optimal in seat 3: won ")  # readers count seats from 1
    table = results_table(games)
    assert "optimal" in table and "95% CI" in table
    assert "seat" in results_table(games, by_seat=True)


def test_summary_refuses_what_is_not_one_series():
    a = GameResult(0, 1, (0, 1), ("x", "y"), (3, 2), (0,), 0)
    b = GameResult(1, 2, (0, 1, 2), ("x", "y", "z"), (3, 2, 1), (0,), 0)
    c = GameResult(1, 2, (0, 1), ("y", "x"), (3, 2), (0,), 0)
    for bad in ([], [a, b], [a, c], [a, "x"], "ab", None, [a], {"x": a}):
        if bad == [a]:
            assert summarise(bad)[0].wins == 1
            continue
        with pytest.raises(ValueError):
            summarise(bad)

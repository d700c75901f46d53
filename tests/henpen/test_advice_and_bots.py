"""Advice, bots and simulation: checked against an expectimax over the public State API."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from henkit.core import Game
from henkit.henpen import ROLL, Rules, State, Stop, Take
from henkit.henpen.advice import Position, advice, best_stop, solution_for
from henkit.henpen.batch import threshold_policy
from henkit.henpen.bots import GreedyBot, OptimalBot, RandomBot, ThresholdBot, make_bot
from henkit.henpen.odds import expected_worms, solve_turn
from henkit.henpen.simulate import play_game, simulate
from henkit.henpen.state import Phase

TAKE = Phase.TAKE
from henkit.results import summarise

SMALL = Rules(worm_table={6: 1, 9: 2, 12: 3, 14: 4}, dice=3)


def expectimax(state: State) -> Fraction:
    """Expected worms gained this turn under best play, by brute force through State.apply."""

    @cache
    def value(s: State) -> Fraction:
        if s.turns_played > state.turns_played:  # the turn is over: what did it bring?
            end = s.last_turn
            if end.claim is not None:
                return Fraction(SMALL.worms(end.claim.tile))
            return -Fraction(SMALL.worms(end.returned)) if end.returned else Fraction(0)
        if s.is_chance:
            return sum((p * value(s.apply(o)) for o, p in s.chance_outcomes()), Fraction(0))
        return max(value(s.apply(a)) for a in s.legal_actions())

    return value(state)


@pytest.mark.parametrize(
    "grill, stacks",
    [
        ([6, 9, 12, 14], [[], []]),
        ([6, 12], [[14], [9]]),  # own top 14 at risk; 9 can be stolen
        ([9, 14], [[6], [12]]),
    ],
)
def test_solver_value_equals_expectimax_through_the_engine(grill, stacks):
    s = State.new(2, SMALL, grill=grill, stacks=stacks)
    tops = s.others_tops()
    solved = expected_worms(s.grill, s.top(0), tops, rules=SMALL, exact=True)
    assert solved == expectimax(s)
    assert advice(s, exact=True)[0].value == solved


def walk_decisions(seed: int, players: int = 3, rules: Rules | None = None, limit: int = 400):
    """Yield decision states along a seeded game between random bots."""
    g = Game(State.new(players, rules), [RandomBot()] * players, seed=seed)
    for _ in range(limit):
        if g.state.is_over:
            return
        if not g.state.is_chance:
            yield g.state
        g.step()


@pytest.mark.parametrize("seed", [1, 2])
def test_advice_lists_every_legal_action_once_best_first(seed):
    for s in walk_decisions(seed):
        adv = advice(s)
        assert sorted(map(str, (a.action for a in adv))) == sorted(map(str, s.legal_actions()))
        values = [a.value for a in adv]
        assert values == sorted(values, reverse=True)
        assert values[0] == pytest.approx(float(solution_for(s).value(s)) if s.phase != TAKE
                                          else max(values))


def test_exact_advice_matches_float_advice():
    for i, s in enumerate(walk_decisions(5, players=2)):
        if i % 20:
            continue
        fl, ex = advice(s), advice(s, exact=True)
        assert [str(a.action) for a in fl] == [str(a.action) for a in ex]
        assert all(isinstance(a.value, Fraction) for a in ex)
        assert [a.value for a in fl] == pytest.approx([float(a.value) for a in ex], abs=1e-12)


def test_a_serving_at_risk_lowers_the_value_of_a_turn():
    free = advice(State.new(2))[0].value
    at_risk = advice(State.new(2, stacks=[[36], []], grill=range(21, 36)))[0].value
    assert at_risk < free


def test_optimal_bot_plays_the_advised_action():
    g = Game(State.new(2), [OptimalBot(), OptimalBot()], seed=11)
    while not g.state.is_over:
        s = g.state
        if not s.is_chance:
            best = advice(s)
            top = [a.action for a in best if a.value == pytest.approx(best[0].value, abs=1e-12)]
            assert OptimalBot().choose(s, g.rng) in top
        g.step()


def test_greedy_takes_most_points_and_stops_at_once():
    s = State.new(2).apply(ROLL).apply((1, 0, 0, 0, 2, 5))  # one 1, two 5s, five worms
    assert GreedyBot().choose(s, np.random.default_rng(0)) == Take(6)
    s = s.apply(Take(6)).apply(ROLL).apply((1, 0, 0, 0, 2, 0))  # 25 + 10 with the 5s
    s = s.apply(Take(5))
    assert s.total == 35 and GreedyBot().choose(s, np.random.default_rng(0)) == Stop(best_stop(s).claim)


def test_threshold_bot_in_the_engine_matches_the_exact_threshold_policy():
    # Many single turns played through State.apply by ThresholdBot(27) against the exact end
    # distribution of the batch threshold policy (same face rule): each total within 4 SE.
    target, turns = 27, 3000
    rng = np.random.default_rng(2024)
    bot = ThresholdBot(target)
    ends: dict[int, int] = {}
    for _ in range(turns):
        s = State.new(1)
        while s.turns_played == 0:
            s = s.apply(s.sample_chance(rng) if s.is_chance else bot.choose(s, rng))
        key = -1 if s.last_turn.claim is None else s.last_turn.total
        ends[key] = ends.get(key, 0) + 1
    exact = threshold_policy(target).end_distribution(exact=False)
    probs = {-1: float(exact.fail)} | {t: float(p) for t, p in enumerate(exact.at_total) if p > 0}
    assert set(ends) <= set(probs)
    for t, p in probs.items():
        se = (p * (1 - p) / turns) ** 0.5
        assert abs(ends.get(t, 0) / turns - p) <= 4 * se + 1e-9, (t, ends.get(t, 0) / turns, p)


def test_optimal_beats_the_rules_of_thumb_over_seeded_games():
    results = simulate([make_bot("optimal"), make_bot("threshold:25"), make_bot("greedy")], 90, seed=3)
    optimal, *_ = summarise(results)
    assert optimal.wins / optimal.games > 0.45  # three players: a fair share would be 1/3


def test_simulation_is_reproducible_and_accounts_for_every_worm():
    # The seating rule is henkit.core's (tests/test_*.py): here, seat 0 starts every game.
    bots = [GreedyBot(), RandomBot()]
    a, b = simulate(bots, 6, seed=9), simulate(bots, 6, seed=9)
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]
    assert {r.first_player for r in a} == {0}
    for r in a:
        assert r.final.is_over and r.totals == r.final.scores()
        assert sum(r.totals) == sum(Rules().worms(t) for s in r.final.stacks for t in s)
    assert play_game(bots, seed=4).to_dict() == play_game(bots, seed=4).to_dict()


@pytest.mark.parametrize("spec, name", [("random", "random"), ("greedy", "greedy"),
                                        ("optimal", "optimal"), ("threshold:28", "threshold 28"),
                                        (" Threshold ", "threshold 25"),
                                        ("optimal:1", "optimal (steal weight 1)"),
                                        ("optimal:1/2", "optimal (steal weight 1/2)")])
def test_make_bot_names(spec, name):
    assert make_bot(spec).name == name


@pytest.mark.parametrize("spec", ["smart", "threshold:x", "greedy:3", "", "optimal:-1",
                                  "optimal:x"])
def test_make_bot_refuses_unknown_specs(spec):
    with pytest.raises(ValueError, match="bot"):
        make_bot(spec)


def test_bots_only_ever_choose_legal_actions():
    rng = np.random.default_rng(0)
    for bot in (RandomBot(), GreedyBot(), ThresholdBot(30), OptimalBot(steal_weight=1)):
        g = Game(State.new(3), [bot] * 3, seed=7)
        while not g.state.is_over:
            s = g.state
            if not s.is_chance:
                assert bot.choose(s, rng) in s.legal_actions()
            g.step()


def test_advice_is_empty_at_chance_nodes_and_game_end():
    s = State.new(2).apply(ROLL)
    assert advice(s) == []
    assert advice(State.new(2, grill=[], stacks=[[21], []])) == []
    assert advice(s.apply((0, 0, 0, 0, 0, 8)))[0].action == Take(6)  # all worms: take them


def test_take_values_are_best_first_with_the_solver_choice_first():
    for s in walk_decisions(8):
        if s.phase != TAKE:
            continue
        values = solution_for(s).take_values(s.roll, s)
        assert list(values.values()) == sorted(values.values(), reverse=True)


def test_positions_with_the_same_reward_share_one_solve():
    # Without 36 on the grill a total of 36 or more still claims 4 worms (35, or stealing 36),
    # so these positions differ but their rewards do not: one cached solve serves both.
    a = State.new(2)
    b = State.new(2, grill=range(21, 36), stacks=[[], [36]])
    pa, pb = Position.of(a), Position.of(b)
    assert pa != pb and pa.reward().stop_value == pb.reward().stop_value
    sol = solution_for(b)
    assert solution_for(a) is sol
    fresh = solve_turn(pb.reward())
    assert sol.value() == fresh.value()
    assert sol.end_distribution() == fresh.end_distribution()
    assert (sol.policy.choice == fresh.policy.choice).all()
    assert (sol.policy.stop == fresh.policy.stop).all()
    assert solution_for(b, exact=True).value() == solve_turn(pb.reward(), exact=True).value()

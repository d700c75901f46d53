"""The whole-game endgame solver (henkit.henpen.endgame) against independent checks.

- A brute-force expectimax over every roll, through the game engine's own `State.apply`,
  `legal_actions` and `chance_outcomes` (no turn space, no solver), with value iteration over the
  positions it meets: endgames of 1 and 2 servings agree with `win_chance`.
- Seeded games of the win bot against itself from endgame positions: the mover's share of wins
  lies within the interval of `win_chance`.
- The two players' chances add up to 1; exact and float agree; bad input is a ValueError.

Most checks use small rules (3 or 4 dice, servings they can reach), where brute force is quick.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.core import play_out
from henkit.henpen import endgame as eg
from henkit.henpen.actions import ROLL, Stop, Take
from henkit.henpen.bots import WinBot, make_bot
from henkit.henpen.rules import Rules, winners
from henkit.henpen.state import State

SMALL = Rules(worm_table={7: 1, 8: 1, 9: 2, 10: 2, 11: 3, 12: 4}, dice=3)
FOUR = Rules(worm_table={9: 1, 10: 1, 11: 2, 12: 2, 13: 3, 14: 3, 15: 4}, dice=4)


# ----- brute force -------------------------------------------------------------------------------


def _key(s: State) -> tuple[object, ...]:
    return s.grill, s.stacks, s.player


def _compile_turn(start: State) -> tuple[list[tuple[object, ...]], dict[tuple[object, ...], State]]:
    # Every moment of the turn from `start`, through the engine's own moves, children first:
    # ("chance", [(p, child)]), ("choose", [child]); children are moment indices or, once the
    # turn is over, ("over", (seat 0's result, seat 1's)) or ("next", position key).
    order: list[tuple[object, ...]] = []
    index: dict[tuple[object, ...], int] = {}
    ends: dict[tuple[object, ...], State] = {}
    played = start.turns_played

    def child(s: State) -> object:
        if s.turns_played != played:  # the turn is over
            if s.is_over:
                won = s.winners()
                return ("over", tuple(1.0 / len(won) if p in won else 0.0 for p in (0, 1)))
            ends[_key(s)] = s
            return ("next", _key(s))
        return visit(s)

    def visit(s: State) -> int:
        k = (s.phase, s.kept, s.roll)
        if k not in index:
            if s.is_chance:
                node = ("chance", [(float(p), child(s.apply(r))) for r, p in s.chance_outcomes()])
            else:
                node = ("choose", [child(s.apply(a)) for a in s.legal_actions()])
            index[k] = len(order)
            order.append(node)
        return index[k]

    visit(start)
    return order, ends


def _turn_value(turn: list[tuple[object, ...]], mover: int,
                w: dict[tuple[object, ...], tuple[float, float]]) -> tuple[float, float]:
    # Both seats' chances from the turn's start, the mover playing for their own chance; `w`
    # holds both seats' chances at the positions the turn may lead to ((0.5, 0.5) until known).
    # Nothing here assumes the two chances add up to 1: the tests check that they do.
    values: list[tuple[float, float]] = []

    def of(c: object) -> tuple[float, float]:
        if isinstance(c, int):
            return values[c]
        kind, x = c  # type: ignore[misc]
        return x if kind == "over" else w.get(x, (0.5, 0.5))

    for kind, children in turn:
        if kind == "chance":
            pairs = [(p, of(c)) for p, c in children]  # type: ignore[union-attr]
            values.append((sum(p * x[0] for p, x in pairs), sum(p * x[1] for p, x in pairs)))
        else:
            values.append(max((of(c) for c in children), key=lambda x: x[mover]))  # type: ignore[union-attr]
    return values[-1]


def brute_chances(root: State) -> tuple[float, float]:
    """Both seats' chances to win: value iteration over every position met, each turn an
    expectimax over every roll through the engine's own moves."""
    w: dict[tuple[object, ...], tuple[float, float]] = {}
    turns: dict[tuple[object, ...], tuple[list[tuple[object, ...]], int]] = {}
    todo = [root]
    while todo:
        s = todo.pop()
        if _key(s) in turns:
            continue
        turn, ends = _compile_turn(s)
        turns[_key(s)] = (turn, s.player)
        todo.extend(e for k, e in ends.items() if k not in turns)
    for _sweep in range(2000):
        moved = 0.0
        for k, (turn, mover) in turns.items():
            new = _turn_value(turn, mover, w)
            old = w.get(k, (2.0, 2.0))
            moved = max(moved, abs(new[0] - old[0]), abs(new[1] - old[1]))
            w[k] = new
        if moved < 1e-14:
            return w[_key(root)]
    raise AssertionError("brute force did not settle")


def brute_win_chance(root: State) -> float:
    """The mover's chance by brute force; both seats' chances add up to 1."""
    chances = brute_chances(root)
    assert sum(chances) == pytest.approx(1, abs=1e-12)
    return chances[root.player]


def _position(rules: Rules, grill: list[int], mine: list[int], theirs: list[int]) -> State:
    return State.new(2, rules, grill=grill, stacks=[mine, theirs])


@pytest.mark.parametrize("grill, mine, theirs", [
    ([9], [10], [12]),
    ([8], [9, 11], [12]),
    ([10], [], [7]),
    ([7], [], []),
    ([8, 9], [10], [12]),
    ([7, 9], [10], [8, 11]),
])
def test_brute_force_small_dice(grill: list[int], mine: list[int], theirs: list[int]) -> None:
    s = _position(SMALL, grill, mine, theirs)
    assert eg.win_chance(s) == pytest.approx(brute_win_chance(s), abs=1e-11)


def test_brute_force_four_dice() -> None:
    s = _position(FOUR, [11, 13], [9], [15])
    assert eg.win_chance(s) == pytest.approx(brute_win_chance(s), abs=1e-11)


@pytest.mark.parametrize("option", ["keep_returned_if_highest", "flip_when_nothing_returned"])
def test_brute_force_rule_options(option: str) -> None:
    rules = Rules(worm_table=dict(SMALL.worm_table), dice=3, **{option: True})
    s = _position(rules, [8, 11], [], [9])
    assert eg.win_chance(s) == pytest.approx(brute_win_chance(s), abs=1e-11)


_SMALL_TILES = sorted(SMALL.tiles)


@st.composite
def small_endgames(draw: st.DrawFn) -> State:
    """A valid position of the small rules with 1 or 2 servings on the grill, short stacks."""
    tiles = draw(st.permutations(_SMALL_TILES))
    k = draw(st.integers(1, 2))
    a = draw(st.integers(0, 2))
    b = draw(st.integers(0, 2))
    grill, mine, theirs = sorted(tiles[:k]), list(tiles[k:k + a]), list(tiles[k + a:k + a + b])
    out = tiles[k + a + b:]
    if out and max(grill) > max(out):  # a failure turns out the highest (P6): unreachable
        grill = sorted([min(grill), min(out)]) if k == 2 else [min(out)]
        mine = [t for t in mine if t not in grill]
        theirs = [t for t in theirs if t not in grill]
    try:
        return _position(SMALL, grill, mine, theirs)
    except ValueError:
        return _position(SMALL, [7], [], [])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_endgames())
def test_brute_force_random_small_endgames(s: State) -> None:
    assert eg.win_chance(s) == pytest.approx(brute_win_chance(s), abs=1e-11)


# ----- exact, and the two players' chances ---------------------------------------------------------


@settings(max_examples=8, deadline=None)
@given(small_endgames())
def test_exact_agrees_and_seats_do_not_matter(s: State) -> None:
    v = eg.win_chance(s, exact=True)
    assert isinstance(v, Fraction) and 0 <= v <= 1
    assert float(v) == pytest.approx(eg.win_chance(s), abs=1e-12)
    advice = eg.win_advice(s, exact=True)
    assert advice[0].action == ROLL and advice[0].value == v
    # The same position with the other seat to move: the same chance for the mover.
    other = State.new(2, SMALL, grill=list(s.grill), stacks=[list(s.stacks[1]), list(s.stacks[0])],
                      first_player=1 - s.player)
    assert eg.win_chance(other, exact=True) == v


def test_chances_add_to_one() -> None:
    # Brute force works out each seat's chance separately (each playing for their own): they
    # add up to 1, and the mover's is the solver's.
    s = _position(SMALL, [9, 10], [7], [12])
    chances = brute_chances(s)
    assert sum(chances) == pytest.approx(1, abs=1e-12)
    assert chances[s.player] == pytest.approx(eg.win_chance(s), abs=1e-11)
    assert chances[1 - s.player] == pytest.approx(1 - float(eg.win_chance(s, exact=True)), abs=1e-11)


def test_draw_counts_half() -> None:
    # Nobody holds a serving and one is left: the first to claim it wins; a game where neither
    # can ever claim does not exist, so the chances are strictly between 0 and 1 and the
    # mover's is above the other's (they move first).
    s = _position(SMALL, [7], [], [])
    v = eg.win_chance(s, exact=True)
    assert Fraction(1, 2) < v < 1


# ----- simulation ----------------------------------------------------------------------------------


def _mover_wins(start: State, games: int, seed: int) -> float:
    bots = [WinBot(endgame=16), WinBot(endgame=16)]
    score = 0.0
    for g in range(games):
        end = play_out(start, bots, seed + g)
        won = end.winners()
        score += 1.0 if won == (start.player,) else 0.5 if len(won) == 2 else 0.0
    return score / games


@pytest.mark.parametrize("grill, mine, theirs", [
    ([21], [24, 30], [33]),
    ([22, 25], [29], [27, 23]),
])
def test_win_bot_simulation_agrees(grill: list[int], mine: list[int], theirs: list[int]) -> None:
    s = State.new(2, grill=grill, stacks=[mine, theirs])
    p = eg.win_chance(s)
    games = 300
    share = _mover_wins(s, games, 1000)
    half_width = 4 * math.sqrt(p * (1 - p) / games) + 1 / games
    assert abs(share - p) <= half_width, (share, p)


def test_win_bot_from_random_small_endgames() -> None:
    rng = np.random.default_rng(5)
    tiles = list(SMALL.tiles)
    checked = 0
    while checked < 3:
        perm = [int(x) for x in rng.permutation(tiles)]
        try:
            s = _position(SMALL, sorted(perm[:1]), perm[1:3], perm[3:5])
        except ValueError:
            continue
        p = eg.win_chance(s)
        games = 400
        share = _mover_wins(s, games, 77 * checked)
        assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / games) + 1 / games, (s.describe(), share, p)
        checked += 1


# ----- the fast paths against the straightforward ones ----------------------------------------------


@st.composite
def turns_and_values(draw: st.DrawFn) -> tuple[Rules, eg._Turn, list[Fraction]]:
    """A position's turn (small rules, or the default rules' 8 dice) and exact values for its
    outcomes: random, or with ties (few distinct values), as endgames have."""
    if draw(st.booleans()):
        s = draw(small_endgames())
        rules, key = s.rules, eg.key_of(s)
    else:
        rules = Rules()
        tiles = draw(st.permutations(list(range(21, 37))))
        k = draw(st.integers(1, 3))
        key = (tuple(sorted(tiles[:k])), tuple(tiles[k:k + 2]), tuple(tiles[k + 2:k + 3]))
    turn = eg._turn(rules, key)
    if turn.terminal is not None:
        turn = eg._turn(rules, ((min(rules.tiles),), (), ()))
    pool = draw(st.sampled_from([
        st.fractions(0, 1, max_denominator=10**40),
        st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)]),
        st.just(Fraction(1, 3)),
    ]))
    vals = [draw(pool) for _ in turn.outcomes]
    return rules, turn, vals


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns_and_values())
def test_exact_turn_equals_the_integer_solve(case: tuple[Rules, eg._Turn, list[Fraction]]) -> None:
    # The float-guided exact turn solve (outcome chances modulo primes) against the exact
    # backward induction over integers: the same value; its chances add up to 1 and give it.
    rules, turn, vals = case
    value, law, _sure = eg._exact_turn(rules, turn, vals)
    assert value == eg._turn_value_exact(rules, turn, vals)[0]
    assert sum(law) == 1 and all(p >= 0 for p in law)
    assert sum(p * v for p, v in zip(law, vals, strict=True)) == value
    # Leaving close options to the floats: some policy's exact value and chances, no better
    # than the best and within the float tolerance of it.
    rough, rough_law, sure = eg._exact_turn(rules, turn, vals, settle=False)
    assert sum(rough_law) == 1 and sum(p * v for p, v in zip(rough_law, vals, strict=True)) == rough
    assert value - Fraction(1, 10**6) <= rough <= value
    if sure:  # no close decision: the float-decided policy is the best one
        assert rough == value and rough_law == law
    # The float solve's value, through the numpy ends of each node, is the same number.
    assert eg._turn_value_float(rules, turn, [float(v) for v in vals]) == pytest.approx(float(value),
                                                                                       abs=1e-12)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_endgames())
def test_fast_exact_equals_the_straightforward_solver(s: State) -> None:
    # Whole endgames: policy iteration with the fast exact turn solve gives the very same
    # fractions as the straightforward one (float-policy outcome chances, integer checks).
    eg.cache_clear()
    fast = eg.win_chance(s, exact=True)
    fast_all = dict(eg._EXACT[s.rules])
    eg.cache_clear()
    eg._FAST_EXACT = False
    try:
        slow = eg.win_chance(s, exact=True)
        slow_all = dict(eg._EXACT[s.rules])
    finally:
        eg._FAST_EXACT = True
        eg.cache_clear()
    assert fast == slow and fast_all == slow_all


def test_fast_exact_with_loops_four_dice() -> None:
    # A position whose endgame has steals back and forth (components with loops).
    s = _position(FOUR, [11, 13], [9], [15])
    eg.cache_clear()
    fast = eg.win_chance(s, exact=True)
    eg.cache_clear()
    eg._FAST_EXACT = False
    try:
        slow = eg.win_chance(s, exact=True)
    finally:
        eg._FAST_EXACT = True
        eg.cache_clear()
    assert fast == slow
    assert float(fast) == pytest.approx(brute_win_chance(s), abs=1e-11)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_endgames())
def test_extrapolated_value_iteration_equals_plain_sweeps(s: State) -> None:
    # Aitken's extrapolation and the secant steps of two-position loops only change where
    # value iteration starts its next sweeps: the values they settle on are the plain sweeps'
    # values (to the float tolerance).
    s = State.new(2, FOUR, grill=[11, 13], stacks=[[9], [15]]) if len(s.grill) == 1 else s
    eg.cache_clear()
    fast = eg.win_chance(s)
    fast_all = dict(eg._FLOAT[s.rules])
    eg.cache_clear()
    eg._AITKEN = eg._SECANT = False
    try:
        eg.win_chance(s)
        plain_all = dict(eg._FLOAT[s.rules])
    finally:
        eg._AITKEN = eg._SECANT = True
        eg.cache_clear()
    assert fast_all.keys() == plain_all.keys()
    assert max(abs(fast_all[k] - plain_all[k]) for k in plain_all) <= 1e-12
    assert fast == pytest.approx(plain_all[eg.key_of(s)], abs=1e-12)


def _all_floats(s: State, **flags: bool) -> dict[eg.Key, float]:
    # Every position's float value from an empty memo, with the solver's switches set.
    eg.cache_clear()
    saved = {name: getattr(eg, name) for name in flags}
    for name, on in flags.items():
        setattr(eg, name, on)
    try:
        eg.win_chance(s, limit=10**6)
        return dict(eg._FLOAT[s.rules])
    finally:
        for name, on in saved.items():
            setattr(eg, name, on)
        eg.cache_clear()


def _assert_same_values(a: dict[eg.Key, float], b: dict[eg.Key, float]) -> None:
    assert a.keys() == b.keys()
    assert max(abs(a[k] - b[k]) for k in a) <= 1e-12


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_endgames())
def test_shared_turn_solves_equal_solving_every_turn(s: State) -> None:
    # Turns solved once per shape (scaled to 0..1) and shared: the same values as solving the
    # turn of every position on its own, with loops (four dice) or without.
    s = State.new(2, FOUR, grill=[11, 13], stacks=[[9], [15]]) if len(s.grill) == 1 else s
    _assert_same_values(_all_floats(s, _SHARE=True), _all_floats(s, _SHARE=False))


def test_secant_loops_equal_plain_sweeps_six_dice() -> None:
    # A real 6-dice endgame of one serving, whose loops are servings stolen back and forth:
    # the secant steps settle on the plain sweeps' values.
    s = State.new(2, grill=[29], stacks=[[24, 31, 28, 22, 21], [26, 34, 27, 25, 23, 30]])
    comps = eg._reach(s.rules, eg.key_of(s), {}, 10**6)
    assert sum(len(c) == 2 for c in comps) > 10
    _assert_same_values(_all_floats(s), _all_floats(s, _SECANT=False, _AITKEN=False))


def test_shared_turn_solves_six_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real 6-dice endgame of one serving (762 positions), where many turns share a solve.
    s = State.new(2, grill=[29], stacks=[[24, 31, 28, 22, 21], [26, 34, 27, 25, 23, 30]])
    solves = [0]
    solve = eg._solve_float

    def counted(*args: object) -> tuple[np.ndarray, np.ndarray]:
        solves[0] += 1
        return solve(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(eg, "_solve_float", counted)
    shared = _all_floats(s, _SHARE=True)
    shared_solves, solves[0] = solves[0], 0
    alone = _all_floats(s, _SHARE=False)
    assert shared_solves < solves[0] * 0.8  # the sharing is real
    _assert_same_values(shared, alone)


@settings(max_examples=100, deadline=None)
@given(st.permutations(range(21, 37)), st.integers(0, 16), st.integers(0, 16))
def test_game_over_result_is_the_rules_winners(tiles: list[int], a: int, b: int) -> None:
    # The solver's own P8 for a finished game (it meets half a million of them) against the
    # rules' `winners`: 1 for the mover's win, 0 for a loss, 1/2 for a draw.
    mine, theirs = tuple(tiles[:a]), tuple(tiles[a:a + b])
    rules = Rules()
    w = winners([mine, theirs], rules)
    assert eg._result(mine, theirs, rules) == (1 if w == (0,) else 0 if w == (1,) else Fraction(1, 2))


def test_whole_stacks_matter() -> None:
    # Why a position keeps both stacks whole, not only the tops and the worm difference: the
    # same grill, the same tops, the same difference and the same holder of the highest
    # serving, yet different chances, because a steal or a failure shows the serving below.
    a = _position(SMALL, [7], [], [9, 8])
    b = _position(SMALL, [7], [], [10, 8])
    worms = SMALL.worm_table
    assert sum(worms[t] for t in a.stacks[1]) == sum(worms[t] for t in b.stacks[1])
    assert a.stacks[1][-1] == b.stacks[1][-1]
    assert eg.win_chance(a, exact=True) != eg.win_chance(b, exact=True)
    assert brute_win_chance(a) != pytest.approx(brute_win_chance(b), abs=1e-6)


# ----- best actions --------------------------------------------------------------------------------


def test_advice_mid_turn_matches_the_turn() -> None:
    s = State.new(2, grill=[21, 26], stacks=[[25, 28], [31]])
    start = eg.win_chance(s)
    rolled = s.apply(ROLL).apply((0, 0, 0, 2, 3, 3))
    advice = eg.win_advice(rolled)
    assert [a.action for a in advice] and all(isinstance(a.action, Take) for a in advice)
    assert {a.action.face for a in advice} == {4, 5, 6}
    assert max(a.value for a in advice) <= 1
    took = rolled.apply(Take(6))
    decide = eg.win_advice(took)
    assert decide[0].value == pytest.approx({a.action: a.value for a in advice}[Take(6)])
    assert any(isinstance(a.action, Stop) for a in decide) or all(a.action == ROLL for a in decide)
    assert 0 < start < 1
    best = eg.best_action(took)
    assert best == decide[0]


def test_exact_advice_is_fractions() -> None:
    s = _position(SMALL, [9, 11], [8], [10])
    rolled = s.apply(ROLL).apply((0, 0, 1, 1, 1, 0))
    advice = eg.win_advice(rolled, exact=True)
    assert all(isinstance(a.value, Fraction) for a in advice)
    floats = eg.win_advice(rolled)
    assert [a.action for a in advice] == [a.action for a in floats]


def test_cache_reports_its_size() -> None:
    eg.cache_clear()
    assert eg.cache_info() == (0, 0, 0)
    s = _position(SMALL, [9], [10], [12])
    eg.win_chance(s)
    n = eg.positions(s)
    assert eg.cache_info().float_positions >= n > 1
    assert 0 < eg.cache_info().turn_solves
    eg.win_chance(s, exact=True)
    assert eg.cache_info().exact_positions >= n


def test_one_thread_solves_at_a_time_and_each_gets_the_values_of_a_lone_solve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The endgame explorer solves ahead in a thread while a win bot may ask on the kernel's:
    # a second solve waits until the first has ended, so neither reads half-solved values.
    import threading
    from concurrent.futures import ThreadPoolExecutor

    first, second = _position(SMALL, [9, 10], [7], [12]), _position(SMALL, [9, 11], [8], [10])
    eg.cache_clear()
    alone = [eg.win_chance(first), eg.win_chance(second)]
    eg.cache_clear()
    solving, inside, go = eg._solve, [], threading.Event()

    def held(*args):
        inside.append(threading.get_ident())
        go.wait(10)
        try:
            return solving(*args)
        finally:
            inside.remove(threading.get_ident())

    monkeypatch.setattr(eg, "_solve", held)
    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(eg.win_chance, first)
        while not inside:
            threading.Event().wait(0.01)
        b = pool.submit(eg.win_advice, second)
        threading.Event().wait(0.3)
        assert len(inside) == 1 and not b.done()  # the second waits its turn
        go.set()
        assert [a.result(10), b.result(10)[0].value] == [alone[0], pytest.approx(alone[1])]


def test_positions_counts_what_the_solver_reaches() -> None:
    # `positions` counts with a plain search; the solver's search finds the same positions.
    for grill, mine, theirs in (([21, 22], [30, 25], [33, 26]), ([23, 29], [24], [31, 22]),
                                ([21], [], [36])):
        s = State.new(2, grill=grill, stacks=[mine, theirs])
        comps = eg._reach(s.rules, eg.key_of(s), {}, 10**6)
        assert eg.positions(s) == sum(map(len, comps)) == len({k for c in comps for k in c})
        n = eg.positions(s)
        assert eg.positions(s, limit=n) == n
        with pytest.raises(ValueError, match=f"has {n:,} positions to solve, more than the limit"):
            eg.positions(s, limit=n - 1)


def test_win_bot_spec() -> None:
    assert isinstance(make_bot("win"), WinBot)
    assert make_bot("win:3").endgame == 3
    with pytest.raises(ValueError, match="win:K"):
        make_bot("win:x")
    # Before the endgame it plays the gap rule (expected worms, steal weight 1): a legal action.
    s = State.new(2)
    bot = make_bot("win")
    assert bot.choose(s, np.random.default_rng(0)) == ROLL
    three = State.new(3, grill=[21], stacks=[[22], [23], []])
    assert bot.choose(three, np.random.default_rng(0)) == ROLL


# ----- bad input -----------------------------------------------------------------------------------


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="State"):
        eg.win_chance("not a state")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-player"):
        eg.win_chance(State.new(3, grill=[21], stacks=[[22], [23], []]))
    mid = State.new(2, grill=[21], stacks=[[22], [23]]).apply(ROLL)
    with pytest.raises(ValueError, match="start of a turn"):
        eg.win_chance(mid.apply((1, 1, 1, 1, 2, 2)))
    with pytest.raises(ValueError, match="rolling"):
        eg.win_advice(mid)
    over = State.new(2, grill=[], stacks=[[22], [23]])
    with pytest.raises(ValueError, match="over"):
        eg.win_chance(over)
    with pytest.raises(ValueError, match="limit"):
        eg.win_chance(State.new(2, grill=[21, 22, 23, 24], stacks=[[30, 25], [33, 26]]), limit=50)
    with pytest.raises(ValueError, match="positions"):
        eg.positions(State.new(2, grill=[21, 22, 23, 24], stacks=[[30, 25], [33, 26]]), limit=50)
    with pytest.raises(ValueError, match="limit"):
        eg.win_chance(State.new(2, grill=[21], stacks=[[22], [23]]), limit=0)
    with pytest.raises(ValueError, match="exact"):
        eg.win_chance(State.new(2, grill=[21], stacks=[[22], [23]]), exact="yes")  # type: ignore[arg-type]
    # An unreachable position cannot even be built: the engine says why.
    with pytest.raises(ValueError, match="turned out|highest"):
        State.new(2, grill=[36], stacks=[[22], [23]])


# ----- the command ---------------------------------------------------------------------------------


def test_cli_win(capsys: pytest.CaptureFixture[str]) -> None:
    from henkit.cli import main

    assert main(["odds", "--win", "--grill", "21", "--own-top", "24", "--tops", "25"]) == 0
    out = capsys.readouterr().out
    s = State.new(2, grill=[21], stacks=[[24], [25]])
    assert f"{float(eg.win_chance(s)):.3%}" in out and "The other player's" in out
    assert main(["odds", "--win", "--grill", "21", "--stack", "30,24", "--their-stack", "25",
                 "--exact"]) == 0
    exact = eg.win_chance(State.new(2, grill=[21], stacks=[[30, 24], [25]]), exact=True)
    assert str(exact) in capsys.readouterr().out
    assert main(["odds", "--win", "--grill", "21", "--tops", "25,26"]) == 2
    assert "2-player" in capsys.readouterr().err
    assert main(["odds", "--win", "--stack", "22"]) == 2
    assert "--grill" in capsys.readouterr().err
    assert main(["odds", "--stack", "22"]) == 2
    assert "add --win" in capsys.readouterr().err
    assert main(["odds", "--win", "--grill", "21-24", "--stack", "30,25", "--their-stack", "33,26",
                 "--limit", "10"]) == 2
    assert "limit" in capsys.readouterr().err


def test_check_position_takes_what_win_chance_takes_and_refuses_the_rest_alike():
    start = State.new(2, grill=[21, 25], stacks=[[30, 22], [33]])
    assert eg.check_position(start) is start
    rolling = start.apply(ROLL)
    taking = rolling.apply(rolling.sample_chance(np.random.default_rng(3)))
    for bad in (rolling, taking, State.new(3, grill=[21], stacks=[[], [], []]),
                State.new(2, grill=[], stacks=[[30], [33]]), "start"):
        with pytest.raises(ValueError) as refused:
            eg.check_position(bad)
        with pytest.raises(ValueError) as solver:
            eg.win_chance(bad)
        assert str(refused.value) == str(solver.value)

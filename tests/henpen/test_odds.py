"""Exact single-turn odds: checked against a brute-force oracle, the published values and
properties that any correct solver must have."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.henpen.odds import (
    TurnPoint,
    TurnReward,
    best_claim,
    bust_chance,
    chance_at_least,
    chance_exactly,
    expected_worms,
    position_reward,
    solve_turn,
)
from henkit.henpen.rules import Claim, Rules
from henkit.henpen.turnspace import roll_pattern, take_preference, threshold_policy_on, turn_space

WORM = 6


def val(face: int) -> int:
    return 5 if face == WORM else face


# -- an independent brute-force oracle ----------------------------------------------------------
# Plain recursion over every ordered roll of the dice (6**n sequences), counted into faces,
# with Fractions. It knows nothing of the solver's tables, projections or numpy.


class Oracle:
    """Optimal play of one turn by brute force, with the documented tie-breaks."""

    def __init__(self, stop_value: list[Fraction], fail: Fraction) -> None:
        self.stop_value, self.fail = stop_value, fail

    @staticmethod
    @cache
    def rolls(n: int) -> dict[tuple[int, ...], Fraction]:
        out: dict[tuple[int, ...], Fraction] = {}
        for seq in itertools.product(range(1, 7), repeat=n):
            counts = tuple(seq.count(f) for f in range(1, 7))
            out[counts] = out.get(counts, Fraction(0)) + Fraction(1, 6**n)
        return out

    def end(self, taken: frozenset[int], total: int) -> Fraction:
        return self.stop_value[total] if WORM in taken else self.fail

    @cache  # noqa: B019 - one oracle per test, the cache dies with it
    def decide(self, n: int, taken: frozenset[int], total: int) -> tuple[Fraction, str]:
        """Value after a take (or at a fresh turn) and 'stop'/'roll'/'end'."""
        if n == 0 or len(taken) == 6:
            return self.end(taken, total), "end"
        roll = self.roll_value(n, taken, total)
        if WORM in taken and self.end(taken, total) >= roll:
            return self.end(taken, total), "stop"
        return roll, "roll"

    def options(self, n: int, taken: frozenset[int], total: int, counts: tuple[int, ...]):
        """(value, face, child) per takeable face, best first by the documented tie-breaks."""
        opts = []
        for face in range(1, 7):
            c = counts[face - 1]
            if c and face not in taken:
                child = (n - c, taken | {face}, total + c * val(face))
                opts.append((self.decide(*child)[0], c * val(face), face, child))
        opts.sort(key=lambda o: (-o[0], -o[1], -o[2]))
        return opts

    @cache  # noqa: B019
    def roll_value(self, n: int, taken: frozenset[int], total: int) -> Fraction:
        v = Fraction(0)
        for counts, p in self.rolls(n).items():
            opts = self.options(n, taken, total, counts)
            v += p * (opts[0][0] if opts else self.fail)
        return v

    def distribution(self, n: int, taken: frozenset[int], total: int) -> dict[object, Fraction]:
        """End distribution under the oracle's play: total -> chance, and 'fail'."""
        _v, action = self.decide(n, taken, total)
        if action in ("stop", "end"):
            return {total if WORM in taken else "fail": Fraction(1)}
        out: dict[object, Fraction] = {}
        for counts, p in self.rolls(n).items():
            opts = self.options(n, taken, total, counts)
            sub = self.distribution(*opts[0][3]) if opts else {"fail": Fraction(1)}
            for k, q in sub.items():
                out[k] = out.get(k, Fraction(0)) + p * q
        return out


def rewards(max_total: int) -> list[tuple[str, list[Fraction], Fraction]]:
    rng = random.Random(7)
    out = [
        ("at least 8", [Fraction(int(t >= 8)) for t in range(max_total + 1)], Fraction(0)),
        ("exactly 10", [Fraction(int(t == 10)) for t in range(max_total + 1)], Fraction(0)),
        ("total", [Fraction(t) for t in range(max_total + 1)], Fraction(-3)),
        ("random", [Fraction(rng.randint(-4, 9), rng.randint(1, 3)) for _ in range(max_total + 1)],
         Fraction(-1, 2)),
        ("flat", [Fraction(1)] * (max_total + 1), Fraction(1)),  # everything ties
    ]
    return out


def dice_rules(dice: int) -> Rules:
    """Rules for a turn of `dice` dice; below 5 dice the box's servings are out of reach, so
    these rules have one serving every such turn can reach (Rules refuses a game never ending)."""
    return Rules(dice=dice) if 5 * dice >= 21 else Rules(dice=dice, worm_table={5: 1})


MID_TURN_4 = [  # moments a 4-dice turn reaches
    TurnPoint(3, {WORM}, 5),
    TurnPoint(2, {3}, 6),
    TurnPoint(1, {WORM, 1, 2}, 8),
    TurnPoint(0, {1, 2, 3, 4}, 10),
    TurnPoint(0, {WORM, 5}, 20),
]


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("case", range(5))
def test_solver_matches_brute_force_on_fresh_turns(dice: int, case: int) -> None:
    rules = dice_rules(dice)
    name, stop_value, fail = rewards(rules.max_total)[case]
    oracle = Oracle(stop_value, fail)
    sol = solve_turn(TurnReward(stop_value, fail), rules=rules, exact=True)
    assert sol.value() == oracle.decide(dice, frozenset(), 0)[0], name
    # Every node of the turn, and every roll at it, and the end distribution.
    space = sol.space
    for i in range(space.size):
        p = space.point(i)
        value, action = oracle.decide(p.dice_left, p.taken, p.total)
        assert sol.value(p) == value
        assert sol.best_decision(p) == action
        if action == "end":
            continue
        for counts in Oracle.rolls(p.dice_left):
            opts = oracle.options(p.dice_left, p.taken, p.total, counts)
            assert sol.value_of_roll(counts, p) == (opts[0][0] if opts else fail)
            assert sol.best_face(counts, p) == (opts[0][2] if opts else None)
    want = oracle.distribution(dice, frozenset(), 0)
    got = sol.end_distribution()
    assert got.fail == want.get("fail", 0)
    for t, q in enumerate(got.at_total):
        assert q == want.get(t, 0)


@pytest.mark.parametrize("point", MID_TURN_4, ids=str)
def test_solver_matches_brute_force_mid_turn(point: TurnPoint) -> None:
    rules = Rules(dice=4, worm_table={5: 1})
    for name, stop_value, fail in rewards(rules.max_total):
        oracle = Oracle(stop_value, fail)
        reward = TurnReward(stop_value, fail)
        exact = solve_turn(reward, start=point, rules=rules, exact=True)
        assert exact.value() == oracle.decide(point.dice_left, point.taken, point.total)[0], name
        floats = solve_turn(reward, start=point, rules=rules)
        assert floats.value() == pytest.approx(float(exact.value()), abs=1e-12)
        want = oracle.distribution(point.dice_left, point.taken, point.total)
        got = exact.end_distribution()
        assert {t: q for t, q in enumerate(got.at_total) if q} | (
            {"fail": got.fail} if got.fail else {}) == want


def test_mid_turn_point_no_turn_reaches_is_refused_saying_which_totals_are_possible() -> None:
    # 2 dice set aside with only worms taken means 2 worms (10), so a total of 7 cannot happen
    # in a 4-dice turn: the solver refuses it and says what the total could be.
    point = TurnPoint(2, {WORM}, 7)
    stop_value = [Fraction(int(t >= 12)) for t in range(21)]
    with pytest.raises(ValueError, match="no turn of 4 dice reaches .* a total of 10, not 7"):
        solve_turn(TurnReward(stop_value), start=point, rules=dice_rules(4), exact=True)


# -- published values ---------------------------------------------------------------------------


@pytest.mark.parametrize(("target", "percent"), [(21, 89.303), (25, 68.033)])
def test_published_chance_at_least(target: int, percent: float) -> None:
    assert round(100 * chance_at_least(target), 3) == percent
    exact = chance_at_least(target, exact=True)
    assert isinstance(exact, Fraction)
    assert round(100 * float(exact), 3) == percent


# -- the end distribution -----------------------------------------------------------------------


def test_end_distribution_sums_to_one_and_gives_the_value_exactly() -> None:
    reward = position_reward(own_top=27, grill=[21, 22, 23, 24, 25, 26, 28, 29, 30, 31],
                             others_tops={1: 32, 2: 33}, leader=2, steal_weight=Fraction(1, 2))
    sol = solve_turn(reward, exact=True)
    dist = sol.end_distribution()
    assert dist.total_probability() == 1
    assert dist.expectation(reward.stop_value, reward.fail_value) == sol.value()
    mid = TurnPoint(5, {WORM}, 15)
    d2 = sol.end_distribution(mid)
    assert d2.total_probability() == 1
    assert d2.expectation(reward.stop_value, reward.fail_value) == sol.value(mid)


def test_float_and_exact_modes_agree_on_values_and_choices() -> None:
    for reward in (TurnReward.at_least(27, 40), position_reward(own_top=24, grill=range(25, 37)),
                   TurnReward([1] * 41, 1)):
        f, e = solve_turn(reward), solve_turn(reward, exact=True)
        assert f.value() == pytest.approx(float(e.value()), abs=1e-12)
        assert (f.policy.choice == e.policy.choice).all()
        assert (f.policy.stop == e.policy.stop).all()
        df = f.end_distribution()
        assert df.total_probability() == pytest.approx(1, abs=1e-12)
        assert df.expectation(*reward.floats) == pytest.approx(f.value(), abs=1e-12)


# -- tie-breaks ---------------------------------------------------------------------------------


def test_ties_prefer_stopping_then_most_points_then_higher_face() -> None:
    sol = solve_turn(TurnReward([1] * 41, 1))  # every end is worth the same
    assert sol.best_decision(TurnPoint(7, {WORM}, 5)) == "stop"
    assert sol.best_decision(TurnPoint(8)) == "roll"  # no worm: must roll
    point = TurnPoint(4, {1}, 4)  # 4 dice left
    assert sol.best_face((0, 2, 0, 1, 1, 0), point) == 5  # 5 points beats 4 and 4
    assert sol.best_face((0, 2, 0, 1, 0, 1), point) == WORM  # 4, 4, 5: the worm's 5
    assert sol.best_face((0, 2, 0, 2, 0, 0), point) == 4  # 4 vs 8 points
    assert sol.best_face((0, 0, 0, 1, 0, 1), TurnPoint(2, {1, 2}, 9)) == WORM  # 5 vs 4
    assert sol.best_face((0, 2, 0, 1, 0, 0), TurnPoint(3, {1}, 5)) == 4  # 4 vs 4: higher face


def test_take_values_lists_every_takeable_face_best_first() -> None:
    sol = solve_turn(TurnReward.at_least(25, 40))
    roll = (1, 0, 2, 0, 3, 2)
    values = sol.take_values(roll)
    assert set(values) == {1, 3, 5, WORM}
    assert next(iter(values.values())) == max(values.values())
    assert sol.value_of_roll(roll) == max(values.values())
    for face, v in values.items():
        assert v == pytest.approx(sol.value(TurnPoint(8).after_take(face, roll)))
    assert sol.take_values((0, 0, 0, 0, 0, 7), TurnPoint(7, {WORM}, 5)) == {}  # bust
    assert sol.value_of_roll((0, 0, 0, 0, 0, 7), TurnPoint(7, {WORM}, 5)) == 0


# -- bust chance --------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("taken", [(), (WORM,), (1, 3), (1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6)])
def test_bust_chance_formula_and_brute_force(dice: int, taken: tuple[int, ...]) -> None:
    k = len(taken)
    assert bust_chance(dice, taken) == Fraction(k, 6) ** dice
    seqs = list(itertools.product(range(1, 7), repeat=dice))
    brute = Fraction(sum(all(f in taken for f in s) for s in seqs), len(seqs))
    assert bust_chance(dice, taken) == brute
    assert bust_chance(dice, set(taken), exact=False) == pytest.approx(float(brute))


# -- named objectives ---------------------------------------------------------------------------


def test_chance_exactly_and_at_least_by_brute_force_for_3_dice() -> None:
    rules = Rules(dice=3, worm_table={5: 1})
    for t in (5, 10, 11, 13, 15):
        at_least = [Fraction(int(x >= t)) for x in range(16)]
        exactly = [Fraction(int(x == t)) for x in range(16)]
        assert chance_at_least(t, rules=rules, exact=True) == Oracle(at_least, Fraction(0)).decide(
            3, frozenset(), 0)[0]
        assert chance_exactly(t, rules=rules, exact=True) == Oracle(exactly, Fraction(0)).decide(
            3, frozenset(), 0)[0]
    assert chance_at_least(16, rules=rules) == 0
    exactly_15 = Oracle([Fraction(int(x == 15)) for x in range(16)], Fraction(0))
    got = chance_exactly(15, dice=2, taken={WORM}, total=5, rules=rules, exact=True)
    assert got == exactly_15.decide(2, frozenset({WORM}), 5)[0]


def pickomino_worms(t: int) -> int:
    return 1 + (t - 21) // 4  # DECISIONS P1, written out again for the test


def test_position_reward_follows_the_claim_rule() -> None:
    r = position_reward()
    assert [r.stop_value[t] for t in (0, 20, 21, 24, 25, 28, 29, 33, 36, 40)] == [
        0, 0, 1, 1, 2, 2, 3, 4, 4, 4]
    assert r.fail_value == 0
    grill = [t for t in range(21, 37) if t not in (30, 33)]
    r = position_reward(grill=grill, own_top=30, others_tops={1: 33})
    assert r.fail_value == -3
    assert r.stop_value[30] == pickomino_worms(29)  # own top: highest grill serving below
    assert r.stop_value[33] == 4  # steal 33 (4 worms) beats grill 32 (3 worms)
    assert r.stop_value[20] == -3  # nothing to claim: the turn fails
    weighted = position_reward(grill=grill, own_top=30, others_tops={1: 33}, steal_weight=1)
    assert weighted.stop_value[33] == 8  # 4 worms gained + 4 taken from the opponent
    other = position_reward(grill=grill, own_top=30, others_tops={1: 33}, leader=2, steal_weight=1)
    assert other.stop_value[33] == 4  # the bonus is only for stealing from the leader
    assert best_claim(33, grill, 30, {1: 33}) == (Claim(33, 1), 4)
    assert best_claim(19) == (None, 0)


def test_expected_worms_by_brute_force_for_4_dice() -> None:
    rules = Rules(dice=4, worm_table={8: 1, 10: 2, 12: 2, 15: 3, 18: 4})
    # Grill 8, 12, 18; own top 10 (2 worms, lost on failure); an opponent shows 15.
    grill, own, tops = (8, 12, 18), 10, {1: 15}
    stop_value = []
    for t in range(21):
        options = []
        if t in grill:
            options.append(rules.worm_table[t])
        else:
            lower = [g for g in grill if g < t]
            if lower:
                options.append(rules.worm_table[max(lower)])
        if tops.get(1) == t:
            options.append(rules.worm_table[t] * 2)  # steal_weight 1: the opponent loses them
        stop_value.append(Fraction(max(options)) if options else Fraction(-2))
    oracle = Oracle(stop_value, Fraction(-2))
    got = expected_worms(grill, own, tops, steal_weight=1, rules=rules, exact=True)
    assert got == oracle.decide(4, frozenset(), 0)[0]
    mid = expected_worms(grill, own, tops, steal_weight=1, dice=2, taken={WORM}, total=10,
                         rules=rules, exact=True)
    assert mid == oracle.decide(2, frozenset({WORM}), 10)[0]
    assert expected_worms(grill, own, tops, steal_weight=1, rules=rules) == pytest.approx(float(got))


def test_default_expected_worms_is_the_full_grill_with_nothing_to_lose() -> None:
    v = expected_worms()
    assert v == pytest.approx(solve_turn(position_reward(grill=range(21, 37))).value())
    assert 1 < v < 4  # at least a worm only if the turn succeeds; never more than 4
    assert expected_worms(own_top=36, grill=range(21, 36)) < v  # something to lose


def test_start_from_a_game_like_object_and_a_roll() -> None:
    class Seen:  # duck-typed like the game State
        dice_left, taken, total = 6, frozenset({WORM}), 10

    a = chance_at_least(25, start=Seen())
    b = chance_at_least(25, dice=6, taken={WORM}, total=10)
    assert a == b
    roll = (0, 0, 0, 2, 3, 1)
    # Seeing a roll: value of its best face, at most the value before the roll's luck is known.
    assert chance_at_least(25, dice=6, taken={WORM}, total=10, roll=roll) == pytest.approx(
        max(chance_at_least(25, dice=4, taken={WORM, 4}, total=18),
            chance_at_least(25, dice=3, taken={WORM, 5}, total=25)))


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(dice=st.integers(1, 8), target=st.integers(0, 41))
def test_chance_at_least_falls_as_the_target_rises(dice: int, target: int) -> None:
    rules = dice_rules(dice)
    a, b = chance_at_least(target, rules=rules), chance_at_least(target + 1, rules=rules)
    assert a >= b - 1e-12
    assert chance_exactly(target, rules=rules) <= a + 1e-12


@settings(max_examples=25, deadline=None)
@given(dice=st.integers(1, 4), threshold=st.integers(0, 21),
       values=st.lists(st.integers(-5, 10), min_size=21, max_size=21), fail=st.integers(-5, 5))
def test_optimal_beats_every_threshold_policy_exactly(
    dice: int, threshold: int, values: list[int], fail: int
) -> None:
    reward = TurnReward(values, fail)
    sol = solve_turn(reward, rules=dice_rules(dice), exact=True)
    policy = threshold_policy_on(sol.space, threshold)
    dist = policy.end_distribution(exact=True)
    assert dist.total_probability() == 1
    assert sol.value() >= dist.expectation(reward.stop_value, reward.fail_value)


@settings(max_examples=20, deadline=None)
@given(dice=st.integers(1, 8), shift=st.integers(-3, 3), scale=st.integers(1, 4))
def test_value_moves_with_an_affine_change_of_reward(dice: int, shift: int, scale: int) -> None:
    rules = dice_rules(dice)
    base = position_reward(rules=rules)
    moved = TurnReward([scale * v + shift for v in base.stop_value], scale * base.fail_value + shift)
    a, b = solve_turn(base, rules=rules), solve_turn(moved, rules=rules)
    assert b.value() == pytest.approx(scale * a.value() + shift, abs=1e-9)


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: bust_chance(0, ()), "dice"),
        (lambda: bust_chance(2, (7,)), "face"),
        (lambda: bust_chance(2, (1, 1)), "twice"),
        (lambda: bust_chance(2, "12"), "taken"),
        (lambda: TurnPoint(3, (), 5), "fresh turn"),
        (lambda: TurnPoint(21), "dice_left"),
        (lambda: TurnPoint(3, {WORM}, 2), "too small"),
        (lambda: chance_at_least(-1), "target"),
        (lambda: chance_at_least(25, taken={WORM}, total=5), "dice="),
        (lambda: chance_at_least(25, start=TurnPoint(8), dice=8), "either"),
        (lambda: solve_turn(TurnReward([0] * 10)), "covers totals"),
        (lambda: solve_turn([0] * 41), "TurnReward"),
        (lambda: TurnReward([0, "x"]), "stop_value[1]"),
        (lambda: TurnReward([0, float("nan")]), "finite"),
        (lambda: position_reward(own_top=25), "one place"),
        (lambda: position_reward(own_top=99, grill=[21]), "no serving"),
        (lambda: position_reward(steal_weight=-1), "steal_weight"),
        (lambda: solve_turn(TurnReward.at_least(9, 40)).value_if_stop(TurnPoint(7, {1}, 1)),
         "worm"),
        (lambda: solve_turn(TurnReward.at_least(9, 40)).best_face((1, 1, 1, 1, 1, 1)), "adding"),
        (lambda: solve_turn(TurnReward.at_least(9, 40)).value(TurnPoint(3, {1}, 99)), "reached"),
        (lambda: TurnPoint(8).after_take(WORM, (8, 0, 0, 0, 0, 0)), "no worm"),
        (lambda: chance_at_least(25, rules="pickomino"), "Rules"),
    ],
)
def test_bad_input_raises_value_error_saying_what(call: object, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_turn_space_holds_exactly_the_reachable_points() -> None:
    def reach(n: int, taken: frozenset[int], total: int, seen: set) -> None:
        seen.add((n, taken, total))
        if n and len(taken) < 6:
            for counts in Oracle.rolls(n):
                for face in range(1, 7):
                    c = counts[face - 1]
                    if c and face not in taken:
                        reach(n - c, taken | {face}, total + c * val(face), seen)

    for dice in (1, 3, 4):
        seen: set = set()
        reach(dice, frozenset(), 0, seen)
        space = turn_space(TurnPoint(dice))
        assert {(p.dice_left, p.taken, p.total) for p in map(space.point, range(space.size))} == seen
    assert turn_space(TurnPoint(8)) is turn_space(TurnPoint(8))  # cached


def test_single_queries_make_the_policy_choices() -> None:
    # Decisions read one pair or node (`_choice`, `stops_at`) instead of building the policy:
    # they must pick exactly the policy's edge and stop flag, ties and tolerance included.
    rewards = (
        TurnReward.at_least(27, 40),
        position_reward(own_top=24, grill=range(25, 37)),
        TurnReward([1] * 41, 1),
    )
    sols = [solve_turn(r) for r in rewards] + [solve_turn(rewards[1], exact=True)]
    for sol in sols:
        pol, sp = sol.policy, sol.space
        assert [sol._choice(p) for p in range(len(sp.pair_node))] == pol.choice.tolist()
        assert [sol.stops_at(i) for i in range(sp.size)] == pol.stop[:-1].tolist()


def test_each_roll_lists_its_faces_in_take_preference_order() -> None:
    # The space builder ranks faces with arrays; the rule itself is `take_preference`.
    for root in (TurnPoint(8), TurnPoint(5, {WORM, 2}, 14)):
        sp = turn_space(root)
        pes, local = sp.pair_edge_start.tolist(), sp.pair_local.tolist()
        for p, i in enumerate(sp.pair_node.tolist()):
            mask = int(sp.mask[i])
            untaken = [f for f in range(1, 7) if not mask >> (f - 1) & 1]
            row = roll_pattern(int(sp.n[i]), len(untaken)).counts[local[p]].tolist()
            shown = sorted(
                ((f, c) for f, c in zip(untaken, row, strict=True) if c),
                key=lambda fc: take_preference(*fc),
            )
            assert sp.edge_face[pes[p] : pes[p + 1]].tolist() == ([f for f, _ in shown] or [0])

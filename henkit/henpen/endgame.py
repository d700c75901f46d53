"""Whole-game Henpen for two players: the chance to win, both players playing to win.

`win_chance(state)` is the chance that the player to move at the start of a turn wins the game
when both players play to win (a draw counts half, so the two players' chances add up to 1).

How it is worked out. A position between turns is the grill, the two stacks (in order) and whose
turn it is; the servings out of play are the rest. A turn is a small Markov decision process (the
turn space of `henkit.henpen.turnspace`, the same tables the expected-worms solver of
`henkit.henpen.odds` uses); it ends in a claim (a grill serving, or the opponent's top) or a
failure, each leading to a new position. The reward of an ending is the opponent's chance of
losing from the position it leads to, 1 - (their chance of winning there). Each turn is solved
by backward induction over its space with those rewards, with one difference from
`odds.solve_turn`, whose reward is one number per total: a player may stop only with a worm *and*
a serving to claim (a total no serving matches cannot stop, and a total that claims something
cannot fail by choice), and a turn that ends by itself (P5) takes the best of its claims. A turn
solve reads only the value of stopping at each total and the failure's, and scaling those to
run from 0 to 1 scales its answer alike, so float solves are memoised in that scaled form and
shared: many positions (stacks that differ deep down) have turns of the same shape.
Positions repeat (a serving stolen back and forth; a failure with an empty stack flips nothing),
so the positions are solved strongly connected component by component, last first: in floats by
value iteration (Gauss-Seidel, with Aitken's extrapolation every two sweeps) to 1e-14, or for
two positions that lead to each other (a serving stolen back and forth: every loop of the
benchmark's endgames) by the secant method on what a sweep does to one of them; exactly
(`exact=True`) by policy iteration, each policy evaluated by an exact linear solve over the
component in Fractions and then checked to be a fixed point of the exact turn solve (no check
is needed when the first policy, chosen against the float values, had no close decision and
the exact values stay within 1e-10 of the floats). That exact turn solve (`_exact_turn`)
follows the float solve's decisions wherever one option beats the others by more than 1e-9,
and carries each node's exact chance of each outcome (modulo a few primes, rebuilt by Chinese
remainders), comparing close options exactly; it gives the turn's exact value and its outcome
chances at once. Every game ends with probability 1 whatever the
players do (a roll of all worms forces a claim), so the fixed point is unique and is the game's
value.

A position keeps both stacks whole: the tops and the worm difference are not enough, because a
steal or a failure shows the serving below (the tests hold an example), so an endgame's size
grows fast with the servings left (the endgames of the benchmark: about 760 positions with 1
serving left, 11,000 with 2, 79,000 with 3, 900,000 with 4; their float solves make about
9,300, 79,000 and 990,000 turn solves, mostly for loops, which take two or three each).

Every solved position is memoised (`cache_info`, `cache_clear`). `best_action(state)` and
`win_advice(state)` give the best action at any moment of a turn for winning, and the chance to
win after each legal action. Pure Python and numpy.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from henkit.checks import whole
from henkit.henpen.actions import ROLL, TAKES, Action, Roll, Stop
from henkit.henpen.dice import SIDES, VALUES
from henkit.henpen.inputs import check_flag
from henkit.henpen.rules import Claim, Rules, failed_turn, legal_claims
from henkit.henpen.state import Phase, State
from henkit.henpen.turnspace import TurnPoint, TurnPolicy, TurnSpace, turn_space

Number = float | Fraction
Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A position between turns: (grill, the mover's stack, the opponent's stack), stacks bottom
first. Whose seat moves does not change the chance to win, so one key serves both seats."""

DEFAULT_LIMIT = 100_000
"""The most positions one call solves unless the caller sets `limit` (a few minutes in floats)."""
TOLERANCE = 1e-14
"""Float value iteration stops when no value in a component moves by more than this."""
MAX_SWEEPS = 100_000
MAX_POLICY_ROUNDS = 200
_COUNT_CAP = 10
"""Over its limit, an endgame is counted up to this many times the limit, to say how large."""


class CacheInfo(NamedTuple):
    """How many positions are memoised (float values, exact values), and how many float turn
    solves, each shared by the positions whose turns have its shape (`_shared_turn_value`)."""

    float_positions: int
    exact_positions: int
    turn_solves: int = 0


@dataclass(frozen=True)
class WinAdvice:
    """A legal action and the mover's chance to win if they play it, then play to win."""

    action: Action
    value: Number

    def __str__(self) -> str:
        return f"{self.action}: {float(self.value):.2%} to win"


# ----- memo ---------------------------------------------------------------------------------------

_FLOAT: dict[Rules, dict[Key, float]] = {}
_EXACT: dict[Rules, dict[Key, Fraction]] = {}
_LOCK = threading.RLock()
"""Held while the memos are read or written (win_chance, win_advice, cache_clear, cache_info):
no thread sees the values another is still solving (the endgame explorer solves ahead in a
thread of its own while a win bot may ask on the kernel's)."""


def cache_info() -> CacheInfo:
    """How many positions are memoised (all rules together), in floats and exactly, and how
    many float turn solves they share."""
    with _LOCK:
        return CacheInfo(sum(map(len, _FLOAT.values())), sum(map(len, _EXACT.values())),
                         sum(map(len, _SHARED.values())))


def cache_clear() -> None:
    """Forget every memoised position."""
    with _LOCK:
        _FLOAT.clear()
        _EXACT.clear()
        _SHARED.clear()
        _turn.cache_clear()
        _solved_turn.cache_clear()


# ----- input --------------------------------------------------------------------------------------


def _check_state(state: object, *, start: bool) -> State:
    if not isinstance(state, State):
        raise ValueError(f"state must be a henkit.henpen State, not {state!r}")
    state.validate()  # an unreachable position is refused here, saying why
    if state.players != 2:
        raise ValueError(f"the endgame solver plays 2-player games, not {state.players} players")
    if state.phase is Phase.OVER:
        raise ValueError("the game is over: there is no turn to play")
    if start and state.phase is not Phase.ROLL:
        raise ValueError(f"win_chance takes a position at the start of a turn, not one in the "
                         f"{state.phase.value!r} phase (best_action and win_advice take any moment)")
    if state.phase is Phase.DICE:
        raise ValueError("the dice are rolling: no player decides now")
    return state


def check_position(state: object) -> State:
    """`state`, checked to be a position `win_chance` takes: a 2-player game at a turn's start
    that the rules can reach (ValueError saying why not)."""
    return _check_state(state, start=True)


def _check_limit(limit: object) -> int:
    return whole(limit, "limit (the most positions to solve)", 1)


def key_of(state: State) -> Key:
    """The position of a state's turn: (grill, the mover's stack, the opponent's stack)."""
    if not isinstance(state, State) or state.players != 2:
        raise ValueError(f"key_of takes a 2-player henkit.henpen State, not {state!r}")
    me = state.player
    return state.grill, state.stacks[me], state.stacks[1 - me]


# ----- one position's turn ------------------------------------------------------------------------


class _Turn(NamedTuple):
    """A position's turn: where each ending leads, and which endings each total may claim."""

    outcomes: tuple[Key, ...]  # index 0: the failure; then one per claim
    claims: tuple[Claim, ...]  # claims[o - 1] is outcome o
    at_total: tuple[tuple[int, ...], ...]  # outcome indices each total may claim (P4)
    terminal: Fraction | None  # the mover's result when the game is over
    runs: tuple[tuple[int, tuple[int, ...]], ...] = ()  # at_total as (length, claims) runs


_WIN, _LOSS, _DRAW = Fraction(1), Fraction(0), Fraction(1, 2)


def _result(mine: tuple[int, ...], theirs: tuple[int, ...], rules: Rules) -> Fraction:
    # `winners` (P8) for two valid stacks, inline: half the positions of an endgame are over.
    worms = rules.worm_table
    a, b = sum(worms[t] for t in mine), sum(worms[t] for t in theirs)
    if a == b:  # a tie on worms goes to the highest serving (servings are unique)
        a, b = max(mine, default=0), max(theirs, default=0)
    return _WIN if a > b else _LOSS if a < b else _DRAW


@lru_cache(maxsize=200_000)
def _turn(rules: Rules, key: Key) -> _Turn:
    grill, mine, theirs = key
    if not grill:
        return _Turn((), (), (), _result(mine, theirs, rules))
    returned, turned = failed_turn(mine, grill, rules)
    g, m = grill, mine
    if returned is not None:
        m = mine[:-1]
        g = tuple(sorted((*g, returned)))
    if turned is not None:
        g = tuple(t for t in g if t != turned)
    outcomes: list[Key] = [(g, theirs, m)]
    claims, at_total, runs = _claim_table(rules, grill, theirs[-1] if theirs else None)
    for c in claims:
        if c.owner is None:
            outcomes.append((tuple(x for x in grill if x != c.tile), theirs, (*mine, c.tile)))
        else:
            outcomes.append((grill, theirs[:-1], (*mine, c.tile)))
    return _Turn(tuple(outcomes), claims, at_total, None, runs)


@lru_cache(maxsize=50_000)
def _claim_table(rules: Rules, grill: tuple[int, ...], top: int | None
                 ) -> tuple[tuple[Claim, ...], tuple[tuple[int, ...], ...], Any]:
    # P4's claims at every total (`legal_claims`), numbered from 1 in order of first appearance,
    # and the same as runs of totals with the same claims (`_runs`).
    # They depend on the grill and the opponent's top only: one's own top matters only when the
    # total equals it, and then the total is missing from the grill, which the rule covers alike.
    index: dict[Claim, int] = {}
    at_total = []
    tops = {1: top} if top is not None else {}
    for t in range(_space(rules).max_total + 1):
        here = []
        for c in legal_claims(t, grill, None, tops):
            here.append(index.setdefault(c, len(index) + 1))
        at_total.append(tuple(here))
    return tuple(index), tuple(at_total), _runs(tuple(at_total))


@lru_cache(maxsize=16)
def _space(rules: Rules) -> TurnSpace:
    return turn_space(TurnPoint.fresh(rules.dice))


@lru_cache(maxsize=16)
def _tables(rules: Rules) -> tuple[Any, ...]:
    # The turn space's arrays the solves below read, and the scale 6**(d + (d-1) + ... + 1)
    # that makes every node's value an integer multiple of 1 / (scale * common denominator).
    # Exact solves also read each pair's roll weight as a Python int (probability * 6**n):
    # the space's `exact_levels`, made on first use (a float-only kernel never needs them).
    sp = _space(rules)
    d = rules.dice
    scale = SIDES ** (d * (d + 1) // 2)
    return sp.total, sp.has_worm, sp.rollable, scale


def _ends(rules: Rules, turn: _Turn, values: list[Any], low: Any) -> tuple[Any, Any, Any]:
    """Per node of the turn space: the value of ending there (`low` where the player may not
    stop), and the failure's value; plus the best claim per total (outcome index, -1 none)."""
    total, has_worm, rollable, _scale = _tables(rules)
    fail = values[0]
    best_at = []
    best_val = []
    for here in turn.at_total:
        if here:
            o = max(here, key=lambda i: values[i])  # ties: the earlier claim (the grill first)
            best_at.append(o)
            best_val.append(values[o])
        else:
            best_at.append(-1)
            best_val.append(low)
    exact = isinstance(low, int)
    stop = np.array(best_val, dtype=object if exact else np.float64)[total]
    can = np.array([o >= 0 for o in best_at])[total] & has_worm
    end = np.where(can, stop, low)
    # A turn that ends by itself claims if it can (the best claim), else fails (P5).
    end = np.where(~rollable & ~can, fail, end)
    if exact:
        end = end.astype(object)
    return end, fail, best_at


def _solve_float(rules: Rules, end: np.ndarray, fail: float) -> tuple[np.ndarray, np.ndarray]:
    """Backward induction in floats: every node's value and its value if it rolls."""
    sp = _space(rules)
    value = np.empty(sp.size + 1)
    value[:-1] = end
    value[-1] = fail
    roll = np.full(sp.size, np.nan)
    for a, c, children, starts, probs in sp.level_tables:
        best = np.maximum.reduce(value[children], axis=0)
        r = np.add.reduceat(best * probs, starts)
        roll[a:c] = r
        value[a:c] = np.maximum(end[a:c], r)
    return value, roll


def _solve_exact(rules: Rules, end: np.ndarray, fail: int) -> tuple[np.ndarray, np.ndarray]:
    """Backward induction in integers (values times scale * common denominator): exact."""
    sp = _space(rules)
    levels = sp.exact_levels
    value = np.empty(sp.size + 1, dtype=object)
    value[:-1] = end
    value[-1] = fail
    roll = np.full(sp.size, -1, dtype=object)
    for a, c, children, starts, weights, sixes in levels:
        best = np.maximum.reduce(value[children], axis=0)
        r = np.add.reduceat(best * weights, starts) // sixes  # exact: see _tables
        roll[a:c] = r
        value[a:c] = np.maximum(end[a:c], r)
    return value, roll


def _turn_value_float(rules: Rules, turn: _Turn, values: list[float]) -> float:
    if _SHARE:
        return _shared_turn_value(rules, turn, values)
    end, fail = _ends_float(rules, turn, values)
    value, _roll = _solve_float(rules, end, fail)
    return float(value[_root(rules)])


_SHARE = True
"""Share turn solves between positions whose turns are the same up to scale (`_shared_turn_value`);
False: every turn solved on its own, the straightforward way the tests compare with."""
_SHARED: dict[Rules, dict[tuple[float, ...], float]] = {}


def _shared_turn_value(rules: Rules, turn: _Turn, values: list[float]) -> float:
    """A turn's value from the memo of solved turns. A turn solve reads only the value of
    stopping at each total and the failure's, and commutes with x -> lo + (hi - lo) * x (every
    policy's chances add up to 1), so turns are memoised scaled to lowest 0 and highest 1: many
    positions of an endgame (stacks that differ deep down, claims in another order) share one."""
    lo, hi = min(values), max(values)
    if hi == lo:  # every ending is worth the same
        return lo
    span = hi - lo
    # The scaled value of stopping at each total, as runs of totals with one value (a few
    # numbers: the claims change at the grill's servings and the opponent's top only).
    key: list[float] = [(values[0] - lo) / span]
    for length, here in turn.runs:
        v = (max(values[i] for i in here) - lo) / span if here else -1.0
        if v == key[-1] and len(key) > 1:
            key[-2] += length
        else:
            key += (length, v)
    memo = _SHARED.setdefault(rules, {})
    shape = tuple(key)
    x = memo.get(shape)
    if x is None:
        total, has_worm, rollable, _scale = _tables(rules)
        stop = np.repeat(key[2::2], np.array(key[1::2], dtype=np.intp))[total]
        can = (stop >= 0) & has_worm
        end = np.where(can, stop, -1.0)
        end[~rollable & ~can] = key[0]
        x = memo[shape] = _root_value(rules, end, key[0])
    return lo + span * x


def _runs(at_total: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    # The claim table as runs of consecutive totals with the same claims: (length, claims).
    out: list[tuple[int, tuple[int, ...]]] = []
    for here in at_total:
        if out and out[-1][1] == here:
            out[-1] = (out[-1][0] + 1, here)
        else:
            out.append((1, here))
    return tuple(out)


def _root_value(rules: Rules, end: np.ndarray, fail: float) -> float:
    """`_solve_float`'s value at the root only, without keeping the rolls' values."""
    sp = _space(rules)
    value = np.empty(sp.size + 1)
    value[:-1] = end
    value[-1] = fail
    for a, c, children, starts, probs in sp.level_tables:
        best = np.maximum.reduce(value[children], axis=0)
        best *= probs
        np.maximum(end[a:c], np.add.reduceat(best, starts), out=value[a:c])
    return float(value[_root(rules)])


def _ends_float(rules: Rules, turn: _Turn, values: list[float]) -> tuple[np.ndarray, float]:
    """`_ends` in floats, in a few numpy steps (it runs once per turn solve): per node the
    value of ending there (-1 where the player may not stop), and the failure's value."""
    total, has_worm, rollable, _scale = _tables(rules)
    vals = np.array([*values, -1.0])  # the last entry: "no claim" (`_total_index`)
    stop = vals[_total_index(turn.at_total)].max(axis=1)[total]
    can = (stop >= 0) & has_worm
    end = np.where(can, stop, -1.0)
    end[~rollable & ~can] = values[0]  # a turn that ends by itself without a claim fails (P5)
    return end, values[0]


@lru_cache(maxsize=50_000)
def _total_index(at_total: tuple[tuple[int, ...], ...]) -> np.ndarray:
    # Per total, the outcomes it may claim (at most two: a grill serving and a steal), padded
    # with -1: the "no claim" entry `_ends_float` puts last.
    index = np.full((len(at_total), 2), -1, dtype=np.intp)
    for t, here in enumerate(at_total):
        index[t, :len(here)] = here
    index.flags.writeable = False
    return index


@lru_cache(maxsize=16)
def _root(rules: Rules) -> int:
    return _space(rules).find_node(rules.dice, 0, 0)


def _common(values: list[Fraction]) -> int:
    d = 1
    for v in values:
        d = math.lcm(d, v.denominator)
    return d


def _turn_value_exact(rules: Rules, turn: _Turn, values: list[Fraction]) -> tuple[Fraction, Any]:
    """The exact value of a position's turn given its outcomes' values, and the solve."""
    scale = _tables(rules)[3]
    d = _common(values)
    ints = [v.numerator * (d // v.denominator) * scale for v in values]
    end, fail, best = _ends(rules, turn, ints, -1)
    value, roll = _solve_exact(rules, end, fail)
    root = _space(rules).find_node(rules.dice, 0, 0)
    return Fraction(int(value[root]), d * scale), (value, roll, end, best)


# ----- exact turn solves, guided by floats ---------------------------------------------------------
#
# The exact turn solve above carries every node's value as a multiple of 1 / (scale * common
# denominator): with the outcomes' values of a deep endgame (fractions of hundreds of digits) that
# is tens of milliseconds a turn. `_exact_turn` gets the same answer from the float solve's
# decisions: each node carries instead the exact chance of each outcome from there under the
# best play (a "law": whole numbers out of 6**S, S = d + (d-1) + ... + 1, so of fixed size),
# computed modulo a few primes below 2**21 in float64 (every product, and every node's sum of
# products, stays below 2**53, so exact, and float division is much faster than numpy's integer
# remainder) and rebuilt exactly
# (Chinese remainders) where needed. A decision whose best option beats the others by more than DELTA in floats is the
# exact decision (float error is far below DELTA); where options come closer, equal laws mean
# equal values, and the rest are compared exactly.

DELTA = 1e-9
"""Float gap above which a float decision of the turn solve is taken as the exact one."""


def _is_prime(n: int) -> bool:
    # Deterministic Miller-Rabin for n < 3.4e14 (bases 2, 3, 5, 7, 11, 13, 17).
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 3, 5, 7, 11, 13, 17):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@lru_cache(maxsize=16)
def _modular(rules: Rules) -> tuple[Any, ...]:
    """Primes whose product exceeds 6**S, and per level of the turn space each pair's roll
    weight modulo them, 1 / 6**n modulo them, and the Chinese-remainder coefficients."""
    sp = _space(rules)
    d = rules.dice
    s_exp = d * (d + 1) // 2
    # Primes small enough that a node's sum of (chance * weight) products, each below p**2,
    # stays below 2**53 (exact in floats) without reducing each product first.
    most = int(np.diff(sp.pair_start).max())
    bits = min(26, int((53 - math.log2(most + 1)) // 2))
    primes: list[int] = []
    n, product = (1 << bits) - 1, 1
    while product <= SIDES**s_exp:
        if _is_prime(n):
            primes.append(n)
            product *= n
        n -= 2
    pr = np.array(primes, dtype=np.float64)
    levels = []
    # A weight is at most 6**n <= 6**MAX_DICE < 2**63: int64 remainders are exact.
    modulus = np.array(primes, dtype=np.int64)
    for a, c, children, starts, weights, sixes in sp.exact_levels:
        w = (weights.astype(np.int64)[:, None] % modulus).astype(np.float64)
        inv = np.array([pow(sixes, -1, q) for q in primes], dtype=np.float64)
        levels.append((a, c, children, starts, w, inv))
    unit = np.array([pow(SIDES, s_exp, q) for q in primes], dtype=np.float64)
    crt = [(product // q) * pow(product // q, -1, q) for q in primes]
    assert [lv[:2] for lv in levels] == [lv[:2] for lv in sp.level_tables]
    return pr, levels, unit, crt, product, SIDES**s_exp


def _crt(rules: Rules, residues: np.ndarray) -> list[int]:
    """The whole numbers (one per row of `residues`, one column per prime) Chinese remainders
    give: each a chance times 6**S."""
    _pr, _levels, _unit, crt, product, _den = _modular(rules)
    return [sum(int(r) * c for r, c in zip(row, crt, strict=True)) % product
            for row in residues.tolist()]


def _mod(x: np.ndarray, primes: np.ndarray) -> np.ndarray:
    # x mod p for whole numbers below 2**53 held in floats: x / p is within far less than
    # 1 / p of its true value, so the floor is exact, and so is the difference.
    return x - np.floor(x / primes) * primes


def _exact_turn(rules: Rules, turn: _Turn, vals: list[Fraction], *, settle: bool = True
                ) -> tuple[Fraction, list[Fraction], bool]:
    """The exact value of a position's turn given its outcomes' exact values, and the chance of
    each outcome under the best play (the earliest best option on exact ties, stopping on a
    tie between stopping and rolling: the choices of `_policy`). With `settle=False` close
    options are left to the floats: the exact value and chances of a policy at most about
    DELTA from the best (a start for policy iteration). The flag: no decision was close (every
    option within DELTA of the best has the best's law), so the policy stays the best for any
    outcome values within about DELTA / 2 of these."""
    sp = _space(rules)
    total, has_worm, rollable, _scale = _tables(rules)
    pr, levels, unit, _crtc, _product, den = _modular(rules)
    floats = [float(v) for v in vals]
    end_f, fail_f = _ends_float(rules, turn, floats)
    value_f, roll_f = _solve_float(rules, end_f, fail_f)
    best_at = np.array([max(here, key=vals.__getitem__) if here else -1
                        for here in turn.at_total], dtype=np.intp)
    claim = best_at[total]
    can = (claim >= 0) & has_worm
    outcome = np.where(can, claim, 0)  # where a stop ends: the best claim, else a failure
    # The chances of the claims (outcomes 1..m-1); the failure's is what is left of 1, so
    # FAIL's row, and a stop without a claim, are all zeros.
    law = np.zeros((sp.size + 1, len(turn.outcomes) - 1, len(pr)))
    fixed = np.flatnonzero(~rollable & (outcome > 0))
    law[fixed, outcome[fixed] - 1] = unit
    # Each node's law packed into a few int64 words (residues side by side, exact), for
    # comparing the laws of close options cheaply.
    bits = int(pr.max()).bit_length()
    group = max(1, 63 // bits)
    width = -(-law.shape[1] * len(pr) // group)

    def pack(rows: np.ndarray) -> np.ndarray:
        flat = np.zeros((len(rows), width * group), dtype=np.int64)
        flat[:, :law.shape[1] * len(pr)] = rows.reshape(len(rows), -1)
        flat = flat.reshape(len(rows), width, group)
        words = flat[:, :, 0].copy()
        for g in range(1, group):
            words |= flat[:, :, g] << (bits * g)
        return words

    packed = pack(law)
    certain = True

    known: dict[int, Fraction] = {}

    def chances_of(row: np.ndarray) -> list[int]:
        claims = _crt(rules, row)
        return [den - sum(claims), *claims]  # times 6**S: the failure's, then each claim's

    def exact_value(row: np.ndarray) -> Fraction:
        return sum((x * v for x, v in zip(chances_of(row), vals, strict=True) if x),
                   Fraction(0)) / den

    def node_value(i: int) -> Fraction:
        if i not in known:
            known[i] = exact_value(law[i])
        return known[i]

    for a, c, children, starts, w, inv in levels:
        vf = value_f[children]  # (edges, pairs)
        pick = np.argmax(vf, axis=0)
        cols = np.arange(children.shape[1])
        near = vf >= vf[pick, cols] - DELTA
        unsure = np.flatnonzero(near.sum(axis=0) > 1)
        if unsure.size:
            # Compare each close option's law with the float pick's, close options only.
            e, u = np.nonzero(near[:, unsure])
            cols_u = unsure[u]
            differs = ~(packed[children[e, cols_u]] == packed[children[pick[cols_u], cols_u]]).all(axis=1)
            certain = certain and not differs.any()
            for j in np.unique(cols_u[differs]).tolist() if settle else ():
                options = [int(x) for x in children[near[:, j], j]]
                exact = {o: node_value(o) for o in dict.fromkeys(options)}
                top = max(exact.values())
                first = next(k for k in range(children.shape[0])
                             if near[k, j] and exact[int(children[k, j])] == top)
                pick[j] = first
        chosen = children[pick, cols]
        spread = law[chosen] * w[:, None, :]  # each below p**2: their sums stay exact
        roll_law = _mod(_mod(np.add.reduceat(spread, starts, axis=0), pr) * inv, pr)
        stop = can[a:c] & (end_f[a:c] > roll_f[a:c] + DELTA)
        close = np.flatnonzero(can[a:c] & (np.abs(end_f[a:c] - roll_f[a:c]) <= DELTA))
        if not settle:
            certain = certain and not close.size
            stop[close] = end_f[a:c][close] >= roll_f[a:c][close]
            close = close[:0]
        for i in close.tolist():
            stop[i] = vals[int(claim[a + i])] >= exact_value(roll_law[i])
        here = law[a:c]
        here[:] = roll_law
        idx = np.flatnonzero(stop)
        here[idx] = 0
        claims = idx[outcome[a + idx] > 0]
        here[claims, outcome[a + claims] - 1] = unit
        packed[a:c] = pack(here)
    chances = [Fraction(x, den) for x in chances_of(law[_root(rules)])]
    value = sum((p * v for p, v in zip(chances, vals, strict=True) if p), Fraction(0))
    return value, chances, certain


# ----- the graph of positions ---------------------------------------------------------------------


def _reach(rules: Rules, root: Key, known: dict[Key, Any], limit: int,
           turns: dict[Key, _Turn] | None = None) -> list[list[Key]]:
    """The strongly connected components of the positions reachable from `root` and not yet
    known, each after every component it leads to (Tarjan's order); ValueError over `limit`.
    The turns of the positions not over go in `turns` (an endgame's outgrow `_turn`'s cache)."""
    index: dict[Key, int] = {}
    low: dict[Key, int] = {}
    on_stack: set[Key] = set()
    stack: list[Key] = []
    comps: list[list[Key]] = []
    cap = limit * _COUNT_CAP
    if root in known:
        return comps
    work: list[tuple[Key, Iterator[Key]]] = []

    def visit(k: Key) -> None:
        index[k] = low[k] = len(index)
        if len(index) > limit:
            _too_large(rules, root, known, limit, cap)
        if not k[0]:  # the game is over: a component of its own, leading nowhere
            comps.append([k])
            return
        stack.append(k)
        on_stack.add(k)
        turn = _turn(rules, k)
        if turns is not None:
            turns[k] = turn
        work.append((k, iter([o for o in turn.outcomes if o not in known])))

    visit(root)
    while work:
        k, it = work[-1]
        for child in it:
            if child not in index:
                visit(child)
                if child[0]:
                    break
            elif child in on_stack:
                low[k] = min(low[k], index[child])
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[k])
            if low[k] == index[k]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == k:
                        break
                comps.append(comp)
    return comps


def _count(rules: Rules, root: Key, known: dict[Key, Any], cap: int) -> tuple[int, bool]:
    """The positions reachable from `root` and not in `known`, counted up to just past `cap`
    (a plain search, no components: half the memory of `_reach`), and whether that was all."""
    seen = {root}
    todo = [root]
    while todo and len(seen) <= cap:
        k = todo.pop()
        if k[0]:  # a finished game leads nowhere
            for o in _turn(rules, k).outcomes:
                if o not in seen and o not in known:
                    seen.add(o)
                    todo.append(o)
    return len(seen), not todo


def _too_large(rules: Rules, root: Key, known: dict[Key, Any], limit: int, cap: int) -> None:
    _refuse(*_count(rules, root, known, cap), root, limit, cap)


def _refuse(n: int, whole_count: bool, root: Key, limit: int, cap: int) -> None:
    size = f"{n:,}" if whole_count else f"more than {cap:,}"
    raise ValueError(f"this endgame has {size} positions to solve, more than the limit of "
                     f"{limit:,} (grill {list(root[0])}): raise limit= or wait for a smaller grill")


def positions(state: State, *, limit: int = DEFAULT_LIMIT) -> int:
    """How many positions between turns the game can reach from this state's turn (the
    endgame's size, the state's own position included); ValueError when more than `limit`."""
    state = _check_state(state, start=False)
    limit = _check_limit(limit)
    # One count, on past the limit as far as the refusal says (not a count, then a recount).
    root, cap = key_of(state), limit * _COUNT_CAP
    n, whole_count = _count(state.rules, root, {}, cap)
    if n > limit:
        _refuse(n, whole_count, root, limit, cap)
    return n


# ----- solving ------------------------------------------------------------------------------------


def _solve(rules: Rules, root: Key, exact: bool, limit: int) -> None:
    floats = _FLOAT.setdefault(rules, {})
    turns: dict[Key, _Turn] = {}
    comps = _reach(rules, root, floats, limit, turns)
    guess = 0.5
    for comp in comps:
        if not comp[0][0]:  # the game is over
            floats[comp[0]] = float(_result(comp[0][1], comp[0][2], rules))
            continue
        _solve_component_float(rules, comp, floats, guess, turns)
        if len(comp) == 2:
            # Neighbours in Tarjan's order are often alike: a loop starts from the last one's
            # value (its secant then needs a sweep fewer, or none where the two are alike).
            guess = floats[comp[1]]
    if exact:
        exacts = _EXACT.setdefault(rules, {})
        for comp in _reach(rules, root, exacts, limit):
            _solve_component_exact(rules, comp, floats, exacts)


def _solve_component_float(rules: Rules, comp: list[Key], memo: dict[Key, float],
                           guess: float = 0.5, met: dict[Key, _Turn] | None = None) -> None:
    inside = set(comp)
    turns = [met[k] if met else _turn(rules, k) for k in comp]  # met: `_reach`'s turns
    loops = any(o in inside for t in turns for o in t.outcomes)
    if loops and _SECANT and len(comp) == 2:
        settled = _two_positions(rules, comp, turns, memo, guess)
        if settled is not None:
            memo.update(zip(comp, settled))
            return
    current = {k: 0.5 for k in comp}

    def value(k: Key) -> float:
        return 1.0 - (current[k] if k in inside else memo[k])

    seen: list[dict[Key, float]] = [dict(current)]
    for _sweep in range(MAX_SWEEPS):
        moved = 0.0
        for k, t in zip(comp, turns, strict=True):
            if t.terminal is not None:
                v = float(t.terminal)
            else:
                v = _turn_value_float(rules, t, [value(o) for o in t.outcomes])
            moved = max(moved, abs(v - current[k]))
            current[k] = v
        if not loops or moved <= TOLERANCE:
            break
        if _AITKEN:
            seen.append(dict(current))
            if len(seen) == 3:
                _extrapolate(seen, current)
                seen = [dict(current)]
    else:  # pragma: no cover - every game ends with probability 1
        raise RuntimeError(f"value iteration did not settle on {len(comp)} positions")
    memo.update(current)


_SECANT = True
"""Solve a component of two positions by the secant method (`_two_positions`); False: by
Gauss-Seidel sweeps as any other component."""


def _two_positions(rules: Rules, comp: list[Key], turns: list[_Turn], memo: dict[Key, float],
                   guess: float) -> list[float] | None:
    """The values of a component of two positions that lead to each other (a serving stolen
    back and forth: every loop of the benchmark's endgames), or None for another shape.

    A Gauss-Seidel sweep is a map b -> G(b) of the second position's value alone (the first
    is solved from it), piecewise linear: the secant through the last two points of
    G(b) - b lands on its root once both lie on one piece, where Aitken's extrapolation
    needs two fresh sweeps after each jump. The stop is the sweeps' one: a sweep that moves
    the value by at most TOLERANCE. The first sweep starts from `guess`."""
    (ka, kb), (ta, tb) = comp, turns
    if ta.terminal is not None or tb.terminal is not None or ka in ta.outcomes or kb in tb.outcomes:
        return None

    def sweep(b: float) -> tuple[float, float]:
        a = _turn_value_float(rules, ta, [1.0 - (b if o == kb else memo[o]) for o in ta.outcomes])
        return a, _turn_value_float(rules, tb, [1.0 - (a if o == ka else memo[o])
                                                for o in tb.outcomes])

    b_last, h_last = 0.5, math.nan
    b = guess
    for _round in range(SECANT_ROUNDS):
        a, g = sweep(b)
        h = g - b
        if abs(h) <= TOLERANCE:
            return [a, g]
        nxt = g
        if h != h_last and not math.isnan(h_last):
            nxt = b - h * (b - b_last) / (h - h_last)
            if not 0.0 <= nxt <= 1.0:  # a wild secant (far points on other pieces): a sweep
                nxt = g
        b_last, h_last, b = b, h, nxt
    return None


SECANT_ROUNDS = 12
"""The most sweeps `_two_positions` makes before handing over to Gauss-Seidel sweeps."""


_AITKEN = True
"""Extrapolate value iteration from every three values of each position (the start and two
sweeps: `_extrapolate`); False: plain sweeps, the straightforward way the tests compare with."""


def _extrapolate(seen: list[dict[Key, float]], current: dict[Key, float]) -> None:
    """Aitken's extrapolation of three successive values, position by position. Once every
    turn keeps its policy, a sweep is a linear map, each value nearing its limit by about the
    same factor every sweep (the chance of coming back round a loop), so the limit is read off
    the last two steps; the sweeps go on from there, so a poor guess only costs sweeps."""
    x0, x1, x2 = seen
    for k in current:
        d1, d2 = x1[k] - x0[k], x2[k] - x1[k]
        if d1 and abs(d2) < abs(d1) and d1 * d2 > 0:  # a steady geometric approach
            ratio = d2 / d1
            current[k] = min(1.0, max(0.0, x2[k] + d2 * ratio / (1 - ratio)))


def _solve_component_exact(rules: Rules, comp: list[Key], floats: dict[Key, float],
                           memo: dict[Key, Fraction]) -> None:
    inside = set(comp)
    turns = [_turn(rules, k) for k in comp]
    if not any(o in inside for t in turns for o in t.outcomes):
        for k, t in zip(comp, turns, strict=True):  # one position, no loop: one exact solve
            if t.terminal is not None:
                memo[k] = t.terminal
            else:
                memo[k] = _turn_value_exact(rules, t, [1 - memo[o] for o in t.outcomes])[0]
        return
    # Policy iteration: start from the float solution's policy, evaluate it exactly (a linear
    # solve over the component), then check that no turn does better against those values.
    if _FAST_EXACT:
        _policy_iteration(rules, comp, turns, floats, memo)
        return
    guess: dict[Key, Number] = {k: floats[k] for k in comp}
    exact_guess = False
    for _round in range(MAX_POLICY_ROUNDS):
        laws = []
        for k, t in zip(comp, turns, strict=True):
            if t.terminal is not None:
                laws.append(None)
                continue
            vals = [1 - (guess[o] if o in inside else memo[o]) for o in t.outcomes]
            laws.append(_outcome_law(rules, t, vals, exact_guess))
        values = _evaluate(comp, turns, laws, memo)
        stable = True
        for k, t in zip(comp, turns, strict=True):
            if t.terminal is None:
                best = _turn_value_exact(rules, t, [1 - (values[o] if o in inside else memo[o])
                                                    for o in t.outcomes])[0]
                if best != values[k]:
                    stable = False
        if stable:
            memo.update(values)
            return
        guess, exact_guess = dict(values), True
    raise RuntimeError(f"policy iteration did not settle on {len(comp)} positions")  # pragma: no cover


_FAST_EXACT = True
"""Policy iteration with `_exact_turn` (each turn's exact value and outcome chances in one
solve); False: the straightforward way (`_outcome_law`, `_turn_value_exact`), kept as the
reference the tests compare with."""


def _policy_iteration(rules: Rules, comp: list[Key], turns: list[_Turn], floats: dict[Key, float],
                      memo: dict[Key, Fraction]) -> None:
    """Exact values of a component with loops: the policy best against the float solution (its
    values read exactly), evaluated exactly; then each turn solved exactly against those
    values: if none does better the values are the fixed point, else its better policy is
    evaluated in turn (policy iteration, which ends: finitely many policies, each better)."""
    inside = set(comp)
    guess: dict[Key, Fraction] = {k: Fraction(floats[k]) for k in comp}
    laws: list[Any] = []
    certain = True
    for t in turns:
        if t.terminal is None:
            vals = [1 - (guess[o] if o in inside else memo[o]) for o in t.outcomes]
            _v, law, sure = _exact_turn(rules, t, vals, settle=False)
            laws.append(law)
            certain = certain and sure
        else:
            laws.append(None)
    for round_ in range(MAX_POLICY_ROUNDS):
        values = _evaluate(comp, turns, laws, memo)
        if round_ == 0 and certain and all(abs(float(values[k]) - floats[k]) <= DELTA / 10
                                           for k in comp):
            # No decision of the start policy was close, and the exact values are within
            # DELTA / 10 of the floats it was chosen against: it is the best policy for them
            # too, so these values are the fixed point (no checking round needed).
            memo.update(values)
            return
        stable = True
        for i, (k, t) in enumerate(zip(comp, turns, strict=True)):
            if t.terminal is None:
                vals = [1 - (values[o] if o in inside else memo[o]) for o in t.outcomes]
                best, law, _sure = _exact_turn(rules, t, vals)
                if best != values[k]:
                    stable = False
                    laws[i] = law  # improve: the policy best against these values
        if stable:
            memo.update(values)
            return
    raise RuntimeError(f"policy iteration did not settle on {len(comp)} positions")  # pragma: no cover


def _outcome_law(rules: Rules, turn: _Turn, vals: list[Any], exact: bool) -> list[Fraction]:
    """The exact chance of each outcome of a turn played by the policy that is best against
    `vals` (floats, or Fractions when `exact`)."""
    sp = _space(rules)
    if exact:
        d = _common(vals)
        scale = _tables(rules)[3]
        ints = [v.numerator * (d // v.denominator) * scale for v in vals]
        end, fail, best = _ends(rules, turn, ints, -1)
        value, roll = _solve_exact(rules, end, fail)
        policy = _policy(sp, value, roll, end, 0)
    else:
        end, fail, best = _ends(rules, turn, [float(v) for v in vals], -1.0)
        value, roll = _solve_float(rules, end, fail)
        policy = _policy(sp, value, roll, end, 1e-12)
    dist = policy.end_distribution(exact=True)
    law = [Fraction(0)] * len(turn.outcomes)
    law[0] = dist.fail
    for t, p in enumerate(dist.at_total):
        if p:
            law[max(best[t], 0)] += p
    return law


def _policy(sp: TurnSpace, value: np.ndarray, roll: np.ndarray, end: np.ndarray, eps: float) -> TurnPolicy:
    # The best edge of each pair (the first within eps of the best: the preference order) and
    # where to stop (ending at least as good as rolling, where the player may stop).
    vals = value[sp.edge_child]
    first = sp.pair_edge_start[:-1]
    counts = np.diff(sp.pair_edge_start)
    best = np.repeat(np.maximum.reduceat(vals, first), counts)
    good = np.array(vals >= best - eps, dtype=bool)
    big = len(vals)
    choice = np.minimum.reduceat(np.where(good, np.arange(big), big), first)
    stop = ~sp.rollable | (sp.has_worm & np.array(end >= 0, dtype=bool)
                           & np.array(end >= np.where(sp.rollable, roll, 0) - eps, dtype=bool))
    return TurnPolicy(sp, np.asarray(choice, dtype=np.int64), np.asarray(stop, dtype=bool), "win")


def _evaluate(comp: list[Key], turns: list[_Turn], laws: list[Any],
              memo: dict[Key, Fraction]) -> dict[Key, Fraction]:
    """Solve V_k = sum_o law_k(o) * (1 - V_o) over the component, exactly (Gauss-Jordan)."""
    n = len(comp)
    pos = {k: i for i, k in enumerate(comp)}
    rows = []
    for k, t, law in zip(comp, turns, laws, strict=True):
        row = [Fraction(0)] * (n + 1)
        row[pos[k]] += 1
        if t.terminal is not None:
            row[n] = t.terminal
        else:
            for o, p in zip(t.outcomes, law, strict=True):
                if not p:
                    continue
                row[n] += p
                if o in pos:
                    row[pos[o]] += p
                else:
                    row[n] -= p * memo[o]
        rows.append(row)
    for col in range(n):
        piv = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        rows[col] = [x / p for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col], strict=True)]
    return {k: rows[pos[k]][n] for k in comp}


# ----- public answers -----------------------------------------------------------------------------


def win_chance(state: State, exact: bool = False, *, limit: int = DEFAULT_LIMIT) -> Number:
    """The chance that the player to move at the start of a turn of a 2-player game wins, both
    playing to win (a draw counts half); a float, or a Fraction with `exact=True`.

    ValueError for a state that is not a 2-player game at the start of a turn, or that the
    rules cannot reach, and for an endgame of more than `limit` positions still to solve.
    """
    state = _check_state(state, start=True)
    exact = check_flag(exact, "exact")
    limit = _check_limit(limit)
    with _LOCK:
        return _value(state.rules, key_of(state), exact, limit)


def _value(rules: Rules, key: Key, exact: bool, limit: int) -> Number:
    memo: dict[Key, Any] = (_EXACT if exact else _FLOAT).setdefault(rules, {})
    if key not in memo:
        _solve(rules, key, exact, limit)
    return memo[key]


def win_advice(state: State, exact: bool = False, *, limit: int = DEFAULT_LIMIT) -> list[WinAdvice]:
    """Every legal action of the player to move with their chance to win after it (then both
    playing to win), best first; any moment of a 2-player turn but a roll in the air."""
    state = _check_state(state, start=False)
    exact = check_flag(exact, "exact")
    limit = _check_limit(limit)
    rules, key = state.rules, key_of(state)
    turn = _turn(rules, key)
    with _LOCK:
        for o in turn.outcomes:
            _value(rules, o, exact, limit)  # solves (and memoises) what the turn leads to
        vals, value, roll, num = _solved_turn(rules, key, exact)
    sp = _space(rules)
    mask = total = 0
    for f, (c, v) in enumerate(zip(state.kept, VALUES, strict=True)):
        if c:
            mask |= 1 << f
            total += c * v
    i = sp.find_node(state.dice_left, mask, total)
    if state.phase is Phase.ROLL:
        return [WinAdvice(ROLL, num(value[i]))]
    out: list[WinAdvice] = []
    if state.phase is Phase.TAKE:
        assert state.roll is not None
        pair = sp.roll_pair(i, state.roll)
        for e in range(int(sp.pair_edge_start[pair]), int(sp.pair_edge_start[pair + 1])):
            face = int(sp.edge_face[e])
            if face:
                out.append(WinAdvice(TAKES[face], num(value[int(sp.edge_child[e])])))
    else:
        for a in state.legal_actions():
            if isinstance(a, Roll):
                out.append(WinAdvice(a, num(roll[i])))
            elif isinstance(a, Stop):
                out.append(WinAdvice(a, vals[1 + turn.claims.index(a.claim)]))
    # Stable: ties keep the preference order (most points first; stops before the roll).
    out.sort(key=lambda ad: (-ad.value, isinstance(ad.action, Roll)))
    return out


@lru_cache(maxsize=256)
def _solved_turn(rules: Rules, key: Key, exact: bool) -> tuple[list[Any], Any, Any, Any]:
    # A position's turn solved against its outcomes' memoised values: a bot asks at every
    # decision of the turn, so the solve is kept for the turn (and for the next time).
    turn = _turn(rules, key)
    memo: dict[Key, Any] = (_EXACT if exact else _FLOAT)[rules]
    vals = [1 - memo[o] for o in turn.outcomes]
    if exact:
        scale = _tables(rules)[3]
        d = _common(vals)
        ints = [v.numerator * (d // v.denominator) * scale for v in vals]
        end, fail, _best = _ends(rules, turn, ints, -1)
        value, roll = _solve_exact(rules, end, fail)

        def num(x: Any) -> Number:
            return Fraction(int(x), d * scale)
    else:
        end, fail, _best = _ends(rules, turn, vals, -1.0)
        value, roll = _solve_float(rules, end, fail)
        num = float
    return vals, value, roll, num


def best_action(state: State, exact: bool = False, *, limit: int = DEFAULT_LIMIT) -> WinAdvice:
    """The best action for winning at any moment of a 2-player turn, with the chance to win."""
    return win_advice(state, exact, limit=limit)[0]


__all__ = [
    "DEFAULT_LIMIT",
    "CacheInfo",
    "WinAdvice",
    "best_action",
    "cache_clear",
    "cache_info",
    "check_position",
    "key_of",
    "positions",
    "win_advice",
    "win_chance",
]

"""Bad input of any type gives a ValueError, and only a ValueError, at every public entry point
of the Hens engine: module functions and classes (enumerated, so none is forgotten), the methods
of real states from seeded games in every phase, barnyards, actions, bots, rules and goal cards.

The mask-level speed layer (functions of bit masks that bots and the engine call in their hot
loops, listed in SPEED_LAYER) takes only the engine's own masks and is not an entry point.
"""

from __future__ import annotations

import inspect
from enum import Enum
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.hens import actions, barnyard, bots, cards, goals, rules, scoring, state
from henkit.hens.barnyard import Barnyard
from henkit.hens.cli import parse_move
from henkit.hens.state import Phase, State
from tests.fuzz_values import junk, only_value_error

from .helpers import random_game

MODULES: tuple[ModuleType, ...] = (actions, barnyard, bots, cards, goals, rules, scoring, state)

SPEED_LAYER = {
    # barnyard: cell bits and masks
    "bit", "spread", "bits_of", "bit_list", "components",
    # scoring: group statistics and totals from masks (bots' hot loop)
    "breed_stats", "combine", "fast_total", "joined_total", "shape_facts", "facts_of",
    "measure", "total_masks", "points", "ShapeAfter",
    # bots: the greedy bot's incremental scorer, built from a barnyard it owns
    "Evaluator",
}

GAME = random_game(4, seed=3)
STATES = [next(s for s in GAME.states if s.phase == ph) for ph in Phase]
STATES += [next(s for s in GAME.states if s.round > 7 and s.phase == Phase.PLACE)]
YARDS = [s.barnyards[s.player] for s in STATES] + [Barnyard()]


def _public_callables() -> list[tuple[str, Any]]:
    """Every public function and class defined in the engine's modules."""
    out = []
    for module in MODULES:
        for name, obj in vars(module).items():
            if name.startswith("_") or name in SPEED_LAYER:
                continue
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and \
                    getattr(obj, "__module__", None) == module.__name__:
                out.append((f"{module.__name__.rsplit('.', 1)[1]}.{name}", obj))
    return out


CALLABLES = _public_callables()


def _arity(f: Any) -> tuple[int, int]:
    """(required, total) positional parameters of f (self excluded)."""
    if inspect.isclass(f) and issubclass(f, Enum):
        return (1, 1)  # Enum(value); two arguments would be Python's functional Enum API
    try:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return (1, 1)
    required = sum(1 for p in params if p.default is p.empty)
    return (required, len(params))


def _fit(f: Any, values: list) -> list:
    """`values` cut or padded (with None) to a number of arguments f takes."""
    low, high = _arity(f)
    n = max(low, min(len(values), high))
    return (values + [None] * n)[:n]


def test_the_enumeration_finds_the_entry_points():
    names = {n for n, _ in CALLABLES}
    for wanted in ("state.State", "state.randbelow", "barnyard.Barnyard", "barnyard.check_cell",
                   "actions.Place", "actions.Draw", "scoring.score", "scoring.total",
                   "scoring.winners", "cards.card", "goals.goal_card", "bots.make_bot",
                   "bots.LookaheadBot", "rules.Rules"):
        assert wanted in names


@pytest.mark.parametrize(("name", "f"), CALLABLES, ids=[n for n, _ in CALLABLES])
@settings(max_examples=20, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(junk(5), max_size=4))
def test_module_functions_and_classes_raise_only_value_error(name, f, values):
    only_value_error(f, *_fit(f, values))


def _methods(obj: Any) -> list[tuple[str, Any]]:
    out = []
    for name in dir(obj):
        if name.startswith("_") or name in SPEED_LAYER:
            continue
        attr = getattr(type(obj), name, None)
        if isinstance(attr, property) or not callable(getattr(obj, name)):
            continue
        out.append((name, getattr(obj, name)))
    return out


STATE_METHODS = sorted({name for s in STATES for name, _ in _methods(s)})
YARD_METHODS = sorted({name for y in YARDS for name, _ in _methods(y)})


@pytest.mark.parametrize("method", STATE_METHODS)
@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=st.sampled_from(STATES), values=st.lists(junk(5), max_size=4))
def test_state_methods_raise_only_value_error(method, s, values):
    before = s.to_dict()
    f = getattr(s, method)
    only_value_error(f, *_fit(f, values))
    assert s.to_dict() == before  # nothing changes on refusal (or ever: states are immutable)


@pytest.mark.parametrize("method", YARD_METHODS)
@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(y=st.sampled_from(YARDS), values=st.lists(junk(5), max_size=4))
def test_barnyard_methods_raise_only_value_error(method, y, values):
    before = str(y)
    f = getattr(y, method)
    only_value_error(f, *_fit(f, values))
    assert str(y) == before


ACTIONS = sorted({a for s in STATES for a in s.legal_actions()}, key=repr)


@settings(max_examples=120, deadline=None, database=None)
@given(action=st.one_of(junk(), st.sampled_from(ACTIONS)), s=st.sampled_from(STATES))
def test_apply_refuses_junk_and_moves_of_other_phases_with_a_value_error(action, s):
    before = s.to_dict()
    only_value_error(s.apply, action)
    assert s.to_dict() == before


@pytest.mark.parametrize("cls", [actions.Place, actions.PlaceCoop, actions.Draw])
@settings(max_examples=80, deadline=None, database=None)
@given(a=junk(), b=junk())
def test_actions_refuse_junk_as_they_are_built(cls, a, b):
    made = only_value_error(cls, a, b)
    if made is not None:  # a well-formed action: its words never crash
        assert str(made) and repr(made)


@settings(max_examples=60, deadline=None, database=None)
@given(a=junk())
def test_one_value_actions_refuse_junk_as_they_are_built(a):
    for cls in (actions.Discard, actions.PlaceRooster):
        made = only_value_error(cls, a)
        if made is not None:
            assert str(made) and repr(made)


@pytest.mark.parametrize("name", ["random", "greedy", "lookahead"])
@settings(max_examples=20, deadline=None, database=None)
@given(state_or_junk=st.one_of(junk(), st.sampled_from(STATES)), rng=junk())
def test_bots_choose_raises_only_value_error(name, state_or_junk, rng):
    only_value_error(bots.make_bot(name).choose, state_or_junk, rng)


@settings(max_examples=60, deadline=None, database=None)
@given(s=st.sampled_from(STATES), text=st.one_of(junk(), st.text(max_size=12)))
def test_typed_moves_raise_only_value_error(s, text):
    only_value_error(parse_move, s, text)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        # The defects named in issue 10.
        (lambda: actions.Place("Pa1", (0,)), "not a cell"),
        (lambda: actions.Place("Pa1", None), "not a cell"),
        (lambda: actions.Place("Pa1", {0: 1}), "not a cell"),
        (lambda: actions.Place("Pa1", (0, True)), "not a cell"),
        (lambda: actions.PlaceRooster((0, True)), "not a cell"),
        (lambda: actions.Draw("1"), "cannot draw from '1'"),
        (lambda: STATES[2].apply(actions.Draw(1, None)), "is not a move now"),
        (lambda: scoring.score("Pa1 Pa2", 1), "scoring needs a Barnyard"),
        (lambda: State.new(2, rules="x"), "rules must be henkit.hens Rules"),
        (lambda: State.new(2, rules.Rules(players=3)), "the rules are for 3 players"),
    ],
)
def test_the_known_defects_are_value_errors_naming_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_numpy_integers_are_integers():
    import numpy as np

    assert actions.Place("Pa1", (np.int64(0), np.int32(1))) == actions.Place("Pa1", (0, 1))
    assert cards.card(np.int64(3)) == cards.card(3)
    assert actions.Draw(np.int64(1), "Pa1") == actions.Draw(1, "Pa1")
    assert State.new(np.int64(3), seed=1) == State.new(3, seed=1)


def test_numpy_integers_are_whole_numbers():
    from henkit.hens import Rules, State, winners
    from henkit.hens.barnyard import Barnyard
    from henkit.hens.cards import Card
    from henkit.hens.goals import goal_card
    from henkit.hens.scoring import score, total

    i = np.int64
    assert Rules(players=i(3)) == Rules(players=3) and type(Rules(players=i(3)).players) is int
    assert Rules(goal=i(3)).goal == 3 and type(Rules(goal=i(3)).goal) is int
    assert Rules(first_player=i(1)).first_player == 1
    assert goal_card(i(3)) is goal_card(3)
    yard = Barnyard()
    assert score(yard, i(3)) == score(yard, 3) and total(yard, i(3)) == total(yard, 3)
    assert Card(i(3)) == Card(3)
    assert winners([yard, yard], 1, [i(0), i(0)]) == winners([yard, yard], 1, [0, 0])
    s = State.new(3, seed=0)
    while s.round == 1:
        s = s.apply(s.sample_chance(np.random.default_rng(0)) if s.is_chance
                    else s.legal_actions()[0])
    for q in range(3):
        assert s.pile_problem(i(q)) == s.pile_problem(q)
    for bad in (True, np.bool_(True), 3.0):
        with pytest.raises(ValueError):
            goal_card(bad)
        with pytest.raises(ValueError):
            Card(bad)


def test_negative_masks_are_refused_not_looped_on():
    from henkit.hens.barnyard import bits_of, components
    from henkit.hens.scoring import breed_stats

    for f in (lambda: list(components(-1)), lambda: list(bits_of(-1)),
              lambda: breed_stats(-1, -1, -1, -1)):
        with pytest.raises(ValueError):
            f()


def test_known_card_functions_refuse_a_missing_card():
    """Found by the fuzz test in CI: None as the card raised TypeError from sorting."""
    from henkit.hens.state import known_after_draw, known_after_seen

    for f in (known_after_draw, known_after_seen):
        with pytest.raises(ValueError, match="not a card"):
            f((cards.card("Pa1"),), None)

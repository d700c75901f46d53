"""Bad input of any type at every public entry point of henkit.henpen: only ValueError escapes.

Entry points are enumerated from the modules' public names, so a new function, class or
method is thrown junk without anyone remembering to add it here. Functions and classes get junk
for every parameter (or for some, the rest left at their defaults); methods are called on a few
real objects (states from seeded games, a solution, a policy, bots, ...).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import henkit.henpen
from henkit.henpen import ROLL, Claim, Rules, State, Stop, Take
from henkit.henpen.batch import simulate_turns, threshold_policy
from henkit.henpen.bots import make_bot
from henkit.henpen.odds import TurnPoint, TurnReward, solve_turn
from henkit.henpen.turnspace import turn_space
from tests.fuzz_values import junk, only_value_error

# simulate.py belongs to the shared game loop (its own tests throw junk at it); everything else
# of the package is here.
SKIPPED_MODULES = {"henkit.henpen.simulate"}
MODULES = [importlib.import_module(m.name) for m in pkgutil.iter_modules(
    henkit.henpen.__path__, "henkit.henpen.") if m.name not in SKIPPED_MODULES]
FAST = settings(max_examples=10, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def public_callables() -> list[tuple[str, Any]]:
    """Every public function and class defined in a henkit.henpen module, by dotted name."""
    out = []
    for mod in MODULES:
        for name, obj in vars(mod).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if isinstance(obj, type) and issubclass(obj, Enum):
                continue  # Phase(junk) is checked below; Enum's functional API is not henkit's
            if inspect.isfunction(obj) or inspect.isclass(obj) or (
                    callable(obj) and hasattr(obj, "__wrapped__")):  # functools-wrapped too
                out.append((f"{mod.__name__}.{name}", obj))
    return sorted(out, key=lambda x: x[0])


CALLABLES = public_callables()


def parameters(call: Any) -> list[inspect.Parameter]:
    try:
        sig = inspect.signature(call)
    except (TypeError, ValueError):  # a class without a Python signature
        return []
    return [p for p in sig.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in ("self", "cls")]


JUNK = junk()  # one strategy object for every draw: Hypothesis replays draws from it
# `exact=True` is valid and asks for a Fraction solve of a whole turn (about a second): the
# flag's own check is tested with every other value.
JUNK_BUT_TRUE = JUNK.filter(lambda x: not (isinstance(x, bool | np.bool_) and x))


def safe_junk(name: str) -> st.SearchStrategy[Any]:
    return JUNK_BUT_TRUE if name == "exact" else JUNK


def call_with_junk(call: Any, data: st.DataObject) -> None:
    args: dict[str, Any] = {}
    for p in parameters(call):
        if p.default is p.empty or data.draw(st.booleans(), label=f"junk {p.name}?"):
            args[p.name] = data.draw(safe_junk(p.name), label=p.name)
    positional = [p.name for p in parameters(call) if p.kind is not p.KEYWORD_ONLY]
    pos = [args.pop(n) for n in list(positional) if n in args and not args.get("_kw")]
    only_value_error(call, *pos, **args)


def test_every_module_of_the_package_is_covered():
    names = {m.__name__ for m in MODULES}
    assert {"henkit.henpen.state", "henkit.henpen.odds", "henkit.henpen.cli",
            "henkit.henpen.distributions", "henkit.henpen.bots"} <= names
    assert len(CALLABLES) > 60


@pytest.mark.parametrize("name, call", CALLABLES, ids=[n for n, _ in CALLABLES])
@FAST
@given(data=st.data())
def test_public_functions_and_classes_refuse_junk_with_value_error(name, call, data):
    call_with_junk(call, data)


# -- methods of real objects ------------------------------------------------------------------------


def seeded_states() -> list[State]:
    """States of every phase from a seeded game between bots, and a finished game."""
    rng = np.random.default_rng(5)
    bots = [make_bot("greedy"), make_bot("random")]
    s, seen = State.new(2), {}
    while not s.is_over:
        seen.setdefault(s.phase, s)
        s = s.apply(s.sample_chance(rng) if s.is_chance else bots[s.player].choose(s, rng))
    seen[s.phase] = s
    return list(seen.values())


STATES = seeded_states()
SOLUTION = solve_turn(TurnReward.at_least(25, 40))
POLICY = threshold_policy(25)
OBJECTS: list[Any] = [
    *STATES, Rules(), Claim(25), Claim(25, 1), Take(3), Stop(Claim(25)), ROLL,
    TurnPoint(8), TurnPoint(3, {6, 5}, 25), TurnReward.at_least(25, 40), SOLUTION, POLICY,
    POLICY.end_distribution(), SOLUTION.end_distribution(), turn_space(TurnPoint(8)),
    simulate_turns(POLICY, 100, 0), *(make_bot(b) for b in ("random", "greedy", "threshold",
                                                            "optimal:1")),
]


def public_methods() -> list[tuple[str, Any, Any]]:
    out = []
    for obj in OBJECTS:
        for name in dir(obj):
            if name.startswith("_"):
                continue
            attr = getattr(type(obj), name, None)
            if isinstance(attr, property) or not callable(getattr(obj, name)):
                continue
            out.append((f"{type(obj).__name__}.{name}", obj, getattr(obj, name)))
    return out


METHODS = public_methods()


@pytest.mark.parametrize("name, obj, method", METHODS, ids=[f"{n}-{i}" for i, (n, _, _) in
                                                           enumerate(METHODS)])
@FAST
@given(data=st.data())
def test_public_methods_of_real_objects_refuse_junk_with_value_error(name, obj, method, data):
    before = obj.to_dict() if isinstance(obj, State) else None
    call_with_junk(method, data)
    if before is not None:
        assert obj.to_dict() == before  # nothing changes on refusal


@pytest.mark.parametrize("state", STATES, ids=[s.phase.value for s in STATES])
@FAST
@given(rng=JUNK)
def test_bots_refuse_a_junk_generator(state, rng):
    for spec in ("random", "greedy", "threshold", "optimal"):
        only_value_error(make_bot(spec).choose, state, rng)


# -- the CLI: junk argument lists through its parsers -----------------------------------------------


def parsers() -> dict[str, argparse.ArgumentParser]:
    from henkit.henpen import cli

    out = {}
    for verb in ("odds", "simulate", "play"):
        p = argparse.ArgumentParser(prog=f"henkit {verb}", exit_on_error=False)
        getattr(cli, f"add_{verb}_arguments")(p)
        out[verb] = p
    return out


@pytest.mark.parametrize("verb", ["odds", "simulate", "play"])
@FAST
@given(argv=st.lists(st.one_of(st.sampled_from(["--dice", "--taken", "--total", "--target",
                                                "--grill", "--own-top", "--tops", "--worms",
                                                "--exactly", "--games", "--bots", "--seed"]),
                               st.text(max_size=6), st.integers(-3, 40).map(str)), max_size=6))
def test_cli_commands_refuse_bad_arguments_with_value_error(verb, argv):
    import io

    from henkit.henpen import cli

    try:
        args = parsers()[verb].parse_args(argv)
    except (SystemExit, argparse.ArgumentError):
        return  # argparse's own refusal: one line on stderr, exit 2
    if verb == "play":
        only_value_error(cli.play, args, lambda _prompt: "quit", io.StringIO())
    elif verb == "simulate":
        args.games = min(args.games, 2)
        only_value_error(cli.simulate, args, io.StringIO())
    elif not getattr(args, "exact", False):
        only_value_error(cli.odds, args, io.StringIO())


# -- the known defects of issue 10 ------------------------------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda: State.new(2, rules="x"), "rules must be a henkit.henpen Rules or None"),
    (lambda: henkit.henpen.odds.expected_worms([21, None]), "serving on the grill must be a whole"),
    (lambda: henkit.henpen.odds.expected_worms(["21"]), "serving on the grill must be a whole"),
    (lambda: make_bot(None), "a bot is named by text"),
    (lambda: henkit.henpen.bots.GreedyBot().choose(None, np.random.default_rng(0)), "State"),
])
def test_issue_10_examples_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@FAST
@given(value=JUNK)
def test_a_phase_is_one_of_the_five(value):
    from henkit.henpen import Phase

    got = only_value_error(Phase, value)
    assert got is None or got in list(Phase)


def test_a_roll_of_numpy_integers_is_accepted_and_bools_are_not():
    s = State.new(2).apply(ROLL)
    roll = tuple(np.int64(c) for c in (2, 1, 1, 1, 1, 2))
    assert s.apply(roll).roll == (2, 1, 1, 1, 1, 2)
    with pytest.raises(ValueError, match="a roll of 8 dice"):
        s.apply((True, True, 2, 1, 1, 2))


def test_numbers_are_fractions_or_floats_not_bools():
    assert henkit.henpen.odds.check_steal_weight(np.int64(2)) == 2
    assert henkit.henpen.odds.check_steal_weight(Fraction(1, 2)) == Fraction(1, 2)
    with pytest.raises(ValueError):
        henkit.henpen.odds.check_steal_weight(True)

"""The dice tray, clicked headlessly: rolls, takes, stops, busts, odds and advice."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import ipywidgets as w
import pytest

from henkit.charts.henpen import turn_outlook
from henkit.henpen import ROLL, State, Stop, Take
from henkit.henpen.advice import advice
from henkit.henpen.odds import bust_chance
from henkit.widgets import DiceTray
from henkit.widgets.common import percent, status_text


def visible(buttons: list[w.Button]) -> list[w.Button]:
    return [b for b in buttons if b.layout.display != "none"]


def position(phase: str, kept: tuple[int, ...], roll: tuple[int, ...] | None = None) -> State:
    """A lesson position of a one-player game (checked by the engine)."""
    s = replace(State.new(1), phase=phase, kept=kept, roll=roll)
    s.validate()
    return s


def test_a_fresh_tray_can_only_roll_and_says_so():
    tray = DiceTray(seed=1, show_chart=False)
    assert not tray.roll_button.disabled
    assert visible(tray.dice_buttons) == []
    assert tray.stop_buttons == []
    assert "Roll the dice" in status_text(tray.status)
    assert "nothing is taken yet" in tray.odds_html.value


def test_rolling_shows_the_engine_roll_as_dice_and_changes_the_outlook():
    tray = DiceTray(seed=1)
    chart_before = tray.chart.outputs[0]["data"]["application/vnd.plotly.v1+json"]
    tray.roll_button.click()
    s = tray.state
    assert s.phase == "take"
    shown = Counter(tray._die_face[i] for i, b in enumerate(tray.dice_buttons)
                    if b.layout.display != "none")
    assert shown == Counter({f: c for f, c in enumerate(s.roll, start=1) if c})
    assert all(not b.disabled for b in visible(tray.dice_buttons))
    assert tray.roll_button.disabled  # a face must be taken before rolling again
    chart_after = tray.chart.outputs[0]["data"]["application/vnd.plotly.v1+json"]
    assert chart_after["data"][0]["y"] != chart_before["data"][0]["y"]
    assert "Rolled" in status_text(tray.status)


def test_clicking_a_die_takes_every_die_of_its_face_and_updates_total_and_odds():
    tray = DiceTray(seed=4)
    tray.roll()
    roll = tray.state.roll
    i = next(i for i, b in enumerate(tray.dice_buttons) if b.layout.display != "none")
    face = tray._die_face[i]
    tray.dice_buttons[i].click()
    s = tray.state
    assert s.kept[face - 1] == roll[face - 1]
    assert f"total <b>{s.total}</b>" in tray.header.value
    assert s.phase == "decide" and ROLL in s.legal_actions()  # a first take never ends a turn
    p = bust_chance(s.dice_left, s.taken)
    assert f"{p.numerator}/{p.denominator}" in tray.odds_html.value
    fail = turn_outlook(s)[None]
    assert f"fails with chance {percent(fail)}" in tray.odds_html.value


def test_a_face_already_taken_is_disabled_and_a_forced_click_is_explained():
    start = position("take", kept=(0, 0, 2, 0, 0, 0), roll=(1, 0, 2, 0, 0, 3))
    tray = DiceTray(seed=0, state=start, show_chart=False)
    threes = [b for i, b in enumerate(tray.dice_buttons) if tray._die_face[i] == 3]
    assert len(threes) == 2
    assert all(b.disabled for b in threes)
    assert "already taken" in threes[0].tooltip
    threes[0].click()  # a programmatic click ignores `disabled`: the engine must refuse it
    assert tray.state == start
    assert "already took the 3s" in status_text(tray.status)
    assert status_text(tray.status).startswith("Not allowed")


def test_die_tooltips_give_the_exact_bust_chance_after_taking():
    start = position("take", kept=(0, 0, 0, 0, 0, 0), roll=(1, 1, 1, 1, 2, 2))
    tray = DiceTray(seed=0, state=start, show_chart=False)
    worm = next(b for i, b in enumerate(tray.dice_buttons) if tray._die_face[i] == 6)
    assert "1/46656" in worm.tooltip  # 6 dice left, worms taken: (1/6)**6


def test_rolling_before_taking_is_refused_with_the_engine_reason():
    tray = DiceTray(seed=2, show_chart=False)
    tray.roll()
    before = tray.state
    tray.roll()
    assert tray.state == before
    assert "must take a face" in status_text(tray.status)


def stop_words(s, claim) -> str:
    """A Stop button's words: the claim and the worms at stake, in plain sight."""
    n = s.rules.worms(claim.tile)
    return f"Stop: {claim} ({n} worm{'s' if n > 1 else ''})"


def test_stop_buttons_are_the_legal_claims_and_stopping_ends_the_turn():
    start = position("decide", kept=(0, 0, 0, 0, 3, 2))  # total 25 with worms
    tray = DiceTray(seed=0, state=start, show_chart=False)
    legal = [a for a in start.legal_actions() if isinstance(a, Stop)]
    assert [b.description for b in tray.stop_buttons] == [stop_words(start, a.claim) for a in legal]
    tray.stop_buttons[0].click()
    s = tray.state
    assert 25 not in s.grill and s.stacks[0] == (25,)
    assert tray.turn_over
    assert "stopped at 25" in status_text(tray.status)
    assert tray.roll_button.disabled and not tray.new_turn_button.disabled
    tray.roll()
    assert "turn is over" in status_text(tray.status)
    tray.new_turn_button.click()
    assert tray.state == start and not tray.turn_over


def test_stop_by_serving_number_not_claimable_is_explained():
    start = position("decide", kept=(0, 0, 0, 0, 3, 2))
    tray = DiceTray(seed=0, state=start, show_chart=False)
    tray.stop(30)
    assert tray.state == start
    assert "cannot take 30" in status_text(tray.status)


def test_a_bust_says_so_in_words_shows_the_dice_and_offers_a_new_turn():
    # 1 die left with five faces taken: a roll busts unless it shows a 5 (chance 5/6).
    start = position("decide", kept=(1, 2, 1, 1, 0, 2))
    for seed in range(40):
        tray = DiceTray(seed=seed, state=start, show_chart=False)
        tray.roll()
        if tray.state.last_turn is not None and tray.state.last_turn.failure == "bust":
            break
    else:
        pytest.fail("no bust in 40 seeds at 5/6 a time")
    assert "bust" in status_text(tray.status)
    dice = visible(tray.dice_buttons)
    assert len(dice) == 1 and dice[0].disabled and dice[0].button_style == "danger"
    assert not tray.new_turn_button.disabled


def test_advice_can_be_hidden_for_an_exercise_and_shown_again():
    tray = DiceTray(seed=3, show_advice=False, show_chart=False)
    tray.roll()
    assert tray.advice_html.value == ""
    assert tray.advice_html.layout.display == "none"
    tray.advice_toggle.value = True
    best = advice(tray.state)[0]
    assert str(best.action) in tray.advice_html.value
    assert f"{float(best.value):+.2f}" in tray.advice_html.value


def test_the_same_seed_gives_the_same_dice_and_another_seed_other_dice():
    def play(seed: int) -> list[State]:
        tray = DiceTray(seed=seed, show_chart=False)
        seen = []
        for _ in range(3):
            tray.roll()
            seen.append(tray.state)
            if tray.state.phase != "take":
                break
            tray.take(tray.state.legal_actions()[0].face)
        return seen

    assert play(11) == play(11)
    assert play(11)[0].roll != play(12)[0].roll


def test_bad_positions_and_faces_are_refused():
    with pytest.raises(ValueError, match="phase"):
        DiceTray(state=State.new(1).apply(ROLL))  # dice in the air
    tray = DiceTray(seed=0, show_chart=False)
    tray.roll()
    before = tray.state
    tray.take(9)
    assert tray.state == before
    assert "a die face is" in status_text(tray.status)
    assert Take(tray.state.legal_actions()[0].face)  # the tray still works afterwards


def test_every_visible_control_has_words():
    tray = DiceTray(seed=5, state=position("decide", kept=(0, 0, 0, 0, 3, 2)))
    for b in [tray.roll_button, tray.new_turn_button, *tray.stop_buttons]:
        assert b.description and b.tooltip
    for c in (tray.advice_toggle, tray.chart_toggle):
        assert c.description


def test_hiding_the_outlook_hides_what_the_solver_would_do():
    tray = DiceTray(seed=3, show_advice=False, show_chart=False)
    tray.roll()
    tray.take(tray.state.legal_actions()[0].face)
    assert "fails with chance" not in tray.odds_html.value and "bust" in tray.odds_html.value
    tray.chart_toggle.value = True
    assert "fails with chance" in tray.odds_html.value

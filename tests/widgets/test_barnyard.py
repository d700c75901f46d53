"""The Hens barnyard, clicked headlessly: draws, placements, coops, discards, rooster, the end."""

from __future__ import annotations

import re

import pytest

from henkit.hens import CARDS, DECK, score
from henkit.widgets.barnyard import BarnyardGame as Barnyard
from henkit.widgets.common import status_text

PLOTLY = "application/vnd.plotly.v1+json"


def shown_cells(b: Barnyard) -> dict:
    return {cell: btn for cell, btn in b.cells.items() if btn in b.grid.children}


def legal_cells(b: Barnyard) -> list:
    return [cell for cell, btn in shown_cells(b).items() if btn.button_style == "success"]


def hand_buttons(b: Barnyard) -> list:
    return [x for x in b.hand_buttons if x.layout.display != "none"]


def deck_button(b: Barnyard):
    return next(x for x in b.source_buttons if x.description.startswith("Draw from the deck"))


def to_my_phase(b: Barnyard, phase: str, limit: int = 500) -> None:
    """Play (bots by their buttons, you by simple clicks) until you are to `phase`."""
    for _ in range(limit):
        s = b.state
        if s.is_over:
            raise AssertionError(f"the game ended before your {phase} phase")
        if b.my_turn and s.phase == phase:
            return
        if not b.my_turn:
            b.play_button.click()
        else:
            my_click(b)
    raise AssertionError(f"never reached your {phase} phase")


def my_click(b: Barnyard) -> None:
    """One simple move by clicks: draw from the deck, place the first card that fits, discard."""
    phase = b.state.phase
    if phase == "draw":
        b.source_buttons[0].click()
    elif phase == "place":
        for i in range(len(hand_buttons(b))):
            hand_buttons(b)[i].click()
            if legal_cells(b):
                break
        else:
            b.coop_toggle.value = True
        b.cells[legal_cells(b)[0]].click()
    elif phase == "discard":
        hand_buttons(b)[-1].click()
        b.discard_button.click()
    elif phase == "rooster":
        hens = [c for c, x in shown_cells(b).items() if x.button_style == "warning"]
        if hens:
            b.cells[hens[0]].click()
        else:
            b.no_rooster_button.click()


def play_to_end(b: Barnyard) -> None:
    for _ in range(5000):
        if b.state.is_over:
            return
        if b.my_turn:
            my_click(b)
        else:
            b.next_button.click()
    raise AssertionError("the game did not end")


def test_the_first_card_goes_at_the_origin_and_other_cells_say_why():
    b = Barnyard(["greedy"], seed=4, show_chart=False)
    to_my_phase(b, "place")
    hand_buttons(b)[0].click()
    assert legal_cells(b) == [(0, 0)]
    others = [x for c, x in shown_cells(b).items() if c != (0, 0)]
    assert others and all("first card starts the barnyard at (0, 0)" in x.tooltip for x in others)


def test_a_placement_updates_the_grid_the_hand_and_the_score():
    b = Barnyard(["greedy"], seed=4)
    to_my_phase(b, "place")
    hand_buttons(b)[0].click()
    k = b.selected
    assert k is not None and hand_buttons(b)[0].description.endswith(" (selected)")
    assert "hk-selected" in hand_buttons(b)[0]._dom_classes  # drawn raised
    hand_before = list(b.hand)
    b.cells[legal_cells(b)[0]].click()
    yard = b.state.barnyards[b.human]
    assert yard.cards() == [k]
    hand_before.remove(k)
    assert list(b.hand) == hand_before
    assert any(x.description == str(k) for x in shown_cells(b).values())
    sc = score(yard, b.state.goal)
    assert f"<b>{sc.total}</b>" in b.score_html.value
    # Screen readers get a caption, column headers and one row header per rulebook step.
    table = b.score_html.value
    assert "<caption" in table and table.count("<th scope='col'") == 3
    assert table.count("<th scope='row'") == len(sc.lines) + 1  # the steps, then the total
    fig = b.score_chart.outputs[0]["data"][PLOTLY]
    assert fig["data"][0]["type"] == "waterfall" and fig["data"][0]["y"][-1] == sc.total
    assert status_text(b.status).startswith(f"You placed {k}")


def test_an_illegal_cell_carries_the_engines_reason_and_a_click_changes_nothing():
    b = Barnyard(["greedy"], seed=6, show_chart=False)
    for _ in range(60):
        to_my_phase(b, "place")
        for x in hand_buttons(b):
            x.click()
            bad = [c for c, btn in shown_cells(b).items()
                   if "hk-legal" not in btn._dom_classes and "another breed" in btn.tooltip]
            if bad:
                before = b.state
                reason = b.cell_reason(bad[0])
                assert re.search(r"the hen (above|below|to the left|to the right), \w\w\d", reason)
                b.cells[bad[0]].click()
                assert b.state == before
                assert reason in status_text(b.status)
                return
        my_click(b)
    pytest.fail("no card with a neighbour of another breed came up")


def test_a_coop_can_go_on_any_frontier_cell_and_costs_a_point():
    b = Barnyard(["random"], seed=2, show_chart=False)
    to_my_phase(b, "place")
    my_click(b)  # the first card
    to_my_phase(b, "place")
    hand_buttons(b)[0].click()
    b.coop_toggle.value = True
    cells = legal_cells(b)
    assert cells and all(shown_cells(b)[c].description == "+ coop" for c in cells)
    coops = b.state.barnyards[b.human].coops
    b.cells[cells[0]].click()
    yard = b.state.barnyards[b.human]
    assert yard.coops == coops + 1
    assert any(x.description == "coop" for x in shown_cells(b).values())
    line = next(x for x in score(yard, b.state.goal).lines if x.step == "chicken coops")
    assert line.points == -yard.coops and f"{line.points:+d}" in b.score_html.value
    assert not b.coop_toggle.value  # back to hens for the next card


def test_discarding_puts_the_selected_card_on_your_pile():
    b = Barnyard(["greedy"], seed=3, show_chart=False)
    to_my_phase(b, "discard")
    hand_buttons(b)[1].click()
    k = b.selected
    b.discard_button.click()
    assert b.state.discards[b.human][-1] == k
    assert f"You discarded {k.describe()}" in status_text(b.status)


def test_the_wrong_move_for_the_phase_is_explained():
    b = Barnyard(["greedy"], seed=5, show_chart=False)
    to_my_phase(b, "draw")
    before = b.state
    b.click_cell((0, 0))
    assert b.state == before and "cannot place a card now" in status_text(b.status)
    b.draw(DECK)
    b.draw(DECK)
    before = b.state
    b.click_cell((0, 0))  # nothing selected yet
    assert b.state == before and "select a card" in status_text(b.status)
    b.draw(DECK)
    assert b.state == before and "must place a card" in status_text(b.status)
    absent = next(k for k in CARDS if k not in b.hand)
    b.select(absent)
    assert b.selected is None and "is not in your hand" in status_text(b.status)


def test_the_rooster_goes_on_one_of_your_hens():
    b = Barnyard(["greedy"], seed=7, show_chart=False)
    to_my_phase(b, "rooster")
    hens = [c for c, x in shown_cells(b).items() if x.button_style == "warning"]
    yard = b.state.barnyards[b.human]
    assert sorted(hens) == sorted(c for c, _ in yard.hens())
    b.cells[hens[0]].click()
    assert b.state.rooster_choices[b.human] == hens[0]
    assert "rooster" in status_text(b.status)


def test_a_whole_game_by_clicks_ends_with_the_final_scores():
    b = Barnyard(["greedy", "random"], seed=11, show_chart=False)
    play_to_end(b)
    s = b.state
    totals = s.scores()
    text = status_text(b.status)
    assert "Game over" in text
    for p, t in enumerate(totals):
        assert f"{b.names[p]} {t}" in text
    assert "Final scores" in b.others_html.value
    assert f"{b.names[s.winners()[0]]} (winner)" in b.others_html.value


def test_bots_hidden_cards_stay_hidden_in_the_log():
    b = Barnyard(["greedy", "lookahead"], seed=12, show_chart=False)
    play_to_end(b)
    bot_names = [n for n in b.names if "(you)" not in n]
    for line in b.log_lines:
        if any(line.startswith(n) for n in bot_names):
            assert not re.search(r"drew \w\w\d from the deck", line)
            assert not re.search(r"placed \w\w\d face down", line)
    assert any("drew a card from the deck" in x for x in b.log_lines)


def test_the_same_seed_and_clicks_give_the_same_game():
    runs = []
    for _ in range(2):
        b = Barnyard(["random"], seed=30, show_chart=False)
        play_to_end(b)
        runs.append((b.log_lines, b.state.scores()))
    assert runs[0] == runs[1]


def test_a_bad_barnyard_game_is_refused():
    with pytest.raises(ValueError, match="not a bot"):
        Barnyard(["clever"])
    with pytest.raises(ValueError, match="1 to 3 bots"):
        Barnyard(["random"] * 4)

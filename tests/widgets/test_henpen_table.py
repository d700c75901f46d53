"""The Henpen table, clicked headlessly: a whole game against bots, the log and the winner."""

from __future__ import annotations

import pytest

from henkit.henpen import Stop
from henkit.widgets import HenpenTable
from henkit.widgets.common import status_text


def human_click(table: HenpenTable) -> None:
    """One click a cautious student might make: take the most dice, stop from 25."""
    tray = table.tray
    s = table.state
    if s.phase == "roll":
        tray.roll_button.click()
    elif s.phase == "take":
        dice = [i for i, b in enumerate(tray.dice_buttons)
                if b.layout.display != "none" and not b.disabled]
        face = max(dice, key=lambda i: s.roll[tray._die_face[i] - 1])
        tray.dice_buttons[face].click()
    elif tray.stop_buttons and (s.total >= 25 or tray.roll_button.disabled):
        tray.stop_buttons[0].click()
    else:
        tray.roll_button.click()


def play_by_clicks(table: HenpenTable, limit: int = 5000) -> int:
    clicks = 0
    while not table.state.is_over:
        clicks += 1
        assert clicks < limit, "the game did not end"
        if table.game.waiting_for_human:
            human_click(table)
        elif clicks % 3:
            table.next_button.click()
        else:
            table.play_button.click()
    return clicks


def test_a_whole_game_against_bots_can_be_played_to_its_end_by_clicks():
    table = HenpenTable(["optimal", "greedy"], seed=8, show_chart=False)
    play_by_clicks(table)
    s = table.state
    assert s.is_over and s.grill == ()
    winners = s.winners()
    text = status_text(table.status)
    assert text.startswith("Game over") and table.names[winners[0]] in text
    assert f"{table.names[winners[0]]} (winner)" in table.players_html.value
    assert table.next_button.disabled and table.play_button.disabled
    # every finished turn is in the log, in the engine's words
    ends = [str(st.last_turn) for st in table.game.states[1:]
            if st.last_turn is not None and st.turns_played]
    turns = {e for e in ends}
    assert all(any(e in line for line in table.log_lines) for e in turns)


def test_bot_moves_are_logged_with_the_solvers_verdict():
    table = HenpenTable(["greedy"], seed=3, human=1, show_chart=False)
    assert not table.game.waiting_for_human and table.tray.roll_button.disabled
    table.play_button.click()
    assert table.game.waiting_for_human
    bot_lines = [x for x in table.log_lines if x.startswith("Player 1 (greedy)")]
    assert bot_lines and bot_lines[0].startswith("Player 1 (greedy) rolled")
    assert any("expected" in x and "worms" in x for x in bot_lines)


def test_next_move_on_your_turn_is_refused_and_changes_nothing():
    table = HenpenTable(["random"], seed=1, show_chart=False)
    before = table.state
    table.next_move()
    assert table.state == before
    assert "it is your turn" in status_text(table.status)


def test_the_tray_refuses_moves_during_a_bots_turn():
    table = HenpenTable(["optimal"], seed=2, human=1, show_chart=False)
    before = table.state
    table.tray.roll()
    assert table.state == before
    assert "a bot's" in status_text(table.status)


def test_a_stop_updates_the_grill_and_the_players_table():
    table = HenpenTable(["optimal"], seed=5, show_chart=False)
    while True:
        human_click(table)
        s = table.state
        if s.turns_played:
            break
    end = s.last_turn
    if end.claim is not None:
        assert end.claim.tile not in s.grill
        assert f"<td>{end.claim.tile}</td>" in table.players_html.value
    else:
        assert s.stacks[0] == ()
    assert str(end) in table.log_lines[-1]
    assert not table.next_button.disabled  # now the bot plays


def test_the_same_seed_and_clicks_give_the_same_game():
    logs = []
    for _ in range(2):
        table = HenpenTable(["optimal", "random", "threshold:27"], seed=21, show_chart=False)
        play_by_clicks(table)
        logs.append((table.log_lines, table.state.scores()))
    assert logs[0] == logs[1]


def test_a_bad_table_is_refused():
    with pytest.raises(ValueError, match="unknown Henpen bot"):
        HenpenTable(["clever"])
    with pytest.raises(ValueError, match="1 to 6 bots"):
        HenpenTable(["random"] * 7)
    with pytest.raises(ValueError, match="seat"):
        HenpenTable(["random"], human=2)


def stop_words(s, claim) -> str:
    """A Stop button's words: the claim and the worms at stake, in plain sight."""
    n = s.rules.worms(claim.tile)
    return f"Stop: {claim} ({n} worm{'s' if n > 1 else ''})"


def test_the_tray_offers_only_legal_stops_at_the_table():
    table = HenpenTable(["optimal"], seed=9, show_chart=False)
    checked = 0
    for _ in range(200):
        s = table.state
        if table.game.waiting_for_human and s.phase == "decide":
            legal = [a.claim for a in s.legal_actions() if isinstance(a, Stop)]
            assert [b.description for b in table.tray.stop_buttons] == [stop_words(s, c) for c in legal]
            checked += bool(legal)
        if table.game.waiting_for_human:
            human_click(table)
        else:
            table.play_bots()
        if s.is_over:
            break
    assert checked > 0


def test_the_grill_lists_every_serving_with_its_worms_in_words():
    table = HenpenTable(["optimal"], seed=4, show_chart=False)
    s = table.state
    for t in s.grill:
        n = s.rules.worms(t)
        said = f"{n} worm{'s' if n > 1 else ''}"
        # A tile: its number, its worms drawn (the class draws n worms) and said in words.
        assert (f"aria-label='serving {t}, {said}'><b>{t}</b><span class='hk-worms hk-worms-{n}'>"
                f"</span><small>{said}</small>") in table.grill_html.value
    while table.state.turns_played < 2:
        if table.game.waiting_for_human:
            human_click(table)
        else:
            table.play_bots()
    gone = set(s.grill) - set(table.state.grill)
    for t in gone:
        assert f"<b>{t}</b>" not in table.grill_html.value

"""Widget models per widget: a budget for each main widget, looks shared, and no model leaks.

Every widget model costs a dashboard for each viewer: a comm and its serialisation in the
kernel, its JSON relayed by the server (Voilà's page asks for every model's full state at once)
and a model in the browser's widget manager. Widgets that look alike share one Layout and one
Style (henkit.widgets.common.shared_layout, shared_style), the pieces' style is one model per
kernel, and a click changes widgets, never makes new ones (pools of buttons made once).
`benchmarks/bench_widget_state.py` measures the same per dashboard notebook.
"""

from __future__ import annotations

import json
from collections import Counter

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances, _remove_buffers

from henkit.henpen import State
from henkit.widgets import Arena, BarnyardGame, DiceTray, EndgameExplorer, HenpenTable
from henkit.widgets.barnyard import CELLS
from henkit.widgets.common import (
    build,
    button,
    hbox,
    html,
    layout_settings,
    set_shown,
    shared_html,
    shared_layout,
    shared_style,
)


def page_models(root: w.Widget) -> dict[str, w.Widget]:
    """Every model `root` needs on a page: itself, its children, their layouts and styles..."""
    seen: dict[str, w.Widget] = {}
    todo = [root]
    while todo:
        x = todo.pop()
        if x.model_id in seen:
            continue
        seen[x.model_id] = x
        for key in x.keys:
            value = getattr(x, key)
            todo += [v for v in (value if isinstance(value, list | tuple) else [value])
                     if isinstance(v, w.Widget)]
    return seen


def looks(models: dict[str, w.Widget]) -> list[w.Widget]:
    """The Layout and Style models among `models`."""
    return [m for m in models.values() if isinstance(m, w.Layout | w.Style)]


def state_kb(models: dict[str, w.Widget]) -> float:
    """The JSON of the models' full states, in kB (what a page is sent for them)."""
    return sum(len(json.dumps(_remove_buffers(m.get_state())[0])) for m in models.values()) / 1e3


def live_models() -> int:
    """The kernel's open widget models (each one sent to every page that shows the kernel).

    A widget dropped by the code stays among them: ipywidgets keeps every open model (its
    Widget.__del__ never runs while `_instances` holds it), so a widget made per click is a
    leak until it is closed."""
    return len(_instances)


# The budgets: the models counted when the widgets were made lean (shared looks), each a thing
# a student sees or clicks, and the Layouts and Styles of their distinct looks (not one per
# widget: before, a dice tray had 80 models, a barnyard 208, most of them a Layout and a Style
# per button). A new control spends from the budget on purpose; these catch a Layout per
# button coming back, or cells and dice made for nothing.
#   name: (make, widgets, looks, kB of state)
BUDGETS = {
    # 11 buttons (roll, new turn, 8 dice, new seed), 7 HTML, 4 rows, 2 checkboxes, a chart,
    # the seed box and its text, the pool line, the tray; 10 layouts and 4 styles.
    "dice tray": (lambda: DiceTray(seed=1), 29, 14, 42),
    # The tray inside (without seed box, pool line or style of its own), the table's 2 bot
    # buttons, grill, players, log and their headings, its seed box and pool line.
    "Henpen table": (lambda: HenpenTable(["greedy", "optimal"], seed=4), 38, 14, 50),
    # 6 hand slots, 4 of the 36 cells (the grid makes a cell when it first shows it), draw,
    # discard, no-rooster, bot and seed buttons; the cards' style (18 kB) is the largest part.
    "barnyard": (lambda: BarnyardGame(["greedy"], seed=2), 40, 14, 68),
    # Game, seats, 2 seat dropdowns, games, seed, new seed, rotate, run, progress, table, chart.
    "arena": (lambda: Arena("hens", ["lookahead", "greedy"], games=20, seed=1), 23, 10, 30),
    # Heading, position, 3 text boxes in a row, set-up and work-out buttons in a row, status,
    # log, the pieces' style; the style is most of its state.
    "endgame explorer": (lambda: EndgameExplorer(State.new(2, grill=[21, 25],
                                                           stacks=[[30, 22], [33]])), 13, 8, 26),
}


@pytest.mark.parametrize("name", BUDGETS)
def test_each_widget_keeps_to_its_model_budget_and_shares_its_looks(name):
    make, widgets, budget_looks, kb = BUDGETS[name]
    before = set(_instances)
    root = make()
    models = page_models(root)
    shared = looks(models)
    assert len(models) - len(shared) <= widgets, Counter(type(m).__name__ for m in models.values())
    assert len(shared) <= budget_looks, [repr(m) for m in shared]
    assert state_kb(models) <= kb
    # No two models of one look: a Layout (or Style) per distinct setting, shared.
    settings = Counter((type(m).__name__, json.dumps(m.get_state(), sort_keys=True))
                       for m in shared)
    assert max(settings.values()) == 1, settings.most_common(3)
    # Far fewer looks than buttons: the buttons share theirs.
    buttons = [m for m in models.values() if isinstance(m, w.Button)]
    assert len(buttons) >= 2 and len({id(b.layout) for b in buttons}) <= len(buttons) / 2
    assert len({id(b.style) for b in buttons}) == 1
    # Nothing made that the page does not show (a model never displayed is still sent).
    made = set(_instances) - before
    assert made <= set(models), [repr(_instances[m])[:80] for m in made - set(models)]


def test_the_pieces_style_is_one_model_for_every_widget_that_brings_it():
    tray, table, arena = DiceTray(seed=1), HenpenTable("greedy", seed=1), Arena(seed=1)
    styles = [c for x in (tray, table, arena) for c in x.children
              if isinstance(c, w.HTML) and c.value.startswith("<style>")]
    assert len(styles) == 3 and len({s.model_id for s in styles}) == 1
    barnyard = BarnyardGame(["greedy"], seed=1)
    cards = [c for c in barnyard.children if isinstance(c, w.HTML) and "hk-card-Pa1" in c.value]
    assert len(cards) == 1 and cards[0] is not styles[0]  # the cards' style is another one


def test_the_old_layout_per_widget_would_break_these_budgets():
    # The budgets can fail: the same controls with a Layout and a Style of their own each
    # (ipywidgets' default) have more looks than the dice tray's whole budget allows.
    own = [w.Button(description=str(i)) for i in range(11)]
    box = w.VBox([w.HBox(own[:5]), w.HBox(own[5:]), w.HTML("a"), w.HTML("b")])
    assert len(looks(page_models(box))) > BUDGETS["dice tray"][2]
    lean = [button(str(i), "a button", lambda: None) for i in range(11)]
    box = build(w.VBox, hbox(lean[:5]), hbox(lean[5:]), html("a"), html("b"))
    assert len(looks(page_models(box))) == 3  # one Layout, one ButtonStyle, one HTMLStyle


def test_a_dice_tray_makes_no_model_after_its_first_turns():
    tray = DiceTray(seed=3, show_chart=False, show_advice=False)

    def turn() -> None:
        for _ in range(40):
            if tray.turn_over:
                break
            s = tray.state
            if s.phase == "take":
                shown = [b for b in tray.dice_buttons if b.layout.display != "none"
                         and not b.disabled]
                shown[0].click()
            elif tray.stop_buttons and (s.total >= 25 or tray.roll_button.disabled):
                tray.stop_buttons[0].click()
            else:
                tray.roll_button.click()
        tray.new_turn_button.click()

    start, stops = live_models(), len(tray._stop_pool)
    for _ in range(25):
        turn()
    # The only models made: the stop buttons, once each, when first offered (one player: one
    # serving to claim at a time).
    assert live_models() - start == len(tray._stop_pool) - stops <= 1
    count = live_models()
    for _ in range(20):
        tray.seed_box.new_button.click()
        tray.advice_toggle.value = not tray.advice_toggle.value
    assert live_models() == count


def test_a_henpen_table_makes_no_model_in_a_whole_game():
    table = HenpenTable(["greedy", "threshold:25"], seed=5, show_chart=False,
                        show_advice=False)
    start, stops, steps = live_models(), len(table.tray._stop_pool), 0
    for steps in range(1, 3000):
        if table.state.is_over:
            break
        if table.game.waiting_for_human:
            tray, s = table.tray, table.state
            if s.phase == "take":
                next(b for b in tray.dice_buttons if b.layout.display != "none"
                     and not b.disabled).click()
            elif tray.stop_buttons and (s.total >= 25 or tray.roll_button.disabled):
                tray.stop_buttons[0].click()
            else:
                tray.roll_button.click()
        else:
            table.play_button.click()
    assert table.state.is_over and steps > 40
    # The only models made in a whole game: the stop buttons, once each, when first offered
    # (a serving of the grill, or one to steal from each other player).
    made = len(table.tray._stop_pool) - stops
    assert live_models() - start == made <= table.state.players
    count = live_models()
    for _ in range(20):
        table.seed_box.new_button.click()
    assert live_models() == count


def test_a_barnyard_makes_only_the_cells_it_shows_in_a_whole_game():
    from tests.widgets.test_barnyard import my_click

    b = BarnyardGame(["greedy", "random"], seed=6, show_chart=False)
    start, cells, sources = live_models(), len(b.cells), len(b._source_pool)
    for _ in range(2000):
        if b.state.is_over:
            break
        if b.my_turn:
            my_click(b)
        else:
            b.play_button.click()
        # The only models made: a cell's button when the grid first shows it, and a draw
        # button when a discard top is first offered (the deck and one per other player).
        made = len(b.cells) - cells + len(b._source_pool) - sources
        assert live_models() - start == made
        assert all(x in b.grid.children for x in list(b.cells.values())[cells:])
    assert b.state.is_over
    assert len(b.cells) <= len(CELLS) ** 2 and len(b._source_pool) <= b.state.players
    count = live_models()
    for _ in range(20):  # choosing and unchoosing makes nothing
        b.coop_toggle.value = not b.coop_toggle.value
        b.chart_toggle.value = not b.chart_toggle.value
    assert live_models() == count
    for _ in range(5):  # new games reuse every button
        b.seed_box.new_button.click()
    assert live_models() == count


def test_an_arena_reuses_its_seat_dropdowns():
    a = Arena("henpen", ["greedy", "random"], games=2, seed=1, show_chart=False)
    a.game_select.value = "hens"
    a.seats.value = 4
    a.game_select.value = "henpen"
    count = live_models()  # (before, a game's change made new dropdowns: 177 models in 20)
    for i in range(20):
        a.game_select.value = ("hens", "henpen")[i % 2]
        a.seats.value = 2 + i % 3
        a.new_seed_button.click()
    a.run_button.click()
    assert live_models() == count
    # A seat given back starts from the game's choices, as a new dropdown would.
    a.game_select.value = "henpen"
    a.seats.value = 2
    a.seats.value = 3
    assert a.bots == ["optimal", "greedy", "random"]
    assert all(d.options == a.bot_selects[0].options for d in a.bot_selects)


def test_shared_looks_are_read_only_and_swapped_to_show_or_hide():
    one, two = button("one", "a", lambda: None), button("two", "b", lambda: None)
    assert one.layout is two.layout and one.style is two.style
    with pytest.raises(ValueError, match="shared"):
        one.layout.display = "none"
    with pytest.raises(ValueError, match="shared"):
        one.style.button_color = "red"
    assert one.layout.display is None and two.style.button_color is None  # unchanged
    set_shown(one, False)
    assert one.layout.display == "none" and two.layout.display is None
    set_shown(one, True)
    assert one.layout.display == ""
    wide = button("three", "c", lambda: None, layout={"width": "auto"})
    set_shown(wide, False)
    assert layout_settings(wide.layout) == {"width": "auto", "display": "none"}
    assert wide.layout is shared_layout(display="none", width="auto")
    # A Layout of the widget's own stays its own, free to change.
    mine = button("four", "d", lambda: None, layout=w.Layout(width="3em"))
    mine.layout.width = "4em"
    assert mine.layout.width == "4em"


def test_a_closed_shared_look_is_made_again():
    first = shared_layout(margin="1px 2px 3px 4px")
    first.close()
    again = shared_layout(margin="1px 2px 3px 4px")
    assert again is not first and again.comm is not None


def test_bad_settings_are_refused_in_words():
    with pytest.raises(ValueError, match="not a Layout setting: colour"):
        shared_layout(colour="red")
    with pytest.raises(ValueError, match="not a Layout setting"):
        shared_layout(display=3)
    with pytest.raises(ValueError, match="Style class"):
        shared_style(int)
    with pytest.raises(ValueError, match="has no style"):
        shared_style(w.Output)
    with pytest.raises(ValueError, match="widget class"):
        build(State)
    with pytest.raises(ValueError, match="dict of settings"):
        build(w.HTML, layout="wide")
    with pytest.raises(ValueError, match="shows text"):
        shared_html(3)
    with pytest.raises(ValueError, match="True or False"):
        set_shown(html("x"), "yes")
    with pytest.raises(ValueError, match="only a widget"):
        set_shown("x", True)
    with pytest.raises(ValueError, match="ipywidgets Layout"):
        layout_settings({"width": "1px"})


# ----- prediction boxes (henkit.widgets.predict), several per lesson page ---------------------


def _predicts() -> list:
    """One Predict of each kind: a chance with a counted experiment, a number, a choice."""
    from fractions import Fraction

    from henkit.widgets.predict import Predict

    return [
        Predict("How likely?", Fraction(1, 3), trial=lambda rng: bool(rng.random() < 0.5),
                seed=1),
        Predict("How many?", 5, kind="number", low=0, high=10),
        Predict("Which?", "b", kind="choice", choices=["a", "b"]),
    ]


def _cycle(p, seed: int) -> None:
    """Lock a prediction, run the experiment, a new seed, the answer, predict again."""
    assert p.set_prediction("b" if p.question.kind == "choice" else "3")
    assert p.lock()
    if p.seed_box is not None:
        p.run_once()
        p.seed_box.set_seed(seed)
        p.run_once()
    p.reveal()
    p.again()


def test_a_prediction_sends_its_question_only_until_it_is_locked():
    _predicts()  # the shared looks and styles exist (one per kernel)
    before = set(_instances)
    made = _predicts()
    # Each box at page load: itself, the question, the row of box and Lock button, the box,
    # the button, the reading and the status line. Its looks are shared and its CSS is one
    # model per kernel (before: 31 models, 37 with an experiment, 22-26 kB each).
    new = {m: _instances[m] for m in set(_instances) - before}
    assert len(new) <= 7 * len(made) and state_kb(new) <= 5 * len(made)
    for p in made:
        models = page_models(p)
        shared = looks(models)
        assert len(models) - len(shared) <= 9 and len(shared) <= 9
        assert max(Counter((type(m).__name__, json.dumps(m.get_state(), sort_keys=True))
                           for m in shared).values()) == 1
        buttons = [m for m in models.values() if isinstance(m, w.Button)]
        assert [b.description for b in buttons] == ["Lock my prediction"]  # the rest come later
    styles = {c.model_id for p in made for c in p.children
              if isinstance(c, w.HTML) and "hk-predict" in c.value and "<style>" in c.value}
    assert len(styles) == 1


def test_a_prediction_makes_no_model_after_its_first_lock():
    made = _predicts()
    for p in made:
        _cycle(p, 2)
    count = live_models()
    for i in range(10):
        for p in made:
            _cycle(p, 3 + i)
    assert live_models() == count
    for p in made:  # and what the page shows after a lock is still lean
        assert p.set_prediction("b" if p.question.kind == "choice" else "3") and p.lock()
        p.reveal()
        models = page_models(p)
        assert len(models) - len(looks(models)) <= 20 and len(looks(models)) <= 16

"""Every control of every widget can be reached by keyboard and has words a screen reader says."""

from __future__ import annotations

import ipywidgets as w
import pytest

from henkit.henpen import State
from henkit.widgets import Arena, BarnyardGame, DiceTray, EndgameExplorer, HenpenTable


def controls(root: w.Widget):
    """Every visible descendant widget (hidden ones, display none, are out of the tab order)."""
    stack = [root]
    while stack:
        x = stack.pop()
        if getattr(x.layout, "display", None) == "none":
            continue
        yield x
        stack.extend(getattr(x, "children", ()))


def check(root: w.Widget) -> int:
    n = 0
    for c in controls(root):
        if isinstance(c, w.Button):
            assert c.description or c.tooltip, "a button without words"
            n += 1
        elif isinstance(c, w.Dropdown | w.Checkbox | w.BoundedIntText | w.IntProgress | w.Text):
            assert c.description, f"a {type(c).__name__} without a description"
            if isinstance(c, w.Text):  # the seed box: what to type is in its tooltip
                assert c.tooltip, "a text box without a tooltip"
            n += 1
    return n


@pytest.mark.parametrize("make", [
    lambda: DiceTray(seed=1, show_chart=False),
    lambda: HenpenTable(["optimal", "greedy"], seed=1, show_chart=False),
    lambda: BarnyardGame(["greedy"], seed=1, show_chart=False),
    lambda: Arena(),
    lambda: EndgameExplorer(State.new(2, grill=[21, 25], stacks=[[30, 22], [33]])),
])
def test_every_control_has_words_before_and_after_a_few_moves(make):
    root = make()
    assert check(root) > 0
    if isinstance(root, DiceTray):
        root.roll()
    elif isinstance(root, HenpenTable):
        root.tray.roll()
        root.tray.take(root.state.legal_actions()[0].face)
    elif isinstance(root, BarnyardGame):
        if not root.my_turn:
            root.play_bots()
        root.source_buttons[0].click()
    elif isinstance(root, EndgameExplorer):
        root.work_button.click()
        root.boxes["grill"].value = "x"
        root.set_button.click()
    assert check(root) > 0

"""The chart style: colours come from the card table, one per face, and the layout helper."""

from __future__ import annotations

import pytest

from henkit.charts import style
from henkit.henpen.dice import FACES
from henkit.hens.cards import BREEDS


def test_breed_colours_are_the_card_tables():
    assert list(style.BREED_COLOURS) == [b.code for b in BREEDS]
    for b in BREEDS:
        assert style.breed_colour(b.code) == b.colour
    with pytest.raises(ValueError, match="no breed"):
        style.breed_colour("Xx")


def test_one_distinct_colour_per_face_and_failure_stands_apart():
    colours = [style.face_colour(f) for f in FACES]
    assert len(set(colours)) == len(FACES)
    assert style.FAIL_COLOUR not in colours


def test_layout_sets_template_titles_and_percent_axis():
    lay = style.layout("T", "x title", "y title", chance_axis="y", xaxis={"dtick": 1})
    fig = style.figure([], lay)
    assert fig.layout.title.text == "T"
    assert fig.layout.xaxis.title.text == "x title" and fig.layout.xaxis.dtick == 1
    assert fig.layout.yaxis.tickformat == ".0%"
    assert fig.layout.template.layout.font.size == style.FONT_SIZE >= 16
    with pytest.raises(ValueError, match="chance_axis"):
        style.layout("T", "x", "y", chance_axis="z")


def test_the_template_is_built_once_on_first_use_and_is_the_one_layouts_carry():
    # A fresh interpreter: importing the style (as every lesson's first cell does) must not
    # build the plotly template, whose validators cost a cold kernel about 0.1 s.
    import subprocess
    import sys

    probe = ("from henkit.charts import style; "
             "print(style._template.cache_info().currsize); "
             "t = style.TEMPLATE; "
             "print(style._template.cache_info().currsize, "
             "style.layout('T', 'x', 'y')['template'] is t)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["0", "1", "True"]
    assert style.TEMPLATE.layout.font.size == style.FONT_SIZE
    with pytest.raises(AttributeError, match="no attribute 'TEMPLATES'"):
        _ = style.TEMPLATES

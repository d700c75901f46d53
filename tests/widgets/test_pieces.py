"""The drawn pieces: dice with their pips and a drawn worm, tiles, cards, coops and the rooster;
no symbol character that needs a font anywhere in a widget; every drawn piece named in words;
the barnyard's green cells exactly the engine's legal placements; projector-sized, readable
colours."""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import unquote

import ipywidgets as w
import pytest

from henkit.henpen.dice import FACES, WORM
from henkit.hens import CARDS
from henkit.hens.actions import Place, PlaceCoop, PlaceRooster
from henkit.widgets import Arena, BarnyardGame, DiceTray, HenpenTable, pieces
from henkit.widgets.pieces import (
    BREED_HEX,
    BUTTON_COLOURS,
    card_name,
    card_svg,
    contrast,
    die_svg,
    piece_style,
    text_on,
    worms_svg,
)

# Characters every font a browser falls back to has: ASCII, Latin-1 and common punctuation.
# Anything else (die faces, emoji, arrows, stars, check marks) may draw as an empty box.
SAFE_EXTRA = set("–—‘’“”…\u200b")  # and the zero-width space ipywidgets puts in empty HTML


def unsafe(text: str) -> set[str]:
    """The characters of `text` that may need a font the classroom's computer lacks."""
    return {ch for ch in text if not (ch == "\n" or ch == "\t" or " " <= ch <= "~"
                                      or "\u00a0" <= ch <= "\u00ff" or ch in SAFE_EXTRA)}


def widgets(root: w.Widget) -> Iterator[w.Widget]:
    """The widget and every widget inside it."""
    stack = [root]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(getattr(x, "children", ()))


def texts(root: w.Widget) -> Iterator[tuple[str, str]]:
    """Every text a widget shows or says: descriptions, tooltips, HTML, options, outputs."""
    for x in widgets(root):
        for name in ("description", "tooltip", "value", "placeholder"):
            v = getattr(x, name, None)
            if isinstance(v, str):
                yield f"{type(x).__name__}.{name}", v
        for opt in getattr(x, "_options_labels", ()) or ():
            yield f"{type(x).__name__} option", opt
        if isinstance(x, w.Output):
            for out in x.outputs:
                yield "Output", json.dumps(out.get("data", {}), ensure_ascii=False)


def pieces_shown(root: w.Widget) -> Iterator[w.Button]:
    return (x for x in widgets(root) if isinstance(x, w.Button) and x.layout.display != "none"
            and any(c.startswith("hk-") for c in x._dom_classes))


def check_words(root: w.Widget) -> int:
    """No unsafe character anywhere in the widget; return how many texts were read."""
    n = 0
    for where, text in texts(root):
        bad = unsafe(text)
        assert not bad, f"{where} shows {sorted(bad)} in {text[:200]!r}"
        n += 1
    return n


def check_named(root: w.Widget) -> int:
    """Every drawn piece has words for a screen reader; return how many pieces were checked."""
    n = 0
    for b in pieces_shown(root):
        classes = set(b._dom_classes)
        assert b.description or b.tooltip
        if "hk-die" in classes and any(c.startswith("hk-die-") for c in classes):
            face = int(next(c for c in classes if c.startswith("hk-die-"))[7:])
            assert b.tooltip.startswith(pieces.die_name(face)), b.tooltip
            assert b.description == ("worm" if face == WORM else str(face))
        kinds = [c[8:] for c in classes if c.startswith("hk-card-")]
        if kinds:
            assert card_name(kinds[0]) in b.tooltip, (kinds, b.tooltip)
        if "hk-coop" in classes:
            assert b.description == "coop" and "chicken coop" in b.tooltip
        if "hk-rooster" in classes:
            assert "with the rooster" in b.tooltip
        n += 1
    # Pieces drawn inside HTML are images with a name.
    for x in widgets(root):
        if isinstance(x, w.HTML) and "<style>" not in x.value:
            for m in re.finditer(r"<span class='(hk-mini|hk-tile)[^']*'([^>]*)>", x.value):
                assert "role='img'" in m[2] and re.search(r"aria-label='[^']+'", m[2]), m[0]
                n += 1
    return n


# ----- the drawings ------------------------------------------------------------------------------


@pytest.mark.parametrize("face", FACES)
def test_a_drawn_die_has_as_many_pips_as_its_face_and_the_worm_face_a_worm(face):
    svg = die_svg(face)
    pips = svg.count("class='pip'")
    if face == WORM:
        assert pips == 0 and svg.count("class='worm'") == 1
    else:
        assert pips == face and "class='worm'" not in svg
        centres = re.findall(r"class='pip' cx='(\d+)' cy='(\d+)'", svg)
        assert len(set(centres)) == face  # no two pips on one spot
    assert f"aria-label='{pieces.die_name(face)}'" in svg
    assert not unsafe(svg)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_serving_draws_its_worms(n):
    assert worms_svg(n).count("class='worm'") == n
    tile = pieces.tile_html(25, n)
    said = f"{n} worm{'s' if n > 1 else ''}"
    assert f"aria-label='serving 25, {said}'" in tile and f"<small>{said}</small>" in tile
    assert f"hk-worms-{n}" in tile


@pytest.mark.parametrize("k", CARDS, ids=str)
def test_a_drawn_card_shows_breed_name_number_eggs_and_medals(k):
    svg = card_svg(k)
    assert svg.count("class='egg'") == k.eggs
    assert svg.count("class='medal'") == k.medals
    assert f">{k.breed.name}</text>" in svg  # the breed in words, for colour-blind viewers
    assert re.search(rf"class='number'[^>]*>{k.number}</text>", svg)
    assert BREED_HEX[k.breed.colour] in svg
    # The only text inside a drawing: the breed's name and the number (letters and digits).
    inside = " ".join(re.findall(r">([^<>]+)</text>", svg))
    assert re.fullmatch(r"[A-Za-z0-9 ]+", inside)
    assert card_name(k).startswith(f"{k}: {k.breed.name}, {k.number}, ")


@pytest.mark.parametrize("k", CARDS, ids=str)
def test_a_cards_layers_stacked_are_its_drawing(k):
    # The style sends each layer once and stacks a card's three (the top one listed first, as
    # CSS paints a list of backgrounds): stacked lowest first, they are the card's drawing.
    layers = pieces.card_layers(k)
    assert "".join(layers) in card_svg(k)
    assert card_svg(k).endswith("".join(layers) + "</svg>")
    css = unquote(piece_style(cards=True))
    top, middle, bottom = re.findall(r"var\((--hk-[\w-]+)\)", pieces.card_background(k))
    for name, layer in [(top, layers[2]), (middle, layers[1]), (bottom, layers[0])]:
        assert re.search(rf"{name}: url\(\"data:image/svg\+xml,<svg [^>]*viewBox='0 0 80 100'>"
                         rf"{re.escape(layer)}</svg>\"\);", css), (k, name)


def test_card_names_say_eggs_and_medals_in_words():
    assert card_name("Pa1") == "Pa1: Padovana, 1, two eggs"
    assert card_name("Ce6") == "Ce6: Cemani, 6, three eggs, two medals"
    assert card_name("Su3") == "Su3: Sultan, 3, one egg, one medal"
    with pytest.raises(ValueError):
        card_name("Xx9")
    with pytest.raises(ValueError):
        die_svg(7)
    with pytest.raises(ValueError):
        worms_svg(0)


def test_the_style_draws_every_class_the_widgets_use_and_nothing_comes_from_elsewhere():
    css = piece_style(cards=True)
    for f in FACES:
        assert f".hk-die-{f} {{ background-image: url(\"data:image/svg+xml," in css
    for n in range(1, 5):
        assert f".hk-worms-{n} {{" in css
    # A card is drawn by stacking its three layers (pieces.card_layers), each defined once as a
    # custom property holding an inline drawing: every layer a card names is defined.
    defined = dict(re.findall(r"(--hk-[\w-]+): (url\(\"data:image/svg\+xml,[^)]*\));", css))
    for k in CARDS:
        rule = re.search(rf"\.hk-card-{k} {{ background-image: ([^;]*); }}", css)
        assert rule and rule.group(1) == pieces.card_background(k)
        names = re.findall(r"var\((--hk-[\w-]+)\)", rule.group(1))
        assert len(names) == 3 and all(n in defined for n in names), k
    assert "var(--hk-coop)" in css and "var(--hk-rooster)" in css
    assert {"--hk-coop", "--hk-rooster"} <= set(defined)
    assert ".jupyter-button.hk-coop" in css and ".hk-rooster::after" in css
    # A die button's name for screen readers is "die showing 3" / "die showing a worm": its
    # words, after a visually hidden "die showing " the style puts before them.
    assert "hk-die[class*='hk-die-']::before { content: 'die showing '; }" in css
    assert f".hk-die.hk-die-{WORM}::before {{ content: 'die showing a '; }}" in css
    # Every url() is an inline drawing: nothing is fetched (no CDN, no file).
    urls = re.findall(r"url\(([^)]*)\)", unquote(css))
    assert urls and all(u.startswith('"data:image/svg+xml,') for u in urls)
    assert "http" not in unquote(css).replace("http://www.w3.org/2000/svg", "")
    assert not unsafe(unquote(css))
    with pytest.raises(ValueError):
        piece_style(cards=1)


def test_projector_sizes_and_contrast():
    assert pieces.FONT_PX >= 16 and pieces.TARGET_PX >= 44
    css = piece_style()
    assert f"--jp-widgets-font-size: {pieces.FONT_PX}px" in css
    assert f"min-height: {pieces.TARGET_PX}px; min-width: {pieces.TARGET_PX}px" in css
    for style, (bg, fg) in BUTTON_COLOURS.items():
        assert contrast(bg, fg) >= 4.5, (style, bg, fg)
        assert f"background-color: {bg}; color: {fg};" in css
    for colour, hexa in BREED_HEX.items():  # a breed's name on its band
        assert contrast(hexa, text_on(hexa)) >= 4.5, colour
    assert contrast(pieces.INK, "#FFFFFF") >= 4.5
    # White on the old Sebright red (CSS 'red') was 4:1: the band now reads at 4.5 or more.
    assert contrast("#FF0000", "#FFFFFF") < 4.5 <= contrast(BREED_HEX["red"], text_on(BREED_HEX["red"]))
    assert round(contrast("#000000", "#FFFFFF"), 2) == 21.0
    with pytest.raises(ValueError):
        contrast("red", "#FFFFFF")


def test_set_classes_keeps_other_classes_and_sends_nothing_when_unchanged():
    b = w.Button(description="x")
    b.add_class("mine")
    pieces.set_classes(b, ["hk-die", "hk-die-3"])
    assert b._dom_classes == ("mine", "hk-die", "hk-die-3")
    seen = []
    b.observe(lambda c: seen.append(c), names="_dom_classes")
    pieces.set_classes(b, ["hk-die", "hk-die-3"])
    assert seen == []
    pieces.set_classes(b, ["hk-die", "hk-die-5", "hk-live"])
    assert b._dom_classes == ("mine", "hk-die", "hk-die-5", "hk-live") and len(seen) == 1
    with pytest.raises(ValueError):
        pieces.set_classes(b, ["die"])
    with pytest.raises(ValueError):
        pieces.set_classes("not a widget", [])


# ----- the widgets -------------------------------------------------------------------------------


def test_the_dice_tray_draws_each_die_it_rolled_and_names_it():
    tray = DiceTray(seed=3)
    assert "henkit" in tray._dom_classes
    tray.roll()
    roll = tray.state.roll
    drawn = [next(c for c in b._dom_classes if c.startswith("hk-die-"))
             for b in tray.dice_buttons if b.layout.display != "none"]
    assert sorted(int(c[7:]) for c in drawn) == [f for f in FACES for _ in range(roll[f - 1])]
    # Where each take leads is in plain sight, not only in the dice's tooltips.
    for b in tray.dice_buttons:
        if b.layout.display != "none" and not b.disabled:
            assert b.tooltip.split(": ", 1)[1] in html.unescape(tray.odds_html.value)
    assert check_named(tray) >= sum(roll)
    check_words(tray)


def test_no_symbol_character_anywhere_in_a_played_henpen_game():
    table = HenpenTable(["optimal", "greedy"], seed=5)
    checked = pieces_seen = 0
    for _ in range(400):
        if table.state.is_over:
            break
        if table.game.waiting_for_human:
            t = table.tray
            s = table.state
            if t.stop_buttons and (s.total >= 25 or t.roll_button.disabled):
                t.stop_buttons[0].click()
            elif not t.roll_button.disabled:
                t.roll_button.click()
            else:
                next(b for b in t.dice_buttons if b.layout.display != "none"
                     and not b.disabled).click()
        else:
            table.next_button.click()
        checked += check_words(table)
        pieces_seen += check_named(table)
    assert table.state.is_over and "(winner)" in table.players_html.value
    assert checked > 1000 and pieces_seen > 100


def test_no_symbol_character_in_a_played_barnyard_and_its_pieces_are_named():
    from tests.widgets.test_barnyard import my_click

    b = BarnyardGame(["greedy"], seed=2)
    pieces_seen = 0
    for _ in range(600):
        if b.state.is_over:
            break
        if b.my_turn:
            my_click(b)
        else:
            b.next_button.click()
        check_words(b)
        pieces_seen += check_named(b)
    assert b.state.is_over and pieces_seen > 200
    assert any("hk-rooster" in c._dom_classes for c in b.cells.values())  # the rooster drawn


def test_the_arena_has_no_symbol_character():
    a = Arena("henpen", ["greedy", "random"], games=4, seed=1)
    a.run()
    assert check_words(a) > 10 and "henkit" in a._dom_classes
    # Ranges read "a to b" (never "-8.12--4.88"), in the status line and the table.
    from henkit.widgets.common import status_text

    for text in (status_text(a.status), a.table_html.value):
        assert " to " in text and not re.search(r"\d%?-\d", text), text


@pytest.mark.parametrize("seed", [1, 4, 8])
def test_the_green_cells_are_the_engines_legal_placements(seed):
    from tests.widgets.test_barnyard import hand_buttons, my_click, to_my_phase

    b = BarnyardGame(["greedy", "random"], seed=seed, show_chart=False)
    compared = 0
    for _ in range(4):  # four of your turns
        to_my_phase(b, "place")
        legal = b.state.legal_actions()
        for coop in (False, True):
            b.coop_toggle.value = coop
            for i in range(len(hand_buttons(b))):
                hand_buttons(b)[i].click()
                k = b.selected
                want = {a.cell for a in legal
                        if (isinstance(a, PlaceCoop) if coop else type(a) is Place) and a.card == k}
                green = {c for c, x in b.cells.items()
                         if x in b.grid.children and "hk-legal" in x._dom_classes}
                assert green == want, (k, coop)
                compared += 1
                # Grey cells break the box rule, and no grey cell is green.
                for c, x in b.cells.items():
                    if x in b.grid.children and "hk-outside" in x._dom_classes:
                        assert c not in want and "3x4 or 4x3 box" in x.tooltip
        b.coop_toggle.value = False
        my_click(b)
    assert compared >= 20
    # The rooster: the green cells are where the engine lets it go.
    to_my_phase(b, "rooster", limit=2000)
    want = {a.cell for a in b.state.legal_actions() if isinstance(a, PlaceRooster)}
    green = {c for c, x in b.cells.items() if x in b.grid.children and "hk-legal" in x._dom_classes}
    assert green == want - {None}


def test_other_barnyards_are_drawn_small_and_said_row_by_row_hiding_coops():
    from henkit.hens.barnyard import Barnyard
    from tests.widgets.test_barnyard import my_click

    yard = Barnyard.parse("Pa1 Pa2\n##  Pa3*")
    drawn = pieces.yard_html(yard, "Player 2")
    assert drawn.count("<span class='hk-card-") == 3 and drawn.count("hk-coop") == 1
    assert "hk-card-Pa3 hk-rooster" in drawn
    assert ("aria-label='Player 2: row 0: Pa1, Pa2; row 1: coop, Pa3 with the rooster'"
            in drawn)
    assert "repeat(2, 2.8em)" in drawn
    assert "no card placed" in pieces.yard_html(Barnyard())
    with pytest.raises(ValueError):
        pieces.yard_html("Pa1")
    # In a game, a bot's face-down coop is drawn as a coop and its card is never named.
    b = BarnyardGame(["greedy", "random"], seed=11, show_chart=False)
    seen = 0
    for _ in range(400):
        if b.state.is_over:
            break
        b.next_button.click() if not b.my_turn else my_click(b)
        if b.state.is_over:
            break
        view = b.state.view(b.human)
        for q in range(1, b.state.players):
            yard, seen_yard = b.state.barnyards[q], view.barnyards[q]
            drawn = pieces.yard_html(seen_yard, b.names[q])
            assert drawn in b.others_html.value  # drawn from what your seat may see
            assert drawn.count("<span class='hk-card-") == len(yard.hens())
            assert drawn.count("<span class='hk-coop'>") == yard.coops
            seen += yard.coops
    assert seen > 0  # the bots did put cards face down
    assert "hk-yard" in b.others_html.value


def test_a_click_sends_no_drawing():
    """The drawings travel once (the style); clicks change words and class names only."""
    tray = DiceTray(seed=2, show_chart=False)
    style = next(x for x in widgets(tray) if isinstance(x, w.HTML) and "<style>" in x.value)
    sent = []
    for x in widgets(tray):
        if x is not style:
            x.observe(lambda c: sent.append(c["new"]))
    tray.roll()
    tray.dice_buttons[0].click()
    assert sent and not any("data:image" in str(v) or "<svg" in str(v) for v in sent)


def test_unicode_names_of_what_the_test_refuses():
    # The check itself: it refuses the characters the widgets used to show.
    for ch in "⚀⚂🪱🐓▶◀★✗":
        assert unsafe(ch), unicodedata.name(ch)
    assert not unsafe("Pa1 · 2 eggs × 3 ± 1.96 – “ok”")

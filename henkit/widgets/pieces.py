"""The game pieces drawn: dice with pips and a drawn worm, servings, hen cards, coops, the rooster.

Every piece is an inline SVG made here, in Python, from shapes only (no emoji and no symbol
character whose look depends on the fonts of the classroom's computer; the only text inside a
drawing is digits and Latin letters: a card's number and its breed's name). Nothing is fetched
from a CDN, so JupyterLab and a Voila dashboard draw the same pieces.

The drawings travel to the browser once per page: `piece_style()` is one `<style>` holding
every drawing as a CSS background (a data URI) under a class name (`hk-die-3`, `hk-worms-2`,
`hk-card-Pa1`, `hk-coop`, `hk-rooster`), put in a hidden HTML widget that every widget of a
kernel shares (`style_widget`). A card is three layers stacked (its breed, its number, its eggs
and medals: `card_layers`), each sent once, so 48 cards cost 18 kB, not 56. A click then only
changes a Button's class names and words (a few bytes), never resends a drawing. The style makes
the widgets projector-ready: text at least 18 px, buttons at least 44 px high, and button
colours with a contrast of 4.5:1 or more.

Every drawn piece also has a text name for screen readers: a Button's words and tooltip, or
`role='img'` with an `aria-label` for a piece drawn inside HTML (`die_html`, `tile_html`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from functools import cache
from urllib.parse import quote

import ipywidgets as w

from henkit.checks import whole
from henkit.henpen.dice import FACES, WORM
from henkit.hens.barnyard import Barnyard
from henkit.hens.cards import BREEDS, CARDS, Card, card

INK = "#1A1A1A"
"""Pips, outlines and text on white: 17:1 against white."""
WORM_COLOUR = "#8C510A"
"""The worm's body (earthy brown, as the charts' worm)."""
MAX_TILE_WORMS = 4
"""A serving carries 1 to 4 worms."""
ROOT_CLASS = "henkit"
"""The class of every widget's outer box: the projector-ready style applies inside it."""

# Where the pips of a face sit on a die 100 units wide.
_LO, _MID, _HI = 27, 50, 73
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_MID, _MID),),
    2: ((_LO, _LO), (_HI, _HI)),
    3: ((_LO, _LO), (_MID, _MID), (_HI, _HI)),
    4: ((_LO, _LO), (_HI, _LO), (_LO, _HI), (_HI, _HI)),
    5: ((_LO, _LO), (_HI, _LO), (_MID, _MID), (_LO, _HI), (_HI, _HI)),
}
"""Die face 1..5 -> the centres of its pips (the worm face has a drawn worm instead)."""

# Breed colours for drawing: the card table's colour names as hex values (CSS names would do,
# but a contrast needs numbers).
BREED_HEX: dict[str, str] = {
    "brown": "#8B4513", "blue": "#1565C0", "red": "#D32F2F", "purple": "#6A1B9A",
    "grey": "#9E9E9E", "yellow": "#FBC02D", "black": "#000000", "green": "#2E7D32",
}


# ----- colours ---------------------------------------------------------------------------------


def _channel(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The relative luminance (WCAG 2) of a colour written '#RRGGBB'."""
    if not isinstance(colour, str) or not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        raise ValueError(f"a colour is written '#RRGGBB', not {colour!r}")
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two '#RRGGBB' colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (the higher contrast)."""
    return "#000000" if contrast(colour, "#000000") >= contrast(colour, "#FFFFFF") else "#FFFFFF"


def breed_hex(k: Card | str | int) -> str:
    """A card's breed colour as '#RRGGBB'."""
    return BREED_HEX[card(k).breed.colour]


# ----- drawings --------------------------------------------------------------------------------


def _svg(width: int, height: int, body: str, label: str) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
            f"role='img' aria-label='{label}'>{body}</svg>")


def _worm(x: float, y: float, size: float) -> str:
    """A worm drawn from shapes: a wavy brown body with a head and an eye, about `size` wide."""
    s = size / 64
    body = (f"M{x:.1f} {y + 8 * s:.1f} c{10 * s:.1f} {-16 * s:.1f} {18 * s:.1f} {-16 * s:.1f} "
            f"{24 * s:.1f} 0 s{14 * s:.1f} {16 * s:.1f} {24 * s:.1f} 0")
    hx, hy = x + 50 * s, y + 4 * s
    return (f"<g class='worm'><path d='{body}' fill='none' stroke='{WORM_COLOUR}' "
            f"stroke-width='{10 * s:.1f}' stroke-linecap='round'/>"
            f"<circle cx='{hx:.1f}' cy='{hy:.1f}' r='{7 * s:.1f}' fill='{WORM_COLOUR}'/>"
            f"<circle cx='{hx + 2 * s:.1f}' cy='{hy - 2 * s:.1f}' r='{2.4 * s:.1f}' fill='#FFFFFF'/>"
            "</g>")


@cache
def die_svg(face: int) -> str:
    """A die showing `face` (1..5 as pips, WORM as a drawn worm), 100 units square."""
    face = whole(face, f"a die face (1 to 5, or {WORM} for the worm)", 1, WORM)
    body = (f"<rect x='4' y='4' width='92' height='92' rx='16' fill='#FFFFFF' stroke='{INK}' "
            "stroke-width='5'/>")
    if face == WORM:
        body += _worm(14, 42, 72)
    else:
        body += "".join(f"<circle class='pip' cx='{x}' cy='{y}' r='9' fill='{INK}'/>"
                        for x, y in PIPS[face])
    return _svg(100, 100, body, die_name(face))


@cache
def worms_svg(n: int) -> str:
    """`n` worms (1 to 4) side by side: what a serving is worth."""
    n = whole(n, "a number of worms", 1, MAX_TILE_WORMS)
    body = "".join(_worm(4 + 64 * i, 10, 56) for i in range(n))
    return _svg(64 * n + 4, 36, body, f"{n} worm{'s' if n > 1 else ''}")


def _egg(x: float, y: float) -> str:
    return (f"<ellipse class='egg' cx='{x:.1f}' cy='{y}' rx='6' ry='8' fill='#FFF3D6' "
            "stroke='#7A5C2E' stroke-width='2'/>")


def _medal(x: float, y: float) -> str:
    return (f"<g class='medal'><path d='M{x - 4:.1f} {y - 12} l4 6 l4 -6' fill='none' "
            f"stroke='#1565C0' stroke-width='3'/><circle cx='{x:.1f}' cy='{y}' r='6' "
            "fill='#F2C200' stroke='#7A5C00' stroke-width='2'/></g>")


CARD_VIEW = (80, 100)
"""A card drawing's size in units (its viewBox)."""


@cache
def breed_layer(code: str) -> str:
    """A card's lowest layer, the same for every card of a breed: the white card framed in the
    breed's colour, and its colour band with the breed's name."""
    breed = next((b for b in BREEDS if b.code == code), None)
    if breed is None:
        raise ValueError(f"a breed is one of {', '.join(b.code for b in BREEDS)}, not {code!r}")
    colour = BREED_HEX[breed.colour]
    font = 11 if len(breed.name) <= 10 else 9.5
    return (
        f"<rect x='2' y='2' width='76' height='96' rx='8' fill='#FFFFFF' stroke='{colour}' "
        "stroke-width='4'/>"
        f"<path d='M2 10 a8 8 0 0 1 8 -8 h60 a8 8 0 0 1 8 8 v16 h-76 z' fill='{colour}'/>"
        f"<text x='40' y='19' text-anchor='middle' font-family='Arial, Helvetica, sans-serif' "
        f"font-size='{font}' font-weight='bold' fill='{text_on(colour)}'>{breed.name}</text>"
    )


@cache
def number_layer(number: int) -> str:
    """A card's middle layer: its number, big."""
    number = whole(number, "a card's number", 1, 6)
    return (f"<text class='number' x='40' y='66' text-anchor='middle' "
            f"font-family='Arial, Helvetica, sans-serif' font-size='34' font-weight='bold' "
            f"fill='{INK}'>{number}</text>")


@cache
def marks_layer(eggs: int, medals: int) -> str:
    """A card's top layer: its medals and eggs."""
    eggs = whole(eggs, "a card's eggs", 1, 3)
    medals = whole(medals, "a card's medals", 0, 2)
    return ("".join(_medal(x, 52) for x in (12, 68)[:medals])
            + "".join(_egg(40 + 15 * (i - (eggs - 1) / 2), 82) for i in range(eggs)))


def card_layers(k: Card | str | int) -> tuple[str, str, str]:
    """A card's drawing in three layers, lowest first (breed, number, marks): each layer is the
    same for many cards, so the style sends it once and draws a card by stacking its three."""
    k = card(k)
    return breed_layer(k.breed.code), number_layer(k.number), marks_layer(k.eggs, k.medals)


@cache
def card_svg(k: Card | str | int) -> str:
    """A hen card: its breed's colour band with the breed's name, a big number, eggs and medals."""
    return _svg(*CARD_VIEW, "".join(card_layers(k)), card_name(k))


@cache
def coop_svg() -> str:
    """A chicken coop: a little wooden house with a door (a card placed face down)."""
    body = ("<rect x='4' y='4' width='92' height='92' rx='8' fill='#EFE6D8'/>"
            "<path d='M12 48 L50 14 L88 48 Z' fill='#7B3F00'/>"
            "<rect x='20' y='46' width='60' height='42' fill='#C68B59' stroke='#5A2E00' "
            "stroke-width='3'/><path d='M40 88 v-20 a10 10 0 0 1 20 0 v20 z' fill='#3E2000'/>"
            "<path d='M20 60 h60 M20 74 h60' stroke='#8F5A2B' stroke-width='2'/>")
    return _svg(100, 100, body, "chicken coop")


@cache
def rooster_svg() -> str:
    """The rooster: a red comb, an orange head, a dark tail and yellow legs."""
    body = ("<path d='M30 58 C8 40 10 18 26 14 C22 30 30 40 40 48 Z' fill='#1B5E20'/>"
            "<path d='M34 56 C20 30 34 22 40 26 C38 36 40 44 46 50 Z' fill='#263238'/>"
            "<ellipse cx='52' cy='62' rx='26' ry='20' fill='#B23A10'/>"
            "<circle cx='72' cy='36' r='12' fill='#E67E22'/>"
            "<path d='M64 26 q2 -12 6 -4 q3 -10 6 -2 q5 -8 5 4 z' fill='#D50000'/>"
            "<path d='M83 34 l11 4 l-11 4 z' fill='#FBC02D'/>"
            "<path d='M74 46 q2 8 -4 10 q-2 -6 4 -10 z' fill='#D50000'/>"
            "<circle cx='75' cy='33' r='2.5' fill='#000000'/>"
            "<path d='M46 80 v14 M58 80 v14 M40 94 h10 M52 94 h10' stroke='#F9A825' "
            "stroke-width='4' stroke-linecap='round'/>")
    return _svg(100, 100, body, "rooster")


# ----- text names --------------------------------------------------------------------------------

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def card_name(k: Card | str | int) -> str:
    """A card's name for screen readers, e.g. 'Pa1: Padovana, 1, two eggs'."""
    k = card(k)
    eggs = f"{_NUMBER_WORDS[k.eggs]} egg{'s' if k.eggs > 1 else ''}"
    medals = f", {_NUMBER_WORDS[k.medals]} medal{'s' if k.medals > 1 else ''}" if k.medals else ""
    return f"{k}: {k.breed.name}, {k.number}, {eggs}{medals}"


def die_name(face: int) -> str:
    """A die's name for screen readers: 'die showing 3', 'die showing a worm'."""
    face = whole(face, f"a die face (1 to 5, or {WORM} for the worm)", 1, WORM)
    return "die showing a worm" if face == WORM else f"die showing {face}"


# ----- classes and style -----------------------------------------------------------------------


def _uri(svg: str) -> str:
    return "url(\"data:image/svg+xml," + quote(svg, safe=" =:/',.-()") + "\")"


def die_class(face: int) -> str:
    """The class that draws a die face: 'hk-die-3'."""
    return f"hk-die-{whole(face, 'a die face', 1, WORM)}"


def card_class(k: Card | str | int) -> str:
    """The class that draws a card: 'hk-card-Pa1'."""
    return f"hk-card-{card(k)}"


def worms_class(n: int) -> str:
    """The class that draws `n` worms: 'hk-worms-2'."""
    return f"hk-worms-{whole(n, 'a number of worms', 1, MAX_TILE_WORMS)}"


# Projector-ready: ipywidgets sizes its controls from these variables (13 px text and 28 px
# controls by default); inside a henkit widget they are made larger, buttons get a dark border
# and every button style a colour that white text reads on at 4.5:1 or more.
BUTTON_COLOURS: dict[str, tuple[str, str]] = {
    "": ("#E8E8E8", "#000000"),
    "primary": ("#0D47A1", "#FFFFFF"),
    "success": ("#1B5E20", "#FFFFFF"),
    "info": ("#01579B", "#FFFFFF"),
    "warning": ("#FFD54F", "#000000"),
    "danger": ("#B71C1C", "#FFFFFF"),
}
"""ipywidgets button style -> (background, text) inside a henkit widget."""
FONT_PX = 18
"""Widget text size inside a henkit widget (projector: at least 16 px)."""
TARGET_PX = 44
"""The least height (and width) of anything clickable (a tablet's finger)."""

_BASE_CSS = f"""
.{ROOT_CLASS} {{ --jp-widgets-font-size: {FONT_PX}px; --jp-widgets-inline-height: {TARGET_PX}px;
  --jp-widgets-inline-label-width: 7em; --jp-widgets-inline-width: 20em;
  --jp-widgets-inline-width-short: 10em; font-size: {FONT_PX}px; color: {INK}; }}
.{ROOT_CLASS} .widget-html-content, .{ROOT_CLASS} .widget-label,
.{ROOT_CLASS} .widget-label-basic {{ font-size: {FONT_PX}px; line-height: 1.45; }}
.{ROOT_CLASS} .widget-html-content {{ align-self: auto; }}
.{ROOT_CLASS} h3 {{ font-size: 1.6em; margin: 0.4em 0; }}
.{ROOT_CLASS} .jupyter-button {{ min-height: {TARGET_PX}px; min-width: {TARGET_PX}px;
  height: auto; font-size: {FONT_PX}px; border: 2px solid #424242; border-radius: 8px;
  margin: 3px; padding: 4px 12px; white-space: normal; line-height: 1.25; }}
.{ROOT_CLASS} input[type='checkbox'] {{ width: 24px; height: 24px; margin-right: 8px; }}
.{ROOT_CLASS} .widget-checkbox {{ min-height: {TARGET_PX}px; }}
.{ROOT_CLASS} .widget-text input, .{ROOT_CLASS} .widget-dropdown select {{ font-size: {FONT_PX}px;
  min-height: {TARGET_PX}px; }}
.{ROOT_CLASS} table {{ border-collapse: collapse; margin: 0.3em 0; }}
.{ROOT_CLASS} th, .{ROOT_CLASS} td {{ padding: 4px 14px; border-bottom: 1px solid #BDBDBD;
  vertical-align: middle; }}
.{ROOT_CLASS} th {{ background: #F0F0F0; text-align: left; }}
.{ROOT_CLASS} ul, .{ROOT_CLASS} ol {{ margin: 0.2em 0; padding-left: 1.4em; }}
.{ROOT_CLASS} .hk-mini {{ display: inline-block; width: 1.5em; height: 1.5em;
  vertical-align: middle; background-size: contain; background-repeat: no-repeat;
  margin: 0 2px; }}
.{ROOT_CLASS} .jupyter-button.hk-die {{ width: 80px; height: 96px; padding: 60px 2px 4px;
  background-color: #FFFFFF; color: #000000; background-size: 56px 56px;
  background-position: center 6px; background-repeat: no-repeat; }}
.{ROOT_CLASS} .jupyter-button.hk-die {{ position: relative; }}
.{ROOT_CLASS} .jupyter-button.hk-die::before {{ position: absolute; width: 1px; height: 1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }}
.{ROOT_CLASS} .jupyter-button.hk-die[class*='hk-die-']::before {{ content: 'die showing '; }}
.{ROOT_CLASS} .jupyter-button.hk-die.hk-die-{WORM}::before {{ content: 'die showing a '; }}
.{ROOT_CLASS} .jupyter-button.hk-die.hk-live {{ border: 4px solid #01579B; }}
.{ROOT_CLASS} .jupyter-button.hk-die.hk-bust {{ border: 4px solid #B71C1C; }}
.{ROOT_CLASS} .hk-tile {{ display: inline-flex; flex-direction: column; align-items: center;
  min-width: 4.2em; margin: 3px; padding: 4px 6px; border: 2px solid #6D4C41;
  border-radius: 8px; background: #FFF8E1; color: #000000; line-height: 1.2; }}
.{ROOT_CLASS} .hk-tile b {{ font-size: 1.5em; }}
.{ROOT_CLASS} .hk-worms {{ display: block; height: 1.2em; background-repeat: no-repeat;
  background-size: contain; background-position: center; }}
.{ROOT_CLASS} .hk-tile small {{ font-size: 16px; }}
""" + "".join(
    f".{ROOT_CLASS} .jupyter-button{'.mod-' + s if s else ''}:not(.hk-die):not(.hk-card)"
    f":not(.hk-cell) "
    f"{{ background-color: {bg}; color: {fg}; }}\n"
    for s, (bg, fg) in BUTTON_COLOURS.items()
) + "".join(f".hk-die-{f} {{ background-image: {_uri(die_svg(f))}; }}\n" for f in FACES) + "".join(
    f".hk-worms-{n} {{ background-image: {_uri(worms_svg(n))}; width: {1.9 * n:.1f}em; }}\n"
    for n in range(1, MAX_TILE_WORMS + 1)
)

def _layer_uri(body: str) -> str:
    # A layer is a background, never read by a screen reader (the button's words name the
    # card): no role or label inside, the same view box as the card, so the layers line up.
    return _uri(f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {CARD_VIEW[0]} "
                f"{CARD_VIEW[1]}'>{body}</svg>")


# Each drawing once, as a custom property (a url() value, used through var()): a card's class
# stacks its three layers, and the coop and the rooster serve buttons and small barnyards alike.
# The card style is then about 15 kB instead of 56 kB (a whole drawing per card).
_CARD_DRAWINGS = ":root {\n" + "".join(
    f"  --hk-breed-{b.code}: {_layer_uri(breed_layer(b.code))};\n" for b in BREEDS
) + "".join(
    f"  --hk-number-{n}: {_layer_uri(number_layer(n))};\n" for n in sorted({card(k).number for k in CARDS})
) + "".join(
    f"  --hk-marks-{e}-{m}: {_layer_uri(marks_layer(e, m))};\n"
    for e, m in sorted({(card(k).eggs, card(k).medals) for k in CARDS})
) + f"  --hk-coop: {_uri(coop_svg())};\n  --hk-rooster: {_uri(rooster_svg())};\n}}\n"


def card_background(k: Card | str | int) -> str:
    """The CSS background-image that draws card `k`: its three layers, the top one first."""
    k = card(k)
    return (f"var(--hk-marks-{k.eggs}-{k.medals}), var(--hk-number-{k.number}), "
            f"var(--hk-breed-{k.breed.code})")


_CARD_CSS = f"""
.{ROOT_CLASS} .jupyter-button.hk-card {{ background-color: #FFFFFF; color: #000000;
  background-repeat: no-repeat; background-position: center 4px;
  background-size: auto calc(100% - 3.1em); display: flex; flex-direction: column;
  justify-content: flex-end; align-items: center; padding: 4px; position: relative; }}
.{ROOT_CLASS} .jupyter-button.hk-hand {{ width: 9em; height: 11.5em; line-height: 1.2; }}
.{ROOT_CLASS} .jupyter-button.hk-hand.hk-selected {{ border: 5px solid #000000;
  background-color: #FFF59D; box-shadow: 0 0 0 3px #FFFFFF, 0 0 0 6px #000000;
  font-weight: bold; }}
.{ROOT_CLASS} .jupyter-button.hk-source {{ padding-left: 3.2em; background-color: #FFFFFF;
  color: #000000; background-repeat: no-repeat; background-size: 2.4em auto;
  background-position: 0.4em center; min-height: 3.6em; }}
.{ROOT_CLASS} .hk-grid {{ border: 4px solid #5D4037; border-radius: 10px; padding: 6px;
  background: #F1F8E9; }}
.{ROOT_CLASS} .jupyter-button.hk-cell {{ width: 6em; height: 7.4em; margin: 0; padding: 4px;
  background-color: #FFFFFF; color: #000000; border: 2px dashed #9E9E9E; position: relative;
  background-repeat: no-repeat; background-position: center 4px;
  background-size: auto calc(100% - 2em); display: flex; flex-direction: column;
  justify-content: flex-end; align-items: center; }}
.{ROOT_CLASS} .jupyter-button.hk-cell.hk-in-yard {{ border: 2px solid #5D4037; }}
.{ROOT_CLASS} .jupyter-button.hk-cell.hk-outside {{ background-color: #E0E0E0;
  border-color: #BDBDBD; }}
.{ROOT_CLASS} .jupyter-button.hk-cell.hk-legal {{ background-color: #C8E6C9; color: #000000;
  border: 4px solid #1B5E20; font-weight: bold; }}
.{ROOT_CLASS} .jupyter-button.hk-cell.hk-card.hk-legal {{ background-color: #FFFFFF; }}
.{ROOT_CLASS} .jupyter-button.hk-coop {{ background-image: var(--hk-coop); }}
.{ROOT_CLASS} .jupyter-button.hk-rooster::after {{ content: ''; position: absolute; top: 2px;
  right: 2px; width: 2.6em; height: 2.6em; background-image: var(--hk-rooster);
  background-size: contain; background-repeat: no-repeat; }}
.{ROOT_CLASS} .hk-yard {{ display: inline-grid; gap: 3px; padding: 4px; margin: 4px 0;
  border: 3px solid #5D4037; border-radius: 8px; background: #F1F8E9; }}
.{ROOT_CLASS} .hk-yard > span {{ width: 2.8em; height: 3.5em; position: relative;
  background-repeat: no-repeat; background-size: contain; background-position: center; }}
.{ROOT_CLASS} .hk-yard > span.hk-coop {{ background-image: var(--hk-coop); }}
.{ROOT_CLASS} .hk-yard > span.hk-rooster::after {{ content: ''; position: absolute; top: 0;
  right: -4px; width: 1.5em; height: 1.5em; background-image: var(--hk-rooster);
  background-size: contain; background-repeat: no-repeat; }}
""" + _CARD_DRAWINGS + "".join(
    f".hk-card-{k} {{ background-image: {card_background(k)}; }}\n" for k in CARDS)


def piece_style(cards: bool = False) -> str:
    """The one `<style>` a widget brings: projector sizes, dice and worms (and cards when asked)."""
    return f"<style>{_BASE_CSS}{_CARD_CSS if flag_bool(cards) else ''}</style>"


def flag_bool(value: object) -> bool:
    """`value` if it is True or False; ValueError otherwise."""
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, not {value!r}")
    return value


def style_widget(cards: bool = False) -> w.HTML:
    """A hidden HTML widget holding `piece_style()`: put it inside the widget's outer box.

    One per kernel (and per `cards`), shared by every widget that brings it: a page with a
    prediction, a dice tray and a game sends the style's kilobytes once."""
    from henkit.widgets.common import shared_html  # common draws nothing: it imports no pieces

    return shared_html(piece_style(cards), display="none")


def set_classes(widget: w.DOMWidget, classes: Iterable[str]) -> None:
    """Give `widget` exactly these 'hk-' classes (its other classes stay), sending a message
    only when they change."""
    if not isinstance(widget, w.DOMWidget):
        raise ValueError(f"only a widget has classes, not {widget!r}")
    wanted = list(dict.fromkeys(classes))
    for c in wanted:
        if not isinstance(c, str) or not c.startswith("hk-"):
            raise ValueError(f"a piece's class starts with 'hk-', not {c!r}")
    kept = [c for c in widget._dom_classes if not c.startswith("hk-")]
    new = tuple(kept + wanted)
    if tuple(widget._dom_classes) != new:
        widget._dom_classes = new


def die_html(face: int) -> str:
    """A small die drawn inside HTML (class-drawn), named for screen readers."""
    return (f"<span class='hk-mini {die_class(face)}' role='img' "
            f"aria-label='{die_name(face)}'></span>")


def dice_html(counts: Iterable[int] | None) -> str:
    """Small drawn dice for a counts tuple (1s..5s, worms), in face order; '' for none."""
    if counts is None:
        return ""
    counts = list(counts)
    return "".join(die_html(f) * whole(c, "a count of dice", 0, 1000)
                   for f, c in zip(FACES, counts, strict=False))


def tile_html(number: int, worms: int, note: str = "") -> str:
    """A serving tile: its number big, its worms drawn and said (e.g. '2 worms')."""
    number = whole(number, "a serving's number", 0, 99)
    worms = whole(worms, "a number of worms", 1, MAX_TILE_WORMS)
    said = f"{worms} worm{'s' if worms > 1 else ''}"
    extra = f", {note}" if note else ""
    return (f"<span class='hk-tile' role='img' aria-label='serving {number}, {said}{extra}'>"
            f"<b>{number}</b><span class='hk-worms {worms_class(worms)}'></span>"
            f"<small>{said}</small></span>")


def yard_html(yard: Barnyard, who: str = "barnyard") -> str:
    """A barnyard drawn small (cards, coops, the rooster) with a name for screen readers that
    lists it in words, row by row."""
    if not isinstance(yard, Barnyard):
        raise ValueError(f"yard must be a henkit.hens Barnyard, not {yard!r}"[:300])
    h, wd = yard.shape
    if not len(yard):
        return "<i>(no card placed yet)</i>"
    cells, said = [], []
    for r in range(h):
        row = []
        for c in range(wd):
            hen = yard.at((r, c))
            rooster = yard.rooster_cell == (r, c)
            if hen is not None:
                cls = f"hk-card-{hen}" + (" hk-rooster" if rooster else "")
                row.append(f"{hen}{' with the rooster' if rooster else ''}")
            elif yard.is_coop((r, c)):
                cls = "hk-coop"
                row.append("coop")  # face down: its card is never named here
            else:
                cls = ""
                row.append("empty")
            cells.append(f"<span class='{cls}'></span>")
        said.append(f"row {r}: {', '.join(row)}")
    label = html.escape(f"{who}: {'; '.join(said)}", quote=True)
    return (f"<div class='hk-yard' role='img' aria-label='{label}' "
            f"style='grid-template-columns: repeat({wd}, 2.8em)'>{''.join(cells)}</div>")


BREED_NAMES: dict[str, str] = {b.code: b.name for b in BREEDS}
"""Breed code -> its name (shown in words beside every drawn colour)."""

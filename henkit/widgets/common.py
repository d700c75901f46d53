"""What every henkit widget shares: the status line, figures in an Output, words for dice.

Figures are plain `go.Figure`s written into an `ipywidgets.Output` as the bundle
`henkit.display` makes (plotly's mimetype in JupyterLab, a lazily drawn chart on a dashboard),
never a FigureWidget: a FigureWidget ships all of plotly.js over the kernel connection and costs
seconds per dashboard page load (stack notes). Writing the bundle into `Output.outputs` works
the same inside a kernel and in headless tests.

A page may send any update for any widget (a script on the class network, not only the browser's
widget): one its traits refuse (an int, None or a dict for a text box) is refused and the widget
sends the page back what the kernel holds (`Guarded`, which every widget made by `build` and
every henkit widget class has), so the page never shows what the game does not play.
"""

from __future__ import annotations

import html as html_text
import logging
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from numbers import Real
from typing import Any

import ipywidgets as w
import numpy as np
from traitlets import TraitError

from henkit.checks import whole
from henkit.core import Game
from henkit.display import figure_bundle
from henkit.henpen.dice import WORM, face_name

LOG = logging.getLogger("henkit.widgets")


class Guarded:
    """A widget that refuses an update from the page that its traits refuse, and sends the page
    back what the kernel holds.

    ipywidgets applies a page's update (`set_state`, from the comm's "update" message) after
    echoing it to the page; a value of the wrong type raised TraitError inside the comm handler,
    leaving the page showing the refused value (a dict in a text box shows "[object Object]")
    while the kernel kept the old one. Here the update is refused as a whole: the keys it had
    set before the bad one are put back, and the state of every key it named is sent again.
    """

    def set_state(self, sync_data: Any) -> None:
        """Apply an update from the page; refuse it whole if a trait refuses a value of it."""
        keys = [k for k in sync_data if k in self.keys] if isinstance(sync_data, dict) else []
        before = {k: getattr(self, k) for k in keys}
        try:
            super().set_state(sync_data)  # type: ignore[misc]
        except (TraitError, TypeError, ValueError, KeyError, AttributeError) as e:
            for k, v in before.items():
                try:
                    if getattr(self, k) is not v:
                        self.set_trait(k, v)  # type: ignore[attr-defined]
                except TraitError:  # pragma: no cover - the kernel's own value
                    pass
            LOG.info("refused an update of %s (%s): %s", type(self).__name__, ", ".join(keys),
                     str(e)[:200])
            if keys:
                self.send_state(key=keys)  # type: ignore[attr-defined]


_GUARDED: dict[type, type] = {}


def guarded(kind: type) -> type:
    """The `Guarded` form of a widget class (made once; the same name, so reprs are unchanged)."""
    if not isinstance(kind, type) or not issubclass(kind, w.Widget):
        raise ValueError(f"kind must be an ipywidgets widget class, not {kind!r}"[:300])
    if issubclass(kind, Guarded):
        return kind
    made = _GUARDED.get(kind)
    if made is None:
        made = _GUARDED[kind] = type(kind.__name__, (Guarded, kind),
                                     {"__qualname__": kind.__qualname__,
                                      "__module__": kind.__module__})
    return made


# Die faces are drawn (henkit.widgets.pieces: pips and a worm made of shapes); in text a face is
# its word, never a symbol character, which a classroom computer's fonts may lack.


def _face(face: object) -> int:
    return whole(face, f"a die face (1 to 5, or {WORM} for the worm)", 1, WORM)


def face_text(face: int) -> str:
    """A face in words, as a drawn die's button says it: '3' or 'worm'."""
    return face_name(_face(face))


def dice_text(counts: tuple[int, ...] | None) -> str:
    """A counts tuple in words, e.g. '2 × 3s, 1 × worm'."""
    if counts is None:
        return "nothing"
    if isinstance(counts, str | bytes) or not isinstance(counts, Sequence) or len(counts) > WORM:
        raise ValueError(f"counts must be up to {WORM} whole numbers (dice showing 1, 2, 3, 4, "
                         f"5 and a worm), not {counts!r}")
    counts = [whole(c, "a count of dice", 0, 1000) for c in counts]
    if not any(counts):
        return "nothing"
    parts = []
    for face, c in enumerate(counts, start=1):
        if c:
            parts.append(f"{c} × {face_name(face, plural=c > 1)}")
    return ", ".join(parts)


def flag(value: object, name: str) -> bool:
    """`value` as a bool if it is True or False (numpy bools too); ValueError otherwise."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, not {value!r}"[:300])


def bot_specs(bots: object, most: int, what: str) -> list[str]:
    """A widget's `bots`: one make_bot spec or a list of 1 to `most` of them (each a text;
    the game's make_bot says which names it knows); ValueError naming `what` otherwise."""
    if isinstance(bots, str):
        specs = [bots]
    elif isinstance(bots, list | tuple):
        specs = list(bots)
    else:
        raise ValueError(f"bots must be a bot name or a list of names, not {bots!r}"[:300])
    if not 1 <= len(specs) <= most:
        raise ValueError(f"{what}: give 1 to {most} bots, not {len(specs)}")
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"bots are given by name (e.g. 'greedy'), not {spec!r}"[:300])
    return specs


# ----- shared layouts and styles -----------------------------------------------------------------
# By default every ipywidgets widget brings a Layout model of its own, and most a Style model:
# each one a comm in the kernel, about 1 kB of JSON in the widget state a dashboard's page asks
# for (Voilà's request_states sends every model's full state, defaults included), a message the
# server relays and a model in the browser's widget manager, even when a hundred widgets look
# alike. ipywidgets lets widgets share one Layout or Style instance, so henkit's widgets take one
# per distinct look and kind (`shared_layout`, `shared_style`, `build`). A shared instance is
# read-only, since a change to it would change every widget that shares it: a widget is shown or
# hidden by giving it another shared layout (`set_shown`), a message of a few bytes.


class _ReadOnly:
    """A Layout or Style that refuses changes to its settings once made (it is shared)."""

    _read_only = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._read_only and not name.startswith("_") and name in self.keys:
            raise ValueError(
                f"this {type(self).__name__} is shared by every widget that looks alike, so "
                f"{name} cannot change here: give the widget another one (shared_layout(...), "
                "set_shown(...)) or one of its own (ipywidgets.Layout(...))")
        super().__setattr__(name, value)


_READ_ONLY_KINDS: dict[type, type] = {}
_SHARED: dict[tuple[type, tuple[tuple[str, Any], ...]], w.Widget] = {}


@cache
def _settings_of(kind: type) -> frozenset[str]:
    return frozenset(k for k in kind.class_traits(sync=True) if not k.startswith("_"))


def _shared(kind: type, settings: Mapping[str, Any]) -> Any:
    """The one read-only `kind` (a Layout or Style class) with these settings, made on first use
    (and again if it was closed, e.g. by Widget.close_all)."""
    allowed = _settings_of(kind)
    unknown = sorted(set(settings) - allowed)
    if unknown:
        raise ValueError(f"not a {kind.__name__} setting: {', '.join(unknown)} (the settings are "
                         f"{', '.join(sorted(allowed))})"[:400])
    key = (kind, tuple(sorted(settings.items())))
    found = _SHARED.get(key)
    if found is not None and found.comm is not None:
        return found
    made = _READ_ONLY_KINDS.get(kind)
    if made is None:
        # The same class name: a widget's repr (and a notebook's stored output) is unchanged.
        made = _READ_ONLY_KINDS[kind] = type(kind.__name__, (_ReadOnly, guarded(kind)), {})
    try:
        found = made(**settings)
    except TraitError as e:
        raise ValueError(f"not a {kind.__name__} setting: {e}"[:400]) from None
    found._henkit_settings = dict(settings)  # what layout_settings reads, without 40 getattrs
    found._read_only = True
    _SHARED[key] = found
    return found


def shared_layout(**settings: Any) -> w.Layout:
    """The Layout every widget with these settings shares (read-only); ValueError naming a
    setting that Layout does not have."""
    return _shared(w.Layout, settings)


def shared_style(kind: type, **settings: Any) -> w.Style:
    """The Style every widget of class `kind` (e.g. ipywidgets.HTML) with these settings shares
    (read-only); `kind` may also be the Style class itself (e.g. ipywidgets.ButtonStyle)."""
    if isinstance(kind, type) and issubclass(kind, w.DOMWidget):
        trait = kind.class_traits().get("style")
        if trait is None:
            raise ValueError(f"a {kind.__name__} has no style")
        kind = trait.klass
    if not isinstance(kind, type) or not issubclass(kind, w.Style):
        raise ValueError(f"kind must be an ipywidgets widget or Style class (HTML, "
                         f"ButtonStyle...), not {kind!r}"[:300])
    return _shared(kind, settings)


def layout_settings(layout: w.Layout) -> dict[str, Any]:
    """A Layout's settings that are set (not None), e.g. {'width': 'auto'}."""
    if not isinstance(layout, w.Layout):
        raise ValueError(f"layout must be an ipywidgets Layout, not {layout!r}"[:300])
    known = getattr(layout, "_henkit_settings", None)  # a shared one knows its settings
    if known is not None:
        return dict(known)
    return {k: v for k in _settings_of(w.Layout) if (v := getattr(layout, k)) is not None}


def build(kind: type, *children: w.Widget, layout: Mapping[str, Any] | w.Layout | None = None,
          style: Mapping[str, Any] | w.Style | None = None, **traits: Any) -> Any:
    """A widget of class `kind` (children for a Box) with a shared layout of the `layout`
    settings and, if the kind has a style, the shared style of the `style` settings.

    A Layout or Style instance given is used as it is (the widget's own, free to change)."""
    if not isinstance(kind, type) or not issubclass(kind, w.DOMWidget):
        raise ValueError(f"kind must be an ipywidgets widget class, not {kind!r}"[:300])
    if not isinstance(layout, w.Layout):
        layout = shared_layout(**_mapping(layout, "layout"))
    traits["layout"] = layout
    if "style" in kind.class_traits() and not isinstance(style, w.Style):
        style = shared_style(kind, **_mapping(style, "style"))
    if style is not None:
        traits["style"] = style
    if children:
        traits["children"] = children
    try:
        return guarded(kind)(**traits)
    except TraitError as e:
        raise ValueError(f"not a {kind.__name__} setting: {e}"[:400]) from None


def html(value: str = "", **layout: Any) -> w.HTML:
    """An HTML widget with shared layout (these settings) and style."""
    return build(w.HTML, value=value, layout=layout)


def shared_html(value: str, **layout: Any) -> w.HTML:
    """One read-only HTML per distinct value and layout, shared by every widget that shows it:
    a page's style, whose model is then sent once however many widgets bring it."""
    if not isinstance(value, str):
        raise ValueError(f"an HTML widget shows text, not {value!r}"[:300])
    return _shared(w.HTML, {"value": value, "layout": shared_layout(**layout),
                            "style": shared_style(w.HTML)})


def hbox(children: Sequence[w.Widget] = (), **layout: Any) -> w.HBox:
    """An HBox of `children` with a shared layout of these settings."""
    return build(w.HBox, *children, layout=layout)


def set_shown(widget: w.DOMWidget, shown: bool) -> None:
    """Show or hide `widget`: the shared layout with its settings and display '' or 'none'."""
    if not isinstance(widget, w.DOMWidget):
        raise ValueError(f"only a widget can be shown or hidden, not {widget!r}"[:300])
    display = "" if flag(shown, "shown") else "none"
    if widget.layout.display == display:  # the usual case at a redraw: nothing to do
        return
    settings = layout_settings(widget.layout)
    settings["display"] = display
    layout = shared_layout(**settings)
    if widget.layout is not layout:
        widget.layout = layout


def _mapping(value: object, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a dict of settings or an ipywidgets {what.title()}, "
                         f"not {value!r}"[:300])
    return dict(value)


def status_line() -> w.HTML:
    """The line each widget uses to say in words what just happened (a polite live region)."""
    return html(min_height="1.6em")


def say(status: w.HTML, text: str, error: bool = False) -> None:
    """Write `text` to a status line; errors are shown in red and prefixed 'Not allowed:'."""
    _html_widget(status)
    body = html_text.escape(str(text))
    if error:
        body = f"<b style='color:#B00020'>Not allowed:</b> {body}"
    status.value = f"<div role='status' aria-live='polite'>{body}</div>"


def log_html(lines: Sequence[str], label: str = "What happened, newest first") -> str:
    """A game's log as HTML: the lines as a list in a box that scrolls past 16 lines.

    The box can take the keyboard focus (tabindex 0) so that a keyboard can scroll it, and it is
    a region named `label` for screen readers (axe-core: scrollable-region-focusable).
    """
    if isinstance(lines, str) or not all(isinstance(x, str) for x in lines):
        raise ValueError(f"a log is a list of lines of text, not {lines!r}"[:300])
    if not isinstance(label, str) or not label:
        raise ValueError(f"a log needs a name for screen readers, not {label!r}")
    items = "".join(f"<li>{esc(x)}</li>" for x in lines)
    return (f"<div role='region' aria-label='{esc(label)}' tabindex='0' "
            f"style='max-height:16em;overflow-y:auto'><ul>{items}</ul></div>")


def status_text(status: w.HTML) -> str:
    """The plain text of a status line (for tests and logs)."""
    import re

    _html_widget(status)
    return html_text.unescape(re.sub(r"<[^>]+>", "", status.value))


def figure_output(fig: Any, alt: str = "") -> dict[str, Any]:
    """One Output entry showing a plotly figure, with `alt` as its plain-text form."""
    return {"output_type": "display_data", "data": figure_bundle(fig, alt), "metadata": {}}


def show_figure(out: w.Output, fig: Any, alt: str = "") -> None:
    """Replace what `out` shows with a plotly figure (and `alt`, a text equivalent)."""
    _output(out)
    out.outputs = (figure_output(fig, alt),)


def show_text(out: w.Output, text: str) -> None:
    """Replace what `out` shows with plain text (e.g. why there is no chart right now)."""
    _output(out)
    out.outputs = ({"output_type": "display_data", "data": {"text/plain": str(text)},
                    "metadata": {}},)


MAX_BOT_MOVES = 100_000  # a guard against a broken bot: no game of either kind is this long


def bot_move(game: Game) -> None:
    """One move of the bot to move, through the one game loop (`Game.advance`): its choice and,
    at once, the chance move it calls for (the dice of a roll, a card from the deck).

    The caller says first why there is no bot move (the game is over, a human is to move);
    here the loop just stops.
    """
    _game(game)
    start = len(game.history)

    def moved(state: Any) -> bool:
        made = len(game.history) - start
        return made >= 2 or (made == 1 and not state.is_chance)

    game.advance(until=moved)


def bots_play(game: Game) -> None:
    """Let the bots (and chance) play through `Game.advance` until a human is to move or the
    game is over; ValueError if that takes MAX_BOT_MOVES moves (a broken bot)."""
    _game(game)
    game.advance(max_moves=MAX_BOT_MOVES)
    if not game.state.is_over and not game.waiting_for_human:
        raise ValueError("the bots made too many moves without ending the game")


def bot_buttons(next_move: Callable[[], Any], play_bots: Callable[[], Any]) -> tuple[w.Button, ...]:
    """The 'Next bot move' and 'Let bots play' buttons of a game against bots."""
    return (
        button("Next bot move", "Let the bot to move make one move", next_move),
        button("Let bots play", "Let the bots play until it is your turn", play_bots),
    )


def button(description: str, tooltip: str, on_click: Callable[[], Any], **kw: Any) -> w.Button:
    """A Button with words on it and a tooltip, calling `on_click()` without arguments.

    Its layout and style are shared (`build`): `layout=` takes a dict of settings, or a Layout
    of the button's own when the caller will change it."""
    if not isinstance(description, str) or not description or not isinstance(tooltip, str):
        raise ValueError("a button needs words: description and tooltip must be text, "
                         f"not {description!r} and {tooltip!r}")
    _function(on_click, "on_click")
    b = build(w.Button, description=description, tooltip=tooltip, **kw)
    b.on_click(lambda _b: on_click())
    return b


def esc(text: object) -> str:
    """HTML-escape anything for an HTML widget."""
    return html_text.escape(str(text))


def percent(p: float) -> str:
    """A chance as a short percentage: '12.3%', '<0.1%' for tiny non-zero chances."""
    if isinstance(p, bool | np.bool_) or not isinstance(p, Real | np.integer | np.floating):
        raise ValueError(f"a chance must be a number from 0 to 1, not {p!r}")
    p = float(p)
    if not 0 <= p <= 1:
        raise ValueError(f"a chance must be a number from 0 to 1, not {p!r}")
    if 0 < p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%"


_ON_PAGES: list[w.Widget] = []


def keep_alive(widget: w.Widget) -> None:
    """Keep a displayed widget alive as long as the kernel.

    ipywidgets closes a widget's model when Python drops the widget (Widget.__del__), and Voilà
    runs a dashboard's cells without keeping their results in `Out`, so a widget shown as a
    cell's last expression is held by nothing but its own reference cycles: the next garbage
    collection closes it and the page shows "Error displaying widget: model not found".
    """
    if not isinstance(widget, w.Widget):
        raise ValueError(f"only a widget can be kept alive, not {widget!r}")
    _ON_PAGES.append(widget)


def _html_widget(status: object) -> None:
    if not isinstance(status, w.HTML):
        raise ValueError(f"a status line is an ipywidgets HTML (status_line()), not {status!r}")


def _output(out: object) -> None:
    if not isinstance(out, w.Output):
        raise ValueError(f"out must be an ipywidgets Output, not {out!r}")


def _game(game: object) -> None:
    if not isinstance(game, Game):
        raise ValueError(f"game must be a henkit.core Game, not {game!r}"[:300])


def _function(f: object, what: str) -> None:
    if not callable(f):
        raise ValueError(f"{what} must be a function, not {f!r}")

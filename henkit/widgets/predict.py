"""Predict, experiment, then the exact answer: a prediction a student records before seeing.

A `Predict` widget asks one question. The student types a prediction (a chance in percent, or a
number) or picks one of a few choices, and locks it. Only then does the widget show the
experiment (a button that runs the lesson's seeded experiment, and/or a widget such as a dice
tray) and the button that shows the exact answer; the answer comes with how far off the
prediction was, in words: "You said 30 %; exact 38.0 % (7/18): 8.0 percentage points low."

Everything happens through widgets (a dashboard runs no cell again), works by keyboard (a text
box, radio buttons, buttons), and is projector-sized through the pieces' style. The exact answer
is not in the page before it is asked for: it is worked out (when given as a function) and
written into the page only then. A page holds many of these boxes, so each one is lean: its
looks are shared (henkit.widgets.common), its CSS is one model per kernel, and the parts shown
after the lock are made at the first lock: 7 widget models per box when the page opens.

The part without widgets, `Question` (what may be predicted, reading what the student typed,
and scoring a prediction against the exact answer) and `Verdict`, is tested on its own.
"""

from __future__ import annotations

import html as html_text
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from typing import Any

import ipywidgets as w
import numpy as np
from traitlets import TraitError

from henkit.checks import whole
from henkit.core import make_rng
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    esc,
    flag,
    hbox,
    html,
    keep_alive,
    log_html,
    say,
    set_shown,
    shared_html,
    shared_layout,
    status_line,
)
from henkit.widgets.pieces import ROOT_CLASS, style_widget
from henkit.widgets.seeding import SeedBox, start_seed

KINDS = ("chance", "number", "choice")
"""What a prediction can be: a chance (typed in percent), a number, or one of a few choices."""
MAX_FRACTION_DIGITS = 9
"""An exact fraction is shown when its denominator has at most this many digits (the lessons'
1288991/1679616 has 7); a longer one would not help a reader, and is left out."""
MAX_TYPED = 40
"""The most characters of a typed prediction read (anything longer is not a number)."""
MAX_RESULTS = 12
"""The experiment box lists this many results, newest first."""
SPOT_ON = Fraction(1, 2)
"""A chance predicted within half a percentage point is 'spot on'."""
CLOSE = Fraction(5)
"""A chance predicted within 5 percentage points is 'close'."""

KEY = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
"""A box's key: a stable name within its lesson ('two-dice-worm'), also the name of its answer
cells' tag ('answer:two-dice-worm') and of the page class its reveal sets ('hk-revealed-...')."""
REVEALED_CLASS = "hk-revealed-"
"""Prefix of the class a box carries while its exact answer is shown: the dashboard template
shows the cells tagged 'answer:<key>' only then."""

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_RATIO = re.compile(r"(\d+)\s*/\s*(\d+)")


# ----- the pure part: what may be predicted, reading it, scoring it ------------------------------


def _exact_number(x: object, what: str) -> Fraction:
    """A real number as an exact Fraction (a float is taken at its exact binary value)."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, Real | np.integer | np.floating):
        raise ValueError(f"{what} must be a number (a whole number, a fraction or a decimal), "
                         f"not {x!r}"[:300])
    if isinstance(x, np.integer):
        return Fraction(int(x))
    if isinstance(x, float | np.floating) and not np.isfinite(float(x)):
        raise ValueError(f"{what} must be a finite number, not {x!r}")
    return x if isinstance(x, Fraction) else Fraction(float(x)) if isinstance(
        x, float | np.floating) else Fraction(x)


def _trim(x: Fraction, digits: int) -> str:
    """`x` with at most `digits` decimals and no trailing zeros: 30, 37.5, 1.25."""
    text = f"{float(x):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _fraction_part(x: Fraction, was_float: bool) -> str:
    """' (7/18)' for a short exact fraction that is not a whole number; '' otherwise."""
    if was_float or x.denominator == 1 or len(str(x.denominator)) > MAX_FRACTION_DIGITS:
        return ""
    return f" ({x.numerator}/{x.denominator})"


def percent_text(p: Fraction, digits: int = 1) -> str:
    """A chance in percent with `digits` decimals: '38.0 %'; tiny chances keep two significant
    digits ('0.0036 %') so that they never read as 0."""
    p = _exact_number(p, "a chance")
    if not 0 <= p <= 1:
        raise ValueError(f"a chance must be from 0 to 1, not {p}")
    digits = whole(digits, "digits", 0, 6)
    value = 100 * float(p)
    if 0 < value < 10 ** -digits:
        return f"{value:.2g} %"
    return f"{value:.{digits}f} %"


@dataclass(frozen=True)
class Verdict:
    """How a prediction compares with the exact answer, in numbers and in words."""

    said: str
    """The prediction as the widget read it: '30 %', '1.5 worms', 'roll'."""
    exact: str
    """The exact answer in words: '38.0 % (7/18)'."""
    off: Fraction | None
    """Prediction minus answer (percentage points for a chance); None for a choice."""
    right: bool
    """The prediction is the answer (a choice picked right, a number exactly)."""
    text: str
    """The whole line shown to the student."""


@dataclass(frozen=True)
class Question:
    """What a student may predict, and how a prediction is read and scored.

    `kind` 'chance': a chance, typed in percent (30, 30 %, 37.5) or as a fraction (1/3); the
    exact answer is a chance from 0 to 1 (a Fraction, shown as one when it is short).
    'number': a number from `low` to `high` (`whole_only`: whole numbers only), shown with
    `digits` decimals and its `unit` ('worms'). 'choice': one of `choices`.
    """

    kind: str = "chance"
    low: Fraction | None = None
    high: Fraction | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    digits: int = 1
    whole_only: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}"[:300])
        whole(self.digits, "digits (decimals shown)", 0, 6)
        if not isinstance(self.unit, str) or len(self.unit) > 40:
            raise ValueError(f"unit must be a short text such as 'worms', not {self.unit!r}"[:300])
        if not isinstance(self.whole_only, bool):
            raise ValueError(f"whole_only must be True or False, not {self.whole_only!r}")
        if self.kind == "choice":
            choices = self.choices
            if (isinstance(choices, str) or not isinstance(choices, Sequence)
                    or not 2 <= len(choices) <= 12
                    or not all(isinstance(c, str) and c.strip() for c in choices)
                    or len(set(choices)) != len(choices)):
                raise ValueError(f"choices must be 2 to 12 different texts, not {choices!r}"[:300])
            if self.low is not None or self.high is not None or self.unit or self.whole_only:
                raise ValueError("a choice has no low, high, unit or whole_only: give choices only")
            object.__setattr__(self, "choices", tuple(choices))
            return
        if self.choices:
            raise ValueError(f"choices are only for kind='choice', not for {self.kind!r}")
        if self.kind == "chance":
            if self.low is not None or self.high is not None or self.unit or self.whole_only:
                raise ValueError("a chance is always from 0 to 100 % and has no low, high, unit "
                                 "or whole_only")
            return
        if self.low is None or self.high is None:
            raise ValueError("a number prediction needs low and high (the range a student may "
                             "type)")
        low, high = _exact_number(self.low, "low"), _exact_number(self.high, "high")
        if not low < high:
            raise ValueError(f"low must be below high, not {self.low!r} and {self.high!r}")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    # -- reading and saying a prediction ----------------------------------------------------------

    @property
    def hint(self) -> str:
        """What to type, in words (the text box's placeholder and tooltip)."""
        if self.kind == "chance":
            return "a chance in percent from 0 to 100, e.g. 40, or a fraction such as 1/3"
        if self.kind == "number":
            what = "a whole number" if self.whole_only else "a number"
            unit = f" ({self.unit})" if self.unit else ""
            assert self.low is not None and self.high is not None
            return (f"{what} from {_trim(self.low, self.digits)} to "
                    f"{_trim(self.high, self.digits)}{unit}")
        return "one of: " + ", ".join(self.choices)

    def parse(self, typed: object) -> Fraction | str:
        """The prediction the student gave: a chance (a Fraction from 0 to 1), a number (a
        Fraction) or a choice (its text). ValueError saying what to give, for anything else."""
        if self.kind == "choice":
            if typed is None or typed == "":
                raise ValueError(f"pick one first: {', '.join(self.choices)}")
            if typed not in self.choices:
                raise ValueError(f"pick one of: {', '.join(self.choices)} (not {typed!r})"[:300])
            return str(typed)
        if not isinstance(typed, str) or not typed.strip():
            raise ValueError(f"type a prediction first: {self.hint}")
        text = typed.strip()
        shown = text if len(text) <= 20 else text[:17] + "..."
        if len(text) > MAX_TYPED:
            raise ValueError(f"{shown!r} is not a number: type {self.hint}")
        percent = self.kind == "chance" and text.endswith("%")
        if percent:
            text = text[:-1].strip()
        if "," in text and "." not in text:
            text = text.replace(",", ".")  # a decimal comma, as many classes write it
        ratio = _RATIO.fullmatch(text)
        if ratio and not percent:
            if int(ratio[2]) == 0:
                raise ValueError(f"{shown!r} divides by zero: type {self.hint}")
            value = Fraction(int(ratio[1]), int(ratio[2]))
            if self.kind == "chance":
                if value > 1:
                    raise ValueError(f"a chance is at most 1 (100 %), not {shown}")
                return value
        elif _NUMBER.fullmatch(text):
            value = Fraction(text)
            if self.kind == "chance":
                if not 0 <= value <= 100:
                    raise ValueError(f"a chance is from 0 to 100 %, not {shown}")
                return value / 100
        else:
            raise ValueError(f"{shown!r} is not a number: type {self.hint}")
        if self.whole_only and value.denominator != 1:
            raise ValueError(f"type a whole number, not {shown}: {self.hint}")
        assert self.low is not None and self.high is not None
        if not self.low <= value <= self.high:
            raise ValueError(f"{shown} is outside the range: type {self.hint}")
        return value

    def say(self, prediction: Fraction | str) -> str:
        """A prediction in words: '30 %', '33.3 % (1/3)', '1.5 worms', 'roll'."""
        if self.kind == "choice":
            return str(prediction)
        p = _exact_number(prediction, "a prediction")
        if self.kind == "chance":
            # A typed fraction (1/3) is said as one too; a typed 37.5 is not (3/8 would puzzle).
            typed_fraction = (p * 10_000).denominator != 1 and len(str(p.denominator)) <= 4
            return f"{_trim(100 * p, 2)} %" + (_fraction_part(p, False) if typed_fraction else "")
        return self._number(p)

    def _unit(self, x: Fraction) -> str:
        # '1 worm', '2 worms': a unit given in the plural loses its s for exactly one.
        if not self.unit:
            return ""
        return f" {self.unit[:-1]}" if abs(x) == 1 and self.unit.endswith("s") else f" {self.unit}"

    def _number(self, x: Fraction | None, was_float: bool = True) -> str:
        assert x is not None
        unit = self._unit(x)
        return f"{_trim(x, self.digits)}{unit}" + _fraction_part(x, was_float)

    # -- the exact answer ------------------------------------------------------------------------

    def answer(self, exact: object) -> Fraction | str:
        """The exact answer checked: a chance from 0 to 1, a number, or one of the choices."""
        if self.kind == "choice":
            if exact not in self.choices:
                raise ValueError(f"the exact answer must be one of the choices "
                                 f"({', '.join(self.choices)}), not {exact!r}"[:300])
            return str(exact)
        value = _exact_number(exact, "the exact answer")
        if self.kind == "chance" and not 0 <= value <= 1:
            raise ValueError(f"the exact answer to a chance must be from 0 to 1, not {exact!r}")
        return value

    def exact_text(self, exact: object) -> str:
        """The exact answer in words: '38.0 % (7/18)', '1.3059 worms', '4/3 = 1.3', 'roll'."""
        value = self.answer(exact)
        if self.kind == "choice":
            return str(value)
        assert isinstance(value, Fraction)
        was_float = isinstance(exact, float | np.floating)
        if self.kind == "chance":
            return percent_text(value) + _fraction_part(value, was_float)
        if not was_float and value.denominator != 1 and len(
                str(value.denominator)) <= MAX_FRACTION_DIGITS:
            unit = self._unit(value)
            return f"{value.numerator}/{value.denominator} = {_trim(value, self.digits)}{unit}"
        return self._number(value)

    def score(self, prediction: object, exact: object) -> Verdict:
        """How far `prediction` (as `parse` gives it) is from `exact`, in numbers and words."""
        if self.kind == "choice" or isinstance(prediction, str):
            said_value = self.parse(prediction)  # as typed (or picked)
        else:
            said_value = _exact_number(prediction, "a prediction")
            if self.kind == "chance" and not 0 <= said_value <= 1:
                raise ValueError(f"a predicted chance is from 0 to 1, not {prediction!r}")
        value = self.answer(exact)
        said, shown = self.say(said_value), self.exact_text(exact)
        if self.kind == "choice":
            right = said_value == value
            verdict = "right." if right else "not this time."
            return Verdict(said, shown, None, right,
                         f"You said {said}; the answer is {shown}: {verdict}")
        assert isinstance(said_value, Fraction) and isinstance(value, Fraction)
        if self.kind == "chance":
            off = 100 * (said_value - value)
            size, unit = f"{abs(float(off)):.1f}", " percentage points"
        else:
            off = said_value - value
            size, unit = _trim(abs(off), self.digits), self._unit(abs(off))
        right = off == 0
        if right:
            how = "exactly right."
        elif float(size) == 0:
            how = f"less than {10 ** -(1 if self.kind == 'chance' else self.digits):g}" \
                  f"{unit} {'high' if off > 0 else 'low'}: spot on."
        else:
            how = f"{size}{unit} {'high' if off > 0 else 'low'}"
            if self.kind == "chance" and abs(off) <= SPOT_ON:
                how += ": spot on."
            elif self.kind == "chance" and abs(off) <= CLOSE:
                how += ": close."
            else:
                how += "."
        return Verdict(said, shown, off, right, f"You said {said}; exact {shown}: {how}")


@dataclass
class Tally:
    """A frequency experiment's running count: how often an event happened in so many tries."""

    event: str = "the event happened"
    """What a try that counts did, in words: 'showed at least one worm'."""
    hits: int = 0
    tries: int = 0

    def add(self, hits: int, tries: int) -> str:
        """Count `hits` of `tries` more and say this batch and the running frequency."""
        tries = whole(tries, "tries", 1)
        hits = whole(hits, "hits", 0, tries)
        self.hits += hits
        self.tries += tries
        return (f"{hits} of {tries} {self.event}; so far {self.hits} of {self.tries} "
                f"({percent_text(Fraction(self.hits, self.tries))})")

    @property
    def text(self) -> str:
        """The running frequency in words ('' before any try)."""
        if not self.tries:
            return ""
        return (f"Your experiment: {self.hits} of {self.tries} "
                f"({percent_text(Fraction(self.hits, self.tries))}).")

    def reset(self) -> None:
        """Start counting again (a new seed)."""
        self.hits = self.tries = 0


# ----- the widget --------------------------------------------------------------------------------

_STYLE = f"""<style>
.{ROOT_CLASS}.hk-predict {{ border: 2px solid #424242; border-radius: 10px; padding: 8px 12px;
  margin: 6px 0; background: #FFFFFF; }}
.{ROOT_CLASS}.hk-predict .widget-radio-box {{ flex-direction: row; flex-wrap: wrap;
  column-gap: 1.6em; }}
.{ROOT_CLASS}.hk-predict .widget-radio-box label {{ font-size: 18px; line-height: 1.4;
  min-height: 44px; height: auto; display: flex; flex-direction: row-reverse;
  justify-content: flex-end; align-items: center; }}
.{ROOT_CLASS}.hk-predict .widget-radio-box input {{ float: none; width: 22px; height: 22px;
  margin: 0 8px 0 0; }}
.{ROOT_CLASS} .hk-question {{ font-size: 20px; line-height: 1.45; }}
.{ROOT_CLASS} .hk-answer {{ border-left: 6px solid #0D47A1; padding: 6px 12px;
  background: #F3F7FC; color: #1A1A1A; font-size: 20px; line-height: 1.45; }}
.{ROOT_CLASS} .hk-answer b.hk-right {{ color: #1B5E20; }}
</style>"""


def _function(f: object, what: str) -> None:
    if f is not None and not callable(f):
        raise ValueError(f"{what} must be a function (or None), not {f!r}"[:300])


class Predict(Guarded, w.VBox):
    """Predict first, then the experiment, then the exact answer and how far off the guess was.

    `Predict(prompt, answer, kind='chance')`: `prompt` is the question (plain text), `answer`
    the exact answer, or a function of no arguments that works it out when the student asks for
    it. `kind` 'chance' (typed in percent, or as a fraction), 'number' (give `low` and `high`,
    and optionally `unit`, `digits`, `whole_only`) or 'choice' (give `choices`).

    After the prediction is locked the widget shows the experiment: `run(rng)` is called by a
    button (`run_label`) with a numpy Generator seeded from `seed` (the notebook's seed; on a
    dashboard each viewer gets a fresh one unless `pin_seed=True`, as every henkit widget does)
    and returns a line of text, listed newest first; `experiment` is any widget (e.g. a dice
    tray) shown only then. A chance can instead be tried out: `trial(rng)` is one try, True
    when the event happens; each press makes `trials` tries and says how often it happened, this
    time and so far (restarted with the seed), and the exact answer says the running frequency
    too. `explain` is a text shown with the exact answer (why it is so).
    Without an experiment the exact answer shows as soon as the prediction is locked.

    `key` names the box within its lesson (lower-case letters, digits and '-'). On a dashboard
    the cells tagged `answer:<key>` (the lesson's worked answer, its table or chart) stay hidden
    until this box shows its exact answer: the box carries the class `hk-revealed-<key>` just
    then, and the henkit template shows those cells while it does. In JupyterLab nothing is
    hidden: the notebook reads top to bottom.
    """

    def __init__(
        self,
        prompt: str,
        answer: object,
        *,
        kind: str = "chance",
        low: object = None,
        high: object = None,
        choices: Sequence[str] = (),
        unit: str = "",
        digits: int = 1,
        whole_only: bool = False,
        run: Callable[[np.random.Generator], str] | None = None,
        run_label: str | None = None,
        trial: Callable[[np.random.Generator], bool] | None = None,
        trials: int = 20,
        event: str = "times it happened",
        experiment: w.Widget | None = None,
        explain: str = "",
        seed: Any = None,
        pin_seed: bool = False,
        key: str | None = None,
    ) -> None:
        if key is not None and (not isinstance(key, str) or not KEY.fullmatch(key)):
            raise ValueError(f"key must be 1 to 40 lower-case letters, digits and '-' (starting "
                             f"with a letter or digit), such as 'two-dice-worm', not {key!r}"[:300])
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError(f"prompt must be the question, as text, not {prompt!r}"[:300])
        self.question = Question(kind, low, high, tuple(choices) if isinstance(
            choices, list | tuple) else choices, unit, digits, whole_only)  # type: ignore[arg-type]
        if not callable(answer):
            self.question.answer(answer)  # a wrong answer is the lesson's error: say it now
        _function(run, "run")
        _function(trial, "trial")
        if trial is not None:
            if run is not None:
                raise ValueError("give run (any experiment) or trial (a yes/no try, counted), "
                                 "not both")
            if self.question.kind != "chance":
                raise ValueError("trial counts how often something happens: it goes with "
                                 "kind='chance'")
        trials = whole(trials, "trials (tries per press)", 1, 100_000)
        if not isinstance(event, str) or not event.strip() or len(event) > 80:
            raise ValueError(f"event must be a few words such as 'showed a worm', not {event!r}"[:300])
        if run_label is None:
            run_label = f"Try it {trials} times" if trial is not None else "Run the experiment"
        if not isinstance(run_label, str) or not run_label.strip():
            raise ValueError(f"run_label must be the words on the button, not {run_label!r}")
        self.tally: Tally | None = None
        if trial is not None:
            self.tally, self.trial, self.trials = Tally(event), trial, trials
            run = self._tries
        if experiment is not None and not isinstance(experiment, w.Widget):
            raise ValueError(f"experiment must be a widget (or None), not {experiment!r}"[:300])
        if not isinstance(explain, str):
            raise ValueError(f"explain must be text, not {explain!r}"[:300])
        if seed is not None and run is None:
            raise ValueError("seed is for the experiment: give run= or trial= too (or no seed)")
        pin_seed = flag(pin_seed, "pin_seed")
        first_seed = start_seed(seed, pin_seed) if run is not None else None
        self.prompt, self._answer, self.explain = prompt, answer, explain
        self.key = key
        self.run_function = run
        self.experiment = experiment
        self.prediction: Fraction | str | None = None
        self.locked = False
        self.revealed = False
        self.score: Verdict | None = None
        self.results: list[str] = []
        self._rng: np.random.Generator | None = None

        self.prompt_html = html(f"<div class='hk-question'><b>Predict.</b> {esc(prompt)}</div>")
        hint = self.question.hint
        if self.question.kind == "choice":
            self.input: w.Widget = build(
                w.RadioButtons, options=list(self.question.choices), value=None,
                description="Prediction",
                tooltip="Pick your prediction (arrow keys move between the choices)",
                style={"description_width": "initial"}, layout={"width": "auto"})
        else:
            self.input = build(
                w.Text, value="", description="Prediction", placeholder=f"e.g. {self._example()}",
                tooltip=f"Type {hint}, then press Lock my prediction",
                # Every key is read: the Lock button opens as soon as the text is a prediction
                # (so that Tab reaches it), and the line under the box says what it reads.
                continuous_update=True, style={"description_width": "initial"},
                layout={"width": "22em"})
        self.input.observe(self._typed, names="value")
        # Disabled until there is a prediction to lock: a click can only lock one, and a page
        # that plays a game beside this widget offers no button here that does nothing.
        self.lock_button = button("Lock my prediction",
                                  "Record your prediction: then the experiment and the exact "
                                  "answer open", self.lock, button_style="primary", disabled=True,
                                  layout={"width": "auto"})
        self.reading = html()  # what the box reads now (not a live region: it follows keys)
        self.status = status_line()
        # The parts a student sees only after the lock (the experiment box with its seed box,
        # run button and results, the reveal and again buttons, the answer) are made when first
        # needed (`_make_hidden`): a page of several Predicts sends none of their models before
        # a prediction is locked, and most boxes on a page are never locked.
        self._first_seed, self._pin_seed, self._run_label = first_seed, bool(pin_seed), run_label
        self._hidden: tuple[w.Widget, ...] = ()
        self.has_experiment = run is not None or experiment is not None
        if run is not None:
            assert first_seed is not None
            self._rng = make_rng(first_seed)  # as the seed box will read it (a Generator as is)
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            self.prompt_html,
            hbox([self.input, self.lock_button], flex_flow="row wrap", align_items="center"),
            self.reading,
            self.status,
            style_widget(),
            shared_html(_STYLE, display="none"),  # one model for every Predict of a page
        ], layout=shared_layout())
        self.add_class(ROOT_CLASS)
        self.add_class("hk-predict")
        self._show_reading()
        say(self.status, self._ask())

    # ----- the parts shown after the lock, made when first needed -----------------------------

    def _make_hidden(self) -> tuple[w.Widget, ...]:
        """The experiment box, the reveal button, the answer and the again button (all hidden),
        made once and put in their places under the status line."""
        if self._hidden:
            return self._hidden
        seed_box: SeedBox | None = None
        run_button: w.Button | None = None
        results_html = html()
        rows: list[w.Widget] = []
        if self.run_function is not None:
            seed_box = SeedBox(self._first_seed, pinned=self._pin_seed, restart=self._restart,
                               report=lambda text, error: say(self.status, text, error),
                               what="results")
            run_button = button(self._run_label, "Run the experiment once more with the next "
                                "random numbers of this seed", self.run_once,
                                button_style="info", layout={"width": "auto"})
            run_button.add_class("hk-predict-run")  # pages and tests find the experiment
            rows += [seed_box, run_button, results_html]
        if self.experiment is not None:
            rows.append(self.experiment)
        experiment_box = build(w.VBox, *rows, layout={"display": "none"})
        reveal_button = button("Show the exact answer",
                               "Show the exact answer and how far off your prediction was",
                               self.reveal, button_style="success",
                               layout={"display": "none", "width": "auto"})
        answer_html = html(display="none")
        again_button = button("Predict again", "Clear this prediction and make a new one",
                              self.again, layout={"display": "none", "width": "auto"})
        self._hidden = (seed_box, run_button, results_html, experiment_box, reveal_button,
                        answer_html, again_button)
        shown = list(self.children)
        shown[4:4] = [experiment_box, reveal_button, answer_html, again_button]
        self.children = shown
        return self._hidden

    @property
    def seed_box(self) -> SeedBox | None:
        """The experiment's seed box (None without `run` or `trial`)."""
        return self._make_hidden()[0]

    @property
    def run_button(self) -> w.Button | None:
        """The button that runs the experiment once (None without `run` or `trial`)."""
        return self._make_hidden()[1]

    @property
    def results_html(self) -> w.HTML:
        """The experiment's results, newest first."""
        return self._make_hidden()[2]

    @property
    def experiment_box(self) -> w.VBox:
        """The experiment (seed box, run button, results, the `experiment` widget)."""
        return self._make_hidden()[3]

    @property
    def reveal_button(self) -> w.Button:
        """The 'Show the exact answer' button."""
        return self._make_hidden()[4]

    @property
    def answer_html(self) -> w.HTML:
        """The exact answer and how far off the prediction was."""
        return self._make_hidden()[5]

    @property
    def again_button(self) -> w.Button:
        """The 'Predict again' button."""
        return self._make_hidden()[6]

    # ----- words ----------------------------------------------------------------------------------

    def _example(self) -> str:
        q = self.question
        if q.kind == "chance":
            return "40 %"
        assert q.low is not None and q.high is not None
        middle = (q.low + q.high) / 2
        return _trim(Fraction(round(middle)) if q.whole_only else middle, q.digits)

    def _ask(self) -> str:
        if self.question.kind == "choice":
            return "Pick your prediction, then press Lock my prediction."
        return f"Type your prediction: {self.question.hint}. Then press Lock my prediction."

    # ----- the steps ------------------------------------------------------------------------------

    def _typed(self, _change: dict[str, Any]) -> None:
        if not self.locked:
            self._show_reading()

    def _show_reading(self) -> None:
        """Say under the box what it reads, and open the Lock button only for a prediction."""
        try:
            value = self.question.parse(self.input.value)
        except ValueError as e:
            self.lock_button.disabled = True
            empty = self.input.value in ("", None) or not str(self.input.value).strip()
            self.reading.value = "" if empty else (
                f"<div><b style='color:#B00020'>Not a prediction yet:</b> {esc(e)}</div>")
            return
        self.lock_button.disabled = False
        self.reading.value = (f"<div>Your prediction: <b>{esc(self.question.say(value))}</b>. "
                              "Press Lock my prediction to record it.</div>")

    def set_prediction(self, value: object) -> bool:
        """Type (or pick) `value` as the browser would; True if it reads as a prediction."""
        if self.locked:
            say(self.status, "Your prediction is locked: press Predict again to change it.", True)
            return False
        if self.question.kind != "choice" and not isinstance(value, str):
            value = str(value)
        try:
            self.input.value = value
        except TraitError as e:  # not one of the choices: say so, change nothing
            say(self.status, f"pick one of: {', '.join(self.question.choices)} ({e})"[:300], True)
            return False
        try:
            self.question.parse(self.input.value)
        except ValueError:
            return False
        return True

    def lock(self) -> bool:
        """Lock the prediction typed or picked (True if it was one); then open the experiment,
        or the exact answer when there is no experiment."""
        if self.locked:
            return True
        try:
            self.prediction = self.question.parse(self.input.value)
        except ValueError as e:
            say(self.status, str(e), error=True)
            return False
        self.locked = True
        self.input.disabled = True
        self.lock_button.disabled = True
        # The locked box is greyed out: the prediction is said again, in full contrast.
        self.reading.value = (f"<div>Your locked prediction: "
                              f"<b>{esc(self.question.say(self.prediction))}</b></div>")
        set_shown(self.again_button, True)
        said = self.question.say(self.prediction)
        if not self.has_experiment:
            say(self.status, f"Locked: you predict {said}.")
            self.reveal()
            return True
        set_shown(self.experiment_box, True)
        set_shown(self.reveal_button, True)
        say(self.status, f"Locked: you predict {said}. Now try the experiment, then press Show "
                         "the exact answer.")
        return True

    def run_once(self) -> str | None:
        """Run the experiment once (after the lock) and list what it says; None if it did not."""
        if self.run_function is None:
            return None
        if not self.locked:
            say(self.status, "Lock your prediction first: then the experiment opens.", True)
            return None
        assert self._rng is not None
        try:
            line = self.run_function(self._rng)
        except ValueError as e:
            say(self.status, str(e), error=True)
            return None
        if not isinstance(line, str):
            say(self.status, f"the experiment gave {type(line).__name__}, not a line of text",
                True)
            return None
        self.results.insert(0, line)
        del self.results[MAX_RESULTS:]
        self.results_html.value = log_html(self.results, "Your experiment, newest first")
        say(self.status, f"Experiment: {line}")
        return line

    def _tries(self, rng: np.random.Generator) -> str:
        assert self.tally is not None
        hits = 0
        for _ in range(self.trials):
            happened = self.trial(rng)
            if not isinstance(happened, bool | np.bool_):
                raise ValueError(f"a try says yes or no (True or False), not {happened!r}"[:200])
            hits += bool(happened)
        return self.tally.add(hits, self.trials)

    def _restart(self, seed: int) -> str:
        self._rng = make_rng(seed)
        if self.tally is not None:
            self.tally.reset()
        self.results = []
        self.results_html.value = ""
        return f"The experiment starts again with seed {seed}."

    def reveal(self) -> Verdict | None:
        """Show the exact answer and how far off the locked prediction was (None before a lock)."""
        if not self.locked:
            say(self.status, "Lock your prediction first: then the exact answer opens.", True)
            return None
        try:
            exact = self._answer() if callable(self._answer) else self._answer
            self.score = self.question.score(self.prediction, exact)
        except ValueError as e:
            say(self.status, f"the exact answer could not be worked out: {e}"[:300], True)
            return None
        self.revealed = True
        s = self.score
        words = esc(s.text)
        if s.right:
            words = f"<b class='hk-right'>{words}</b>"
        why = f"<div>{esc(self.explain)}</div>" if self.explain else ""
        if self.tally is not None and self.tally.tries:
            why += f"<div>{esc(self.tally.text)}</div>"
        self.answer_html.value = (f"<div class='hk-answer' role='region' aria-label='The exact "
                                  f"answer'><div>{words}</div>{why}</div>")
        set_shown(self.answer_html, True)
        set_shown(self.reveal_button, False)
        if self.key is not None:
            self.add_class(REVEALED_CLASS + self.key)
        say(self.status, "The exact answer is open, below.")
        return s

    def again(self) -> None:
        """Clear the prediction, the answer and the experiment's results: predict afresh."""
        before = self.question.say(self.prediction) if self.prediction is not None else None
        self.prediction, self.locked, self.revealed, self.score = None, False, False, None
        if self.key is not None:
            self.remove_class(REVEALED_CLASS + self.key)
        self.input.disabled = False
        self._show_reading()
        if self._hidden:  # nothing to hide before the first lock
            set_shown(self.experiment_box, False)
            set_shown(self.reveal_button, False)
            self.answer_html.value = ""
            set_shown(self.answer_html, False)
            set_shown(self.again_button, False)
        earlier = f" (your last prediction was {before})" if before else ""
        say(self.status, self._ask() + earlier)

    @property
    def answer_text(self) -> str:
        """What the answer box says now, as plain text ('' before the answer is shown)."""
        if not self._hidden:
            return ""
        return " ".join(html_text.unescape(re.sub(r"<[^>]+>", " ", self.answer_html.value)).split())

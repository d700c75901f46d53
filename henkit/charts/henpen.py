"""Henpen charts: one roll, the law of large numbers, bust chances, how a turn ends, the solver.

Every number drawn comes from the engine (`henkit.henpen.distributions`, `odds`, `dice`);
these functions only draw it. Chances are floats on the axes and exact fractions in the
hover text where the engine gives them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    LABEL_SIZE,
    MIXED_COLOUR,
    NEUTRAL_COLOUR,
    ROLL_COLOUR,
    SEQUENTIAL_SCALE,
    SIMULATED_COLOUR,
    STOP_COLOUR,
    TIE_COLOUR,
    face_colour,
    figure,
    layout,
    series_colour,
)
from henkit.checks import whole
from henkit.henpen.dice import FACES, WORM, check_face, face_name
from henkit.henpen.distributions import (
    bust_chances,
    decision_map,
    face_count_distribution,
    simulate_face_counts,
    turn_outlook,
)
from henkit.henpen.odds import EndDistribution, TurnSolution
from henkit.henpen.odds import chance_at_least as best_chance_at_least
from henkit.henpen.rules import Claim, Rules
from henkit.henpen.state import State
from henkit.results import binomial_band, check_distribution, frequencies, running_frequency

__all__ = [
    "bust_heatmap",
    "chance_at_least_chart",
    "end_distribution_chart",
    "law_of_large_numbers_chart",
    "policy_map",
    "roll_count_chart",
    "turn_outlook_chart",
]

MAX_LINE_POINTS = 2000
"""A running-frequency line keeps at most this many points (spread evenly on a log scale)."""



def _flag(value: object, name: str) -> bool:
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, not {value!r}"[:300])


def _frac_text(p: Any) -> str:
    """' (= 1/6)' for a Fraction that is not 0 or 1, else ''."""
    if isinstance(p, Fraction) and p.denominator != 1:
        return f" (= {p.numerator}/{p.denominator})"
    return ""


# -- one roll ----------------------------------------------------------------------------------


def roll_count_chart(
    n: int,
    face: int = WORM,
    simulated: Sequence[int] | np.ndarray | int | np.random.Generator | None = None,
    rolls: int = 1000,
) -> go.Figure:
    """Exact chance of k dice showing `face` in a roll of n, with simulated frequencies beside it.

    `simulated`: None (exact only); observed counts (dice showing the face, one per roll); or a
    seed / numpy Generator to simulate `rolls` rolls with.
    """
    exact = face_count_distribution(n, face)
    face = check_face(face)
    name = face_name(face, plural=True)
    ks = list(range(len(exact)))
    data: list[dict[str, Any]] = [{
        "type": "bar", "name": "exact", "x": ks, "y": [float(p) for p in exact],
        "marker": {"color": EXACT_COLOUR},
        # The exact chances in plain sight (a projected class sees no hover text).
        "text": [_percent(p) for p in exact], "textposition": "outside",
        "textfont": {"size": LABEL_SIZE}, "cliponaxis": False,
        "customdata": [_frac_text(p) for p in exact],
        "hovertemplate": f"exactly %{{x}} {name}: %{{y:.4f}}%{{customdata}}<extra>exact</extra>",
    }]
    if simulated is not None:
        if isinstance(simulated, int | np.integer | np.random.Generator) and not isinstance(
            simulated, bool
        ):
            observed = simulate_face_counts(n, face, rolls, simulated)
        else:
            observed = np.asarray(simulated)
            if observed.ndim != 1 or observed.size == 0 or not np.issubdtype(
                observed.dtype, np.integer
            ):
                raise ValueError("simulated must be a seed, a Generator, or a non-empty list of "
                                 f"whole counts (dice showing the face in each roll), not {simulated!r}")
            if observed.min() < 0 or observed.max() > n:
                raise ValueError(f"simulated counts must be from 0 to {n} (dice rolled)")
        tally, shares = frequencies(observed, n + 1)
        total = int(observed.size)
        data.append({
            "type": "bar", "name": f"simulated ({total:,} rolls)", "x": ks,
            "y": shares.tolist(), "marker": {"color": SIMULATED_COLOUR},
            "customdata": tally.tolist(),
            "hovertemplate": (f"exactly %{{x}} {name}: %{{y:.4f}} (%{{customdata}} of {total:,} "
                           "rolls)<extra>simulated</extra>"),
        })
    title = f"How many of {n} dice show {'a worm' if face == WORM else 'a ' + face_name(face)}"
    lay = layout(title, f"dice showing {name} (of {n})", "probability", chance_axis="y",
                 barmode="group", xaxis={"dtick": 1})
    return figure(data, lay)


# -- the law of large numbers ------------------------------------------------------------------


def _log_spaced(n: int, most: int) -> np.ndarray:
    """Up to `most` distinct indices 0..n-1, evenly spread on a log scale (always the last one)."""
    if n <= most:
        return np.arange(n)
    idx = np.unique(np.geomspace(1, n, most).astype(np.int64)) - 1
    return idx


def law_of_large_numbers_chart(
    exact: float | Fraction,
    outcomes: Sequence[bool] | np.ndarray,
    event: str = "the event",
    band: bool = True,
    log_x: bool = True,
) -> go.Figure:
    """Running frequency of an event over trials, converging to its exact chance (a line).

    `outcomes`: one bool per trial (did the event happen). `band` shades exact +- 1.96
    standard errors, where about 95% of running frequencies lie at each number of trials.
    The numbers are `henkit.results.running_frequency` and `binomial_band`.
    """
    band, log_x = _flag(band, "band"), _flag(log_x, "log_x")
    if not isinstance(event, str):
        raise ValueError(f"event must be text (what happened in a trial), not {event!r}"[:300])
    if isinstance(exact, bool | np.bool_) or not isinstance(
            exact, int | float | Fraction | np.integer | np.floating):
        raise ValueError(f"exact must be a chance between 0 and 1, not {exact!r}")
    p = float(exact)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"exact must be a chance between 0 and 1, not {exact!r}")
    trials, running = running_frequency(outcomes)
    keep = _log_spaced(trials.size, MAX_LINE_POINTS)
    x = trials[keep].tolist()
    data: list[dict[str, Any]] = []
    if band:
        # z = 1.96, the textbook's rounded 95% quantile, as the notebooks have always drawn it.
        low, high = binomial_band(p, trials[keep], z=1.96)
        data.append({"type": "scatter", "mode": "lines", "x": x, "y": high.tolist(),
                         "line": {"width": 0}, "hoverinfo": "skip", "showlegend": False,
                         "name": "95% band (upper edge)"})
        data.append({"type": "scatter", "mode": "lines", "x": x, "y": low.tolist(),
                         "line": {"width": 0}, "fill": "tonexty", "fillcolor": "rgba(0,114,178,0.15)",
                         "name": "95% of runs fall here", "hoverinfo": "skip"})
    data.append({
        "type": "scatter", "mode": "lines", "name": "running frequency", "x": x,
        "y": running[keep].tolist(), "line": {"color": SIMULATED_COLOUR, "width": 3},
        "hovertemplate": "after %{x:,} trials: %{y:.4f}<extra>running frequency</extra>",
    })
    data.append({
        "type": "scatter", "mode": "lines", "name": f"exact chance {p:.4f}", "x": [1, int(trials[-1])],
        "y": [p, p], "line": {"color": EXACT_COLOUR, "width": 3, "dash": "dash"},
        "hovertemplate": f"exact chance: {p:.4f}{_frac_text(exact)}<extra></extra>",
    })
    lay = layout(f"Law of large numbers: frequency of {event}", "number of trials",
                 f"frequency of {event} so far", chance_axis="y",
                 xaxis={"type": "log" if log_x else "linear"})
    return figure(data, lay)


def _percent(p: Any) -> str:
    """A chance as a short percentage that never shows a non-zero chance as 0: '<0.1%'."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    return "<0.1%" if p < Fraction(1, 1000) else f"{float(p):.1%}"


# -- bust chance -------------------------------------------------------------------------------


def bust_heatmap(max_dice: int = 8) -> go.Figure:
    """Exact chance that the next roll is a bust, by dice left (1..max_dice) and faces taken (0..6)."""
    max_dice = whole(max_dice, "max_dice", 1, 20)
    dice = list(range(1, max_dice + 1))
    taken_counts = list(range(len(FACES) + 1))
    exact = bust_chances(max_dice)
    z = [[float(p) for p in row] for row in exact]
    text = [[_frac_text(p).removeprefix(" (= ").removesuffix(")") or str(p) for p in row]
            for row in exact]
    shown = [[_percent(p) for p in row] for row in exact]
    data = [{
        "type": "heatmap", "x": dice, "y": taken_counts, "z": z, "zmin": 0, "zmax": 1,
        "colorscale": [list(s) for s in SEQUENTIAL_SCALE],
        "colorbar": {"title": {"text": "bust chance"}, "tickformat": ".0%"},
        "text": shown, "texttemplate": "%{text}", "textfont": {"size": LABEL_SIZE},
        "customdata": text,
        "hovertemplate": ("%{x} dice to roll, %{y} faces taken:<br>bust chance %{z:.4f} "
                       "(= %{customdata})<extra></extra>"),
    }]
    lay = layout("Chance the next roll is a bust", "dice left to roll", "faces already taken",
                 xaxis={"dtick": 1}, yaxis={"dtick": 1})
    return figure(data, lay)


# -- how a turn ends ---------------------------------------------------------------------------


def _check_dists(dists: Mapping[str, EndDistribution]) -> dict[str, EndDistribution]:
    if not isinstance(dists, Mapping) or not dists:
        raise ValueError("give at least one end distribution, as {policy name: EndDistribution}")
    out = {}
    for name, d in dists.items():
        if not isinstance(d, EndDistribution):
            raise ValueError(f"{name!r} must map to an EndDistribution (e.g. "
                             f"solution.end_distribution()), not {type(d).__name__}")
        check_distribution([d.fail, *d.at_total], f"the chances of {name!r}")
        out[str(name)] = d
    return out


def end_distribution_chart(
    dists: Mapping[str, EndDistribution], title: str = "How a turn ends"
) -> go.Figure:
    """Chance of each end total (stopping with a worm) and of failing, several policies overlaid."""
    dists = _check_dists(dists)
    reached = [t for d in dists.values() for t, p in enumerate(d.at_total) if p]
    lo, hi = (min(reached), max(reached)) if reached else (0, 0)
    cats = ["failed", *map(str, range(lo, hi + 1))]
    data = []
    for i, (name, d) in enumerate(dists.items()):
        probs = [d.fail, *(d.chance_exactly(t) for t in range(lo, hi + 1))]
        data.append({
            "type": "bar", "name": name, "x": cats, "y": [float(p) for p in probs],
            "marker": {"color": series_colour(i)},
            # The chance of failing, which the lessons compare, written on its bar.
            "text": [_percent(d.fail), *([""] * (len(cats) - 1))], "textposition": "outside",
            "textfont": {"size": LABEL_SIZE}, "cliponaxis": False,
            "customdata": [_frac_text(p) for p in probs],
            "hovertemplate": f"{name}<br>end %{{x}}: %{{y:.4f}}%{{customdata}}<extra></extra>",
        })
    # The "failed" column sits on a light band of the failure colour.
    band = {"type": "rect", "xref": "x", "yref": "paper", "x0": -0.5, "x1": 0.5, "y0": 0,
            "y1": 1, "fillcolor": FAIL_COLOUR, "opacity": 0.12, "line": {"width": 0},
            "layer": "below"}
    lay = layout(title, "end of the turn: failed, or the total stopped at (with a worm)",
                 "probability", chance_axis="y", barmode="group", shapes=[band],
                 xaxis={"type": "category", "categoryorder": "array", "categoryarray": cats})
    return figure(data, lay)


def chance_at_least_chart(
    dists: Mapping[str, EndDistribution],
    targets: Iterable[int] | None = None,
    best: bool = False,
    rules: Rules | None = None,
) -> go.Figure:
    """Chance of ending a turn at a total of at least T, for each T, under several policies.

    `best=True` adds the most any play can reach for each T (the solver run once per T).
    """
    dists = _check_dists(dists)
    best = _flag(best, "best")
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise ValueError(f"rules must be henkit.henpen Rules or None, not {rules!r}"[:300])
    if targets is not None and (isinstance(targets, str | bytes | dict)
                                or not isinstance(targets, Iterable)):
        raise ValueError(f"targets must be a list of totals, not {targets!r}"[:300])
    ts = list(rules.tiles if targets is None else targets)
    if not ts:
        raise ValueError("targets must list at least one total")
    ts = [whole(t, "target", 0) for t in ts]
    data = []
    for i, (name, d) in enumerate(dists.items()):
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": name, "x": ts,
            "y": [float(d.chance_at_least(t)) for t in ts],
            "line": {"color": series_colour(i), "width": 3}, "marker": {"size": 9},
            "hovertemplate": f"{name}<br>at least %{{x}}: %{{y:.4f}}<extra></extra>",
        })
    if best:
        data.append({
            "type": "scatter", "mode": "lines", "name": "best possible for each T", "x": ts,
            "y": [float(best_chance_at_least(t, rules=rules)) for t in ts],
            "line": {"color": NEUTRAL_COLOUR, "width": 2, "dash": "dot"},
            "hovertemplate": "playing only for at least %{x}: %{y:.4f}<extra></extra>",
        })
    lay = layout("Chance of ending the turn with at least T", "T (the total aimed for)",
                 "probability", chance_axis="y")
    return figure(data, lay)


# -- the solver's stop-or-roll map -------------------------------------------------------------

_ROLL, _MIXED, _TIE, _STOP = 0.0, 1 / 3, 2 / 3, 1.0


def policy_map(solution: TurnSolution, taken: Iterable[int] | None = None) -> go.Figure:
    """Where the optimal play stops or rolls, by total and dice left (worm already taken).

    With `taken` (a set of faces including the worm): the decision at every reachable moment
    with exactly those faces taken. Without: over every set of taken faces with a worm, 'stop'
    or 'roll' when the solver always does so at that total and dice left, else 'depends'.
    'Same value' marks moments where stopping and rolling are worth exactly the same (e.g. both
    certain to fail), where the solver's tie rule (stop) decides.
    """
    dmap = decision_map(solution, taken)
    what, dice, totals = dmap.what, list(dmap.dice), list(dmap.totals)
    shade = {"tie": (_TIE, "same value either way"), "stop": (_STOP, "stop"),
             "roll": (_ROLL, "roll")}
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    for d in dice:
        zr: list[float | None] = []
        tr: list[str] = []
        for t in totals:
            kind = dmap.kind(d, t)
            if kind is None:
                zr.append(None)
                tr.append("")
            elif kind == "depends":
                got = dmap.cells[(d, t)]
                zr.append(_MIXED)
                tr.append(f"depends on the faces taken (stop in {got.count('stop')} of "
                          f"{len(got)})")
            else:
                zr.append(shade[kind][0])
                tr.append(shade[kind][1])
        z.append(zr)
        text.append(tr)
    legend = (("stop", STOP_COLOUR), ("roll", ROLL_COLOUR), ("same value", TIE_COLOUR),
              ("depends on the faces taken", MIXED_COLOUR))
    scale = [[0.0, ROLL_COLOUR], [0.16, ROLL_COLOUR], [0.17, MIXED_COLOUR], [0.5, MIXED_COLOUR],
             [0.51, TIE_COLOUR], [0.83, TIE_COLOUR], [0.84, STOP_COLOUR], [1.0, STOP_COLOUR]]
    data: list[dict[str, Any]] = [{
        "type": "heatmap", "x": totals, "y": dice, "z": z, "zmin": 0, "zmax": 1,
        "colorscale": scale, "showscale": False, "customdata": text, "xgap": 1, "ygap": 1,
        "hovertemplate": "total %{x}, %{y} dice left: %{customdata}<extra></extra>",
    }]
    shown = {x.split(" (")[0] for row in text for x in row if x}
    for label, colour in legend:
        if label == "same value" and "same value either way" not in shown:
            continue
        if label.startswith("depends") and "depends on the faces taken" not in shown:
            continue
        data.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                     "name": label, "marker": {"color": colour, "symbol": "square", "size": 16}})
    lay = layout(f"The optimal play: stop or roll? ({what})", "total so far", "dice left to roll",
                 xaxis={"dtick": 2}, yaxis={"dtick": 1},
                 legend={"orientation": "h", "y": -0.25})
    return figure(data, lay)


# -- the dice tray's outlook -------------------------------------------------------------------


def _claim_label(claim: Claim) -> str:
    return str(claim.tile) if claim.owner is None else f"{claim.tile} (steal from P{claim.owner + 1})"


def turn_outlook_chart(state: State, steal_weight: Fraction | int = 0) -> go.Figure:
    """The dice tray's live chart: chance of ending this turn on each serving, or failing."""
    outlook = turn_outlook(state, steal_weight)
    fail = outlook.pop(None)
    claims = sorted(outlook, key=lambda c: (c.tile, c.owner is not None, c.owner or 0))
    rules = state.rules
    x = ["fail", *(_claim_label(c) for c in claims)]
    y = [fail, *(outlook[c] for c in claims)]
    worms = [f"loses {rules.worms(state.top(state.player))} worm(s)"
             if state.top(state.player) is not None else "no serving"]
    worms += [f"{c} ({rules.worms(c.tile)} worm{'s' if rules.worms(c.tile) > 1 else ''})"
              for c in claims]
    colours = [FAIL_COLOUR, *(face_colour(WORM) if c.owner is None else NEUTRAL_COLOUR
                              for c in claims)]
    data = [{
        "type": "bar", "x": x, "y": y, "marker": {"color": colours}, "customdata": worms,
        "texttemplate": "%{y:.0%}", "textposition": "outside",
        "hovertemplate": "%{customdata}: %{y:.1%}<extra></extra>",
    }]
    lay = layout(f"Where this turn ends, playing on optimally (player {state.player + 1})",
                 "serving taken at the end of the turn", "probability", chance_axis="y",
                 xaxis={"type": "category"}, yaxis={"range": [0, 1.1]}, showlegend=False)
    return figure(data, lay)

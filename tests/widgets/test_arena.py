"""The arena widget, clicked headlessly with a serial executor."""

from __future__ import annotations

from concurrent.futures import Executor, Future

import pytest

from henkit.arena import run_tournament
from henkit.widgets import Arena
from henkit.widgets.common import status_text

PLOTLY = "application/vnd.plotly.v1+json"


class SerialExecutor(Executor):
    """Runs every task at once in this thread (the smallest real Executor)."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, fn, /, *args, **kwargs):
        self.tasks += 1
        f: Future = Future()
        f.set_result(fn(*args, **kwargs))
        return f


def test_a_small_seeded_tournament_runs_and_shows_table_charts_and_progress():
    ex = SerialExecutor()
    a = Arena("henpen", ["optimal", "greedy"], games=8, seed=4, executor=ex)
    seen = []
    a.progress.observe(lambda c: seen.append(c["new"]), names="value")
    a.run_button.click()
    t = a.tournament
    assert ex.tasks > 0  # the games ran on the given executor
    assert t is not None and t.games == 8
    assert t.records == run_tournament("henpen", ["optimal", "greedy"], 8, 4).records
    assert a.progress.value == a.progress.max == 8 and seen[-1] == 8
    for s in t.summary():
        assert f"<th scope='row'>{s.bot}</th><td>{s.games}</td>" in a.table_html.value
        assert f"{s.win_rate:.1%}" in a.table_html.value
    figs = [o["data"][PLOTLY] for o in a.charts.outputs]
    assert len(figs) == 2
    assert figs[0]["data"][0]["y"] == [s.win_rate for s in t.summary()]
    assert "Played 8 games" in status_text(a.status)


def test_the_same_seed_gives_the_same_results_and_another_seed_others():
    def table(seed: int) -> str:
        a = Arena("hens", ["greedy", "random"], games=4, seed=seed, executor=SerialExecutor(),
                  show_chart=False)
        a.run()
        return a.table_html.value

    assert table(1) == table(1)
    assert table(1) != table(2)


def test_the_status_says_how_many_games_came_from_the_results_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HENKIT_CACHE", str(tmp_path))
    a = Arena("hens", ["greedy", "random"], games=4, seed=3, executor=SerialExecutor(),
              show_chart=False)
    a.run()
    first = a.table_html.value
    assert status_text(a.status).startswith("Played 4 games (seed 3). Most wins: ")
    a.run()
    assert status_text(a.status).startswith(
        "4 games (seed 3): 0 played, 4 read from henkit's results cache. Most wins: ")
    assert a.table_html.value == first
    a.games.value = 6
    a.run()
    assert status_text(a.status).startswith(
        "6 games (seed 3): 2 played, 4 read from henkit's results cache. Most wins: ")
    assert a.progress.value == a.progress.max == 6


def test_switching_games_offers_that_games_bots_and_seats():
    a = Arena()
    a.game_select.value = "hens"
    assert a.bots == ["lookahead", "greedy"] and a.seats.max == 4
    assert set(a.bot_selects[0].options) == {"lookahead", "greedy", "random"}
    a.seats.value = 3
    assert len(a.bots) == 3 and a.bot_selects[2].description == "Seat 3"
    a.game_select.value = "henpen"
    assert a.bots == ["optimal", "greedy"] and a.seats.max == 7


def test_errors_from_the_tournament_are_shown_not_swallowed():
    a = Arena("henpen", ["optimal", "greedy"], games=2, executor=SerialExecutor())
    a.set_bots(["optimal", "threshold:x"])
    assert a.run() is None
    assert "threshold" in status_text(a.status) and status_text(a.status).startswith("Not allowed")
    assert a.tournament is None and not a.run_button.disabled
    with pytest.raises(ValueError, match="2 to 4 bots"):
        Arena("hens", ["greedy"] * 5)
    with pytest.raises(ValueError, match="game must be"):
        Arena("chess")


def test_every_control_has_a_label():
    a = Arena()
    for c in [a.game_select, a.seats, a.games, a.seed, a.rotate, a.progress, *a.bot_selects]:
        assert c.description
    assert a.run_button.description and a.run_button.tooltip

"""The dashboard benchmark's own-device split: which cores the browser and the servers get."""

from __future__ import annotations

import os
import signal

import pytest

from benchmarks import bench_dashboards


def test_the_browser_gets_the_last_core_and_the_servers_the_rest(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {4, 1, 7, 2})
    assert bench_dashboards.device_cores() == ({7}, {1, 2, 4})


def test_two_cores_make_two_devices_of_one_core_each(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert bench_dashboards.device_cores() == ({1}, {0})


def test_one_core_cannot_be_split_and_says_which_it_has(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})
    with pytest.raises(ValueError, match=r"two cores or more.*\[3\]"):
        bench_dashboards.device_cores()


def test_the_command_line_refuses_own_device_on_one_core_before_any_browser(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    pool, on_term = os.environ.get("HENKIT_CLASS_DB"), signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as stop:
        bench_dashboards.main(["--parts", "floor", "--own-device"])
    assert stop.value.code == 2  # a usage error,
    # raised before the run points the class pool elsewhere or takes over SIGTERM
    assert os.environ.get("HENKIT_CLASS_DB") == pool
    assert signal.getsignal(signal.SIGTERM) == on_term


def test_the_resolved_summary_names_each_page_by_its_number_and_counts_within():
    from benchmarks.ratios import Ratio

    ratios = {"09_playing_to_win.ipynb": Ratio(1.0, 0.96, 1.03, 12),
              "09b_before_explorer.ipynb": Ratio(1.25, 1.12, 1.32, 12),
              "10_spread_risk_and_waiting.ipynb": Ratio(1.12, 1.03, 1.20, 12),
              "11_learning_vs_solving.ipynb": Ratio(1.0, 0.9, 1.05, 4)}  # too few rounds
    result = bench_dashboards.resolved_summary("cold", ratios)
    assert result.value == 1
    assert result.note == ("within: 09; over: 09b; not resolved: 10, 11; "
                           "point estimates within: 2")


def _cell(kind: str, widget: bool = False) -> dict:
    outputs = [{"output_type": "display_data",
                "data": {bench_dashboards.WIDGET_VIEW: {"model_id": "m"}} if widget
                else {"text/plain": "x"}}]
    return ({"cell_type": "markdown", "source": "text"} if kind == "markdown" else
            {"cell_type": "code", "source": "x", "outputs": outputs if kind != "bare" else []})


def test_the_first_widget_cell_is_the_first_with_a_saved_widget_output():
    notebook = {"cells": [_cell("markdown"), _cell("code"), _cell("bare"),
                          _cell("code", widget=True), _cell("code", widget=True)]}
    assert bench_dashboards.first_widget_cell(notebook) == 3


def test_a_notebook_without_a_saved_widget_cannot_be_split():
    with pytest.raises(ValueError, match="no cell of the notebook has a saved widget output"):
        bench_dashboards.first_widget_cell({"cells": [_cell("markdown"), _cell("code")]})


def test_the_cut_copies_keep_the_head_and_the_text_or_the_code_after_it(tmp_path):
    import json

    from tests.browser.browsing import SITE

    lesson = (SITE / "05_hens_deck_and_drawing.ipynb").resolve()
    whole = json.loads(lesson.read_text())["cells"]
    first, names = bench_dashboards.split_notebooks(lesson, tmp_path)
    assert first == bench_dashboards.first_widget_cell({"cells": whole})
    assert names == {k: f"05{k}_hens_deck_and_drawing.ipynb" for k in "htc"}
    cut = {k: json.loads((tmp_path / n).read_text())["cells"] for k, n in names.items()}
    assert cut["h"] == whole[:first + 1]
    later = whole[first + 1:]
    assert cut["t"] == whole[:first + 1] + [c for c in later if c["cell_type"] == "markdown"]
    assert cut["c"] == whole[:first + 1] + [c for c in later if c["cell_type"] == "code"]
    # every later cell is in one of the two, and the lesson's file is untouched
    assert len(cut["t"]) + len(cut["c"]) - len(cut["h"]) == len(whole)
    assert json.loads(lesson.read_text())["cells"] == whole


def test_the_split_and_whole_html_parts_run_only_when_named():
    parts = bench_dashboards.default_parts()
    assert "split" not in parts and "whole-html" not in parts and "floor" in parts
    assert set(parts) | {"split", "whole-html"} == set(bench_dashboards.PARTS)
    assert bench_dashboards.check_parts(["split", "floor"]) == ["floor", "split"]

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

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

"""Fixtures for the widget tests: the kernel seen as a dashboard's or a notebook's."""

from __future__ import annotations

import pytest

from henkit.display import DASHBOARD_ENV


@pytest.fixture
def dashboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """This kernel looks like a Voilà dashboard's."""
    monkeypatch.setenv(DASHBOARD_ENV, "/")


@pytest.fixture
def notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """This kernel looks like a notebook's (JupyterLab, nbval)."""
    monkeypatch.delenv(DASHBOARD_ENV, raising=False)

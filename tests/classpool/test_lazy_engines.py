"""The class pool imports neither game engine: a Henpen lesson's widget does not import the Hens
engine to record its rolls, nor a Hens lesson's the Henpen one; the observer still tells the two
games apart (tests/classpool/test_observe.py records both)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from henkit.classpool import observe
from henkit.henpen.state import State as HenpenState
from henkit.hens.state import State as HensState


def loaded_after(code: str, pool: Path) -> set[str]:
    """The henkit modules a fresh interpreter has loaded after running `code` (its widgets
    recording to the class pool `pool`)."""
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint(' '.join(m for m in sys.modules "
         "if m.startswith('henkit')))"], capture_output=True, text=True, check=True,
        env={**os.environ, "HENKIT_CLASS_DB": str(pool)})
    return set(out.stdout.split())


def test_a_henpen_widget_records_without_the_hens_engine(tmp_path: Path) -> None:
    loaded = loaded_after("from henkit.widgets import HenpenTable\nHenpenTable(seed=1)",
                          tmp_path / "pool.sqlite3")
    assert {"henkit.classpool.observe", "henkit.henpen.state"} <= loaded
    assert not {"henkit.hens.state", "henkit.hens.actions", "henkit.hens.rules",
                "henkit.hens.scoring"} & loaded


def test_a_hens_widget_records_without_the_henpen_engine(tmp_path: Path) -> None:
    loaded = loaded_after("from henkit.widgets import BarnyardGame\nBarnyardGame(seed=1)",
                          tmp_path / "pool.sqlite3")
    assert {"henkit.classpool.observe", "henkit.hens.state"} <= loaded
    assert not {"henkit.henpen.state", "henkit.henpen.actions", "henkit.henpen.bots"} & loaded


def test_states_are_told_apart_by_their_engine() -> None:
    henpen, hens = HenpenState.new(2), HensState.new(2, seed=1)
    assert observe._is_state_of(henpen, "henkit.henpen.state")
    assert not observe._is_state_of(henpen, "henkit.hens.state")
    assert observe._is_state_of(hens, "henkit.hens.state")
    assert not observe._is_state_of(hens, "henkit.henpen.state")
    assert not observe._is_state_of(object(), "henkit.no_such_engine")

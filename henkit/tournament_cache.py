"""Finished tournament games kept on disk and shared by every process of this machine.

A tournament's games are a pure function of its settings: the game, the bot specs, the rules,
the seed and the seating rule fix every game (see `henkit.arena`). So a class of thirty opening
the arena dashboard need not replay the same seeded tournaments thirty times, one kernel each
on a two-core server: the first kernel plays them (a preheated one, usually, before anyone
arrives) and the others read its records.

The key is those settings plus a fingerprint of henkit's own source code and of the Python and
numpy versions, so that changing any rule or bot starts afresh instead of reading games the new
code would not play. One entry holds the longest run played with its settings: a shorter run
reads a prefix (game g depends on the seed and g alone), a longer one plays only the games after.

Where: the directory named by $HENKIT_CACHE, else $XDG_CACHE_HOME/henkit, else ~/.cache/henkit;
HENKIT_CACHE=off turns the cache off. Entries are JSON, never pickle (reading a cache must not
be a way to run code); they are written to a temporary file and renamed into place, so a reader
never sees half an entry. An entry that does not parse or match its key is ignored and replaced.
Beyond MAX_ENTRIES the least recently used entries are removed. A cache that cannot be read or
written (a read-only disk) is skipped: it never stops a tournament.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["MAX_ENTRIES", "OFF", "cache_dir", "fingerprint", "load", "store"]

OFF = "off"
"""HENKIT_CACHE=off turns the cache off."""
MAX_ENTRIES = 500
"""Entries kept; a tournament's entry is a few kB per hundred games."""

Row = list[Any]
"""One game as stored: [seed, seats, totals, winners, first_player]."""


def cache_dir() -> Path | None:
    """The cache's directory from the environment (see the module note), or None when off."""
    chosen = os.environ.get("HENKIT_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() == OFF else Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "henkit"


HERE = Path(__file__).resolve().parent
"""The installed henkit package."""


def _source_fingerprint(root: Path = HERE) -> str:
    # Every .py file of the installed henkit, path and bytes: any edit gives a new fingerprint.
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    digest.update(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    digest.update(f"numpy {np.__version__}".encode())
    return digest.hexdigest()


# Taken when henkit.arena is imported, so it describes the code this process runs even if the
# files are edited later.
_FINGERPRINT = _source_fingerprint()


def fingerprint() -> str:
    """A digest of henkit's source and the Python and numpy versions (part of every key)."""
    return _FINGERPRINT


def _path(folder: Path, key: dict[str, Any]) -> Path:
    text = json.dumps({"code": _FINGERPRINT, **key}, sort_keys=True)
    return folder / f"{hashlib.sha256(text.encode()).hexdigest()}.json"


def load(key: dict[str, Any], check: Callable[[int, Row], bool] = lambda g, row: True) -> list[Row]:
    """The stored games for these settings, in game order; [] if none.

    `check(g, row)` says whether row g is a game these settings could have played; an entry
    with a row that fails it is damaged, and is removed.
    """
    folder = cache_dir()
    if folder is None:
        return []
    path = _path(folder, key)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    rows = data.get("games") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("key") != {"code": _FINGERPRINT, **key}
        or not isinstance(rows, list)
        or not all(check(g, row) for g, row in enumerate(rows))
    ):
        with contextlib.suppress(OSError):
            path.unlink()
        return []
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: among the last to be removed
    return rows


def store(key: dict[str, Any], rows: list[Row]) -> None:
    """Keep these games for these settings, unless the cache already holds as many or more."""
    folder = cache_dir()
    if folder is None or not rows:
        return
    path = _path(folder, key)
    if len(load(key)) >= len(rows):
        return
    text = json.dumps({"key": {"code": _FINGERPRINT, **key}, "games": rows})
    temp: Path | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False) as f:
            temp = Path(f.name)
            f.write(text)
        os.replace(temp, path)
    except OSError:
        if temp is not None:
            with contextlib.suppress(OSError):
                temp.unlink()
        return
    _prune(folder)


def _prune(folder: Path) -> None:
    # Least recently used first (load touches an entry). Another process may prune at the same
    # time: a file already gone is fine.
    try:
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
    except OSError:
        return
    for old in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        with contextlib.suppress(OSError):
            old.unlink()

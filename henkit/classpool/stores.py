"""Opening a class pool: an SQLite file or a PostgreSQL URL, from the caller or HENKIT_CLASS_DB."""

from __future__ import annotations

import os
from pathlib import Path

from henkit.classpool.base import ClassStore
from henkit.classpool.postgres import URL, PostgresStore
from henkit.classpool.sqlite import SQLiteStore

ENV = "HENKIT_CLASS_DB"
"""The environment variable naming the class pool: a file path or a postgresql:// URL."""
FILE_NAME = "class.sqlite3"


def default_data_dir() -> Path:
    """Where henkit keeps its data when no folder is given: $XDG_DATA_HOME/henkit
    (~/.local/share/henkit when XDG_DATA_HOME is unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "henkit"


def default_target(data_dir: str | os.PathLike[str] | None = None) -> str:
    """The class pool used when none is named: HENKIT_CLASS_DB if set, else class.sqlite3 in
    `data_dir` (default: `default_data_dir()`)."""
    env = os.environ.get(ENV, "").strip()
    if env:
        return env
    if data_dir is not None and (isinstance(data_dir, bytes) or
                                 not isinstance(data_dir, str | os.PathLike) or not str(data_dir)):
        raise ValueError(f"data_dir is a folder path or None, not {data_dir!r}")
    return str(Path(data_dir or default_data_dir()) / FILE_NAME)


def open_store(target: str | os.PathLike[str] | None = None, *,
               data_dir: str | os.PathLike[str] | None = None) -> ClassStore:
    """The class pool `target` names: a postgresql:// URL, else an SQLite file path.

    None: the environment's HENKIT_CLASS_DB, else `class.sqlite3` in `data_dir` (the server's
    data folder) or in `default_data_dir()`. Connecting waits for the first use, so opening
    never fails for a store that is down (its first use raises StoreError).
    """
    if target is None:
        target = default_target(data_dir)
    if isinstance(target, str) and URL.fullmatch(target.strip()):
        return PostgresStore(target.strip())
    if isinstance(target, str) and "://" in target:
        raise ValueError(f"a class pool is a file path or a postgresql://... URL, not {target!r}")
    return SQLiteStore(target)

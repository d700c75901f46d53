"""Finished tournament games kept on disk and shared by every process of one user on a machine.

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
be a way to run code), readable by their owner only; they are written to a temporary file and
renamed into place, so a reader never sees half an entry. An entry that does not parse, or has
a game its settings could not have played, is removed and replayed. Beyond MAX_ENTRIES the least
recently used entries are removed. A cache that cannot be read or written (a read-only disk) is
skipped: it never stops a tournament.

A run holds its entry's lock (`hold`) from reading to storing, so processes that start the same
tournament together play it once. The fingerprint is taken when henkit.arena is imported: a
developer editing henkit's files under a running kernel should restart it (as for any edit,
since modules are imported once).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

try:
    import fcntl
except ImportError:  # Windows has no flock: runs there do not wait for each other
    fcntl = None  # type: ignore[assignment]

__all__ = ["MAX_ENTRIES", "OFF", "cache_dir", "check_key", "digest", "fingerprint", "hold", "load",
           "pack", "store", "unpack"]

OFF = "off"
"""HENKIT_CACHE=off turns the cache off."""
MAX_ENTRIES = 500
"""Entries kept; a tournament's entry is a few kB per hundred games."""

STALE_TEMP_S = 3600
"""A temporary file this old was left by a writer that died: pruning removes it."""
_ENTRY = re.compile(r"[0-9a-f]{64}\.json")
_TEMP = re.compile(r"tmp\w+\.henkit-tmp")

Row = list[Any]
"""One game as stored: [seed, seats, totals, winners, first_player]."""


def cache_dir() -> Path | None:
    """The cache's directory from the environment (see the module note), or None when off."""
    chosen = (os.environ.get("HENKIT_CACHE") or "").strip()
    if chosen:  # (empty counts as unset: it would mean the current directory)
        return None if chosen.lower() == OFF else Path(chosen).expanduser()
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


def check_key(key: object) -> dict[str, Any]:
    """`key` if it is a dict of settings with text keys that JSON can hold; ValueError if not."""
    if not isinstance(key, dict) or not all(isinstance(k, str) for k in key):
        raise ValueError(f"a cache key is a dict of settings with text keys, not {key!r}")
    try:
        json.dumps(key, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise ValueError(f"a cache key must hold JSON values only, not {key!r}") from None
    return key


def _path(folder: Path, key: dict[str, Any]) -> Path:
    text = json.dumps({"code": _FINGERPRINT, **key}, sort_keys=True)
    return folder / f"{hashlib.sha256(text.encode()).hexdigest()}.json"


@contextlib.contextmanager
def hold(key: dict[str, Any]) -> Iterator[None]:
    """Hold the entry for these settings while a run reads, plays and stores it.

    A second process (or thread) running the same tournament meanwhile waits here, then reads
    what the first stored, instead of playing the same games at the same time: the five kernels
    a class server preheats for a dashboard at startup play its tournaments once, not five
    times. The lock (flock) goes with its holder, even one that dies. No lock is taken when the
    cache is off or cannot be written, or where flock does not exist.
    """
    check_key(key)
    folder = cache_dir()
    with contextlib.ExitStack() as stack:  # closing the file releases the lock
        if folder is not None and fcntl is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                lock = stack.enter_context(open(_path(folder, key).with_suffix(".lock"), "a"))
                fcntl.flock(lock, fcntl.LOCK_EX)
            except OSError:
                pass  # no lock: two runs may play the same games, which costs time only
        yield


def load(key: dict[str, Any], check: Callable[[int, Row], bool] = lambda g, row: True) -> list[Row]:
    """The stored games for these settings, in game order; [] if none.

    `check(g, row)` says whether row g is a game these settings could have played; an entry
    with a row that fails it is damaged, and is removed.
    """
    check_key(key)
    if not callable(check):
        raise ValueError(f"check must be a function of (game number, row), not {check!r}")
    folder = cache_dir()
    if folder is None:
        return []
    path = _path(folder, key)
    try:
        text = path.read_text()
    except (OSError, ValueError):
        return []
    try:
        data = json.loads(text)
        rows = data["games"]
        sound = (
            data["key"] == {"code": _FINGERPRINT, **key}
            and isinstance(rows, list)
            and all(check(g, row) for g, row in enumerate(rows))
        )
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):  # damaged, any way
        sound = False
    if not sound:
        with contextlib.suppress(OSError):
            path.unlink()
        return []
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: among the last to be removed
    return rows


def store(key: dict[str, Any], rows: list[Row]) -> None:
    """Keep these games for these settings, unless the cache already holds as many or more."""
    check_key(key)
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise ValueError(f"rows must be a list of games, each a list, not {rows!r}")
    try:
        json.dumps(rows, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise ValueError("rows must hold JSON values only") from None
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
        with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".henkit-tmp", delete=False) as f:
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
    # Least recently used first (load touches an entry), and only files named as entries are:
    # HENKIT_CACHE may name a folder that holds other things. Another process may prune at the
    # same time: a file already gone is skipped.
    used: list[tuple[float, Path]] = []
    now = time.time()
    try:
        names = list(folder.iterdir())
    except OSError:
        return
    for path in names:
        try:
            if _ENTRY.fullmatch(path.name):
                used.append((path.stat().st_mtime, path))
            elif _TEMP.fullmatch(path.name) and now - path.stat().st_mtime > STALE_TEMP_S:
                path.unlink()  # left by a writer that was killed mid-write
        except OSError:
            continue
    used.sort()
    for _, path in used[: max(0, len(used) - MAX_ENTRIES)]:
        for gone in (path, path.with_suffix(".lock")):
            with contextlib.suppress(OSError):
                gone.unlink()


# ----- numpy tables in keys and entries -----------------------------------------------------------
# Other kept results (seeded turn runs, a learner's training) have numpy tables in their key and
# in their entry: these are the one way the cache digests and stores them.


def digest(head: str, tables: Iterable[tuple[str, np.ndarray]]) -> str:
    """A SHA-256 (hex) of a text and named numpy tables (each table's dtype, shape and bytes)."""
    if not isinstance(head, str):
        raise ValueError(f"digest needs a text to start from, not {head!r}"[:200])
    try:
        named = [(name, np.ascontiguousarray(table)) for name, table in tables]
    except (TypeError, ValueError):
        raise ValueError("digest needs (name, numpy array) pairs to digest") from None
    out = hashlib.sha256(head.encode())
    for name, table in named:
        if not isinstance(name, str) or table.dtype.hasobject:
            raise ValueError(f"digest needs (name, numeric numpy array) pairs, not {name!r}"[:200])
        out.update(f"{name} {table.dtype} {table.shape}".encode())
        out.update(table.tobytes())
    return out.hexdigest()


def pack(table: np.ndarray, level: int = 6) -> str:
    """A numeric numpy table's exact bytes, zlib-compressed at `level` (1-9), as text (JSON
    holds no bytes); `unpack` reads it back."""
    if not isinstance(table, np.ndarray) or table.dtype.hasobject:
        raise ValueError(f"pack needs a numeric numpy array, not {table!r}"[:200])
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 9:
        raise ValueError(f"level must be a whole number from 1 to 9 (zlib's), not {level!r}"[:200])
    return base64.b64encode(zlib.compress(np.ascontiguousarray(table).tobytes(), level)).decode()


def unpack(text: object, dtype: object, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """The table `pack` made, as a writable array of `dtype` (and `shape`, when given);
    ValueError when the text is not one (a damaged entry)."""
    try:
        kind = np.dtype(dtype)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise ValueError(f"dtype must be a numpy dtype, not {dtype!r}"[:200]) from None
    if kind.hasobject or not isinstance(text, str):
        raise ValueError("unpack needs the text `pack` made and a numeric dtype")
    try:
        data = zlib.decompress(base64.b64decode(text, validate=True))
        table = np.frombuffer(data, dtype=kind)
        return (table if shape is None else table.reshape(shape)).copy()
    except (binascii.Error, zlib.error, TypeError, ValueError):
        raise ValueError(f"this text is not a packed table of {kind}"
                         + (f" shaped {shape!r}" if shape is not None else "")) from None

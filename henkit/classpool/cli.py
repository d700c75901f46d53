"""`henkit class ...`: the class pool on the server's command line (never from a dashboard).

    henkit class new               start a new class session (the current one from now on)
    henkit class status            where the pool is, and each session's number of records
    henkit class export --csv      every record as CSV on standard output (--session ID: one)

Which pool: `--db TARGET` (a file path or a postgresql:// URL), else HENKIT_CLASS_DB, else
class.sqlite3 in `--data-dir`; given none of them, the pool the running henkit server serves
(its record in henkit's data folder, below), else class.sqlite3 in henkit's data folder (created
when missing; the folder of a file named with --db must exist: a typo there must not start a
pool nobody looks at). Every run says on standard error, in one line, which pool it acts on and
how to name the other one. `henkit.cli` adds the `class` command with `add_class_arguments` and
runs it with `run_class`.

The served pool's record: a server calls `announce_served_pool` as it starts; it writes
`servers/<pid>.json` in henkit's data folder (`{"pool", "words", "pid", "process_start",
"since", "url"}`, the pool's URL without its password) and removes it when the process ends
(`withdraw_served_pool`). A record whose process is gone, or whose pid now belongs to another
process (its start time differs), is ignored: a server killed hard leaves nothing that counts.

Passwords never reach the output: every message goes through `hide_passwords`, and pools are
named in words (`pool_words`: "SQLite file /srv/henkit/class.sqlite3", "PostgreSQL database
db.school:5432/henkit"), never by their URL.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import unquote

from henkit.classpool.base import StoreError
from henkit.classpool.postgres import URL
from henkit.classpool.records import check_session
from henkit.classpool.stores import ENV, default_data_dir, default_target, open_store

ACTIONS = ("new", "status", "export")
SERVED_FOLDER = "servers"
"""The folder (in henkit's data folder) of the running servers' records, one `<pid>.json` each."""
OTHER_POOL = "--db <file or postgresql:// URL>"

_SCHEME_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)([^\s'\"]*)")
_PASSWORD_SETTING = re.compile(r"(?i)(password\s*=\s*)('[^']*'|\"[^\"]*\"|[^\s&'\",;]+)")
_SEARCH_PATH = re.compile(r"search_path(?:%3D|=)([A-Za-z0-9_$,]+)", re.IGNORECASE)


def add_class_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `class` command's actions and options to its (sub)parser."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise ValueError(f"parser must be an argparse.ArgumentParser, not {parser!r}"[:300])
    parser.description = ("The class pool: start a class session, see where the pool is and "
                          "what it holds, export its records as CSV. Without --db, "
                          f"${ENV} or --data-dir: the pool the running henkit server serves.")
    parser.add_argument("action", choices=ACTIONS,
                        help="new: start a new class session; status: where the pool is and "
                             "each session's records; export: the records (with --csv)")
    parser.add_argument("--db", metavar="TARGET", default=None,
                        help=f"the class pool: a file path or a postgresql:// URL (default: "
                             f"${ENV}, else class.sqlite3 in --data-dir, else the pool the "
                             "running henkit server serves, else class.sqlite3 in the data "
                             "folder)")
    parser.add_argument("--data-dir", metavar="FOLDER", default=None,
                        help="the folder of an SQLite pool named class.sqlite3 (default: "
                             "$XDG_DATA_HOME/henkit or ~/.local/share/henkit)")
    parser.add_argument("--csv", action="store_true", help="export: write CSV (the one format)")
    parser.add_argument("--session", metavar="ID", default=None,
                        help="export: only this session's records (default: every session)")


# ----- passwords ---------------------------------------------------------------------------------


def _url_parts(url: str) -> tuple[str, str, str, str] | None:
    """A URL's scheme (with ://), user info, host (and port), and the rest (path, query); None
    if `url` is no scheme://... URL. The user info runs to the last @ before the query, so a
    password with a raw / or @ in it stays whole."""
    m = _SCHEME_URL.match(url)
    if not m:
        return None
    scheme = m.group(1)
    rest = url[len(scheme):]
    head = re.split(r"[?#]", rest, maxsplit=1)[0]
    userinfo, at, _ = head.rpartition("@")
    after = rest[len(userinfo) + 1:] if at else rest
    cut = re.search(r"[/?#]", after)
    i = cut.start() if cut else len(after)
    return scheme, userinfo if at else "", after[:i], after[i:]


def _url_passwords(target: str) -> set[str]:
    """The passwords a URL holds (in its user info or a password= setting), raw and decoded."""
    found: set[str] = set()
    parts = _url_parts(target.strip())
    if parts and ":" in parts[1]:
        found.add(parts[1].partition(":")[2])
    found.update(value.strip("'\"") for _, value in _PASSWORD_SETTING.findall(target))
    return {p for q in found for p in (q, unquote(q)) if p}


def _hide_userinfo(m: re.Match[str]) -> str:
    parts = _url_parts(m.group(0))
    if parts is None or ":" not in parts[1]:
        return m.group(0)
    scheme, userinfo, host, rest = parts
    return f"{scheme}{userinfo.partition(':')[0]}:***@{host}{rest}"


def hide_passwords(text: str, *targets: object) -> str:
    """`text` with every password in it replaced by ***: those of URLs' user info
    (postgresql://user:***@host/db), password= settings, and every password `targets` (the
    pools the text may talk about) hold, wherever it appears (a driver may quote it)."""
    if not isinstance(text, str):
        raise ValueError(f"hide_passwords takes text, not {text!r}"[:300])
    # Long passwords first: a password holding a shorter one is hidden whole.
    known = sorted({p for t in targets if isinstance(t, str) for p in _url_passwords(t)},
                   key=len, reverse=True)
    for password in known:
        # Alone, only from 4 characters on ("***" for every "a" would hide the message);
        # inside a URL or a password= setting any length is hidden (below).
        if len(password) >= 4:
            text = text.replace(password, "***")
    text = _SCHEME_URL.sub(_hide_userinfo, text)
    return _PASSWORD_SETTING.sub(r"\1***", text)


def _without_password(target: str) -> str:
    """A PostgreSQL URL with its password taken out (user info and password= settings), so that
    it can still be used with PGPASSWORD or ~/.pgpass; anything else unchanged."""
    target = target.strip()
    parts = _url_parts(target)
    if parts is None or not URL.fullmatch(target):
        return target
    scheme, userinfo, host, rest = parts
    user = userinfo.partition(":")[0]
    if "?" in rest:
        path, _, query = rest.partition("?")
        kept = [p for p in query.split("&")
                if unquote(p.partition("=")[0]).strip().lower() != "password"]
        rest = path + ("?" + "&".join(kept) if kept else "")
    return f"{scheme}{user + '@' if user else ''}{host}{rest}"


def pool_words(target: str) -> str:
    """A class pool in words, for people and without any password: "SQLite file <path>" or
    "PostgreSQL database <host>/<db>" (", schema <name>" when the URL picks one)."""
    if not isinstance(target, str) or not target.strip():
        raise ValueError(f"a class pool is a file path or a postgresql:// URL, not {target!r}"
                         [:300])
    target = target.strip()
    parts = _url_parts(target)
    if parts is not None and URL.fullmatch(target):
        _, _, host, rest = parts
        path = rest.partition("?")[0].partition("#")[0].lstrip("/")
        if not host:  # a Unix socket's folder, or libpq's default
            given = re.search(r"[?&]host=([^&#]*)", rest)
            host = given.group(1) if given else "localhost"
        words = f"PostgreSQL database {unquote(host)}/{unquote(path) or '(the default)'}"
        schema = _SEARCH_PATH.search(rest)
        return hide_passwords(words + (f", schema {schema.group(1)}" if schema else ""), target)
    if "://" in target:
        raise ValueError(f"a class pool is a file path or a postgresql://... URL, not "
                         f"{hide_passwords(repr(target), target)}"[:300])
    try:
        return f"SQLite file {Path(target).expanduser().absolute()}"
    except (RuntimeError, OSError):  # "~nobody/x"
        return f"SQLite file {target}"


def _pool_key(target: str) -> str:
    """What tells two names of one pool apart from another pool's: the real path of a file,
    a URL without its password."""
    target = target.strip()
    if URL.fullmatch(target):
        return re.sub(r"^postgres(ql)?://", "postgresql://", _without_password(target))
    try:
        return os.path.realpath(Path(target).expanduser())
    except (RuntimeError, OSError, ValueError):
        return target


# ----- the running server's record of its pool ---------------------------------------------------


@dataclass(frozen=True)
class ServedPool:
    """A running henkit server's record: the pool it serves (without password), its process,
    since when, and the students' address (None if it did not say)."""

    pool: str
    pid: int
    since: str
    url: str | None
    path: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "pool", _check_pool(self.pool))
        if not isinstance(self.pid, int) or isinstance(self.pid, bool) or self.pid <= 0:
            raise ValueError(f"a server's pid is a whole number from 1 on, not {self.pid!r}"[:300])
        if not isinstance(self.since, str):
            raise ValueError(f"since is a time as ISO text, not {self.since!r}"[:300])
        if self.url is not None and not isinstance(self.url, str):
            raise ValueError(f"url is the students' address or None, not {self.url!r}"[:300])
        if not isinstance(self.path, Path):
            raise ValueError(f"path is the record's Path, not {self.path!r}"[:300])

    @property
    def words(self) -> str:
        """The served pool in words (`pool_words`)."""
        return pool_words(self.pool)


def _served_folder() -> Path:
    return default_data_dir() / SERVED_FOLDER


def _process_start(pid: int) -> str | None:
    """When process `pid` started (Linux: clock ticks since boot; None where /proc is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    # Field 3 (the state) comes first here; field 22 is the start time.
    return None if len(fields) < 20 or fields[0] == "Z" else fields[19]


def _alive(pid: int, started: str | None) -> bool:
    """Whether process `pid` runs and is the one that started at `started` (when known)."""
    try:
        os.kill(pid, 0)
    except PermissionError:
        pass  # another user's process: it exists
    except (OSError, OverflowError):
        return False
    now = _process_start(pid)
    if Path("/proc/self/stat").exists() and now is None:
        return False  # a zombie, or gone since os.kill
    return started is None or now is None or now == started


def _check_pool(pool: object) -> str:
    if not isinstance(pool, str) or not pool.strip() or "\x00" in pool:
        raise ValueError(f"a class pool is a file path or a postgresql:// URL, not {pool!r}"
                         [:300])
    pool = pool.strip()
    if "://" in pool and not URL.fullmatch(pool):
        raise ValueError(f"a class pool is a file path or a postgresql://... URL, not "
                         f"{hide_passwords(repr(pool), pool)}"[:300])
    return pool


def _read_record(path: Path) -> ServedPool | None:
    """The record in `path`, or None if it is not one or its process is gone."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pool, pid = _check_pool(data["pool"]), data["pid"]
        since, url, started = data.get("since", ""), data.get("url"), data.get("process_start")
        if (not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0
                or path.name != f"{pid}.json" or not isinstance(since, str)
                or not (url is None or isinstance(url, str))
                or not (started is None or isinstance(started, str))):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # half written, edited by hand, not ours: no record
    if not _alive(pid, started):
        return None
    return ServedPool(pool, pid, since, url, path)


def served_pools() -> list[ServedPool]:
    """The records of the henkit servers running now (oldest first); stale ones are ignored."""
    try:
        paths = sorted(_served_folder().glob("*.json"))
    except OSError:
        return []
    found = [r for r in map(_read_record, paths) if r is not None]
    return sorted(found, key=lambda r: (r.since, r.pid))


def announce_served_pool(pool: str | None = None, url: str | None = None) -> Path:
    """Record, for `henkit class`, that this process serves `pool` (None: HENKIT_CLASS_DB, else
    the data folder's class.sqlite3) to students at `url`; return the record's path.

    Call it as the server starts. The record holds the pool without its password; it is removed
    when the process ends (or by `withdraw_served_pool`), and ignored if the process dies
    without removing it. OSError if henkit's data folder cannot be written (the server can run
    on: `henkit class` then acts on the pool it is told, or the default one, and says so).
    """
    pool = _check_pool(default_target(None) if pool is None else pool)
    if url is not None and (not isinstance(url, str) or not re.fullmatch(r"https?://\S+", url)):
        raise ValueError(f"the students' address is an http:// or https:// URL, not {url!r}"
                         [:300])
    if not URL.fullmatch(pool):
        try:
            pool = str(Path(pool).expanduser().absolute())
        except (RuntimeError, OSError) as e:  # "~nobody/x": no such user's home
            raise ValueError(f"a class pool is a file path, not {pool!r}: {e}"[:300]) from None
    pid = os.getpid()
    record = {"pool": _without_password(pool), "words": pool_words(pool), "pid": pid,
              "process_start": _process_start(pid),
              "since": datetime.now(UTC).isoformat(timespec="seconds"),
              "url": None if url is None else hide_passwords(url, url)}
    folder = _served_folder()
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.json"):
        if stale.name != f"{pid}.json" and _read_record(stale) is None:
            with contextlib.suppress(OSError):
                stale.unlink()
    path = folder / f"{pid}.json"
    # Written whole or not at all: a reader never sees half a record.
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{pid}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    atexit.register(withdraw_served_pool, path)
    return path


def withdraw_served_pool(path: str | os.PathLike[str]) -> None:
    """Remove this process's record (from `announce_served_pool`); another's is left alone."""
    if isinstance(path, bytes) or not isinstance(path, str | os.PathLike) or not str(path):
        raise ValueError(f"path is the record's path announce_served_pool gave, not {path!r}"
                         [:300])
    path = Path(path)
    if path.name == f"{os.getpid()}.json" and path.suffix == ".json":
        with contextlib.suppress(OSError):
            path.unlink()


# ----- which pool a command acts on ---------------------------------------------------------------


@dataclass(frozen=True)
class _Choice:
    target: str
    line: str
    served: ServedPool | None  # the record the pool came from, if it came from one


def _choose_pool(db: str | None, data_dir: Any) -> _Choice:
    """The pool a command acts on, and the line that says so and names the other one."""
    env = os.environ.get(ENV, "").strip()
    live = served_pools()
    distinct = {_pool_key(r.pool): r for r in live}
    named = [flag for flag, given in (("--db", db), (ENV, env), ("--data-dir", data_dir))
             if given is not None and given != ""]
    if named:
        if db is not None:
            target, how = db, "the pool --db names"
        elif env:
            target, how = env, f"the pool ${ENV} names"
        else:
            target, how = default_target(data_dir), "the pool in --data-dir"
        words = pool_words(target)
        if not distinct:
            return _Choice(target, f"henkit class: acting on {how}: {words} (no henkit server "
                                   "is running)", None)
        if _pool_key(target) in distinct:
            return _Choice(target, f"henkit class: acting on {how}: {words}, the pool the "
                                   "running henkit server serves", None)
        undo = " and ".join(f"unset {flag}" if flag == ENV else f"leave out {flag}"
                            for flag in named)
        served = "; ".join(f"{r.words} (pid {r.pid})" for r in distinct.values())
        return _Choice(target, f"henkit class: acting on {how}: {words}, NOT the pool the "
                               f"running henkit server serves ({served}): {undo} to act on "
                               "that one", None)
    if len(distinct) > 1:
        served = "; ".join(f"{r.words} (pid {r.pid})" for r in distinct.values())
        raise ValueError(f"{len(distinct)} henkit servers are running, on different pools: "
                         f"{served}; name the one to act on with --db")
    if distinct:
        record = next(iter(distinct.values()))
        pids = ", ".join(str(r.pid) for r in live)
        return _Choice(record.pool, f"henkit class: acting on the pool the running henkit "
                                    f"server serves (pid {pids}): {record.words}; another pool: "
                                    f"{OTHER_POOL}", record)
    target = default_target(None)
    # Where the records were looked for: a server run by another user (or with another
    # XDG_DATA_HOME) records its pool in its own data folder.
    return _Choice(target, f"henkit class: no henkit server is running (none recorded in "
                           f"{_served_folder()}); acting on the default pool: "
                           f"{pool_words(target)}; another pool: {OTHER_POOL} or "
                           "--data-dir <folder>", None)


# ----- the command ---------------------------------------------------------------------------------


def check_db_folder(db: object) -> None:
    """ValueError if `--db` names an SQLite file in a folder that does not exist.

    The default pool's folder (henkit's data folder, or --data-dir) is created when missing;
    a file named with --db is the teacher's choice of place, and a typo in its folder must not
    quietly make a new pool somewhere nobody looks."""
    if not isinstance(db, str) or URL.fullmatch(db.strip()) or "://" in db or not db:
        return  # None: the default; a URL or junk: open_store says what is wrong
    try:
        folder = Path(db).expanduser().absolute().parent
    except (RuntimeError, OSError):
        return  # "~nobody/x": open_store says so
    if not folder.is_dir():
        raise ValueError(f"--db {db}: the folder {folder} does not exist (create it first, or "
                         "leave out --db to use henkit's data folder)")


def run_class(args: argparse.Namespace, out: TextIO | None = None,
              err: TextIO | None = None) -> int:
    """Run `henkit class <action>`: 0 on success, 1 if the pool cannot be reached.

    Bad input found after parsing raises ValueError (the caller prints it through
    `hide_passwords`). Standard error gets the one line saying which pool the command acts on.
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    for name, f in (("out", out), ("err", err)):
        if not callable(getattr(f, "write", None)):
            raise ValueError(f"{name} must be a text file open for writing, not {f!r}"[:300])
    action = getattr(args, "action", None)
    if action not in ACTIONS:
        raise ValueError(f"henkit class takes one of {', '.join(ACTIONS)}, not {action!r}")
    if action == "export" and not getattr(args, "csv", False):
        raise ValueError("henkit class export writes CSV: add --csv")
    if action != "export" and (getattr(args, "csv", False) or getattr(args, "session", None)):
        raise ValueError("--csv and --session go with henkit class export only")
    session = getattr(args, "session", None)
    if session is not None:
        check_session(session)
    db = getattr(args, "db", None)
    if db is not None and (not isinstance(db, str) or not db.strip()):
        raise ValueError(f"--db names a class pool: a file path or a postgresql:// URL, not "
                         f"{db!r}"[:300])
    check_db_folder(db)
    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None and (isinstance(data_dir, bytes) or not isinstance(
            data_dir, str | os.PathLike) or not str(data_dir)):
        raise ValueError(f"--data-dir is a folder path, not {data_dir!r}"[:300])
    choice = _choose_pool(db, data_dir)
    store = open_store(choice.target)

    def hide(text: str) -> str:
        return hide_passwords(text, choice.target, db, os.environ.get(ENV, ""))

    print(hide(choice.line), file=err)
    try:
        if action == "new":
            session = store.new_session()
            print(hide(f"new class session {session} in {pool_words(choice.target)}"), file=out)
        elif action == "status":
            print(hide(str(store.status())), file=out)
        else:
            if session is not None and session not in {s.id for s in store.status().sessions}:
                raise ValueError(hide(f"the class pool ({pool_words(choice.target)}) has no "
                                      f"session {session!r}"))
            store.export_csv(out, session)
    except StoreError as e:
        hint = ""
        if choice.served is not None and URL.fullmatch(choice.target):
            hint = (" (the server's record of its pool holds no password: give it with "
                    f"PGPASSWORD or ~/.pgpass, or name the pool with --db or ${ENV})")
        print(hide(" ".join(f"henkit class {action}: error: {e}{hint}".split())), file=err)
        return 1
    finally:
        store.close()
    return 0

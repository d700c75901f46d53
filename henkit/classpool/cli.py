"""`henkit class ...`: the class pool on the server's command line (never from a dashboard).

    henkit class new               start a new class session (the current one from now on)
    henkit class status            where the pool is, and each session's number of records
    henkit class export --csv      every record as CSV on standard output (--session ID: one)

`--db TARGET` names the pool (a file path or a postgresql:// URL); by default HENKIT_CLASS_DB,
else class.sqlite3 in `--data-dir` or henkit's data folder (created when missing; the folder of
a file named with --db must exist: a typo there must not start a pool nobody looks at). `henkit.cli` adds the `class`
command with `add_class_arguments` and runs it with `run_class`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from henkit.classpool.base import StoreError
from henkit.classpool.postgres import URL
from henkit.classpool.records import check_session
from henkit.classpool.stores import ENV, open_store

ACTIONS = ("new", "status", "export")


def add_class_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `class` command's actions and options to its (sub)parser."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise ValueError(f"parser must be an argparse.ArgumentParser, not {parser!r}"[:300])
    parser.description = ("The class pool: start a class session, see where the pool is and "
                          "what it holds, export its records as CSV.")
    parser.add_argument("action", choices=ACTIONS,
                        help="new: start a new class session; status: where the pool is and "
                             "each session's records; export: the records (with --csv)")
    parser.add_argument("--db", metavar="TARGET", default=None,
                        help=f"the class pool: a file path or a postgresql:// URL (default: "
                             f"${ENV}, else class.sqlite3 in the data folder)")
    parser.add_argument("--data-dir", metavar="FOLDER", default=None,
                        help="the folder of the default SQLite pool (default: "
                             "$XDG_DATA_HOME/henkit or ~/.local/share/henkit)")
    parser.add_argument("--csv", action="store_true", help="export: write CSV (the one format)")
    parser.add_argument("--session", metavar="ID", default=None,
                        help="export: only this session's records (default: every session)")


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

    Bad input found after parsing raises ValueError (the caller prints it).
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
    check_db_folder(db)
    store = open_store(db, data_dir=getattr(args, "data_dir", None))
    try:
        if action == "new":
            session = store.new_session()
            print(f"new class session {session} in {store.location}", file=out)
        elif action == "status":
            print(store.status(), file=out)
        else:
            if session is not None and session not in {s.id for s in store.status().sessions}:
                raise ValueError(f"the class pool at {store.location} has no session {session!r}")
            store.export_csv(out, session)
    except StoreError as e:
        print(f"henkit class {action}: error: {e}", file=err)
        return 1
    finally:
        store.close()
    return 0

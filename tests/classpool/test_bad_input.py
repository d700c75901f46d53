"""Bad input to the class pool is a ValueError, and only a ValueError.

Arbitrary values (`tests/fuzz_values.junk`) go into one argument at a time of every public
function, class and store method of henkit.classpool, the others being valid; numpy integers
are integers. (StoreError is for a store that cannot be reached, never for bad input.) A test
checks that every public name of the package's modules is fuzzed here.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from henkit import cli as henkit_cli
from henkit.classpool import base, cli, limits, postgres, recorder, records, sqlite, stores
from henkit.classpool.base import COLUMNS

from ..fuzz_values import junk, only_value_error

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
MODULES = (base, records, stores, sqlite, postgres, recorder, cli, limits)
PAGE = "0123456789abcdef"
SESSION = "20250114-093000-3fa2c1"
WHEN = datetime(2025, 1, 14, 9, 30, tzinfo=UTC)

ROLL = records.RollRecord(3, (1, 1, 1, 0, 0, 0), frozenset(), False, page=PAGE, seq=0)
TURN = records.TurnRecord("student", 25, None, 25)
DRAW = records.DrawRecord("deck", "Pa3", 2)
YARD = records.BarnyardRecord("greedy", (("largest group", 4),), 4)
VALID_RECORD_ARGS: dict[type, list[Any]] = {
    records.RollRecord: [3, (1, 1, 1, 0, 0, 0), frozenset(), False],
    records.TurnRecord: ["student", 25, None, 25],
    records.DrawRecord: ["deck", "Pa3", 2],
    records.BarnyardRecord: ["greedy", (("largest group", 4),), 4],
}
STAMPS = {"page": PAGE, "seq": 0, "session": SESSION, "time": WHEN}

FUZZED = {
    "StoreError", "SessionCount", "StoreStatus", "Summary", "Board", "now_us", "check_aware",
    "to_us", "to_datetime", "new_session_id", "record_values", "record_from_values",
    "schema_sql", "board_from_rows", "ClassStore", "SQLStore", "new_page_id", "check_page",
    "check_session", "check_who", "Record", "RollRecord", "TurnRecord", "DrawRecord",
    "BarnyardRecord", "check_record", "record_from_row", "write_csv", "read_csv",
    "default_data_dir", "default_target", "open_store", "SQLiteStore", "hide_password",
    "PostgresStore", "Recorder", "add_class_arguments", "check_db_folder", "run_class",
    "StoreReplaced", "Limit", "RateLimiter", "check_limits", "most_allowed",
    "ServedPool", "announce_served_pool", "hide_passwords", "pool_words", "served_pools",
    "withdraw_served_pool",
}
"""Every public name the tests below fuzz (StoreError, StoreReplaced, ClassStore and SQLStore
through their subclasses and stores; now_us, new_page_id and default_data_dir take no
arguments); the limits in test_limits_and_fresh.py, the served pools and the password hiding
of the command line in test_cli.py."""


def test_every_public_name_is_fuzzed():
    public = {n for m in MODULES for n, o in vars(m).items()
              if not n.startswith("_") and (inspect.isfunction(o) or inspect.isclass(o))
              and o.__module__ == m.__name__}
    assert public == FUZZED


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = sqlite.SQLiteStore(tmp_path_factory.mktemp("pool") / "class.sqlite3")
    s.add_many([ROLL, TURN.stamped(page=PAGE, seq=1)])
    yield s
    s.close()


# -- base -------------------------------------------------------------------------------------


@FAST
@given(junk(), st.integers(0, 9))
@example(None, 0)
@example(np.int64(10**15), 0)
def test_times_ids_and_rows(x, where):
    assert base.now_us() > 0 and records.new_page_id()
    for f in (base.to_datetime, base.to_us, base.new_session_id, base.check_aware,
              base.schema_sql, base.record_from_values, records.check_page,
              records.check_session, records.check_who, records.check_record,
              records.record_from_row, postgres.hide_password):
        only_value_error(f, x)
    args: list[Any] = [ROLL, SESSION, 10**15]
    args[where % 3] = x
    only_value_error(base.record_values, *args)
    only_value_error(base.record_values, None, None, None)
    row = list(base.record_values(ROLL, SESSION, 10**15))
    row[where % len(row)] = x
    only_value_error(base.record_from_values, row)
    only_value_error(base.board_from_rows, x, [])
    only_value_error(base.board_from_rows, None, x)
    only_value_error(base.board_from_rows, None, [x])
    agg = ["summary", None, None, SESSION, None, 1, 2, 3, 4, 5]
    agg[where] = x
    only_value_error(base.board_from_rows, None, [agg])
    only_value_error(base.board_from_rows, None, None)


@FAST
@given(junk(), st.integers(0, 4))
def test_result_types(x, where):
    count: list[Any] = [SESSION, WHEN, 3]
    count[where % 3] = x
    only_value_error(base.SessionCount, *count)
    status: list[Any] = ["here", SESSION, ()]
    status[where % 3] = x
    only_value_error(base.StoreStatus, *status)
    s = only_value_error(base.StoreStatus, "here", SESSION, (base.SessionCount(SESSION, WHEN, 1),))
    assert str(s)
    summary: list[Any] = [0, 0, 0, 0, 0]
    summary[where] = x
    only_value_error(base.Summary, *summary)
    board: list[Any] = [None, base.Summary(), {}, {}, {}, {}]
    board[where % 6] = x
    only_value_error(base.Board, *board)


def test_the_review_s_cases_are_value_errors():
    for call, args in ((base.new_session_id, (None,)), (base.to_datetime, (None,)),
                       (base.to_us, (None,)), (base.record_values, (None, None, None)),
                       (base.board_from_rows, (None, None)), (records.write_csv, (None, None))):
        with pytest.raises(ValueError):
            call(*args)
    assert base.to_datetime(np.int64(0)) == base.EPOCH
    assert base.new_session_id(np.int64(base.to_us(WHEN))).startswith("20250114-093000-")


# -- records ----------------------------------------------------------------------------------


@FAST
@given(junk(), st.integers(0, 7))
def test_records(x, where):
    for cls, valid in VALID_RECORD_ARGS.items():
        args = list(valid)
        if where < len(args):
            args[where] = x
            only_value_error(cls, *args)
        else:
            stamp = list(STAMPS)[where % 4]
            only_value_error(cls, *valid, **{**STAMPS, stamp: x})
    only_value_error(ROLL.stamped, **{list(STAMPS)[where % 4]: x})
    only_value_error(ROLL.stamped, junk_stamp=x)
    only_value_error(records.BarnyardRecord.from_score, x)
    only_value_error(records.BarnyardRecord, x, (), 0)
    only_value_error(records.Record, page=x)
    row = ROLL.to_row()
    row[list(row)[where % len(row)]] = x
    only_value_error(records.record_from_row, row)
    for r in (TURN, DRAW, YARD):
        row = r.to_row()
        row[list(row)[where % len(row)]] = x
        only_value_error(records.record_from_row, row)


@FAST
@given(junk())
def test_csv(x):
    only_value_error(records.write_csv, x, io.StringIO())
    only_value_error(records.write_csv, [ROLL], x)
    only_value_error(records.write_csv, [ROLL, x], io.StringIO())
    only_value_error(lambda: list(records.read_csv(x)))
    text = io.StringIO()
    records.write_csv([ROLL, TURN, DRAW, YARD], text)
    lines = text.getvalue().splitlines(keepends=True)
    only_value_error(lambda: list(records.read_csv([*lines, x])))
    only_value_error(lambda: list(records.read_csv(io.StringIO(f"{lines[0]}{x}\n"))))


# -- stores -----------------------------------------------------------------------------------


@FAST
@given(x=junk())
@example(x=np.int64(5))
@example(x="~nobody-at-all/x.sqlite3")
def test_opening_stores(x, tmp_path_factory):
    folder = tmp_path_factory.mktemp("open")
    only_value_error(stores.default_target, x)
    only_value_error(stores.open_store, x, data_dir=folder)
    only_value_error(stores.open_store, None, data_dir=x)
    only_value_error(sqlite.SQLiteStore, x)
    only_value_error(sqlite.SQLiteStore, folder / "a.sqlite3", timeout=x)
    only_value_error(postgres.PostgresStore, x)
    only_value_error(postgres.PostgresStore, "postgresql://nobody@127.0.0.1:9/x",
                     connect_timeout=x)
    assert isinstance(stores.default_data_dir(), Path)


@FAST
@given(junk())
def test_store_methods(store, x):
    for method in (store.records, store.board, store.roll_tallies, store.bust_tallies,
                   store.turn_endings, store.draw_tallies, store.summary, store.left_out,
                   store.query_plan):
        only_value_error(lambda m=method: list(m(x)) if m == store.records else m(x))
    only_value_error(store.aggregate, x)
    only_value_error(store.aggregate, "summary", x)
    only_value_error(store.export_csv, x)
    only_value_error(store.export_csv, io.StringIO(), x)
    only_value_error(store.add, x)
    only_value_error(store.add_many, x)
    only_value_error(store.add_many, [x])
    only_value_error(store.add_too_fast, x, {"roll": 1})
    only_value_error(store.add_too_fast, PAGE, x)
    only_value_error(store.add_too_fast, PAGE, {"roll": x})
    with contextlib.suppress(TypeError):  # x unhashable: no dict has it as a key
        only_value_error(store.add_too_fast, PAGE, {x: 1})


@FAST
@given(x=junk(), where=st.integers(0, 6))
@example(x=np.int64(3), where=3)
@example(x=np.float64(0.5), where=4)
@example(x=np.bool_(False), where=5)
def test_recorder(x, where, tmp_path_factory):
    folder = tmp_path_factory.mktemp("rec")
    kwargs: dict[str, Any] = {"store": folder / "c.sqlite3", "data_dir": None, "page": None,
                              "limit": 10, "retry_interval": 1.0, "background": False,
                              "clock": lambda: 0.0}
    kwargs[list(kwargs)[where]] = x
    rec = only_value_error(recorder.Recorder, **kwargs)
    if rec is not None:
        rec.close()
    rec = recorder.Recorder(folder / "d.sqlite3")
    only_value_error(rec.record, x)
    only_value_error(rec.record_many, x)
    only_value_error(rec.record_many, [x])
    rec.close()


# -- henkit class -----------------------------------------------------------------------------


@FAST
@given(x=junk(), where=st.integers(0, 4))
def test_class_cli(x, where, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    # A junk value may be a valid --db or --data-dir: keep whatever it makes in the folder.
    with contextlib.chdir(folder), mock.patch.dict(os.environ, {
            stores.ENV: str(folder / "env.sqlite3"), "XDG_DATA_HOME": str(folder)}):
        class_cli(x, where, folder)


def class_cli(x: Any, where: int, folder: Path) -> None:
    only_value_error(cli.add_class_arguments, x)
    only_value_error(cli.check_db_folder, x)
    only_value_error(cli.run_class, x, io.StringIO(), io.StringIO())
    fields: dict[str, Any] = {"action": "status", "db": str(folder / "c.sqlite3"),
                              "data_dir": None, "csv": False, "session": None}
    fields[list(fields)[where]] = x
    only_value_error(cli.run_class, argparse.Namespace(**fields), io.StringIO(), io.StringIO())
    good = argparse.Namespace(action="status", db=str(folder / "c.sqlite3"), data_dir=None,
                              csv=False, session=None)
    only_value_error(cli.run_class, good, x, io.StringIO())
    only_value_error(cli.run_class, good, io.StringIO(), x)


# -- --db in a folder that does not exist ------------------------------------------------------


def test_db_in_a_missing_folder_is_refused_and_not_created(tmp_path, capsys):
    missing = tmp_path / "nonexistent" / "dir"
    code = henkit_cli.main(["class", "status", "--db", str(missing / "x.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and "does not exist" in err and str(missing) in err
    assert err.count("\n") == 1
    assert not missing.exists() and not missing.parent.exists()


def test_the_default_data_folder_is_created(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(stores.ENV, raising=False)
    data = tmp_path / "new" / "data"
    assert henkit_cli.main(["class", "status", "--data-dir", str(data)]) == 0
    assert (data / stores.FILE_NAME).is_file()
    assert "current session" in capsys.readouterr().out


def test_db_in_an_existing_folder_makes_the_file(tmp_path, capsys):
    assert henkit_cli.main(["class", "status", "--db", str(tmp_path / "x.sqlite3")]) == 0
    assert (tmp_path / "x.sqlite3").is_file()


def test_columns_are_what_rows_hold():
    assert len(base.record_values(ROLL, None, 0)) == len(COLUMNS)

"""`henkit class new | status | export --csv` as functions (henkit.cli wires them)."""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable
from pathlib import Path

import pytest

from henkit.classpool import ENV, open_store, read_csv
from henkit.classpool.cli import add_class_arguments, run_class


def run(*argv: str) -> tuple[int, str, str]:
    """Parse argv as `henkit class` would and run it; (exit code, stdout, stderr)."""
    parser = argparse.ArgumentParser(prog="henkit class")
    add_class_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    code = run_class(parser.parse_args(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_new_status_export(target: str, make_records: Callable) -> None:
    """new starts a session that becomes current; status lists sessions with their records;
    export --csv writes every record (or one session's) as CSV that reads back."""
    with open_store(target) as store:
        store.add_many(make_records(30, seed=1))
        first = store.current_session()
    code, out, _ = run("new", "--db", target)
    assert code == 0 and out.startswith("new class session ")
    second = out.split()[3]
    with open_store(target) as store:
        assert store.current_session() == second
        store.add_many(make_records(12, seed=2))
        records = list(store.records())
    code, out, _ = run("status", "--db", target)
    assert code == 0
    assert f"  {first}  " in out and "30 records" in out
    assert f"* {second}  " in out and "12 records" in out
    code, out, _ = run("export", "--csv", "--db", target)
    assert code == 0 and list(read_csv(io.StringIO(out))) == records
    code, out, _ = run("export", "--csv", "--session", second, "--db", target)
    assert code == 0 and list(read_csv(io.StringIO(out))) == records[30:]


def test_the_default_pool_is_in_the_data_folder(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --db: HENKIT_CLASS_DB, else class.sqlite3 in --data-dir."""
    monkeypatch.delenv(ENV, raising=False)
    code, out, _ = run("status", "--data-dir", str(tmp_path / "served"))
    assert code == 0 and str(tmp_path / "served" / "class.sqlite3") in out
    monkeypatch.setenv(ENV, str(tmp_path / "env.sqlite3"))
    code, out, _ = run("status", "--data-dir", str(tmp_path / "served"))
    assert code == 0 and str(tmp_path / "env.sqlite3") in out


@pytest.mark.parametrize(("argv", "words"), [
    (("export",), "add --csv"),
    (("status", "--csv"), "export only"),
    (("new", "--session", "20250114-093000-3fa2c1"), "export only"),
    (("export", "--csv", "--session", "monday"), "class session id"),
    (("export", "--csv", "--session", "20000101-000000-000000"), "has no session"),
    (("status", "--db", "mysql://school/class"), "postgresql://"),
])
def test_bad_input_is_a_value_error(tmp_path: Path, argv: tuple[str, ...], words: str) -> None:
    """Bad input found after parsing: ValueError naming what is allowed."""
    if "--db" not in argv:
        argv = (*argv, "--db", str(tmp_path / "class.sqlite3"))
    with pytest.raises(ValueError, match=words):
        run(*argv)


def test_an_unreachable_pool_is_an_error_line_and_exit_1() -> None:
    """A pool that cannot be reached: one line on stderr, exit code 1, nothing on stdout."""
    code, out, err = run("status", "--db", "postgresql://teacher:secret@127.0.0.1:9/class")
    assert code == 1 and out == ""
    assert err.startswith("henkit class status: error: the class pool at postgresql://teacher:***@")
    assert "secret" not in err and len(err.strip().splitlines()) == 1


def test_the_actions_are_checked() -> None:
    """run_class with an action argparse would not give: ValueError."""
    with pytest.raises(ValueError, match="new, status, export"):
        run_class(argparse.Namespace(action="drop"))

"""One suite for both stores (SQLite and a real PostgreSQL): refusals, atomic writes, sessions,
status, CSV export, and the class board's aggregates against a direct count."""

from __future__ import annotations

import io
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from henkit.classpool import (
    AGGREGATES,
    ENV,
    BarnyardRecord,
    ClassStore,
    DrawRecord,
    PostgresStore,
    Record,
    RollRecord,
    SQLiteStore,
    StoreError,
    TurnRecord,
    new_page_id,
    open_store,
    read_csv,
)
from henkit.classpool.base import (
    COLUMNS,
    FRESH_COLUMN,
    RECORDS_BOARD_SQL,
    TALLIES_TABLE,
    TALLY_STATEMENTS,
    record_values,
    schema_sql,
)
from henkit.classpool.records import record_from_row

INDEXES = {
    "roll_tallies": "henkit_first_rolls",
    "bust_tallies": "henkit_roll_busts",
    "turn_endings": "henkit_turn_endings",
    "draw_tallies": "henkit_card_draws",
    "summary": "henkit_records_session",
}


def count(store: ClassStore) -> int:
    """How many records the store holds (every session)."""
    return sum(s.records for s in store.status().sessions)


def stored_records(store: ClassStore, page: str) -> list[Record]:
    """One page's stored records, without their session and time stamps."""
    return [r.stamped(session=None, time=None) for r in store.records() if r.page == page]


def test_a_new_store_has_a_session_and_no_records(store: ClassStore) -> None:
    """Opening creates the schema and a first session, which is current."""
    status = store.status()
    assert [s.id for s in status.sessions] == [store.current_session()] == [status.current]
    assert count(store) == 0
    assert store.board().summary.records == 0
    assert store.location in str(status)


def test_bad_records_write_nothing(store: ClassStore) -> None:
    """An unknown kind, counts that are not a roll, a card that does not exist, a record without
    its page or with a session the store lacks: ValueError, and nothing written, alone or
    inside a batch of good records."""
    page = new_page_id()
    good = [RollRecord(8, (1, 2, 0, 0, 3, 2), (), False, page=page, seq=i) for i in range(3)]
    store.add_many(good[:1])
    before = count(store)
    refusals: list[Callable[[], object]] = [
        lambda: store.add({"kind": "roll", "dice": 8}),  # type: ignore[arg-type]
        lambda: store.add(record_from_row({"kind": "move"})),
        lambda: store.add(RollRecord(8, (1, 2, 0, 0, 3, 1), (), False, page=page)),
        lambda: store.add(DrawRecord("deck", "Xx9", 2, page=page)),
        lambda: store.add(RollRecord(8, (1, 2, 0, 0, 3, 2), (), False)),
        lambda: store.add(TurnRecord("student", 3, "bust", page=page,
                                     session="20000101-000000-000000")),
        lambda: store.add_many([*good[1:], "roll"]),  # type: ignore[list-item]
        lambda: store.add_many([*good[1:], DrawRecord("deck", "Pa1", 2)]),
        lambda: store.add_many([*good[1:], DrawRecord("deck", "Pa1", 2, page=page,
                                                      session="20000101-000000-000000")]),
        lambda: store.add_many(good[1]),  # type: ignore[arg-type]
        lambda: store.add_many(None),  # type: ignore[arg-type]
    ]
    for refuse in refusals:
        with pytest.raises(ValueError):
            refuse()
        assert count(store) == before
    assert stored_records(store, page) == good[:1]


def test_add_many_is_all_or_none(store: ClassStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write failing part-way (the second of three statements of a big batch) leaves nothing;
    then the same batch goes through whole."""
    page = new_page_id()
    batch = [DrawRecord("deck", "Pa3", 2, page=page, seq=i) for i in range(1200)]
    insert, calls = type(store)._insert, []

    def failing_insert(self: ClassStore, cur: object, rows: list) -> int:
        calls.append(len(rows))
        if len(calls) == 2:
            raise (*self.driver_errors,)[0]("disk gone")  # type: ignore[attr-defined]
        return insert(self, cur, rows)  # type: ignore[arg-type]

    monkeypatch.setattr(type(store), "_insert", failing_insert)
    with pytest.raises(StoreError, match="disk gone"):
        store.add_many(batch)
    assert calls == [500, 500]
    monkeypatch.undo()
    assert count(store) == 0
    assert store.add_many(batch) == 1200
    assert count(store) == 1200


def test_a_record_is_written_once_however_often_it_is_sent(store: ClassStore) -> None:
    """(page, seq) names a record: sending it again (a retry) writes nothing more."""
    page = new_page_id()
    r = TurnRecord("student", 25, None, 24, page=page, seq=0)
    assert store.add(r) == 1
    assert store.add(r) == 0
    assert store.add_many([r, r.stamped(seq=1), r.stamped(seq=1)]) == 1
    assert sorted(x.seq for x in store.records()) == [0, 1]
    # Records without a seq are all kept (nothing names them).
    assert store.add_many([r.stamped(seq=None)] * 3) == 3


def test_sessions(store: ClassStore) -> None:
    """new_session starts a session that becomes current; records join the current session
    unless they carry one the store has; aggregates read one session."""
    first = store.current_session()
    page = new_page_id()
    store.add_many([RollRecord(8, (0, 0, 0, 0, 0, 8), (), False, page=page, seq=i)
                    for i in range(3)])
    second = store.new_session()
    assert second != first and store.current_session() == second
    store.add(RollRecord(8, (8, 0, 0, 0, 0, 0), (), False, page=page, seq=3))
    store.add(RollRecord(8, (8, 0, 0, 0, 0, 0), (), False, page=page, seq=4, session=first))
    assert store.roll_tallies(first) == {(8, 8): 3, (8, 0): 1}
    assert store.roll_tallies() == store.roll_tallies(second) == {(8, 0): 1}
    status = store.status()
    assert [(s.id, s.records) for s in status.sessions] == [(first, 4), (second, 1)]
    assert status.current == second
    assert status.sessions[0].started < status.sessions[1].started
    third = store.new_session()
    assert store.current_session() == third
    assert store.board().summary.records == 0
    assert store.roll_tallies("20000101-000000-000000") == {}
    with pytest.raises(ValueError, match="class session id"):
        store.roll_tallies("yesterday")


def test_a_second_store_object_sees_the_same_pool(target: str) -> None:
    """Two store objects (two kernels) on one target share sessions and records."""
    with open_store(target) as a, open_store(target) as b:
        assert a.current_session() == b.current_session()
        session = a.new_session()
        assert b.current_session() == session
        b.add(DrawRecord("deck", "Ce6", 2, page=new_page_id(), seq=0))
        assert a.draw_tallies() == {("deck", "Ce6", 2): 1}


def test_export_csv_reads_back_to_the_records(store: ClassStore, make_records: Callable) -> None:
    """Every record as one CSV row; the CSV reads back to the very records stored, stamped
    with their session and the store's time."""
    records = make_records(300, seed=3)
    store.add_many(records[:200])
    session = store.new_session()
    store.add_many(records[200:])
    f = io.StringIO()
    assert store.export_csv(f) == 300
    assert len(f.getvalue().splitlines()) == 301
    f.seek(0)
    back = list(read_csv(f))
    assert back == list(store.records())
    assert [r.stamped(session=None, time=None) for r in back] == records
    assert {r.session for r in back[200:]} == {session}
    assert all(r.time is not None for r in back)
    f = io.StringIO()
    assert store.export_csv(f, session) == 100


def direct_board(records: list[Record]) -> dict[str, dict]:
    """The class board's aggregates counted directly in Python."""
    first: Counter = Counter()
    busts: dict[tuple[int, int], list[int]] = {}
    endings: Counter = Counter()
    draws: Counter = Counter()
    for r in records:
        if isinstance(r, RollRecord):
            if not r.taken:
                first[r.dice, r.worms] += 1
            b = busts.setdefault((r.dice, len(r.taken)), [0, 0])
            b[0] += r.bust
            b[1] += 1
        elif isinstance(r, TurnRecord):
            endings[r.who, r.ending] += 1
        elif isinstance(r, DrawRecord):
            draws["deck" if r.source == "deck" else "pile", r.card, r.players] += 1
    kinds = Counter(type(r) for r in records)
    return {
        "roll_tallies": dict(first),
        "bust_tallies": {k: tuple(v) for k, v in busts.items()},
        "turn_endings": dict(endings),
        "draw_tallies": dict(draws),
        "summary": (len({r.page for r in records}), kinds[RollRecord], kinds[TurnRecord],
                    kinds[DrawRecord], kinds[BarnyardRecord]),
    }


def test_aggregates_equal_a_direct_count(store: ClassStore, make_records: Callable) -> None:
    """Random records (seeded) in two sessions: each aggregate, and the whole board in one
    query, equal a count in Python over the records of that session."""
    old = make_records(1500, seed=11, pages=12)
    new = make_records(2500, seed=12, pages=30)
    store.add_many(old)
    first = store.current_session()
    second = store.new_session()
    for i in range(0, len(new), 100):  # in pieces, as pages write
        store.add_many(new[i:i + 100])
    for session, records in ((first, old), (second, new), (None, new)):
        want = direct_board(records)
        board = store.board(session)
        assert board.session == (session or second)
        got = {
            "roll_tallies": store.roll_tallies(session),
            "bust_tallies": store.bust_tallies(session),
            "turn_endings": store.turn_endings(session),
            "draw_tallies": store.draw_tallies(session),
        }
        summary = store.summary(session)
        got["summary"] = (summary.pages, summary.rolls, summary.turns, summary.draws,
                          summary.barnyards)
        assert got == want
        assert (board.first_rolls, board.busts, board.endings, board.draws) == (
            want["roll_tallies"], want["bust_tallies"], want["turn_endings"],
            want["draw_tallies"])
        assert board.summary == store.summary(session)
        assert board.summary.records == len(records)
    with pytest.raises(ValueError, match="aggregates are"):
        store.aggregate("raw rows")


def test_each_sqlite_aggregate_reads_its_covering_index(tmp_path: Path,
                                                        make_records: Callable) -> None:
    """EXPLAIN QUERY PLAN: every aggregate (and the board's one statement) searches its own
    index, covering (no table row read), and never scans the records table."""
    store = SQLiteStore(tmp_path / "class.sqlite3")
    store.add_many(make_records(500))
    for name, index in INDEXES.items():
        plan = store.query_plan(name)
        assert any(f"USING COVERING INDEX {index} (session=?)" in step for step in plan), plan
        assert not any(step.startswith("SCAN henkit_records") for step in plan), plan
    plan = store.query_plan("records board")
    for index in INDEXES.values():
        assert any(f"COVERING INDEX {index} (session=?)" in step for step in plan), plan
    assert not any("SCAN henkit_records" in step for step in plan), plan
    # The board itself reads the tallies by their key, never the records.
    plan = store.query_plan("board")
    assert any(step.startswith("SEARCH henkit_tallies") and "(session=? AND part=?)" in step
               for step in plan), plan
    assert not any("henkit_records" in step or step.startswith("SCAN henkit_tallies")
                   for step in plan), plan
    store.close()


def test_the_tallies_equal_the_records_whatever_is_written_again(
        store: ClassStore, make_records: Callable) -> None:
    """The board's running tallies (a trigger) equal the aggregates over the records after
    writes in pieces, the same records sent again (a retrying recorder), a batch with a bad
    record (refused: nothing of it written or counted) and a new session."""
    records = make_records(1200, seed=21, pages=9)
    for i in range(0, 1200, 150):
        store.add_many(records[i:i + 150])
    assert store.add_many(records[300:700]) == 0  # written again: no new row, no new count
    bad = [*make_records(5, seed=22, pages=1), "not a record"]
    with pytest.raises(ValueError):
        store.add_many(bad)  # type: ignore[list-item]
    first = store.current_session()
    store.new_session()
    store.add_many(make_records(300, seed=23, pages=4))
    for session in (first, None):
        tallied = store.board(session)
        counted = store._read_board(RECORDS_BOARD_SQL, session)  # type: ignore[attr-defined]
        assert tallied == counted
        assert tallied.summary.records == (1200 if session else 300)


def test_a_store_made_before_the_tallies_gets_them_filled(tmp_path: Path,
                                                          make_records: Callable) -> None:
    """An SQLite pool of schema 1 (records, no tallies) opened by this henkit: its tallies are
    made and filled from the records it holds, and count what comes next."""
    path = tmp_path / "old.sqlite3"
    records = make_records(800, seed=31, pages=6)
    with sqlite3.connect(path) as conn:
        for statement in schema_sql("id INTEGER PRIMARY KEY"):
            conn.execute(statement)
        conn.execute("INSERT INTO henkit_sessions VALUES ('20260101-080000-abcdef', 1)")
        marks = ", ".join("?" for _ in COLUMNS)
        conn.executemany(f"INSERT INTO henkit_records ({', '.join(COLUMNS)}) VALUES ({marks})",
                         [record_values(r, "20260101-080000-abcdef", 2) for r in records])
        conn.execute("PRAGMA user_version=1")
    conn.close()
    store = SQLiteStore(path)
    assert store.board().summary.records == 800
    more = make_records(100, seed=32, pages=2)
    store.add_many(more)
    assert store.board() == store._read_board(RECORDS_BOARD_SQL, None)
    assert store.board().summary.records == 900
    store.close()


def schema_2_store(target: str, records: list[Record], session: str) -> None:
    """Write `records` into a new pool at `target` as henkit wrote them before schema 3: no
    `players` column (its index without it), the trigger tallying draws without it (and none of
    schema 4: no `fresh` column, every record pooled, no table of clicks too fast)."""
    old = [s.replace(" players INTEGER CHECK (players BETWEEN 2 AND 4),", "")
           .replace("source, players, card", "source, card")
           .replace(f" {FRESH_COLUMN},", "").replace(", fresh)", ")").replace(" AND fresh = 1", "")
           for s in schema_sql("id INTEGER PRIMARY KEY" if not target.startswith("postgres")
                               else "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
           if "henkit_replayed" not in s and "henkit_too_fast" not in s]
    trigger = "; ".join(t.replace("COALESCE(NEW.players, -9)", "-9").replace(" AND NEW.fresh = 1", "")
                        for t in TALLY_STATEMENTS if "'replayed'" not in t)
    assert all("players" not in x and "fresh" not in x for x in (*old, trigger))
    columns = COLUMNS[:-2]
    assert COLUMNS[-2:] == ("players", "fresh")
    assert not any(isinstance(r, Record) and not r.fresh for r in records)
    rows = [record_values(r, session, 2)[:-2] for r in records]
    if target.startswith("postgres"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            for statement in (*old, TALLIES_TABLE,
                              ("CREATE FUNCTION henkit_tally() RETURNS trigger LANGUAGE plpgsql"
                               f" AS $$ BEGIN {trigger}; RETURN NULL; END $$"),
                              ("CREATE TRIGGER henkit_tally AFTER INSERT ON henkit_records"
                               " FOR EACH ROW EXECUTE FUNCTION henkit_tally()")):
                conn.execute(statement)
            conn.execute("INSERT INTO henkit_sessions VALUES (%s, 1)", (session,))
            with conn.cursor() as cur:
                cur.executemany(f"INSERT INTO henkit_records ({', '.join(columns)}) VALUES "
                                f"({', '.join('%s' for _ in columns)})", rows)
        return
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(target) as conn:
        for statement in (*old, TALLIES_TABLE,
                          (f"CREATE TRIGGER henkit_tally AFTER INSERT ON henkit_records BEGIN "
                           f"{trigger}; END")):
            conn.execute(statement)
        conn.execute("INSERT INTO henkit_sessions VALUES (?, 1)", (session,))
        conn.executemany(f"INSERT INTO henkit_records ({', '.join(columns)}) VALUES "
                         f"({', '.join('?' for _ in columns)})", rows)
        conn.execute("PRAGMA user_version=2")
    conn.close()


def test_a_store_made_before_draws_kept_their_player_count_is_upgraded(
        target: str, make_records: Callable) -> None:
    """A pool of schema 2 opened by this henkit: its draws read back with no player count (not
    recorded), new draws keep theirs, and the tallies still equal the records, old and new."""
    session = "20260101-080000-abcdef"
    old = make_records(600, seed=41, pages=5)
    schema_2_store(target, old, session)
    store = open_store(target)
    try:
        unknown = [replace(r, players=None) if isinstance(r, DrawRecord) else r for r in old]
        assert [r.stamped(session=None, time=None) for r in store.records()] == unknown
        new = make_records(300, seed=42, pages=3)
        store.add_many(new)
        assert store.board() == store._read_board(RECORDS_BOARD_SQL, None)
        assert store.draw_tallies() == direct_board([*unknown, *new])["draw_tallies"]
        assert any(k[2] is None for k in store.draw_tallies())
        assert any(k[2] is not None for k in store.draw_tallies())
    finally:
        store.close()
    again = open_store(target)  # opened again: nothing more to upgrade
    assert again.board().summary.records == 900
    again.close()


def test_each_postgres_aggregate_can_read_its_index(postgres_server: object,
                                                    make_records: Callable) -> None:
    """PostgreSQL's plans (sequential scans off, as on a big table) read each aggregate's index:
    the partial indexes match their queries."""
    import psycopg

    url = postgres_server.url()  # type: ignore[attr-defined]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS plans CASCADE")
        conn.execute("CREATE SCHEMA plans")
    store = PostgresStore(postgres_server.url("plans"))  # type: ignore[attr-defined]
    store.add_many(make_records(2000))
    with psycopg.connect(postgres_server.url("plans"), autocommit=True) as conn:  # type: ignore[attr-defined]
        conn.execute("ANALYZE henkit_records")
        conn.execute("SET enable_seqscan = off")
        for name, index in INDEXES.items():
            sql = AGGREGATES[name].replace("?", "%s")
            plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN {sql}",
                                                         (None,) * sql.count("%s")))
            assert index in plan, plan
            assert "Seq Scan on henkit_records" not in plan, plan
    store.close()


def test_writes_from_threads_of_one_page(store: ClassStore) -> None:
    """One store object shared by threads (widgets' callbacks): every record written once."""
    pages = [new_page_id() for _ in range(8)]

    def write(page: str) -> None:
        for i in range(50):
            store.add(DrawRecord("deck", "Pa3", 2, page=page, seq=i))

    threads = [threading.Thread(target=write, args=(p,)) for p in pages]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.summary() == store.summary().__class__(pages=8, draws=400)


def test_open_store_picks_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """None -> HENKIT_CLASS_DB -> class.sqlite3 in the data folder (given, or XDG_DATA_HOME);
    postgresql:// URLs -> PostgresStore (password hidden from its location); other URLs refused."""
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    s = open_store()
    assert isinstance(s, SQLiteStore)
    assert s.location == str(tmp_path / "xdg" / "henkit" / "class.sqlite3")
    assert open_store(data_dir=tmp_path / "served").location == str(
        tmp_path / "served" / "class.sqlite3")
    monkeypatch.setenv(ENV, str(tmp_path / "elsewhere.db"))
    assert open_store(data_dir=tmp_path / "served").location == str(tmp_path / "elsewhere.db")
    monkeypatch.setenv(ENV, "postgresql://teacher:secret@db.school:5432/class")
    pg = open_store()
    assert isinstance(pg, PostgresStore)
    assert "secret" not in pg.location and "secret" not in repr(pg)
    assert pg.location == "postgresql://teacher:***@db.school:5432/class"
    assert isinstance(open_store(tmp_path / "given.sqlite3"), SQLiteStore)
    for bad in ("mysql://x/y", 3, b"/tmp/x", ""):
        with pytest.raises(ValueError):
            open_store(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SQLiteStore(tmp_path / "x.sqlite3", timeout=-1)
    with pytest.raises(ValueError):
        PostgresStore("postgresql://x/y", connect_timeout=0)


def test_a_store_that_cannot_be_reached_raises_store_error(tmp_path: Path) -> None:
    """A PostgreSQL server that is not there, an SQLite file in a folder that cannot be made:
    StoreError (not bad input), and the store works once the cause is gone."""
    with pytest.raises(StoreError, match="cannot be used"):
        PostgresStore("postgresql://nobody@127.0.0.1:9/class", connect_timeout=1).status()
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should be")
    store = SQLiteStore(blocker / "class.sqlite3")
    with pytest.raises(StoreError):
        store.current_session()
    blocker.unlink()
    assert store.current_session()
    store.close()


@pytest.mark.slow
def test_the_board_with_100000_records(target: str, make_records: Callable) -> None:
    """The class board's one query over 100,000 records of one session (a class of 30) counts
    every one of them (its speed is a benchmark: benchmarks/bench_classpool.py)."""
    store = open_store(target)
    records = make_records(20_000, seed=5, pages=30)
    store.add_many(records)
    want = {key: 5 * n for key, n in direct_board(records)["roll_tallies"].items()}
    # Four more copies of those records under other seqs, copied by the database itself.
    columns = ", ".join(COLUMNS)
    copy = (f"INSERT INTO henkit_records ({columns}) SELECT "
            + columns.replace("seq", "seq + {k} * 1000000") + " FROM henkit_records"
            " WHERE seq < 1000000")
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as conn:
            for k in range(1, 5):
                conn.execute(copy.format(k=k))
    else:
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            for k in range(1, 5):
                conn.execute(copy.format(k=k))
    board = store.board()
    assert board.summary.records == 100_000 and board.summary.pages == 30
    assert board.first_rolls == want
    store.close()


def test_missing_postgresql_fails_instead_of_skipping(find_postgres: Callable,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Debian's server programs the PostgreSQL tests fail, saying what to install
    (make test installs it; a skip would hide a store nobody tested)."""
    import glob

    assert (find_postgres() / "initdb").exists()
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    with pytest.raises(pytest.fail.Exception, match="apt-get install postgresql"):
        find_postgres()

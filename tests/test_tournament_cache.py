"""The shared cache of tournament games: it returns exactly what playing would, or nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from henkit import arena, tournament_cache
from henkit.arena import SERIAL, run_tournament
from henkit.henpen.rules import Rules
from henkit.hens.rules import Rules as HensRules

SETTINGS = {"game": "henpen", "bots": ["greedy", "threshold:25"], "seed": 3, "executor": SERIAL}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache switched on, in an empty temporary directory."""
    monkeypatch.setenv("HENKIT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (start, stop) of every chunk of games actually played from now on."""
    chunks: list[tuple[int, int]] = []
    real = arena.play_chunk

    def spy(chunk):
        chunks.append((chunk.start, chunk.stop))
        return real(chunk)

    monkeypatch.setattr(arena, "play_chunk", spy)
    return chunks


def entries(folder: Path) -> list[Path]:
    """The cache's entries."""
    return sorted(folder.glob("*.json"))


def test_a_second_run_reads_every_game_and_plays_none(folder, played):
    first = run_tournament(**SETTINGS, games=30)
    assert first.cached == 0 and played and len(entries(folder)) == 1
    played.clear()
    again = run_tournament(**SETTINGS, games=30)
    assert played == []
    assert again.cached == 30
    assert again == first and again.records == first.records
    assert again.summary() == first.summary()


def test_cached_games_equal_played_games_for_both_games_with_and_without_rotation(folder):
    for game, bots in (("henpen", ["greedy", "random", "greedy"]), ("hens", ["greedy", "random"])):
        for rotate in (True, False):
            kwargs = {"game": game, "bots": bots, "games": 12, "seed": 8, "rotate": rotate,
                      "executor": SERIAL}
            run_tournament(**kwargs)
            read = run_tournament(**kwargs)
            assert read.cached == 12
            assert read.records == run_tournament(**kwargs, cache=False).records


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("henpen", Rules.pickomino()),
        ("henpen", Rules(dice=7, flip_when_nothing_returned=True)),
        ("hens", HensRules(players=2, removed_breeds=("Pa", "Se"), goal=3, first_player=1)),
    ],
)
def test_games_with_other_rules_are_read_back_too(folder, game, rules):
    # Every setting of the key must survive JSON unchanged, or the entry would never match and
    # be replayed and rewritten on every run.
    kwargs = {"game": game, "bots": ["greedy", "random"], "games": 8, "seed": 2, "rules": rules,
              "executor": SERIAL}
    played = run_tournament(**kwargs)
    read = run_tournament(**kwargs)
    assert read.cached == 8 and read.records == played.records
    assert read.records == run_tournament(**kwargs, cache=False).records


def test_the_default_rules_given_or_not_are_one_entry(folder):
    run_tournament(**SETTINGS, games=6)
    assert run_tournament(**SETTINGS, games=6, rules=Rules()).cached == 6
    assert len(entries(folder)) == 1


def test_a_longer_run_plays_only_the_new_games_and_a_shorter_one_reads_a_prefix(folder, played):
    run_tournament(**SETTINGS, games=20, chunk_size=5)
    played.clear()
    longer = run_tournament(**SETTINGS, games=50, chunk_size=5)
    assert longer.cached == 20
    assert played and min(start for start, _ in played) == 20
    assert longer.records == run_tournament(**SETTINGS, games=50, cache=False).records
    played.clear()
    shorter = run_tournament(**SETTINGS, games=35)
    assert played == [] and shorter.cached == 35
    assert shorter.records == longer.records[:35]


def test_progress_starts_at_the_games_read(folder):
    run_tournament(**SETTINGS, games=10)
    calls: list[tuple[int, int]] = []
    run_tournament(**SETTINGS, games=16, chunk_size=3, on_progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (10, 16) and calls[-1] == (16, 16)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_executor_none_chooses_by_the_games_still_to_play(folder, monkeypatch):
    pools = []

    def pool():
        pools.append(ThreadPoolExecutor(max_workers=1))
        return pools[-1]

    monkeypatch.setattr(arena, "default_executor", pool)
    n = arena.SERIAL_BELOW
    run_tournament(**SETTINGS, games=n)  # played here (executor=SERIAL)
    few = run_tournament(**{**SETTINGS, "executor": None}, games=2 * n - 1)  # n - 1 more: here
    assert pools == [] and few.cached == n
    many = run_tournament(**{**SETTINGS, "executor": None}, games=3 * n)  # n + 1 more: a pool
    assert len(pools) == 1 and many.cached == 2 * n - 1
    assert many.records == run_tournament(**SETTINGS, games=3 * n, cache=False).records
    pools[0].shutdown()


def test_an_all_cached_run_starts_no_process_pool(folder, monkeypatch):
    run_tournament(**SETTINGS, games=arena.SERIAL_BELOW + 5)  # played here (executor=SERIAL)

    def no_pool():
        raise AssertionError("a pool was started for a tournament the cache holds")

    monkeypatch.setattr(arena, "default_executor", no_pool)
    t = run_tournament(**{**SETTINGS, "executor": None}, games=arena.SERIAL_BELOW + 5)
    assert t.cached == arena.SERIAL_BELOW + 5


@pytest.mark.parametrize(
    "change",
    [
        {"seed": 4},
        {"rotate": False},
        {"bots": ["threshold:25", "greedy"]},
        {"bots": ["greedy", "threshold:26"]},
        {"rules": Rules(dice=7)},
        {"rules": Rules.pickomino()},
    ],
)
def test_any_other_setting_is_another_entry(folder, change):
    run_tournament(**SETTINGS, games=10)
    other = run_tournament(**{**SETTINGS, **change}, games=10)
    assert other.cached == 0
    assert len(entries(folder)) == 2


def test_other_code_is_another_entry(folder, monkeypatch):
    run_tournament(**SETTINGS, games=10)
    monkeypatch.setattr(tournament_cache, "_FINGERPRINT", "f" * 64)
    assert run_tournament(**SETTINGS, games=10).cached == 0


def test_the_fingerprint_follows_every_source_file(tmp_path, monkeypatch):
    root = Path(tournament_cache.__file__).parent
    copy = tmp_path / "henkit"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = tournament_cache._source_fingerprint(copy)
    assert before == tournament_cache._source_fingerprint(root)
    bots = copy / "henpen" / "bots.py"
    bots.write_text(bots.read_text() + "\n# an edit\n")
    assert tournament_cache._source_fingerprint(copy) != before
    (copy / "henpen" / "bots.py").rename(copy / "henpen" / "bots2.py")
    assert tournament_cache._source_fingerprint(copy) != before
    monkeypatch.setattr(tournament_cache.np, "__version__", "0.0.0")
    assert tournament_cache._source_fingerprint(root) != before


def test_cache_false_neither_reads_nor_writes(folder, played):
    run_tournament(**SETTINGS, games=10, cache=False)
    assert entries(folder) == []
    run_tournament(**SETTINGS, games=10)
    played.clear()
    t = run_tournament(**SETTINGS, games=10, cache=False)
    assert t.cached == 0 and played


def test_off_turns_the_cache_off(monkeypatch):
    monkeypatch.setenv("HENKIT_CACHE", " OFF ")
    assert tournament_cache.cache_dir() is None
    run_tournament(**SETTINGS, games=10)
    assert run_tournament(**SETTINGS, games=10).cached == 0


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("HENKIT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tournament_cache.cache_dir() == tmp_path / "xdg" / "henkit"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tournament_cache.cache_dir() == tmp_path / "home" / ".cache" / "henkit"
    monkeypatch.setenv("HENKIT_CACHE", " ")  # empty is unset, not the current directory
    assert tournament_cache.cache_dir() == tmp_path / "home" / ".cache" / "henkit"


def damage(path: Path, how: str) -> None:
    """Spoil a cache entry one way."""
    data = json.loads(path.read_text())
    rows = data["games"]
    if how == "text":
        path.write_text("{ not json")
        return
    if how == "key":
        data["key"]["seed"] += 1
    elif how == "seed":
        rows[3][0] += 1
    elif how == "seats":
        rows[3][1] = rows[3][1][::-1]
    elif how == "totals":
        rows[3][2] = rows[3][2][:1]
    elif how == "float total":
        rows[3][2][0] = 1.5
    elif how == "float seed":
        rows[3][0] = float(rows[3][0])
    elif how == "bool seats":
        rows[3][1] = [bool(b) for b in rows[3][1]]
    elif how == "winner list":
        rows[3][3] = [[0]]
    elif how == "nesting":
        path.write_text('{"games": ' + "[" * 100_000 + "]" * 100_000 + "}")
        return
    elif how == "winner":
        rows[3][3] = [7]
    elif how == "no winner":
        rows[3][3] = []
    elif how == "first player":
        rows[3][4] = -1
    elif how == "row":
        rows[3] = "game"
    elif how == "games":
        data["games"] = {"0": rows[0]}
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "how",
    ["text", "key", "seed", "float seed", "seats", "bool seats", "totals", "float total",
     "winner", "winner list", "no winner", "first player", "row", "games", "nesting"],
)
def test_a_damaged_entry_is_replayed_and_replaced(folder, played, how):
    good = run_tournament(**SETTINGS, games=12)
    [path] = entries(folder)
    damage(path, how)
    played.clear()
    again = run_tournament(**SETTINGS, games=12)
    assert again.cached == 0 and played
    assert again.records == good.records
    assert run_tournament(**SETTINGS, games=12).cached == 12  # the entry was written again


def test_a_cache_that_cannot_be_written_never_stops_a_tournament(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HENKIT_CACHE", str(blocker / "cache"))
    t = run_tournament(**SETTINGS, games=6)
    assert t.games == 6 and t.cached == 0
    assert run_tournament(**SETTINGS, games=6).cached == 0


def test_a_write_never_shrinks_an_entry(folder):
    run_tournament(**SETTINGS, games=30)
    key = arena.cache_key("henpen", ("greedy", "threshold:25"), None, 3, True)
    tournament_cache.store(key, tournament_cache.load(key)[:5])
    assert len(tournament_cache.load(key)) == 30


def test_a_failed_write_leaves_no_temporary_file(folder, monkeypatch):
    def refuse(*args):
        raise OSError("disk full")

    monkeypatch.setattr(tournament_cache.os, "replace", refuse)
    t = run_tournament(**SETTINGS, games=6)
    assert t.games == 6
    left = sorted(p.suffix for p in folder.iterdir())
    assert left == [".lock"]  # the run's lock; no entry, and the temporary file was removed


def test_pruning_removes_stale_temporary_files_and_nothing_but_entries(folder, monkeypatch):
    monkeypatch.setattr(tournament_cache, "MAX_ENTRIES", 1)
    folder.mkdir(parents=True)
    notes = folder / "notes.json"
    notes.write_text("{}")
    stale, fresh = folder / "tmpabc123.henkit-tmp", folder / "tmpdef456.henkit-tmp"
    for f in (notes, stale, fresh):
        f.write_text("x")
    os.utime(stale, (1000, 1000))
    os.utime(notes, (1000, 1000))
    for seed in range(3):
        run_tournament(**{**SETTINGS, "seed": seed}, games=4)
    assert notes.exists() and fresh.exists() and not stale.exists()
    assert len([p for p in folder.iterdir() if p.name.endswith(".json")]) == 2  # notes + 1
    assert len(list(folder.glob("*.lock"))) == 1  # a pruned entry's lock goes with it


def test_the_least_recently_used_entries_go_first(folder, monkeypatch):
    monkeypatch.setattr(tournament_cache, "MAX_ENTRIES", 3)

    def path(seed: int) -> Path:
        key = arena.cache_key("henpen", ("greedy", "threshold:25"), None, seed, True)
        return tournament_cache._path(folder, key)

    for seed in range(3):
        run_tournament(**{**SETTINGS, "seed": seed}, games=4)
        os.utime(path(seed), (1000 * (seed + 1), 1000 * (seed + 1)))  # used long ago, in order
    assert run_tournament(**{**SETTINGS, "seed": 0}, games=4).cached == 4  # seed 0: used now
    run_tournament(**{**SETTINGS, "seed": 9}, games=4)  # a fourth entry: one must go
    assert [path(s).exists() for s in (0, 1, 2, 9)] == [True, False, True, True]


def test_a_run_of_the_same_tournament_in_another_thread_waits_then_reads(folder, monkeypatch):
    # The first run holds its entry while it plays; the second starts meanwhile, waits, and
    # reads every game instead of playing them again.
    holding, release = threading.Event(), threading.Event()
    real, played_by = arena.play_chunk, []

    def slow(chunk):
        played_by.append(threading.current_thread().name)
        if threading.current_thread().name == "first":
            holding.set()
            release.wait(10)
        return real(chunk)

    monkeypatch.setattr(arena, "play_chunk", slow)
    out: dict[str, object] = {}

    def run(name: str) -> None:
        out[name] = run_tournament(**SETTINGS, games=8, chunk_size=8)

    first = threading.Thread(target=run, args=("first",), name="first")
    first.start()
    assert holding.wait(10)
    second = threading.Thread(target=run, args=("second",), name="second")
    second.start()
    second.join(0.5)
    assert second.is_alive()  # waiting for the first run's entry, not playing
    release.set()
    first.join(10)
    second.join(10)
    assert played_by == ["first"]
    assert out["second"].cached == 8 and out["second"].records == out["first"].records


def test_a_run_in_another_process_waits_for_the_holder(folder):
    key = arena.cache_key("henpen", ("greedy", "threshold:25"), None, 3, True)
    script = (
        "from henkit.arena import run_tournament\n"
        "t = run_tournament('henpen', ['greedy', 'threshold:25'], games=8, seed=3, "
        "executor='serial')\n"
        "print(t.cached)\n"
    )
    rows = [arena.cache_row(r) for r in run_tournament(**SETTINGS, games=8, cache=False).records]
    with tournament_cache.hold(key):
        other = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "HENKIT_CACHE": str(folder)})
        try:
            other.wait(3)  # it imports henkit, then waits for this hold
        except subprocess.TimeoutExpired:
            pass
        else:  # it ended while the hold was held: a crash, not a wait (say which)
            out, err = other.communicate()
            pytest.fail(f"the other process ended (return code {other.returncode}) instead of "
                        f"waiting for the hold\nstdout: {out}\nstderr: {err}")
        tournament_cache.store(key, rows)
    out, err = other.communicate(timeout=60)
    assert other.returncode == 0, f"the other process failed:\n{err}"
    assert out.strip() == "8", f"stdout: {out}\nstderr: {err}"  # every game from the store


# -- numpy tables in keys and entries (seeded turn runs, a learner's training) ------------------


@pytest.mark.parametrize("dtype", ["int16", "int64", "float64", "bool", "uint8"])
def test_a_packed_table_reads_back_exactly(dtype):
    rng = np.random.default_rng(5)
    table = (rng.standard_normal((7, 3)) * 1000).astype(dtype)
    for level in (1, 6, 9):
        back = tournament_cache.unpack(tournament_cache.pack(table, level), dtype, (7, 3))
        assert back.dtype == table.dtype and back.shape == (7, 3)
        assert back.tobytes() == table.tobytes()
        back[0, 0] = back[0, 1]  # a copy the caller may change, not a view of the text
    flat = tournament_cache.unpack(tournament_cache.pack(table), dtype)
    assert flat.shape == (21,)


def test_a_damaged_packed_table_is_a_value_error():
    text = tournament_cache.pack(np.arange(12, dtype=np.int16))
    for bad in (text[:-4], text.replace("A", "!"), "", "not base64 at all"):
        with pytest.raises(ValueError, match="packed table|pack"):
            tournament_cache.unpack(bad, np.int16)
    with pytest.raises(ValueError, match="shaped"):
        tournament_cache.unpack(text, np.int16, (5, 5))


def test_the_digest_sees_every_name_dtype_shape_and_byte():
    base = np.arange(6, dtype=np.int16)
    ref = tournament_cache.digest("head", [("a", base)])
    assert ref == tournament_cache.digest("head", [("a", base.copy())])
    variants = [
        ("other head", [("a", base)]),
        ("head", [("b", base)]),
        ("head", [("a", base.astype(np.int32))]),
        ("head", [("a", base.reshape(2, 3))]),
        ("head", [("a", base + np.eye(1, 6, 5, dtype=np.int16)[0])]),
        ("head", [("a", base), ("a", base)]),
        ("head", []),
    ]
    digests = {tournament_cache.digest(h, t) for h, t in variants}
    assert ref not in digests and len(digests) == len(variants)
    # A non-contiguous view digests as its contiguous copy.
    wide = np.arange(12, dtype=np.int16).reshape(6, 2)
    assert (tournament_cache.digest("h", [("a", wide[:, 0])])
            == tournament_cache.digest("h", [("a", wide[:, 0].copy())]))

"""pool_observer: seeded games played through Game, and the records checked against the game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from henkit.classpool import (
    BarnyardRecord,
    DrawRecord,
    Recorder,
    RollRecord,
    SQLiteStore,
    TurnRecord,
    page_recorder,
    pool_observer,
    seat_names,
    who_of,
)
from henkit.classpool.page import close_page_recorder
from henkit.core import CHANCE, Game, make_rng, play_series
from henkit.henpen import ROLL
from henkit.henpen import State as HenpenState
from henkit.henpen.bots import make_bot as henpen_bot
from henkit.hens import DECK, Draw
from henkit.hens import State as HensState
from henkit.hens import make_bot as hens_bot


class Sink:
    """A fake recorder: keeps what it is given, in order."""

    def __init__(self) -> None:
        self.records: list = []
        self.calls = 0

    def record_many(self, records) -> None:
        self.calls += 1
        self.records.extend(records)


def henpen_game(seed: int, bots=("greedy", "threshold:25", "random"), sink=None) -> Game:
    robots = [henpen_bot(b) for b in bots]
    observer = pool_observer(sink, seat_names(robots)) if sink is not None else None
    game = Game(HenpenState.new(len(robots)), robots, seed, observer=observer)
    game.run()
    return game


def hens_game(seed: int, bots=("greedy", "random"), sink=None) -> Game:
    robots = [hens_bot(b) for b in bots]
    rng = make_rng(seed)
    observer = pool_observer(sink, seat_names(robots)) if sink is not None else None
    game = Game(HensState.new(len(robots), seed=rng), robots, rng, observer=observer)
    game.run()
    return game


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_henpen_rolls_and_turns_match_the_game(seed: int) -> None:
    sink = Sink()
    game = henpen_game(seed, sink=sink)
    rolls = [r for r in sink.records if isinstance(r, RollRecord)]
    turns = [r for r in sink.records if isinstance(r, TurnRecord)]
    assert len(rolls) + len(turns) == len(sink.records)
    # One roll record per chance step, with the step's dice, the faces taken before, the bust.
    chance = [(game.states[i], step, game.states[i + 1]) for i, step in enumerate(game.history)
              if step.player == CHANCE]
    assert len(rolls) == len(chance) > 0
    for r, (before, step, after) in zip(rolls, chance, strict=True):
        assert r.counts == tuple(step.action) and r.dice == before.dice_left == sum(r.counts)
        assert r.taken == before.taken
        busted = after.last_turn is not None and after.turns_played > before.turns_played
        assert r.bust == busted
        assert r.bust == (busted and after.last_turn.failure == "bust")
    # One turn record per turn played, in order, as the engine recorded the turn's end.
    assert len(turns) == game.state.turns_played
    ends = [after.last_turn for before, after in zip(game.states, game.states[1:], strict=False)
            if after.turns_played > before.turns_played]
    names = seat_names(game.bots)
    for r, end in zip(turns, ends, strict=True):
        assert r.who == names[end.player]
        assert r.total == end.total and r.failure == end.failure
        assert r.serving == (end.claim.tile if end.claim else None)
    # Every serving a player holds at the end was taken by one of the recorded turns.
    taken = Counter(r.serving for r in turns if r.serving is not None)
    held = Counter(t for stack in game.state.stacks for t in stack)
    assert all(taken[t] >= n for t, n in held.items())
    assert {r.who for r in turns} <= {"greedy", "threshold 25", "random"}


def test_recording_does_not_change_the_game() -> None:
    plain, watched = henpen_game(4), henpen_game(4, sink=Sink())
    assert plain.history == watched.history and plain.state == watched.state
    plain, watched = hens_game(4), hens_game(4, sink=Sink())
    assert plain.history == watched.history and plain.state.scores() == watched.state.scores()


@pytest.mark.parametrize("seed", [1, 5])
def test_hens_draws_and_barnyards_match_the_game(seed: int) -> None:
    sink = Sink()
    game = hens_game(seed, bots=("greedy", "random", "lookahead"), sink=sink)
    draws = [r for r in sink.records if isinstance(r, DrawRecord)]
    yards = [r for r in sink.records if isinstance(r, BarnyardRecord)]
    assert len(draws) + len(yards) == len(sink.records)
    expected = []
    for i, step in enumerate(game.history):
        before = game.states[i]
        if step.player == CHANCE:
            expected.append(("deck", str(step.action)))
        elif isinstance(step.action, Draw) and step.action.source != DECK:
            expected.append((step.action.source, str(before.discards[step.action.source][-1])))
    assert [(r.source, r.card) for r in draws] == expected
    assert {r.players for r in draws} == {game.state.players}  # the deck depends on it
    assert any(src != "deck" for src, _ in expected)  # the bots took from piles too
    # Every card that left the deck was recorded once: the deck's cards = the deck draws.
    start_deck = Counter(map(str, game.states[0].deck))
    left = Counter(map(str, game.state.deck))
    assert Counter(c for s, c in expected if s == "deck") == start_deck - left
    # One barnyard per player, at the end, with the engine's score sheet and total.
    assert sink.records[-len(yards):] == yards
    assert [r.total for r in yards] == list(game.state.scores())
    assert [r.who for r in yards] == ["greedy", "random", "lookahead"]
    for r, sheet in zip(yards, game.state.score_sheets(), strict=True):
        assert r.lines == tuple((x.step, x.points) for x in sheet.lines)


def test_records_reach_an_sqlite_store_in_order(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "class.sqlite3")
    recorder = Recorder(store)
    game = henpen_game(3, bots=("optimal", "greedy"), sink=recorder)
    assert recorder.flush() and recorder.online
    stored = [r for r in store.records() if r.page == recorder.page]
    assert [r.seq for r in stored] == list(range(len(stored)))
    chance = sum(1 for s in game.history if s.player == CHANCE)
    kinds = Counter(r.kind for r in stored)
    assert kinds == {"roll": chance, "turn": game.state.turns_played}
    summary = store.summary()
    assert summary.records == len(stored)
    recorder.close()
    store.close()


def test_a_human_seat_is_recorded_as_student() -> None:
    sink = Sink()
    bots = [None, henpen_bot("greedy")]
    game = Game(HenpenState.new(2), bots, 11, observer=pool_observer(sink, seat_names(bots)))
    while game.state.turns_played < 1:  # the human plays: roll, take the first face, ...
        s = game.state
        if s.is_chance:
            game.step()
        elif s.phase == "decide" and any(a != ROLL for a in s.legal_actions()):
            game.play(s.legal_actions()[-1])  # stop with a claim
        else:
            game.play(s.legal_actions()[0])
    game.advance()  # the bot's turn
    turns = [r for r in sink.records if isinstance(r, TurnRecord)]
    assert [t.who for t in turns[:2]] == ["student", "greedy"]


def test_a_series_observed_records_every_game() -> None:
    sink = Sink()
    bots = [henpen_bot("greedy"), henpen_bot("random")]
    results = play_series(HenpenState.new, bots, games=4, seed=2,
                          observer=pool_observer(sink, "greedy"))
    turns = [r for r in sink.records if isinstance(r, TurnRecord)]
    assert len(turns) == sum(r.final.turns_played for r in results)


def test_who_and_recorder_are_checked() -> None:
    with pytest.raises(ValueError, match="Recorder"):
        pool_observer(object())  # type: ignore[arg-type]
    for bad in ("", "a" * 41, "<script>", 3, b"x", []):
        with pytest.raises(ValueError, match="who"):
            pool_observer(Sink(), bad)  # type: ignore[arg-type]
    assert who_of(None) == "student"
    assert who_of(henpen_bot("threshold:25")) == "threshold 25"

    class Odd:
        name = "<bad/name>" * 10

    assert who_of(Odd()) == "bot _bad_name__bad_name__bad_name__bad_n"  # starts with a letter
    assert who_of(type("Nameless", (), {})()) == "Nameless"


def test_a_move_that_cannot_be_recorded_is_skipped_and_the_game_goes_on() -> None:
    sink = Sink()

    def who(seat: int) -> str:
        return "greedy" if seat == 0 else "not a name!"  # "!" is refused by the records

    bots = [henpen_bot("greedy"), henpen_bot("greedy")]
    game = Game(HenpenState.new(2), bots, 5, observer=pool_observer(sink, who))
    game.run()
    assert game.state.is_over
    turns = [r for r in sink.records if isinstance(r, TurnRecord)]
    assert turns and {t.who for t in turns} == {"greedy"}
    assert len(turns) < game.state.turns_played


def test_the_page_recorder_is_one_per_kernel(tmp_path: Path, monkeypatch) -> None:
    close_page_recorder()
    monkeypatch.setenv("HENKIT_CLASS_DB", str(tmp_path / "pool.sqlite3"))
    try:
        rec = page_recorder()
        assert page_recorder() is rec and rec._thread is not None  # a background writer
        henpen_game(6, bots=("greedy", "greedy"), sink=rec)
        assert rec.flush()
        store = SQLiteStore(tmp_path / "pool.sqlite3")
        assert store.summary().records == rec.written > 0
        store.close()
    finally:
        close_page_recorder()
    monkeypatch.setenv("HENKIT_CLASS_DB", "mysql://nope")
    with pytest.raises(ValueError):
        page_recorder()

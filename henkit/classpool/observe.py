"""Moves of a game turned into class pool records: the observer a widget hands its `Game`.

`pool_observer(recorder, who)` returns an observer `(before, step, after)` for
`henkit.core.Game(observer=...)` (or `play_out`). From the moves of the two games it makes:

- Henpen, a chance move (the dice land): a `RollRecord` of the dice rolled (`before.dice_left`),
  the counts per face (the move), the faces taken before it (`before.taken`) and whether it went
  bust (the roll ended the turn: a roll fails a turn only by going bust).
- Henpen, any move that ends a turn (`after.turns_played` grew): a `TurnRecord` of
  `after.last_turn`: who played it, its total, the serving taken or why it failed.
- Hens, a draw from a pile (a player's `Draw(seat)`): a `DrawRecord` of that seat and the pile's
  top card; a draw from the deck is recorded at its chance move, when the card is known.
- Hens, the move that ends the game: a `BarnyardRecord` (`BarnyardRecord.from_score`) of every
  player's score sheet.

Recording never breaks a game: a move the records cannot describe (rules with more dice than a
record allows, say) is logged and skipped, and a recorder's own failures are its business (a
`Recorder` keeps records while the pool is offline). The module is pure: no widgets.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from henkit.classpool.records import (
    DECK,
    STUDENT,
    WHO,
    BarnyardRecord,
    DrawRecord,
    Record,
    RollRecord,
    TurnRecord,
    check_who,
)
from henkit.core import CHANCE, GameState, Observer, Step

if TYPE_CHECKING:  # the engines are imported by the games that use them, not by the pool
    from henkit.henpen.state import State as HenpenState
    from henkit.hens.state import State as HensState

LOG = logging.getLogger("henkit.classpool")
NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9 _:.()+-]")


class RecordSink(Protocol):
    """Where an observer sends its records: a `Recorder` (or anything with `record_many`)."""

    def record_many(self, records: Sequence[Record]) -> None:
        """Take these records (stamp and write them, or keep them)."""
        ...


Who = str | Sequence[str | None] | Callable[[int], str]
"""Who played each seat: one name for every seat, a name per seat (None: "student"), or a
function of the seat."""


def who_of(bot: object) -> str:
    """The `who` of a seat: "student" for a human (None), else the bot's name made fit for a
    record (letters, digits, spaces and :._()+-, at most 40), e.g. 'threshold 25'."""
    if bot is None:
        return STUDENT
    name = getattr(bot, "name", None) or type(bot).__name__
    name = NOT_IN_A_NAME.sub("_", str(name)).strip()[:40].strip()
    if not WHO.fullmatch(name):
        name = ("bot " + name)[:40].strip() if name else "bot"
    return check_who(name)


def seat_names(bots: Sequence[object]) -> list[str]:
    """`who_of` for each seat of a game's bots (None for a human)."""
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise ValueError(f"bots must be a list of bots (None for a human), not {bots!r}"[:300])
    return [who_of(b) for b in bots]


def _who_function(who: object) -> Callable[[int], str]:
    if isinstance(who, str):
        name = check_who(who)
        return lambda _seat: name
    if callable(who):
        return lambda seat: check_who(who(seat))
    if isinstance(who, bytes) or not isinstance(who, Sequence) or not who:
        raise ValueError(f'who is "{STUDENT}", a bot\'s name, a list of names by seat (None for '
                         f"a human) or a function of the seat, not {who!r}"[:300])
    names = tuple(STUDENT if n is None else check_who(n) for n in who)

    def by_seat(seat: int) -> str:
        if not 0 <= seat < len(names):
            raise ValueError(f"who names {len(names)} seats, not seat {seat}")
        return names[seat]

    return by_seat


def henpen_records(before: HenpenState, step: Step, after: HenpenState,
                   who: Callable[[int], str]) -> list[Record]:
    """The records of one Henpen move: a roll, and/or a finished turn."""
    out: list[Record] = []
    ended = after.turns_played > before.turns_played
    if step.player == CHANCE:
        out.append(RollRecord(before.dice_left, tuple(step.action), before.taken, ended))
    if ended and after.last_turn is not None:
        end = after.last_turn
        serving = end.claim.tile if end.claim is not None else None
        out.append(TurnRecord(who(end.player), end.total, end.failure, serving))
    return out


def hens_records(before: HensState, step: Step, after: HensState,
                 who: Callable[[int], str]) -> list[Record]:
    """The records of one Hens move: a draw (deck or pile), and/or every finished barnyard."""
    from henkit.hens.actions import DECK as HENS_DECK
    from henkit.hens.actions import Draw

    out: list[Record] = []
    action = step.action
    if step.player == CHANCE:
        out.append(DrawRecord(DECK, str(action), before.players))
    elif type(action) is Draw and action.source != HENS_DECK:
        out.append(DrawRecord(action.source, str(before.discards[action.source][-1]),
                              before.players))
    if after.is_over and not before.is_over:
        out.extend(BarnyardRecord.from_score(sheet, who(p))
                   for p, sheet in enumerate(after.score_sheets()))
    return out


def pool_observer(recorder: RecordSink, who: Who = STUDENT,
                  fresh: bool | Callable[[], bool] = True) -> Observer:
    """An observer `(before, step, after)` for `Game(observer=...)` sending every roll, finished
    turn, draw and finished barnyard of the game to `recorder` (see the module doc).

    `who`: who played each seat ("student" for a human, else the bot's name; `seat_names(bots)`
    makes the list from a game's bots). `fresh`: whether the game comes from a fresh random
    seed, or a function asked at each move (a widget whose student may type a seed); records of
    a game that is not fresh are marked (`Record.fresh` False) and left out of the pooled chances.
    """
    if not callable(getattr(recorder, "record_many", None)):
        raise ValueError(f"recorder must be a henkit.classpool Recorder, not {recorder!r}"[:300])
    by_seat = _who_function(who)
    if isinstance(fresh, bool):
        is_fresh: Callable[[], bool] = (lambda: True) if fresh else (lambda: False)
    elif callable(fresh):
        is_fresh = fresh
    else:
        raise ValueError(f"fresh is True, False or a function saying which, not {fresh!r}"[:300])

    def observe(before: GameState, step: Step, after: GameState) -> None:
        try:
            if _is_state_of(before, "henkit.henpen.state"):
                records = henpen_records(before, step, after, by_seat)  # type: ignore[arg-type]
            elif _is_state_of(before, "henkit.hens.state"):
                records = hens_records(before, step, after, by_seat)  # type: ignore[arg-type]
            else:
                return
        except ValueError as e:
            # A move no record can describe (unusual rules): the game goes on unrecorded.
            LOG.info("class pool: a move was not recorded: %s", e)
            return
        if records:
            if not is_fresh():
                records = [r.stamped(fresh=False) for r in records]
            recorder.record_many(records)

    return observe


def _is_state_of(state: object, module: str) -> bool:
    # True when `state` is a State of the game engine `module`. A State of a module that was
    # never imported cannot exist, so a Henpen lesson never imports the Hens engine (nor a
    # Hens lesson Henpen's) just to find out which game it plays.
    engine = sys.modules.get(module)
    return engine is not None and isinstance(state, engine.State)

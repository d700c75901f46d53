"""The Henpen game state: immutable, with exact chance nodes for every roll.

A turn moves through phases:
  ROLL    the player must roll (start of a turn);
  DICE    a chance node: the dice are in the air, `chance_outcomes()` lists every roll;
  TAKE    the player picks a face of the roll not taken before;
  DECIDE  the player rolls again, or stops and claims a serving.
A turn that ends by itself (all dice set aside, or every face taken: P5) stays in DECIDE with
only `Stop` actions, or fails at once when nothing can be claimed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import mul
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.core import CHANCE, TERMINAL
from henkit.henpen.actions import ROLL, Action, Roll, Stop, Take
from henkit.henpen.dice import (
    FACES,
    SIDES,
    VALUES,
    WORM,
    describe_roll,
    face_name,
    roll_outcomes,
    roll_probabilities,
    sample_roll,
)
from henkit.henpen.rules import MAX_PLAYERS, MIN_PLAYERS, Claim, Rules, legal_claims
from henkit.words import count

ROLL_PHASE, DICE, TAKE, DECIDE, OVER = "roll", "dice", "take", "decide", "over"
FAILURES = (None, "bust", "no worm", "no serving")
"""Why a turn failed (None: it did not)."""
PHASES = (ROLL_PHASE, DICE, TAKE, DECIDE, OVER)
NO_DICE = (0,) * SIDES


@dataclass(frozen=True)
class TurnEnd:
    """How a turn ended, kept on the state so a table can say what just happened."""

    player: int
    total: int
    kept: tuple[int, ...]
    claim: Claim | None = None  # the serving taken, when the turn succeeded
    failure: str | None = None  # why the turn failed: "bust", "no worm" or "no serving"
    returned: int | None = None  # the serving put back on the grill after a failure
    turned_out: int | None = None  # the serving turned face down (out of play) after a failure
    roll: tuple[int, ...] | None = None  # the roll that went bust

    def __str__(self) -> str:
        who = f"Player {self.player + 1}"
        if self.claim is not None:
            return f"{who} stopped at {self.total} and chose to {self.claim}."
        reason = {
            "bust": f"rolled {describe_roll(self.roll or NO_DICE)}, only faces already taken: bust",
            "no worm": f"set aside every die with no worm among them (total {self.total})",
            "no serving": f"stopped at {self.total}, which matches no serving they may take",
        }[self.failure or "bust"]
        text = f"{who} {reason}."
        if self.returned is not None:
            text += f" Serving {self.returned} goes back to the grill."
        if self.turned_out is not None:
            text += f" Serving {self.turned_out} is turned out of play."
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        d: dict[str, Any] = {"player": self.player, "total": self.total, "kept": list(self.kept)}
        if self.claim is not None:
            d["claim"] = [self.claim.tile, self.claim.owner]
        for name in ("failure", "returned", "turned_out"):
            if getattr(self, name) is not None:
                d[name] = getattr(self, name)
        if self.roll is not None:
            d["roll"] = list(self.roll)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TurnEnd:
        """The inverse of `to_dict`; a malformed dict raises ValueError saying why."""
        if not isinstance(d, Mapping):
            raise ValueError(f"last_turn must be a dict, not {type(d).__name__}")
        claim = d.get("claim")
        if claim is not None and not (isinstance(claim, list | tuple) and len(claim) == 2):
            raise ValueError(f"last_turn claim must be [serving, owner or null], not {claim!r}")
        failure = d.get("failure")
        if failure not in FAILURES:
            raise ValueError(f"last_turn failure must be one of {FAILURES}, not {failure!r}")
        if (claim is None) == (failure is None):
            raise ValueError("last_turn has either a claim (success) or a failure, not both or neither")

        def tile(key: str) -> int | None:
            return None if d.get(key) is None else whole(d[key], f"last_turn {key}", 1)

        roll = d.get("roll")
        try:
            return cls(
                player=whole(d["player"], "last_turn player", 0),
                total=whole(d["total"], "last_turn total", 0),
                kept=_ints(d["kept"], "last_turn kept"),
                claim=Claim(claim[0], claim[1]) if claim is not None else None,
                failure=failure,
                returned=tile("returned"),
                turned_out=tile("turned_out"),
                roll=_ints(roll, "last_turn roll") if roll is not None else None,
            )
        except KeyError as e:
            raise ValueError(f"last_turn needs the field {e}") from None


@dataclass(frozen=True, eq=True)
class State:
    """A whole Henpen game at one moment. Never changes: `apply` returns a new State."""

    rules: Rules
    grill: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]  # each player's servings, bottom first (top = last)
    out_of_play: tuple[int, ...] = ()
    player: int = 0  # whose turn it is
    phase: str = ROLL_PHASE
    kept: tuple[int, ...] = NO_DICE  # dice set aside this turn, as counts per face
    roll: tuple[int, ...] | None = None  # the roll waiting for a Take
    last_turn: TurnEnd | None = None
    turns_played: int = 0
    _claims: list[Claim] | None = field(default=None, compare=False, repr=False)

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int = 2,
        rules: Rules | None = None,
        *,
        grill: Sequence[int] | None = None,
        stacks: Sequence[Sequence[int]] | None = None,
        first_player: int = 0,
    ) -> State:
        """A game at the start of a turn: by default a full grill and empty stacks.

        Give `grill` and `stacks` to set up a position for a lesson; servings in neither are
        out of play.
        """
        rules = rules or Rules()
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an int from {MIN_PLAYERS} to {MAX_PLAYERS}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        if rules.max_total < rules.tiles[0]:
            # No turn could ever claim a serving, so (with P7's default) the game would never end.
            raise ValueError(
                f"{rules.dice} dice reach at most {rules.max_total}, below the lowest serving "
                f"{rules.tiles[0]}: a game needs more dice or lower servings"
            )
        grill_t = tuple(sorted(rules.tiles if grill is None else _ints(list_of(grill), "grill")))
        stacks_t = tuple(_ints(list_of(s), "a stack")
                         for s in (list_of(stacks) if stacks is not None else [()] * players))
        first_player = whole(first_player, "first_player", 0, players - 1)
        if len(stacks_t) != players:
            raise ValueError(f"stacks must list {players} stacks (one per player), not {len(stacks_t)}")
        used = set(grill_t).union(*stacks_t)
        out = tuple(t for t in rules.tiles if t not in used)
        state = cls(rules, grill_t, stacks_t, out, player=first_player,
                    phase=ROLL_PHASE if grill_t else OVER)
        state.validate()
        return state

    # ----- derived facts ------------------------------------------------------------------
    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.stacks)

    @property
    def dice_left(self) -> int:
        """Dice not yet set aside this turn."""
        return self.rules.dice - sum(self.kept)

    @property
    def total(self) -> int:
        """The running total of the dice set aside this turn (a worm counts 5)."""
        return sum(map(mul, self.kept, VALUES))  # both have SIDES entries

    @property
    def taken(self) -> frozenset[int]:
        """Faces set aside this turn."""
        return frozenset(f for f, c in zip(FACES, self.kept, strict=True) if c)

    @property
    def has_worm(self) -> bool:
        """True once a worm is among the dice set aside (needed to stop)."""
        return self.kept[WORM - 1] > 0

    @property
    def is_over(self) -> bool:
        """True when no serving is left face up on the grill."""
        return self.phase == OVER

    @property
    def is_chance(self) -> bool:
        """True while the dice are in the air."""
        return self.phase == DICE

    @property
    def current_player(self) -> int:
        """The player to move; CHANCE while dice roll, TERMINAL once the game is over."""
        if self.phase == DICE:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.player

    def top(self, player: int) -> int | None:
        """A player's visible serving, or None for an empty stack."""
        stack = self.stacks[player]
        return stack[-1] if stack else None

    def others_tops(self, player: int | None = None) -> dict[int, int]:
        """The visible servings of everyone but `player` (default: the player to move)."""
        me = self.player if player is None else player
        return {p: s[-1] for p, s in enumerate(self.stacks) if s and p != me}

    def worms(self, player: int) -> int:
        """Worms a player holds."""
        return sum(self.rules.worms(t) for t in self.stacks[player])

    def scores(self) -> tuple[int, ...]:
        """Worms of every player."""
        return tuple(self.worms(p) for p in range(self.players))

    def claims(self) -> list[Claim]:
        """Servings the player to move could claim with the current total (worm or not)."""
        if self._claims is None:
            found = legal_claims(self.total, self.grill, self.top(self.player), self.others_tops())
            object.__setattr__(self, "_claims", found)  # a cache of a pure function of the state
        return list(self._claims)  # type: ignore[arg-type]

    def winners(self) -> list[int]:
        """Players who win (P8): most worms, then the highest serving; more than one is a draw."""
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        if len(tied) > 1:
            highest = {p: max(self.stacks[p], default=0) for p in tied}
            top = max(highest.values())
            tied = [p for p in tied if highest[p] == top]
        return tied

    @property
    def winner(self) -> int | None:
        """The single winner of a finished game, or None while playing or on a draw."""
        if not self.is_over:
            return None
        w = self.winners()
        return w[0] if len(w) == 1 else None

    # ----- moves --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take (none at a chance node or the end)."""
        phase = self.phase
        if phase == ROLL_PHASE:
            return [ROLL]
        if phase == TAKE:
            roll, kept = self.roll, self.kept
            return [Take(f) for f in FACES if roll[f - 1] and not kept[f - 1]]  # type: ignore[index]
        if phase == DECIDE:
            acts: list[Action] = [Stop(c) for c in self.claims()] if self.has_worm else []
            if not self._turn_ends_by_itself():
                acts.insert(0, ROLL)
            return acts
        return []

    def chance_outcomes(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """Every roll of the dice left, as counts per face, with its exact probability."""
        if self.phase != DICE:
            raise ValueError(f"no dice are rolling: the game is in the {self.phase!r} phase")
        n = self.dice_left
        return list(zip(roll_outcomes(n), roll_probabilities(n), strict=True))

    def sample_chance(self, rng: np.random.Generator) -> tuple[int, ...]:
        """Roll the dice left with `rng` (the same distribution as `chance_outcomes`)."""
        if self.phase != DICE:
            raise ValueError(f"no dice are rolling: the game is in the {self.phase!r} phase")
        return sample_roll(self.dice_left, rng)

    def apply(self, action: Any) -> State:
        """The state after `action` (a roll's counts at a chance node); ValueError if illegal."""
        phase = self.phase
        if phase == DICE:
            return self._apply_roll(action)
        if phase == OVER:
            raise ValueError("the game is over: no action is allowed")
        if isinstance(action, Roll):
            if phase == ROLL_PHASE or (phase == DECIDE and not self._turn_ends_by_itself()):
                return self._with(phase=DICE, _claims=None)
            if phase == TAKE:
                raise ValueError("you must take a face from the roll before rolling again")
            raise ValueError("every die is set aside or every face is taken: the turn must stop")
        if isinstance(action, Take):
            return self._apply_take(action.face)
        if isinstance(action, Stop):
            return self._apply_stop(action.claim)
        raise ValueError(f"{action!r} is not a Henpen action; actions are Roll(), Take(face), Stop(claim)")

    def _turn_ends_by_itself(self) -> bool:
        # P5: no dice left to roll, or every face taken (a roll could only go bust).
        return self.dice_left == 0 or all(self.kept)

    def _apply_roll(self, counts: Any) -> State:
        n = self.dice_left
        if (
            not isinstance(counts, tuple | list)
            or len(counts) != SIDES
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts)
            or sum(counts) != n
        ):
            raise ValueError(
                f"a roll of {n} dice is {SIDES} counts (dice showing 1,2,3,4,5,worm) adding up "
                f"to {n}, not {counts!r}"
            )
        return self._rolled(tuple(counts))

    def _rolled(self, counts: tuple[int, ...]) -> State:
        # The state after a roll already known to be one of the dice left (play loops call it
        # with `sample_chance`'s counts, which need no checking).
        for c, k in zip(counts, self.kept, strict=True):
            if c and not k:  # a face not taken yet shows: something to take
                return self._with(phase=TAKE, roll=counts, _claims=None)
        return self._fail("bust", roll=counts)

    def _with(self, **changes: Any) -> State:
        # dataclasses.replace without its cost: it rebuilds the state through __init__, field by
        # field; a copy of the fields with a few changed is the same state, several times faster.
        new = object.__new__(type(self))
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return new

    def _apply_take(self, face: int) -> State:
        if self.phase != TAKE:
            raise ValueError(f"there is no roll to take from: the turn is in the {self.phase!r} phase")
        i = face - 1
        if self.kept[i]:
            raise ValueError(f"you already took the {face_name(face, True)} this turn: pick a face not yet taken")
        if not self.roll[i]:  # type: ignore[index]
            raise ValueError(f"no die shows {face_name(face)} in this roll ({describe_roll(self.roll)})")  # type: ignore[arg-type]
        kept = self.kept[:i] + (self.roll[i],) + self.kept[i + 1 :]  # type: ignore[index]
        state = self._with(phase=DECIDE, kept=kept, roll=None, _claims=None)
        if state._turn_ends_by_itself():
            if not state.has_worm:
                return state._fail("no worm")
            if not state.claims():
                return state._fail("no serving")
        return state

    def _apply_stop(self, claim: Claim) -> State:
        if self.phase != DECIDE:
            raise ValueError(f"you cannot stop now: the turn is in the {self.phase!r} phase")
        if not self.has_worm:
            raise ValueError("you may stop only once a worm is among the dice you set aside")
        claims = self.claims()
        if claim not in claims:
            allowed = "; ".join(map(str, claims)) or "none (roll again)"
            raise ValueError(f"with a total of {self.total} you cannot {claim}; you may: {allowed}")
        me = self.player
        stacks = list(self.stacks)
        grill = self.grill
        if claim.owner is None:
            grill = tuple(t for t in grill if t != claim.tile)
        else:
            stacks[claim.owner] = stacks[claim.owner][:-1]
        stacks[me] = stacks[me] + (claim.tile,)
        end = TurnEnd(me, self.total, self.kept, claim=claim)
        return self._next_turn(grill, tuple(stacks), self.out_of_play, end)

    def _fail(self, why: str, roll: tuple[int, ...] | None = None) -> State:
        # Failed turn (P6, P7): return one's top serving, then turn out the highest on the grill.
        me, rules = self.player, self.rules
        grill, stacks, out = list(self.grill), list(self.stacks), self.out_of_play
        returned = turned = None
        if stacks[me]:
            returned = stacks[me][-1]
            stacks[me] = stacks[me][:-1]
            grill = sorted([*grill, returned])
        if grill and (returned is not None or rules.flip_when_nothing_returned):
            highest = grill[-1]
            if not (rules.keep_returned_if_highest and highest == returned):
                turned = grill.pop()
                out = tuple(sorted((*out, turned)))
        end = TurnEnd(me, self.total, self.kept, failure=why, returned=returned,
                      turned_out=turned, roll=roll)
        return self._next_turn(tuple(grill), tuple(stacks), out, end)

    def _next_turn(
        self, grill: tuple[int, ...], stacks: tuple[tuple[int, ...], ...],
        out: tuple[int, ...], end: TurnEnd,
    ) -> State:
        return State(
            self.rules, grill, stacks, out,
            player=(self.player + 1) % len(stacks),
            phase=ROLL_PHASE if grill else OVER,
            last_turn=end,
            turns_played=self.turns_played + 1,
        )

    # ----- checks and serialisation -------------------------------------------------------
    def validate(self) -> None:
        """Raise ValueError if this state breaks a rule of the game (used on construction)."""
        rules = self.rules
        if not isinstance(rules, Rules):
            raise ValueError("rules must be a henkit.henpen.Rules")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        places = [*self.grill, *self.out_of_play, *(t for s in self.stacks for t in s)]
        unknown = sorted(set(places) - set(rules.tiles))
        if unknown:
            raise ValueError(f"unknown servings {unknown}; servings are {rules.describe_tiles()}")
        if len(places) != len(set(places)):
            dup = sorted({t for t in places if places.count(t) > 1})
            raise ValueError(f"servings {dup} are in two places at once")
        if len(places) != len(rules.tiles):
            missing = sorted(set(rules.tiles) - set(places))
            raise ValueError(f"servings {missing} are nowhere (grill, stacks or out of play)")
        if tuple(sorted(self.grill)) != self.grill:
            raise ValueError("the grill must be listed lowest serving first")
        if not 0 <= self.player < self.players:
            raise ValueError(f"player must be 0 to {self.players - 1}, not {self.player}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, not {self.phase!r}")
        if (self.phase == OVER) != (not self.grill):
            raise ValueError("the game is over exactly when the grill is empty")
        if len(self.kept) != SIDES or any(c < 0 for c in self.kept) or sum(self.kept) > rules.dice:
            raise ValueError(f"kept must be {SIDES} counts adding up to at most {rules.dice}")
        if self.phase in (ROLL_PHASE, OVER) and any(self.kept):
            raise ValueError("no dice can be set aside before the turn's first roll")
        if self.phase == DECIDE and not any(self.kept):
            raise ValueError("the 'decide' phase comes after a take: some dice must be set aside")
        if self.phase in (DICE, DECIDE) and self._turn_ends_by_itself():
            if self.phase == DICE:
                raise ValueError("no dice can roll: every die is set aside or every face taken")
            if not self.has_worm or not self.claims():
                raise ValueError("a turn that ended by itself without a worm or a claim has failed")
        if self.turns_played < 0:
            raise ValueError(f"turns_played must be at least 0, not {self.turns_played}")
        if (self.phase == TAKE) != (self.roll is not None):
            raise ValueError("a roll waits to be taken exactly in the 'take' phase")
        if self.roll is not None:
            if len(self.roll) != SIDES or sum(self.roll) != self.dice_left or min(self.roll) < 0:
                raise ValueError(f"the roll must be {SIDES} counts adding up to the {self.dice_left} dice left")
            if not any(c and not k for c, k in zip(self.roll, self.kept, strict=True)):
                raise ValueError("a roll showing only faces already taken is a bust, not a take")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of this state; `State.from_dict` reads it back."""
        return {
            "game": "henpen",
            "rules": self.rules.to_dict(),
            "grill": list(self.grill),
            "stacks": [list(s) for s in self.stacks],
            "out_of_play": list(self.out_of_play),
            "player": self.player,
            "phase": self.phase,
            "kept": list(self.kept),
            "roll": list(self.roll) if self.roll is not None else None,
            "last_turn": self.last_turn.to_dict() if self.last_turn else None,
            "turns_played": self.turns_played,
        }

    def to_json(self) -> str:
        """This state as a JSON string."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Read a state written by `to_dict`; a malformed dict raises ValueError saying why."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a Henpen state is a dict, not {type(data).__name__}")
        if data.get("game") != "henpen":
            raise ValueError(f"not a Henpen state: 'game' is {data.get('game')!r}, expected 'henpen'")
        required = {"rules", "grill", "stacks", "player", "phase", "kept"}
        missing = sorted(required - set(data))
        if missing:
            raise ValueError(f"a Henpen state needs the fields {missing}")
        try:
            state = cls(
                rules=Rules.from_dict(data["rules"]),
                grill=_ints(data["grill"], "grill"),
                stacks=tuple(_ints(s, "a stack") for s in data["stacks"]),
                out_of_play=_ints(data.get("out_of_play", []), "out_of_play"),
                player=whole(data["player"], "player"),
                phase=data["phase"],
                kept=_ints(data["kept"], "kept"),
                roll=_ints(data["roll"], "roll") if data.get("roll") is not None else None,
                last_turn=TurnEnd.from_dict(data["last_turn"]) if data.get("last_turn") else None,
                turns_played=whole(data.get("turns_played", 0), "turns_played"),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed Henpen state: {e}") from None
        state.validate()
        return state

    @classmethod
    def from_json(cls, text: str) -> State:
        """Read a state from `to_json` output."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        return cls.from_dict(data)

    # ----- words --------------------------------------------------------------------------
    def describe(self) -> str:
        """The position in plain words, for a terminal or a screen reader."""
        lines = [f"Grill: {' '.join(map(str, self.grill)) or '(empty)'}"]
        for p, s in enumerate(self.stacks):
            top = f"top {s[-1]}" if s else "no servings"
            lines.append(f"Player {p + 1}: {count(len(s), 'serving')}, {count(self.worms(p), 'worm')}, "
                         f"{top}")
        if self.last_turn:
            lines.append(f"Last turn: {self.last_turn}")
        if self.is_over:
            w = self.winners()
            names = " and ".join(f"player {p + 1}" for p in w)
            lines.append(f"Game over: {names} {'win' if len(w) > 1 else 'wins'}.")
            return "\n".join(lines)
        kept = describe_roll(self.kept) if any(self.kept) else "nothing"
        lines.append(
            f"Player {self.player + 1} to play: set aside {kept}, total {self.total}, "
            f"{count(self.dice_left, 'die', 'dice')} left"
            + (", a worm taken" if self.has_worm else ", no worm yet")
        )
        if self.roll is not None:
            lines.append(f"Roll: {describe_roll(self.roll)}")
        return "\n".join(lines)


def list_of(xs: Any) -> list[Any]:
    """A list from any iterable that is not text (text would be read one character at a time)."""
    if isinstance(xs, str | bytes | Mapping) or not hasattr(xs, "__iter__"):
        raise ValueError(f"expected a list of servings, not {xs!r}")
    return list(xs)


def _ints(xs: Any, what: str) -> tuple[int, ...]:
    if not isinstance(xs, list | tuple):
        raise ValueError(f"{what} must be a list of whole numbers, not {xs!r}")
    return tuple(whole(x, what) for x in xs)

"""The Henpen game state: immutable, with exact chance nodes for every roll.

A turn moves through phases (`Phase`):
  ROLL    the player must roll (start of a turn);
  DICE    a chance node: the dice are in the air, `chance_outcomes()` lists every roll;
  TAKE    the player picks a face of the roll not taken before;
  DECIDE  the player rolls again, or stops and claims a serving;
  OVER    no serving is left on the grill (P8).
A turn that ends by itself (all dice set aside, or every face taken: P5) stays in DECIDE with
only `Stop` actions, or fails at once when nothing can be claimed.

Henpen has no hidden information: `state.view(player)` is the state itself, and
`sample_state(view)` returns it (after checking it), so code written for both games works here.
Every rule is a function of `henkit.henpen.rules`; this module applies them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from operator import mul
from typing import Any, NamedTuple

import numpy as np

from henkit.checks import whole
from henkit.core import CHANCE, TERMINAL
from henkit.henpen.actions import ROLL, TAKES, Action, Roll, Stop, Take
from henkit.henpen.dice import (
    FACES,
    SIDES,
    VALUES,
    check_roll,
    describe_roll,
    face_name,
    roll_outcomes,
    roll_probabilities,
    sample_roll,
)
from henkit.henpen.inputs import check_seed
from henkit.henpen.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Claim,
    Rules,
    check_players,
    failed_turn,
    game_over,
    is_bust,
    legal_claims,
    may_stop,
    takeable_faces,
    turn_ends_by_itself,
    winners,
)
from henkit.words import count


class Phase(StrEnum):
    """Where a Henpen turn stands; the values are the JSON strings."""

    ROLL = "roll"
    DICE = "dice"
    TAKE = "take"
    DECIDE = "decide"
    OVER = "over"


# The members as module constants: `apply` compares the phase several times per decision.
_ROLL, _DICE, _TAKE, _DECIDE, _OVER = Phase.ROLL, Phase.DICE, Phase.TAKE, Phase.DECIDE, Phase.OVER
FAILURES = ("bust", "no worm", "no serving")
"""Why a turn can fail: a roll of faces already taken; the dice all set aside with no worm;
a total that claims no serving."""
NO_DICE = (0,) * SIDES
STATE_FIELDS = ("rules", "grill", "stacks", "out_of_play", "player", "phase", "kept", "roll",
                "last_turn", "turns_played", "first_player")
TURN_END_FIELDS = ("player", "total", "kept", "claim", "failure", "returned", "turned_out", "roll")


def _ints(xs: Any, what: str, low: int | None = None) -> tuple[int, ...]:
    # A tuple of plain ints from a list, tuple or 1-d numpy array of whole numbers.
    if isinstance(xs, np.ndarray) and xs.ndim == 1:
        xs = xs.tolist()
    if not isinstance(xs, list | tuple):
        raise ValueError(f"{what} must be a list of whole numbers, not {xs!r}")
    return tuple(whole(x, what, low) for x in xs)


def _counts(xs: Any, what: str) -> tuple[int, ...]:
    # SIDES whole numbers >= 0: dice per face, 1s..5s then worms.
    counts = _ints(xs, f"{what} (dice per face)", 0)
    if len(counts) != SIDES:
        raise ValueError(f"{what} must be {SIDES} counts (dice showing 1s..5s, worms), not {xs!r}")
    return counts


def _total(kept: Sequence[int]) -> int:
    return sum(map(mul, kept, VALUES))


def _faces_taken(kept: Sequence[int]) -> int:
    return SIDES - kept.count(0)  # type: ignore[attr-defined]


class _Kept(NamedTuple):
    """What the dice set aside this turn say, for the rules' number of dice."""

    total: int
    dice_left: int
    has_worm: bool  # `may_stop`
    ended: bool  # `turn_ends_by_itself` (P5)
    taken: tuple[int, ...]  # 1 for each face taken, else 0 (the kept dice as `_takeable` keys them)


@lru_cache(maxsize=8192)
def _kept_facts(kept: tuple[int, ...], dice: int) -> _Kept:
    # A pure function of a state's kept dice (of a valid state) and the rules' dice, asked at
    # every decision: cached here, and held by the state (`State._facts`) with its kept dice.
    left = dice - sum(kept)
    return _Kept(_total(kept), left, may_stop(kept), turn_ends_by_itself(left, _faces_taken(kept)),
                 tuple(1 if c else 0 for c in kept))


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", whole(self.player, "last_turn player", 0))
        object.__setattr__(self, "total", whole(self.total, "last_turn total", 0))
        object.__setattr__(self, "kept", _counts(self.kept, "last_turn kept"))
        if self.total != _total(self.kept):
            raise ValueError(f"last_turn total {self.total} is not the total of its kept dice "
                             f"({_total(self.kept)})")
        if self.claim is not None and not isinstance(self.claim, Claim):
            raise ValueError(f"last_turn claim must be a Claim or None, not {self.claim!r}")
        if self.failure is not None and self.failure not in FAILURES:
            raise ValueError(f"last_turn failure must be one of {FAILURES} or None, not {self.failure!r}")
        if (self.claim is None) == (self.failure is None):
            raise ValueError("last_turn has either a claim (success) or a failure, not both or neither")
        for name in ("returned", "turned_out"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, whole(getattr(self, name), f"last_turn {name}", 1))
        if self.claim is not None and (self.returned is not None or self.turned_out is not None):
            raise ValueError("a turn that claimed a serving returns and turns out nothing")
        if self.roll is not None:
            object.__setattr__(self, "roll", _counts(self.roll, "last_turn roll"))
        if (self.roll is not None) != (self.failure == "bust"):
            raise ValueError("last_turn has a roll exactly when it went bust (the roll shown)")
        if self.roll is not None and not is_bust(self.roll, self.kept):
            raise ValueError(f"last_turn roll {describe_roll(self.roll)} shows a face not yet "
                             "taken: it is no bust")
        if self.claim is not None and not may_stop(self.kept):
            raise ValueError("a turn that claimed a serving had a worm among its kept dice")

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
        """A JSON-ready dict (fields that are None are left out; a claim is [serving, owner])."""
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
        unknown = [k for k in d if k not in TURN_END_FIELDS]
        if unknown:
            raise ValueError(f"unknown last_turn fields {sorted(map(repr, unknown))}; allowed: "
                             f"{list(TURN_END_FIELDS)}")
        missing = [k for k in ("player", "total", "kept") if k not in d]
        if missing:
            raise ValueError(f"last_turn needs the fields {missing}")
        claim = d.get("claim")
        if claim is not None:
            if not (isinstance(claim, list | tuple) and len(claim) == 2):
                raise ValueError(f"last_turn claim must be [serving, owner or null], not {claim!r}")
            claim = Claim(claim[0], claim[1])
        roll = d.get("roll")
        return cls(
            player=d["player"],
            total=d["total"],
            kept=d["kept"],
            claim=claim,
            failure=d.get("failure"),
            returned=d.get("returned"),
            turned_out=d.get("turned_out"),
            roll=roll,
        )


@dataclass(frozen=True, eq=True)
class State:
    """A whole Henpen game at one moment. Never changes: `apply` returns a new State.

    Build one with `State.new`, `State.from_dict` or the constructor (every field is checked,
    then the whole state: `validate`).
    """

    rules: Rules
    grill: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]  # each player's servings, bottom first (top = last)
    out_of_play: tuple[int, ...] = ()
    player: int = 0  # whose turn it is
    phase: Phase = Phase.ROLL
    kept: tuple[int, ...] = NO_DICE  # dice set aside this turn, as counts per face
    roll: tuple[int, ...] | None = None  # the roll waiting for a Take
    last_turn: TurnEnd | None = None
    turns_played: int = 0
    # who played the first turn; None (to the constructor) means the seat that makes `player`
    # the one whose turn it is after `turns_played` turns
    first_player: int = None  # type: ignore[assignment]
    # Derived from the fields above, set with them (by __post_init__, or by `apply` with the
    # fields they derive from): the facts of the kept dice, the faces the roll offers. And a
    # memo, set on first use: the claims at the current total. `_facts` and `_takeable` come
    # from functools-cached pure functions (`_kept_facts`, `_takeable`) and `_claims` wraps one
    # (`_claims_at`). They stay fields rather than `functools.cached_property`: `_with` copies a
    # state's __dict__ (much faster than building through __init__), so a cached_property's
    # value would be copied too and need the same resetting; holding them as fields lets `apply`
    # pass values it already knows, which keeps the game loop within its speed budget.
    _facts: _Kept = field(init=False, compare=False, repr=False)
    _takeable: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)
    _claims: tuple[Claim, ...] | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Plain, checked field values first (so `validate` compares like with like), then the
        # whole state against the rules.
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a henkit.henpen Rules, not {self.rules!r}")
        setter = object.__setattr__
        setter(self, "grill", _ints(self.grill, "grill", 1))
        if isinstance(self.stacks, np.ndarray) or not isinstance(self.stacks, list | tuple):
            raise ValueError(f"stacks must be a list of stacks (lists of servings), not {self.stacks!r}")
        setter(self, "stacks", tuple(_ints(s, "a stack (servings)", 1) for s in self.stacks))
        setter(self, "out_of_play", _ints(self.out_of_play, "out_of_play", 1))
        setter(self, "player", whole(self.player, "player", 0))
        if self.phase not in list(Phase):
            raise ValueError(f"phase must be one of {[p.value for p in Phase]}, not {self.phase!r}")
        setter(self, "phase", Phase(self.phase))
        setter(self, "kept", _counts(self.kept, "kept"))
        if self.roll is not None:
            setter(self, "roll", _counts(self.roll, "roll"))
        if self.last_turn is not None and not isinstance(self.last_turn, TurnEnd):
            raise ValueError(f"last_turn must be a TurnEnd or None, not {self.last_turn!r}")
        setter(self, "turns_played", whole(self.turns_played, "turns_played", 0))
        if self.first_player is None:
            setter(self, "first_player", (self.player - self.turns_played) % max(len(self.stacks), 1))
        else:
            setter(self, "first_player", whole(self.first_player, "first_player", 0))
        setter(self, "_facts", _kept_facts(self.kept, self.rules.dice))
        setter(self, "_takeable", () if self.roll is None else _takeable(self.roll, self._facts.taken))
        self.validate()

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int = 2,
        rules: Rules | None = None,
        *,
        seed: int | np.random.Generator | None = None,
        first_player: int | None = None,
        grill: Iterable[int] | None = None,
        stacks: Iterable[Iterable[int]] | None = None,
    ) -> State:
        """A game at the start of a turn: by default a full grill and empty stacks.

        Setting up Henpen involves no chance, so `seed` (None, a whole number 0 or more, or a
        numpy Generator) is checked and otherwise unused; the dice are rolled by whoever plays
        the state on. `first_player=None` means seat 0. Give `grill` and `stacks` to set up a
        position for a lesson; servings in neither are out of play. A lesson position is a turn's
        start for `first_player` (the player to move), after the fewest turns that can lead to it
        (`fewest_turns`); its `first_player` field is then the seat that started those turns,
        and its `last_turn` is None (not recorded).
        """
        players = check_players(players)
        if rules is None:
            rules = _default_rules()
        elif not isinstance(rules, Rules):
            raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
        check_seed(seed)
        first = 0 if first_player is None else whole(first_player, "first_player", 0, players - 1)
        if grill is None and stacks is None and cls is State:
            return _start(players, rules, first)
        grill_t = tuple(sorted(rules.tiles if grill is None else _ints(_list_of(grill, "grill"),
                                                                        "grill", 1)))
        stacks_l = [()] * players if stacks is None else _list_of(stacks, "stacks")
        stacks_t = tuple(_ints(_list_of(s, "a stack"), "a stack (servings)", 1) for s in stacks_l)
        if len(stacks_t) != players:
            raise ValueError(f"stacks must list {players} stacks (one per player), not {len(stacks_t)}")
        used = set(grill_t).union(*stacks_t)
        out = tuple(t for t in rules.tiles if t not in used)
        turns = fewest_turns(sum(map(len, stacks_t)), len(out), rules)
        return cls(rules, grill_t, stacks_t, out, player=first,
                   phase=_OVER if game_over(grill_t) else _ROLL, turns_played=turns,
                   first_player=(first - turns) % players)

    # ----- derived facts ------------------------------------------------------------------
    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.stacks)

    @property
    def dice_left(self) -> int:
        """Dice not yet set aside this turn."""
        return self._facts.dice_left

    @property
    def total(self) -> int:
        """The running total of the dice set aside this turn (a worm counts 5: P2)."""
        return self._facts.total

    @property
    def taken(self) -> frozenset[int]:
        """Faces set aside this turn."""
        return frozenset(f for f, c in zip(FACES, self.kept, strict=True) if c)

    @property
    def has_worm(self) -> bool:
        """True once a worm is among the dice set aside, so the player may stop (`may_stop`)."""
        return self._facts.has_worm

    @property
    def is_over(self) -> bool:
        """True when no serving is left face up on the grill (P8)."""
        return self.phase is _OVER

    @property
    def is_chance(self) -> bool:
        """True while the dice are in the air."""
        return self.phase is _DICE

    @property
    def current_player(self) -> int:
        """The player to move; CHANCE while dice roll, TERMINAL once the game is over."""
        if self.phase is _DICE:
            return CHANCE
        if self.phase is _OVER:
            return TERMINAL
        return self.player

    def _seat(self, player: object) -> int:
        if type(player) is int and 0 <= player < len(self.stacks):
            return player
        return whole(player, "player", 0, self.players - 1)

    def top(self, player: int) -> int | None:
        """A player's visible serving, or None for an empty stack."""
        stack = self.stacks[self._seat(player)]
        return stack[-1] if stack else None

    def others_tops(self, player: int | None = None) -> dict[int, int]:
        """The visible servings of everyone but `player` (default: the player to move)."""
        me = self.player if player is None else self._seat(player)
        return {p: s[-1] for p, s in enumerate(self.stacks) if s and p != me}

    def worms(self, player: int) -> int:
        """Worms a player holds (P1)."""
        return sum(self.rules.worms(t) for t in self.stacks[self._seat(player)])

    def scores(self) -> tuple[int, ...]:
        """Worms of every player, by seat."""
        return tuple(self.worms(p) for p in range(self.players))

    def claims(self) -> list[Claim]:
        """Servings the player to move could claim with the current total (P4; worm or not)."""
        if self._claims is None:
            object.__setattr__(self, "_claims", _claims_at(self._facts.total, self.grill,
                                                           self.stacks, self.player))
        return list(self._claims)  # type: ignore[arg-type]

    @property
    def takeable(self) -> tuple[int, ...]:
        """The faces the player may take from the roll (`rules.takeable_faces`); none without
        a roll."""
        return self._takeable

    def winners(self) -> tuple[int, ...]:
        """Players who win, or lead while the game goes on (P8): most worms, then the highest
        serving; more than one is a draw."""
        return winners(self.stacks, self.rules)

    def returns(self) -> tuple[float, ...]:
        """Each seat's outcome as `winners()` stands: 1 for a sole winner, 1/k each for k tied
        winners, 0 otherwise (the same meaning as Hens' `State.returns`)."""
        w = self.winners()
        return tuple(1 / len(w) if p in w else 0.0 for p in range(len(self.stacks)))

    @property
    def winner(self) -> int | None:
        """The single winner of a finished game, or None while playing or on a draw."""
        if not self.is_over:
            return None
        w = self.winners()
        return w[0] if len(w) == 1 else None

    def view(self, player: int) -> State:
        """What `player` sees: Henpen has perfect information, so the view is the state itself."""
        self._seat(player)
        return self

    # ----- moves --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take (none at a chance node or the end)."""
        phase = self.phase
        if phase is _ROLL:
            return [ROLL]
        if phase is _TAKE:
            return [TAKES[f] for f in self.takeable]
        if phase is _DECIDE:
            acts: list[Action] = []
            facts = self._facts
            if facts.has_worm:
                acts += map(Stop, self.claims())
            if not facts.ended:
                acts.insert(0, ROLL)
            return acts
        return []

    def chance_outcomes(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """Every roll of the dice left, as counts per face, with its exact probability."""
        if self.phase is not _DICE:
            raise ValueError(f"no dice are rolling: the game is in the {self.phase.value!r} phase")
        n = self.dice_left
        return list(zip(roll_outcomes(n), roll_probabilities(n), strict=True))

    def sample_chance(self, rng: np.random.Generator) -> tuple[int, ...]:
        """Roll the dice left with `rng` (the same distribution as `chance_outcomes`)."""
        if self.phase is not _DICE:
            raise ValueError(f"no dice are rolling: the game is in the {self.phase.value!r} phase")
        return sample_roll(self._facts.dice_left, rng)

    def apply(self, action: Any) -> State:
        """The state after `action` (a roll's counts at a chance node); ValueError if illegal."""
        phase = self.phase
        if phase is _DICE:
            return self._rolled(check_roll(action, self._facts.dice_left))
        if phase is _OVER:
            raise ValueError("the game is over: no action is allowed")
        if isinstance(action, Take):  # the most common action first
            return self._apply_take(action.face)
        if isinstance(action, Roll):
            if phase is _ROLL or (phase is _DECIDE and not self._facts.ended):
                return self._with(phase=_DICE)
            if phase is _TAKE:
                raise ValueError("you must take a face from the roll before rolling again")
            raise ValueError("every die is set aside or every face is taken: the turn must stop")
        if isinstance(action, Stop):
            return self._apply_stop(action.claim)
        raise ValueError(f"{action!r} is not a Henpen action here; actions are Roll(), Take(face), "
                         "Stop(claim), and a roll's counts while the dice are rolling")

    def _ends_by_itself(self) -> bool:
        return self._facts.ended

    def _rolled(self, counts: tuple[int, ...]) -> State:
        # The state after a checked roll of the dice left: a bust when it offers no face to
        # take (`is_bust`), else the player takes one of the faces it offers.
        faces = _takeable(counts, self._facts.taken)
        if not faces:
            return self._fail("bust", roll=counts)
        return self._with(phase=_TAKE, roll=counts, _takeable=faces)

    def _with(self, **changes: Any) -> State:
        # dataclasses.replace without its cost: it rebuilds the state through __init__ (and its
        # checks), field by field; a copy of the fields with a few changed is the same state,
        # several times faster. Only for states the rules produce from a valid one (`apply`).
        # The derived fields follow the fields they derive from (callers that know them
        # already pass them); the memo starts afresh.
        fields = self.__dict__.copy()
        fields["_claims"] = None
        fields.update(changes)
        if "kept" in changes and "_facts" not in changes:
            fields["_facts"] = _kept_facts(fields["kept"], self.rules.dice)
        if "roll" in changes and "_takeable" not in changes:
            roll = fields["roll"]
            fields["_takeable"] = () if roll is None else _takeable(roll, fields["_facts"].taken)
        new = object.__new__(State)
        object.__setattr__(new, "__dict__", fields)
        return new

    def _apply_take(self, face: int) -> State:
        if self.phase is not _TAKE:
            raise ValueError(f"there is no roll to take from: the turn is in the {self.phase.value!r} phase")
        roll, kept = self.roll, self.kept
        if face not in self._takeable:
            if kept[face - 1]:
                raise ValueError(f"you already took the {face_name(face, True)} this turn: "
                                 "pick a face not yet taken")
            raise ValueError(f"no die shows {face_name(face)} in this roll ({describe_roll(roll)})")
        i = face - 1
        kept = kept[:i] + (roll[i],) + kept[i + 1 :]  # type: ignore[index]
        facts = _kept_facts(kept, self.rules.dice)
        state = self._with(phase=_DECIDE, kept=kept, roll=None, _facts=facts, _takeable=())
        if facts.ended:
            if not facts.has_worm:
                return state._fail("no worm")
            if not state.claims():
                return state._fail("no serving")
        return state

    def _apply_stop(self, claim: Claim) -> State:
        if self.phase is not _DECIDE:
            raise ValueError(f"you cannot stop now: the turn is in the {self.phase.value!r} phase")
        if not self._facts.has_worm:
            raise ValueError("you may stop only once a worm is among the dice you set aside")
        claims = self.claims()
        if claim not in claims:
            allowed = "; ".join(map(str, claims)) or "none (roll again)"
            raise ValueError(f"with a total of {self.total} you cannot {claim}; you may: {allowed}")
        me = self.player
        stacks = list(self.stacks)
        grill = self.grill
        if claim.owner is None:
            i = grill.index(claim.tile)
            grill = grill[:i] + grill[i + 1 :]
        else:
            stacks[claim.owner] = stacks[claim.owner][:-1]
        stacks[me] = stacks[me] + (claim.tile,)
        end = _turn_end(me, self.total, self.kept, claim, None, None, None, None)
        return self._next_turn(grill, tuple(stacks), self.out_of_play, end)

    def _fail(self, why: str, roll: tuple[int, ...] | None = None) -> State:
        # A failed turn: P6 and P7 say what goes back to the grill and what is turned out.
        me = self.player
        stacks, grill, out = list(self.stacks), self.grill, self.out_of_play
        returned, turned = failed_turn(stacks[me], grill, self.rules)
        if returned is not None:
            stacks[me] = stacks[me][:-1]
            grill = tuple(sorted((*grill, returned)))
        if turned is not None:
            i = grill.index(turned)
            grill = grill[:i] + grill[i + 1 :]
            out = tuple(sorted((*out, turned)))
        end = _turn_end(me, self.total, self.kept, None, why, returned, turned, roll)
        return self._next_turn(grill, tuple(stacks), out, end)

    def _next_turn(
        self, grill: tuple[int, ...], stacks: tuple[tuple[int, ...], ...],
        out: tuple[int, ...], end: TurnEnd,
    ) -> State:
        return self._with(
            grill=grill, stacks=stacks, out_of_play=out,
            player=(self.player + 1) % len(stacks),
            phase=_OVER if game_over(grill) else _ROLL,
            kept=NO_DICE, roll=None, last_turn=end,
            turns_played=self.turns_played + 1,
            _facts=_kept_facts(NO_DICE, self.rules.dice), _takeable=(),
        )

    # ----- checks and serialisation -------------------------------------------------------
    def validate(self) -> None:
        """Raise ValueError if this state breaks one of these conditions (each necessary for a
        game under these rules to reach it; together not sufficient):

        every serving in exactly one place (grill, a stack, out of play); grill and out-of-play
        listed lowest first; stacks only of servings a turn can claim; enough turns played for
        the servings moved (`fewest_turns`); under P6 without `keep_returned_if_highest`, no
        serving on the grill above every serving out of play (a failure turns out the highest);
        no serving out of reach of the dice on the grill above one out of play; the player to
        move is `(first_player + turns_played) % players`; the phase agreeing with the dice kept
        and rolled; and a recorded last turn agreeing with the position it left (its player,
        its claim or failure under P4-P7). `last_turn` may be None after turns played (not
        recorded, as in a lesson position from `State.new`).
        """
        rules = self.rules
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players (stacks), not "
                             f"{self.players}")
        self._validate_servings()
        if not 0 <= self.player < self.players:
            raise ValueError(f"player must be 0 to {self.players - 1}, not {self.player}")
        if not 0 <= self.first_player < self.players:
            raise ValueError(f"first_player must be 0 to {self.players - 1}, not {self.first_player}")
        if self.player != (self.first_player + self.turns_played) % self.players:
            raise ValueError(f"after {count(self.turns_played, 'turn')} played from player "
                             f"{self.first_player}'s, it is player "
                             f"{(self.first_player + self.turns_played) % self.players}'s turn, "
                             f"not player {self.player}'s")
        if (self.phase is _OVER) != game_over(self.grill):
            raise ValueError("the game is over exactly when the grill is empty")
        kept = self.kept
        if sum(kept) > rules.dice:
            raise ValueError(f"kept must be {SIDES} counts adding up to at most {rules.dice} (the dice)")
        if self.phase in (_ROLL, _OVER) and any(kept):
            raise ValueError("no dice can be set aside before the turn's first roll")
        if self.phase is _DECIDE and not any(kept):
            raise ValueError("the 'decide' phase comes after a take: some dice must be set aside")
        if self.phase in (_DICE, _TAKE) and self._ends_by_itself():
            raise ValueError("no dice can roll: every die is set aside or every face taken (P5)")
        if self.phase is _DECIDE and self._ends_by_itself() and (
                not may_stop(kept) or not self.claims()):
            raise ValueError("a turn that ended by itself without a worm or a claim has failed (P5)")
        if (self.phase is _TAKE) != (self.roll is not None):
            raise ValueError("a roll waits to be taken exactly in the 'take' phase")
        if self.roll is not None:
            check_roll(self.roll, self.dice_left)
            if is_bust(self.roll, kept):
                raise ValueError("a roll showing only faces already taken is a bust, not a take")
        self._validate_last_turn()

    def _validate_servings(self) -> None:
        rules = self.rules
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
        if tuple(sorted(self.out_of_play)) != self.out_of_play:
            raise ValueError("out_of_play must be listed lowest serving first")
        moved, out = sum(map(len, self.stacks)), len(self.out_of_play)
        fewest = fewest_turns(moved, out, rules)
        if self.turns_played < fewest:
            raise ValueError(f"{count(moved, 'serving')} in stacks and {out} out of play take at "
                             f"least {count(fewest, 'turn')}, not {self.turns_played} (turns_played)")
        if (not rules.keep_returned_if_highest and self.out_of_play and self.grill
                and self.grill[-1] > self.out_of_play[-1]):
            raise ValueError(f"serving {self.grill[-1]} is on the grill above every serving out of "
                             f"play (highest {self.out_of_play[-1]}): a failed turn turns out the "
                             "highest serving on the grill (P6)")
        reach = rules.max_total
        held = [t for s in self.stacks for t in s if t > reach]
        if held:
            raise ValueError(f"no turn of {rules.dice} dice reaches {held[0]} (at most {reach}): "
                             "such a serving never leaves the grill for a stack")
        # A serving no turn can claim never comes back to the grill once turned out, and a
        # failure turns out the highest on the grill: so none can be on the grill above a
        # serving out of play.
        high = [t for t in self.grill if t > reach]
        if high and self.out_of_play and max(high) > min(self.out_of_play):
            raise ValueError(f"serving {max(high)} (out of reach of {rules.dice} dice) is on the "
                             f"grill above {min(self.out_of_play)}, which is out of play: a failed "
                             "turn turns out the highest serving first")

    def _validate_last_turn(self) -> None:
        end, rules = self.last_turn, self.rules
        if end is None:
            return
        if not self.turns_played:
            raise ValueError("a state with a last turn has turns_played at least 1")
        if end.player != (self.player - 1) % self.players:
            raise ValueError(f"the last turn was played by player {(self.player - 1) % self.players} "
                             f"(the seat before the player to move), not {end.player}")
        if sum(end.kept) > rules.dice:
            raise ValueError(f"last_turn kept more than the {rules.dice} dice")
        left = rules.dice - sum(end.kept)
        if end.roll is not None:
            check_roll(end.roll, left)
        ended = turn_ends_by_itself(left, _faces_taken(end.kept))
        if end.failure == "no worm" and (not ended or may_stop(end.kept)):
            raise ValueError("a 'no worm' failure sets every die aside with no worm among them")
        if end.failure == "no serving" and (not ended or not may_stop(end.kept)):
            raise ValueError("a 'no serving' failure is a turn that ended by itself with a worm (P5)")
        if end.failure == "bust" and ended:
            raise ValueError("a turn that ended by itself (P5) rolls no more: it cannot go bust")
        stack = self.stacks[end.player]
        if end.claim is not None:
            self._validate_claim(end, stack)
            return
        # A failure: undo it, and ask P6/P7 what it returns and turns out.
        returned, turned = end.returned, end.turned_out
        grill_before = [t for t in self.grill if t != returned]
        if returned is not None and returned not in self.grill and returned != turned:
            raise ValueError(f"serving {returned}, returned by the last turn, is not on the grill")
        if turned is not None:
            if turned not in self.out_of_play:
                raise ValueError(f"serving {turned}, turned out by the last turn, is not out of play")
            grill_before.append(turned)
        stack_before = [*stack, returned] if returned is not None else list(stack)
        if failed_turn(stack_before, sorted(grill_before), rules) != (returned, turned):
            raise ValueError(f"the last turn's failure returned {returned} and turned out {turned}, "
                             "which P6/P7 would not")

    def _validate_claim(self, end: TurnEnd, stack: tuple[int, ...]) -> None:
        claim = end.claim
        assert claim is not None
        if not stack or stack[-1] != claim.tile:
            raise ValueError(f"serving {claim.tile}, claimed by the last turn, is not on top of "
                             f"player {end.player}'s stack")
        if claim.owner is not None and (claim.owner == end.player or claim.owner >= self.players):
            raise ValueError(f"the last turn stole from player {claim.owner}, who is no opponent")
        # The position the claim was made from, and P4's claims there (`legal_claims`).
        stacks = list(self.stacks)
        stacks[end.player] = stack[:-1]
        grill = self.grill
        if claim.owner is None:
            grill = tuple(sorted((*grill, claim.tile)))
        else:
            stacks[claim.owner] = (*stacks[claim.owner], claim.tile)
        own = stacks[end.player][-1] if stacks[end.player] else None
        tops = {p: s[-1] for p, s in enumerate(stacks) if s and p != end.player}
        claims = legal_claims(end.total, grill, own, tops)
        if claim not in claims:
            allowed = "; ".join(map(str, claims)) or "nothing"
            raise ValueError(f"a total of {end.total} does not {claim} (P4); it may: {allowed}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of this state: its field names, plus "game": "henpen"."""
        return {
            "game": "henpen",
            "rules": self.rules.to_dict(),
            "grill": list(self.grill),
            "stacks": [list(s) for s in self.stacks],
            "out_of_play": list(self.out_of_play),
            "player": self.player,
            "phase": self.phase.value,
            "kept": list(self.kept),
            "roll": list(self.roll) if self.roll is not None else None,
            "last_turn": self.last_turn.to_dict() if self.last_turn else None,
            "turns_played": self.turns_played,
            "first_player": self.first_player,
        }

    def to_json(self) -> str:
        """This state as a JSON string."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Read a state written by `to_dict`; a malformed or unreachable one raises ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a Henpen state is a dict, not {type(data).__name__}")
        if data.get("game") != "henpen":
            raise ValueError(f"not a Henpen state: 'game' is {data.get('game')!r}, expected 'henpen'")
        unknown = [k for k in data if k != "game" and k not in STATE_FIELDS]
        if unknown:
            raise ValueError(f"unknown Henpen state fields {sorted(map(repr, unknown))}; the fields "
                             f"are {list(STATE_FIELDS)}")
        missing = [k for k in STATE_FIELDS if k not in data]
        if missing:
            raise ValueError(f"a Henpen state needs the fields {missing}")
        last = data["last_turn"]
        return cls(
            rules=Rules.from_dict(data["rules"]),
            grill=data["grill"],
            stacks=data["stacks"],
            out_of_play=data["out_of_play"],
            player=data["player"],
            phase=data["phase"],
            kept=data["kept"],
            roll=data["roll"],
            last_turn=TurnEnd.from_dict(last) if last is not None else None,
            turns_played=data["turns_played"],
            first_player=whole(data["first_player"], "first_player", 0),
        )

    @classmethod
    def from_json(cls, text: str) -> State:
        """Read a state from `to_json` output."""
        if not isinstance(text, str | bytes | bytearray):
            raise ValueError(f"from_json reads JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
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

    def __str__(self) -> str:
        return self.describe()


View = State
"""What a player sees of a Henpen game: the state itself, since Henpen has no hidden
information (`State.view(player)` returns the state); named like Hens' `View`."""


def sample_state(view: State, seed: int | np.random.Generator | None = None) -> State:
    """A full state agreeing with what a player sees: in Henpen (perfect information) the view
    itself, after checking it. `seed` is checked and otherwise unused (nothing is hidden)."""
    if not isinstance(view, State):
        raise ValueError(f"view must be a henkit.henpen State (state.view(player)), not {view!r}")
    check_seed(seed)
    view.validate()
    return view


def fewest_turns(in_stacks: int, out_of_play: int, rules: Rules) -> int:
    """The fewest turns after which `in_stacks` servings can be in stacks and `out_of_play`
    turned out: a claim for each serving in a stack, and for each serving turned out a failed
    turn, which (P7, unless `flip_when_nothing_returned`) must also return a serving that an
    earlier claim took."""
    in_stacks, out_of_play = whole(in_stacks, "in_stacks", 0), whole(out_of_play, "out_of_play", 0)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules, not {rules!r}")
    per_flip = 1 if rules.flip_when_nothing_returned else 2
    return in_stacks + per_flip * out_of_play


@lru_cache(maxsize=1)
def _default_rules() -> Rules:
    # `Rules()`, built once: rules never change, and checking the worm table costs more than
    # setting up the rest of a game.
    return Rules()


@lru_cache(maxsize=64)
def _start(players: int, rules: Rules, first: int) -> State:
    # `State.new` of a full grill and empty stacks (checked arguments): states never change,
    # so one start serves every game with these players, rules and first player.
    return State(rules, rules.tiles, ((),) * players, (), player=first, first_player=first)


@lru_cache(maxsize=16384)
def _takeable(roll: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    # `takeable_faces` of a valid state's roll, asked at every roll of a game: a pure function,
    # cached. The rule asks only whether a face was taken, so the kept dice come as 0 or 1 per
    # face (`_Kept.taken`): then a few thousand entries cover most of play.
    return tuple(takeable_faces(roll, taken))


@lru_cache(maxsize=4096)
def _claims_at(
    total: int, grill: tuple[int, ...], stacks: tuple[tuple[int, ...], ...], player: int
) -> tuple[Claim, ...]:
    # `legal_claims` for the player to move of a valid state: a pure function of these values,
    # asked at the decisions of a turn (whose grill and stacks stay the same all turn).
    own = stacks[player][-1] if stacks[player] else None
    tops = {p: s[-1] for p, s in enumerate(stacks) if s and p != player}
    return tuple(legal_claims(total, grill, own, tops))


def _turn_end(
    player: int, total: int, kept: tuple[int, ...], claim: Claim | None, failure: str | None,
    returned: int | None, turned_out: int | None, roll: tuple[int, ...] | None,
) -> TurnEnd:
    # A TurnEnd the rules just produced from a valid state: the same value as the checked
    # constructor gives, without checking again what the state's own checks guarantee (a turn
    # ends every few decisions, and the checks would cost more than the rest of the turn's end).
    end = object.__new__(TurnEnd)
    end.__dict__.update(player=player, total=total, kept=kept, claim=claim, failure=failure,
                        returned=returned, turned_out=turned_out, roll=roll)
    return end


def _list_of(xs: Any, what: str) -> list[Any]:
    # A list from any iterable that is not text or a dict (text would be read one character at
    # a time, a dict by its keys).
    if isinstance(xs, np.ndarray):
        if xs.ndim != 1:
            raise ValueError(f"{what} must be a list, not a {xs.ndim}-d array")
        return xs.tolist()
    if isinstance(xs, str | bytes | Mapping) or not isinstance(xs, Iterable):
        raise ValueError(f"{what} must be a list of servings, not {xs!r}")
    return list(xs)

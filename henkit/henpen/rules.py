"""Henpen's settings and its rules, each written once in a function named after it.

Every default follows henkit's rules decisions P1-P8; every *option* there is a field of `Rules`,
so a teacher can switch one and compare the games that result. The state (`henkit.henpen.state`),
the solver, the bots and the widgets all call the functions below rather than restating a rule:

- P1 worms on a serving: `Rules.worms` (default table `pickomino_worm_table`);
- P2 dice and the worm's value: `Rules.dice`, `henkit.henpen.dice.face_value`;
- P3 players: `check_players`;
- taking a face (rulebook: Gameplay): `takeable_faces`; going bust: `is_bust`;
- stopping needs a worm (rulebook: Gameplay): `may_stop`;
- P4 claiming: `legal_claims`;
- P5 a turn ending by itself: `turn_ends_by_itself`;
- P6/P7 a failed turn: `failed_turn`;
- P8 the end and the winner: `game_over`, `winners`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.dice import FACES, MAX_DICE, SIDES, WORM, WORM_VALUE

MIN_PLAYERS, MAX_PLAYERS = 1, 7
RULES_FIELDS = ("worm_table", "dice", "keep_returned_if_highest", "flip_when_nothing_returned")


def pickomino_worm_table() -> Mapping[int, int]:
    """Decision P1: 21-24 carry 1 worm, 25-28 carry 2, 29-32 carry 3, 33-36 carry 4."""
    return MappingProxyType({t: 1 + (t - 21) // 4 for t in range(21, 37)})


def check_players(players: object) -> int:
    """Decision P3: a game has 2 to 7 players, or 1 for solo practice; ValueError otherwise."""
    return whole(players, "players", MIN_PLAYERS, MAX_PLAYERS)


def _check_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return value


@dataclass(frozen=True)
class Rules:
    """Every setting of a Henpen game; the defaults are henkit's reading of the rules text.

    Rules under which no turn could ever claim a serving (the lowest serving above what the
    dice can total) are refused: such a game would never end.
    """

    worm_table: Mapping[int, int] = field(default_factory=pickomino_worm_table)
    """Serving number -> worms it carries (P1)."""
    dice: int = 8
    """How many dice a turn starts with (P2), 1 to 20."""
    keep_returned_if_highest: bool = False
    """P6 option: a returned serving that is now the highest is not turned out of play."""
    flip_when_nothing_returned: bool = False
    """P7 option: a failed turn with an empty stack still turns the highest serving out of play."""

    def __post_init__(self) -> None:
        if isinstance(self.worm_table, str | bytes) or not isinstance(self.worm_table, Mapping):
            raise ValueError("worm_table must be a dict of serving number -> worms, not "
                             f"{self.worm_table!r}")
        table: dict[int, int] = {}
        for tile, worms in self.worm_table.items():
            t = whole(tile, "a serving number (a key of worm_table)", 1, 10_000)
            table[t] = whole(worms, f"the worms on serving {t}", 1, 1_000)
        if not table:
            raise ValueError("worm_table must list at least one serving")
        object.__setattr__(self, "dice", whole(self.dice, "dice", 1, MAX_DICE))
        for flag in RULES_FIELDS[2:]:
            _check_flag(getattr(self, flag), flag)
        lowest = min(table)
        if lowest > self.max_total:
            # No turn could ever claim a serving, so (with P7's default) the game would never end.
            raise ValueError(
                f"{self.dice} dice reach at most {self.max_total}, below the lowest serving "
                f"{lowest}: a game needs more dice or lower servings"
            )
        # A read-only, sorted copy: Rules stays immutable in fact, and equal tables compare equal.
        object.__setattr__(self, "worm_table", MappingProxyType(dict(sorted(table.items()))))
        # Hashed once: rules key the solver's caches, asked at every decision of a game.
        object.__setattr__(self, "_hash", hash((tuple(self.worm_table.items()), self.dice,
                                               self.keep_returned_if_highest,
                                               self.flip_when_nothing_returned)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def pickomino(cls) -> Rules:
        """The published game's rules: a returned serving that is the highest stays (P6)."""
        return cls(keep_returned_if_highest=True)

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every serving number, lowest first."""
        return tuple(self.worm_table)

    @property
    def max_total(self) -> int:
        """The highest total a turn can reach: every die a worm (or a 5)."""
        return WORM_VALUE * self.dice

    def worms(self, tile: int) -> int:
        """Decision P1: the worms on a serving (ValueError for a number that is no serving)."""
        try:
            return self.worm_table[tile]
        except (KeyError, TypeError):
            raise ValueError(f"there is no serving {tile!r}; servings are {self.describe_tiles()}") from None

    def describe_tiles(self) -> str:
        """The serving numbers in words, e.g. '21 to 36'."""
        t = self.tiles
        contiguous = t == tuple(range(t[0], t[-1] + 1))
        return f"{t[0]} to {t[-1]}" if contiguous else ", ".join(map(str, t))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of these rules (keys: the field names)."""
        return {
            "worm_table": {str(k): v for k, v in self.worm_table.items()},
            "dice": self.dice,
            "keep_returned_if_highest": self.keep_returned_if_highest,
            "flip_when_nothing_returned": self.flip_when_nothing_returned,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from `to_dict()` output; unknown or malformed fields raise ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be a dict, not {type(data).__name__}")
        unknown = [k for k in data if k not in RULES_FIELDS]
        if unknown:
            raise ValueError(f"unknown rules fields {sorted(map(repr, unknown))}; allowed: "
                             f"{list(RULES_FIELDS)}")
        kwargs = dict(data)
        if "worm_table" in kwargs:
            table = kwargs["worm_table"]
            if not isinstance(table, Mapping):
                raise ValueError("worm_table must map serving numbers to worms, not "
                                 f"{table!r}")
            kwargs["worm_table"] = {_table_key(k): v for k, v in table.items()}
        return cls(**kwargs)


def _table_key(key: object) -> int:
    # JSON writes the table's keys as text: "21" reads back as 21, and so does an int.
    if isinstance(key, str) and re.fullmatch(r"[0-9]{1,5}", key):
        return int(key)
    return whole(key, "a serving number (a key of worm_table)")


@dataclass(frozen=True, order=True)
class Claim:
    """A serving a player may take on stopping: from the grill, or stolen from player `owner`."""

    tile: int
    owner: int | None = None  # None: the grill

    def __post_init__(self) -> None:
        # Store plain ints: a float or numpy serving would break JSON and equality with the grill.
        object.__setattr__(self, "tile", whole(self.tile, "a serving", 1))
        if self.owner is not None:
            object.__setattr__(self, "owner", whole(self.owner, "the player stolen from", 0))

    def __str__(self) -> str:
        if self.owner is None:
            return f"take {self.tile} from the grill"
        return f"steal {self.tile} from player {self.owner + 1}"


# ----- the rules of a turn ----------------------------------------------------------------------
# Each rule takes counts per face (1s..5s, worms) as the state holds them, plain tuples of six
# ints: those pass at once; anything else is checked first (ValueError naming what is allowed).


def _counts(x: Any, what: str) -> tuple[int, ...]:
    if type(x) is tuple and len(x) == SIDES:
        return x
    if isinstance(x, np.ndarray) and x.ndim == 1:
        x = x.tolist()
    if not isinstance(x, list | tuple) or len(x) != SIDES:
        raise ValueError(f"{what} must be {SIDES} counts (dice showing 1s..5s, worms), not {x!r}")
    return tuple(whole(c, f"{what} (dice showing a face)", 0) for c in x)


def _bad_counts(what: str, *xs: Any) -> ValueError:
    return ValueError(f"{what} must be {SIDES} whole counts (dice showing 1s..5s, worms), "
                      f"not {', '.join(map(repr, xs))}")


def _servings(xs: Any, what: str) -> tuple[int, ...]:
    if type(xs) is tuple:
        return xs
    if isinstance(xs, np.ndarray) and xs.ndim == 1:
        xs = xs.tolist()
    if isinstance(xs, str | bytes | Mapping) or not isinstance(xs, Iterable):
        raise ValueError(f"{what} must be a list of servings, not {xs!r}")
    return tuple(whole(t, f"a serving of {what}") for t in xs)


def takeable_faces(roll: Sequence[int], kept: Sequence[int]) -> list[int]:
    """Rulebook, Gameplay: the faces a player may take from a roll, those it shows that were not
    taken before this turn (rolls and kept dice as counts per face, 1s..5s, worms)."""
    if type(roll) is not tuple or type(kept) is not tuple or len(roll) != SIDES or len(kept) != SIDES:
        roll, kept = _counts(roll, "roll"), _counts(kept, "kept")
    faces = []
    try:
        for f, c, k in zip(FACES, roll, kept, strict=True):
            if c and not k:
                faces.append(f)
    except TypeError:
        raise _bad_counts("roll and kept", roll, kept) from None
    return faces


def is_bust(roll: Sequence[int], kept: Sequence[int]) -> bool:
    """Rulebook, Failed turns: a roll showing only faces already taken this turn goes bust (it
    offers no face to take: `takeable_faces`)."""
    return not takeable_faces(roll, kept)


def may_stop(kept: Sequence[int]) -> bool:
    """Rulebook, Gameplay: a player may stop only once a worm is among the dice set aside."""
    if type(kept) is not tuple or len(kept) != SIDES:
        kept = _counts(kept, "kept")
    try:
        return kept[WORM - 1] > 0
    except TypeError:
        raise _bad_counts("kept", kept) from None


def turn_ends_by_itself(dice_left: int, faces_taken: int) -> bool:
    """Decision P5: a turn ends by itself when every die is set aside or every face is taken
    (a roll could only go bust); it is then claimed if it can be, else it fails."""
    if type(dice_left) is not int or type(faces_taken) is not int:
        dice_left = whole(dice_left, "dice_left", 0)
        faces_taken = whole(faces_taken, "faces_taken", 0, len(FACES))
    return dice_left == 0 or faces_taken == len(FACES)


def legal_claims(
    total: int, grill: Iterable[int], own_top: int | None, others_tops: Mapping[int, int]
) -> list[Claim]:
    """Decision P4: every serving a player with a worm and this total may take, grill first.

    - the grill serving equal to the total;
    - an opponent's visible top serving equal to the total (stealing is optional);
    - when the total is missing from the grill, or equals the player's own top serving,
      the highest grill serving below the total (so totals above the highest serving
      take the highest one below them). A total below every claimable serving claims nothing.
    """
    if type(total) is not int:
        total = whole(total, "total", 0)
    if type(grill) is not tuple:
        grill = _servings(grill, "grill")
    if own_top is not None and type(own_top) is not int:
        own_top = whole(own_top, "own_top (a serving, or None)")
    if type(others_tops) is not dict:
        if not isinstance(others_tops, Mapping):
            raise ValueError(f"others_tops must be a dict of player -> top serving, not {others_tops!r}")
        others_tops = {whole(p, "a player"): whole(t, "a top serving") for p, t in others_tops.items()}
    try:
        return _claims(total, grill, others_tops)
    except TypeError:
        raise ValueError(f"the grill and the tops are servings (whole numbers), not {grill!r}, "
                         f"{others_tops!r}") from None


def _claims(total: int, grill: tuple[int, ...], others_tops: Mapping[int, int]) -> list[Claim]:
    claims: list[Claim] = []
    if total in grill:
        claims.append(_claim(total, None))
    else:
        # Serving numbers are unique, so a total equal to one's own top is never on the grill:
        # both cases of the rule ("own top" and "missing number") land here.
        lower = [t for t in grill if t < total]
        if lower:
            claims.append(_claim(max(lower), None))
    for p, top in sorted(others_tops.items()):
        if top == total:
            claims.append(_claim(total, p))
    return claims


def _claim(tile: int, owner: int | None) -> Claim:
    # Claims are frozen values, so plain-int ones are shared: every decision of a game asks for
    # the legal claims, and checking the same few new Claims each time costs more than the rest.
    if type(tile) is int and (owner is None or type(owner) is int):
        return _shared_claim(tile, owner)
    return Claim(tile, owner)  # numpy ints, bad input, ...: the checked constructor


@lru_cache(maxsize=1024)
def _shared_claim(tile: int, owner: int | None) -> Claim:
    return Claim(tile, owner)


def failed_turn(
    stack: Sequence[int], grill: Sequence[int], rules: Rules
) -> tuple[int | None, int | None]:
    """Decisions P6 and P7: what a failed turn returns and turns out of play.

    With a non-empty stack the top serving goes back to the grill, then the highest serving on
    the grill is turned out of play, even the one just returned (P6; `keep_returned_if_highest`
    keeps it). With an empty stack nothing is returned and nothing turned out (P7;
    `flip_when_nothing_returned` turns out the highest anyway). Returns (returned, turned_out),
    None for none.
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules, not {rules!r}")
    stack, grill = _servings(stack, "stack"), _servings(grill, "grill")
    returned = stack[-1] if stack else None
    if returned is None and not rules.flip_when_nothing_returned:
        return None, None
    on_grill = [*grill, returned] if returned is not None else list(grill)
    if not on_grill:
        return returned, None
    try:
        highest = max(on_grill)
    except TypeError:
        raise ValueError(f"the stack and the grill are servings, not {stack!r}, {grill!r}") from None
    if rules.keep_returned_if_highest and highest == returned:
        return returned, None
    return returned, highest


def game_over(grill: Sequence[int]) -> bool:
    """Decision P8 (rulebook, End of game): the game ends when no serving is left on the grill."""
    return not _servings(grill, "grill")


def winners(stacks: Sequence[Sequence[int]], rules: Rules) -> tuple[int, ...]:
    """Decision P8: most worms wins; a tie goes to the holder of the highest-numbered serving
    among the tied. More than one player is a draw."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules, not {rules!r}")
    if isinstance(stacks, str | bytes | Mapping) or not isinstance(stacks, Sequence) or not stacks:
        raise ValueError(f"stacks must be a list of stacks (one per player), not {stacks!r}")
    stacks = [_servings(s, "a stack") for s in stacks]
    scores = [sum(rules.worms(t) for t in s) for s in stacks]
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    if len(tied) > 1:
        top = max(max(stacks[p], default=0) for p in tied)
        tied = [p for p in tied if max(stacks[p], default=0) == top]
    return tuple(tied)

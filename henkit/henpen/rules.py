"""Henpen's settings and the facts of the box: the servings, their worms, the claim rule.

Every default follows `shared/rules/DECISIONS.md` (P1-P8); every *option* there is a field here,
so a teacher can switch one and compare the games that result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from henkit.checks import whole

MIN_PLAYERS, MAX_PLAYERS = 1, 7


def _pickomino_worms() -> Mapping[int, int]:
    # P1: 21-24 carry 1 worm, 25-28 carry 2, 29-32 carry 3, 33-36 carry 4 (as in Pickomino).
    return MappingProxyType({t: 1 + (t - 21) // 4 for t in range(21, 37)})


@dataclass(frozen=True)
class Rules:
    """Every setting of a Henpen game; the defaults are henkit's reading of the rules text."""

    worm_table: Mapping[int, int] = field(default_factory=_pickomino_worms)
    """Serving number -> worms it carries (P1)."""
    dice: int = 8
    """How many dice a turn starts with (P2)."""
    keep_returned_if_highest: bool = False
    """P6 option: a returned serving that is now the highest is not turned out of play."""
    flip_when_nothing_returned: bool = False
    """P7 option: a failed turn with an empty stack still turns the highest serving out of play."""

    def __post_init__(self) -> None:
        table = dict(self.worm_table)
        if not table:
            raise ValueError("worm_table must list at least one serving")
        for tile, worms in table.items():
            if isinstance(tile, bool) or not isinstance(tile, int) or tile < 1:
                raise ValueError(f"serving numbers must be positive ints, not {tile!r}")
            if isinstance(worms, bool) or not isinstance(worms, int) or worms < 1:
                raise ValueError(f"serving {tile} must carry a positive whole number of worms")
        for flag in ("keep_returned_if_highest", "flip_when_nothing_returned"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        if isinstance(self.dice, bool) or not isinstance(self.dice, int) or not 1 <= self.dice <= 20:
            raise ValueError(f"dice must be an int from 1 to 20, not {self.dice!r}")
        # Store a read-only, sorted copy so Rules stays hashable in spirit and immutable in fact.
        object.__setattr__(self, "worm_table", MappingProxyType(dict(sorted(table.items()))))

    def __hash__(self) -> int:
        return hash((tuple(self.worm_table.items()), self.dice, self.keep_returned_if_highest,
                     self.flip_when_nothing_returned))

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
        return 5 * self.dice

    def worms(self, tile: int) -> int:
        """Worms on a serving."""
        try:
            return self.worm_table[tile]
        except KeyError:
            raise ValueError(f"there is no serving {tile}; servings are {self.describe_tiles()}") from None

    def describe_tiles(self) -> str:
        """The serving numbers in words, e.g. '21 to 36'."""
        t = self.tiles
        contiguous = t == tuple(range(t[0], t[-1] + 1))
        return f"{t[0]} to {t[-1]}" if contiguous else ", ".join(map(str, t))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of these rules."""
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
        allowed = {"worm_table", "dice", "keep_returned_if_highest", "flip_when_nothing_returned"}
        unknown = set(data) - allowed
        if unknown:
            raise ValueError(f"unknown rules fields {sorted(unknown)}; allowed: {sorted(allowed)}")
        kwargs = dict(data)
        if "worm_table" in kwargs:
            try:
                kwargs["worm_table"] = {int(k): v for k, v in dict(kwargs["worm_table"]).items()}
            except (TypeError, ValueError):
                raise ValueError("worm_table must map serving numbers to worms") from None
        return cls(**kwargs)


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


def legal_claims(
    total: int, grill: tuple[int, ...], own_top: int | None, others_tops: Mapping[int, int]
) -> list[Claim]:
    """Every serving a player with a worm and this total may take (P4), grill first.

    - the grill serving equal to the total;
    - an opponent's visible top serving equal to the total (stealing is optional);
    - when the total is missing from the grill, or equals the player's own top serving,
      the highest grill serving below the total (so totals above the highest serving
      take the highest one below them).
    """
    options = _claim_options(total, grill, own_top, others_tops)
    return [_claim(tile, owner) for tile, owner in options]


def _claim(tile: int, owner: int | None) -> Claim:
    # Claims are frozen values, so plain-int ones are shared: every decision of a game asks for
    # the legal claims, and checking the same few new Claims each time costs more than the rest.
    if type(tile) is int and (owner is None or type(owner) is int):
        return _shared_claim(tile, owner)
    return Claim(tile, owner)  # numpy ints, bad input, ...: the checked constructor


@lru_cache(maxsize=1024)
def _shared_claim(tile: int, owner: int | None) -> Claim:
    return Claim(tile, owner)


def _claim_options(
    total: int, grill: tuple[int, ...], own_top: int | None, others_tops: Mapping[int, int]
) -> list[tuple[int, int | None]]:
    # The rule of `legal_claims` as (serving, owner) pairs, in the same order: the solver asks
    # it for every total of every position, where checked Claim objects would cost most of
    # the time.
    claims: list[tuple[int, int | None]] = []
    if total in grill:
        claims.append((total, None))
    else:
        # Serving numbers are unique, so a total equal to one's own top is never on the grill:
        # both cases of the rule ("own top" and "missing number") land here.
        lower = [t for t in grill if t < total]
        if lower:
            claims.append((max(lower), None))
    claims += [(total, p) for p, top in sorted(others_tops.items()) if top == total]
    return claims

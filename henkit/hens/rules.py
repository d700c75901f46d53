"""The settings of a Hens game: the options among docs/rules/hens.md's decisions (H4, H13), and
who plays first."""

from __future__ import annotations

from dataclasses import dataclass

from henkit.checks import whole
from henkit.hens.cards import BREEDS, breed_index, check_removed
from henkit.hens.goals import goal_card

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def check_players(players: object) -> int:
    """The player count as an int (numpy integers too). Rulebook, on the box: Hens is for 2 to 4
    players; ValueError for anything else."""
    if type(players) is int and MIN_PLAYERS <= players <= MAX_PLAYERS:
        return players
    try:
        return whole(players, "players", MIN_PLAYERS, MAX_PLAYERS)
    except ValueError:
        raise ValueError(f"Hens is for 2, 3 or 4 players, not {players!r}"[:200]) from None


@dataclass(frozen=True)
class Rules:
    """Players (2-4); removed breeds (H4; None: chosen from the seed); goal card (H13; None:
    drawn from the seed); first player (None: chosen from the seed, as the rulebook's fallback)."""

    players: int = 4
    removed_breeds: tuple[str, ...] | None = None
    goal: int | None = None
    first_player: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_players(self.players))
        if self.removed_breeds is not None:
            if isinstance(self.removed_breeds, str) or not isinstance(
                self.removed_breeds, (tuple, list)
            ):
                raise ValueError(
                    f"removed_breeds must be a tuple of breed codes, not {self.removed_breeds!r}"
                )
            codes = tuple(BREEDS[breed_index(c)].code for c in self.removed_breeds)
            check_removed(self.players, tuple(breed_index(c) for c in codes))
            object.__setattr__(self, "removed_breeds", codes)
        if self.goal is not None:
            object.__setattr__(self, "goal", goal_card(self.goal).number)
        if self.first_player is not None:
            try:
                first = whole(self.first_player, "first_player", 0, self.players - 1)
            except ValueError:
                raise ValueError(
                    f"first_player must be a seat index 0-{self.players - 1} (0 is player 1), "
                    f"not {self.first_player!r}"[:200]
                ) from None
            object.__setattr__(self, "first_player", first)

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return {
            "players": self.players,
            "removed_breeds": list(self.removed_breeds) if self.removed_breeds is not None else None,
            "goal": self.goal,
            "first_player": self.first_player,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rules from `to_dict` output; ValueError names a missing or unknown key."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a dict, not {type(data).__name__}")
        known = {"players", "removed_breeds", "goal", "first_player"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rules keys {sorted(unknown)}; allowed: {sorted(known)}")
        removed = data.get("removed_breeds")
        return cls(
            players=data.get("players", 4),
            removed_breeds=tuple(removed) if isinstance(removed, list) else removed,
            goal=data.get("goal"),
            first_player=data.get("first_player"),
        )

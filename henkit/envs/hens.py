"""Hens as a PettingZoo AEC environment (`HensAECEnv`), 2 to 4 players, each agent seeing only
its own view of the game (`henkit.hens.View`: its own hand and coops, everything public, and
the cards publicly known to be in other hands; never another hand's unknown cards, another
player's coops, the deck's order or a rooster not yet revealed).

The rules are the engine's (`henkit.hens.State`): the environment numbers its legal moves, draws
the deck's cards with the environment's numpy Generator, and encodes each player's view (read
from the parts of the state that the view shows, rewriting only what changed since that
player's last observation; `HensCodec.observe` is the plain definition it is tested against).

Actions (`Discrete(3545)`, the same numbering at every decision; a cell is one of the 36 cells
(row, col) with row and col -1..4 of `henkit.hens.barnyard.VALID_CELLS`, numbered row by row,
`CELLS[c]`; a card is its kind 0..47, `henkit.hens.CARDS[k]`; seats counted from the acting
player):

    0                draw from the deck
    1 .. 3           draw the top card of the discard pile of the player r seats after you
    4 + 36k + c      place card k as a hen at cell c
    1732 + 36k + c   place card k face down as a chicken coop at cell c
    3460 + k         discard card k
    3508 + c         put the rooster on the hen at cell c
    3544             keep the rooster off (no hen to put it on)

Observations (a vector of small whole numbers, `observation_layout` names every entry; seats
counted from the observer, seat +0): the observer's hand (copies of each kind); for every seat
its barnyard cell by cell (0 empty, 1+k hen k, 49+k coop of card k, known to the observer only
for its own coops, 97 a face-down coop), its rooster cell as far as the observer knows (0 none
or not known, 1+c), whether it has chosen one, its discard pile (copies of each kind) and top
card (0 none, 1+k), its hand size, the cards publicly known to be in its hand, and those known
to be in its hand or under its coops; then deck size, round, phase (0 draw, 1 chance, 2 place,
3 discard, 4 rooster, 5 over), draws this turn, the player to move, the first player, the goal
card and the removed breeds.

Rewards: `reward="win"` (default) pays at the end `State.returns()`: 1 for a sole winner (ties
broken by the rules, H15), 1/k to each of k still tied, 0 otherwise, so a game's rewards add up
to exactly 1. `reward="points"` pays after every step each player's change in points as the
barnyards stand, so a player's rewards add up to its final points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import getitem
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from henkit.envs.common import (
    BoundedCache,
    SettlesRewards,
    check_action,
    check_choice,
    illegal_message,
)
from henkit.hens.actions import COOP_AT, DECK, DISCARDS, DRAW_DECK, PLACE_AT, PlaceRooster, draw
from henkit.hens.barnyard import BIT_OF, CELL_OF, COOP, HIDDEN, Barnyard, bit_list
from henkit.hens.cards import BREED_INDEX, BREEDS, CARDS, NUM_KINDS
from henkit.hens.rules import MAX_PLAYERS, Rules, check_players
from henkit.hens.state import Phase, State
from henkit.hens.view import View

CELLS: tuple[tuple[int, int], ...] = tuple(c for c in CELL_OF if c is not None)
"""The 36 cells of the action numbering, row by row (CELLS[c] is cell number c)."""
CELL_NUMBER: dict[tuple[int, int], int] = {c: i for i, c in enumerate(CELLS)}
_CELL_AT_BIT: tuple[int, ...] = tuple(CELL_NUMBER[c] if c is not None else -1 for c in CELL_OF)
_BIT_AT_CELL: tuple[int, ...] = tuple(BIT_OF[c] for c in CELLS)
NCELLS = len(CELLS)
_MASK_BYTES = (len(CELL_OF) + 7) // 8
# _ROW_PARTS[j][v]: the cells of byte j of a barnyard mask whose value is v, one byte each (1 =
# in the mask), in cell order; joined over the bytes they give the mask's 36 cells in order
# (cells are numbered in the order of their bits).
_ROW_PARTS: tuple[tuple[bytes, ...], ...] = tuple(
    tuple(bytes((v >> (b - 8 * j)) & 1 for b in range(8 * j, min(8 * j + 8, len(CELL_OF)))
                if CELL_OF[b] is not None) for v in range(256))
    for j in range(_MASK_BYTES))
DRAW_BASE = 0
PLACE_BASE = 1 + (MAX_PLAYERS - 1)
COOP_BASE = PLACE_BASE + NUM_KINDS * NCELLS
DISCARD_BASE = COOP_BASE + NUM_KINDS * NCELLS
ROOSTER_BASE = DISCARD_BASE + NUM_KINDS
NO_ROOSTER = ROOSTER_BASE + NCELLS
ACTIONS = NO_ROOSTER + 1
"""How many actions the numbering has (3545)."""
REWARDS = ("win", "points")
PHASES: tuple[Phase, ...] = tuple(Phase)
_PHASE_NUMBER = {p: i for i, p in enumerate(PHASES)}
_DRAW, _PLACE, _DISCARD, _ROOSTER, _CHANCE = (Phase.DRAW, Phase.PLACE, Phase.DISCARD,
                                              Phase.ROOSTER, Phase.CHANCE)
HIDDEN_COOP = 1 + 2 * NUM_KINDS  # 97: a face-down coop whose card the observer cannot see


def _cell_code(v: int) -> int:
    # A barnyard's grid content as an observation entry (see the module note).
    if v < 0:
        return 0
    if v < NUM_KINDS:
        return 1 + v
    if v < HIDDEN:
        return 1 + NUM_KINDS + v - COOP
    return HIDDEN_COOP


_CODE_OF: dict[int, int] = {v: _cell_code(v) for v in range(-1, HIDDEN + 1)}
# A barnyard's entries as another player sees them: a coop of any card (49+k) is face down (97).
_HIDE_COOPS = bytes(HIDDEN_COOP if 1 + NUM_KINDS <= v < HIDDEN_COOP else v for v in range(256))


# Offsets inside a seat's block of the observation (see `HensCodec.observation_layout`), and
# the length of the tail's numbers before the removed breeds' flags.
_PILE = NCELLS + 2
_SIZE = _PILE + NUM_KINDS + 1
_KNOWN = _SIZE + 1
_HELD = _KNOWN + NUM_KINDS
_TAIL = 7
_INT8 = np.dtype(np.int8)  # (given by position: numpy parses a dtype= keyword slowly)
_NO_CARDS = bytes(NUM_KINDS)


def _write_counts(buf: np.ndarray, parts: Sequence[Sequence[int]], last: list[Any],
                  order: Sequence[int], bases: Sequence[int], offset: int,
                  counts: Callable[[Sequence[int]], Any]) -> None:
    # Each seat's card counts at its part of the observation, rewritten only for the seats
    # whose cards changed (the engine hands an unchanged part on as the same object).
    for r, q in enumerate(order):
        cards = parts[q]
        if cards is not last[r]:
            last[r] = cards
            b = bases[r] + offset
            buf[b:b + NUM_KINDS] = counts(cards)


class _Seen:
    """One observer's last observation (`buf`, with `arr` a numpy view of it) and the state's
    parts it was written from, per seat counted from the observer (compared by identity)."""

    __slots__ = ("arr", "buf", "choices", "chosen", "hand", "hands", "held", "held_q",
                 "known", "known_q", "pile", "piles", "removed", "revealed", "yard", "yards")

    def __init__(self, codec: HensCodec) -> None:
        self.buf = bytearray(codec.size)
        # Same-length slice writes into `buf` keep its size, so the view stays valid.
        self.arr = np.frombuffer(self.buf, dtype=np.int8)
        self.hands = self.hand = self.yards = self.piles = self.known = self.held = None
        self.choices = self.chosen = self.revealed = self.removed = None
        n = codec.players
        self.yard: list[Any] = [None] * n
        self.pile: list[Any] = [None] * n
        self.known_q: list[Any] = [None] * n
        self.held_q: list[Any] = [None] * n


class HensCodec:
    """The fixed numbering of Hens actions and the observation vector for `players` seats
    (see the module note)."""

    SEAT_SIZE = NCELLS + 1 + 1 + NUM_KINDS + 1 + 1 + NUM_KINDS + NUM_KINDS

    def __init__(self, players: int) -> None:
        self.players = n = check_players(players)
        self.actions = ACTIONS
        self.seat_base = NUM_KINDS
        self.tail_base = NUM_KINDS + n * self.SEAT_SIZE
        seat_high = ([HIDDEN_COOP] * NCELLS + [NCELLS, 1] + [2] * NUM_KINDS + [NUM_KINDS, 6]
                     + [2] * NUM_KINDS + [2] * NUM_KINDS)
        tail_high = [72, 12, len(PHASES) - 1, 2, n - 1, n - 1, 6] + [1] * len(BREEDS)
        high = [2] * NUM_KINDS + seat_high * n + tail_high
        self.high = np.array(high, dtype=np.int8)
        self.size = len(high)
        # Where each seat's part starts, seat +r from the observer, and where the parts of a
        # seat's block sit inside it (see `observation_layout`).
        self._bases = tuple(self.seat_base + r * self.SEAT_SIZE for r in range(n))
        self._order = tuple(tuple((me + r) % n for r in range(n)) for me in range(n))
        self._decisions: BoundedCache = BoundedCache()  # draws and roosters -> decision
        self._rows: BoundedCache = BoundedCache()  # barnyard mask -> its cells as bytes
        none = np.zeros(ACTIONS, dtype=np.int8)
        none.flags.writeable = False
        self.no_decision: tuple[np.ndarray, bytes] = (none, bytes(ACTIONS))
        """The decision of a player who is not to move: nothing allowed."""
        self._tails: BoundedCache = BoundedCache()  # removed breeds -> their entries
        self._yards: dict[int, tuple[Barnyard, bytes]] = {}
        self._count_cache: BoundedCache = BoundedCache()
        self._seen: dict[int, _Seen] = {}  # observer -> what its last observation was built of

    def observation_layout(self) -> list[str]:
        """The name of every entry of the observation vector, in order."""
        kinds = [str(k) for k in CARDS]
        names = [f"hand: copies of {k}" for k in kinds]
        for r in range(self.players):
            s = f"seat +{r}"
            names += [f"{s} barnyard cell {c} (0 empty, 1+k hen, 49+k coop, 97 face down)"
                      for c in CELLS]
            names += [f"{s} rooster cell (0 none or unknown, else cell number + 1)",
                      f"{s} has chosen a rooster cell"]
            names += [f"{s} discard pile: copies of {k}" for k in kinds]
            names += [f"{s} top of discard pile (0 none, else kind + 1)", f"{s} hand size"]
            names += [f"{s} known in hand: copies of {k}" for k in kinds]
            names += [f"{s} known in hand or coops: copies of {k}" for k in kinds]
        names += ["deck size", "round",
                  "phase (0 draw, 1 chance, 2 place, 3 discard, 4 rooster, 5 over)",
                  "draws this turn", "player to move (seat +r)",
                  "first player (seat +r)", "goal card"]
        names += [f"breed {b.code} removed" for b in BREEDS]
        return names

    def describe(self, index: int) -> str:
        """What action `index` does, in words."""
        if index == DRAW_BASE:
            return "draw from the deck"
        if index < PLACE_BASE:
            return f"draw the top of the pile of the player {index} seat{'s' * (index > 1)} after you"
        if index < DISCARD_BASE:
            coop = index >= COOP_BASE
            k, c = divmod(index - (COOP_BASE if coop else PLACE_BASE), NCELLS)
            row, col = CELLS[c]
            return (f"place {CARDS[k]} {'face down as a coop ' if coop else ''}at row {row}, "
                    f"column {col}")
        if index < ROOSTER_BASE:
            return f"discard {CARDS[index - DISCARD_BASE]}"
        if index < NO_ROOSTER:
            row, col = CELLS[index - ROOSTER_BASE]
            return f"put the rooster on the hen at row {row}, column {col}"
        return "keep the rooster off the barnyard (no hen to put it on)"

    def legal(self, state: State) -> tuple[int, ...]:
        """The indices of the legal moves of the player to move, in the engine's order (none at
        a chance node or the end), from the engine's `legal_moves()`."""
        phase = state.phase
        me, n = state.player, self.players
        if phase is _PLACE:
            moves = state.legal_moves()
            out = []
            for k, m in zip(moves.kinds, moves.masks, strict=True):
                base = PLACE_BASE + k * NCELLS
                out += [base + _CELL_AT_BIT[b] for b in bit_list(m)]
            cells = [_CELL_AT_BIT[b] for b in bit_list(moves.open)]
            for k in moves.kinds:
                base = COOP_BASE + k * NCELLS
                out += [base + c for c in cells]
            return tuple(out)
        if phase is _DRAW:
            return tuple([DRAW_BASE if d.source == DECK else (d.source - me) % n
                          for d in state.legal_moves()])
        if phase is _DISCARD:
            return tuple([DISCARD_BASE + d.card for d in state.legal_moves()])
        if phase is _ROOSTER:
            return tuple([NO_ROOSTER if a.cell is None else ROOSTER_BASE + CELL_NUMBER[a.cell]
                          for a in state.legal_actions()])
        return ()

    def mask(self, legal: tuple[int, ...]) -> np.ndarray:
        """The action mask (int8, 1 = legal) of these legal indices; a fresh array."""
        mask = np.zeros(ACTIONS, dtype=np.int8)
        mask[list(legal)] = 1
        return mask

    def decision(self, state: State) -> tuple[np.ndarray, bytes | bytearray]:
        """The action mask of the player to move (int8, 1 = legal: `mask(legal(state))`; not
        to be written to, copy it to hand it out) and the same entries as bytes (indexing
        bytes is the quickest legality check); `no_decision` at the end."""
        # Built as bytes and viewed by numpy: a placement's mask is each hand card's row of 36
        # cells written at once (a row per hen mask, cached), not a hundred entries one by one.
        # Draw masks recur (the sources are few), placements and discards hardly ever.
        phase = state.phase
        if phase is _PLACE:
            # `State.legal_moves()` (Placements) without the object: any hand card as a hen
            # where `hen_masks` allows, or face down in any open cell (a card held twice
            # writes its rows twice, alike).
            yard, hand = state.barnyards[state.player], state.hands[state.player]
            allowed = bytearray(ACTIONS)
            rows = self._rows
            front = yard.open_mask()
            coops = rows.get(front) or self._row(front)
            for k, m in zip(hand, yard.hen_masks(hand), strict=True):
                at = PLACE_BASE + k * NCELLS
                allowed[at:at + NCELLS] = rows.get(m) or self._row(m)
                at += COOP_BASE - PLACE_BASE
                allowed[at:at + NCELLS] = coops
            return np.frombuffer(allowed, _INT8), allowed
        if phase is _DISCARD:
            allowed = bytearray(ACTIONS)
            for k in state.hands[state.player]:
                allowed[DISCARD_BASE + k] = 1
            return np.frombuffer(allowed, _INT8), allowed
        if phase is _DRAW:
            key: Any = (state.player, *state.draw_sources())  # seats and DECK: below 4
        elif phase is _ROOSTER:
            key = self.legal(state)  # indices from ROOSTER_BASE on: no draw's key
        else:
            return self.no_decision
        hit = self._decisions.get(key)
        if hit is None:
            mask = self.mask(key if phase is _ROOSTER else self.legal(state))
            mask.flags.writeable = False
            hit = self._decisions.put(key, (mask, mask.tobytes()))
        return hit

    def _row(self, bits: int) -> bytes:
        # A barnyard mask as 36 bytes, cell by cell (1 = in the mask), kept in `_rows` (its
        # callers look there first).
        return self._rows.put(bits, b"".join(map(getitem, _ROW_PARTS,
                                                 bits.to_bytes(_MASK_BYTES, "little"))))

    def action(self, state: State, index: int) -> Any:
        """The engine action of a legal index for the player to move (check legality first:
        an illegal index gives an action the engine refuses, or a wrong one)."""
        if index < PLACE_BASE:
            if index == DRAW_BASE:
                return DRAW_DECK
            q = (state.player + index) % self.players
            return draw(q, state.discards[q][-1])
        if index < COOP_BASE:
            k, c = divmod(index - PLACE_BASE, NCELLS)
            return PLACE_AT[k][_BIT_AT_CELL[c]]
        if index < DISCARD_BASE:
            k, c = divmod(index - COOP_BASE, NCELLS)
            return COOP_AT[k][_BIT_AT_CELL[c]]
        if index < ROOSTER_BASE:
            return DISCARDS[index - DISCARD_BASE]
        if index < NO_ROOSTER:
            return PlaceRooster(CELLS[index - ROOSTER_BASE])
        return PlaceRooster(None)

    def observe(self, view: View) -> np.ndarray:
        """The observation vector of a player's view (a fresh array). The environment reads
        the same from the state (`observe_state`); this is the plain definition."""
        # Built from bytes (every entry is below 128) and viewed as int8.
        n, me = self.players, view.player
        counts = self._counts
        parts = [counts(view.hand)]
        for r in range(n):
            q = (me + r) % n
            pile, cell = view.discards[q], view.rooster_choices[q]
            parts += (self._yard(view.barnyards[q]),
                      bytes((CELL_NUMBER[cell] + 1 if cell is not None else 0,
                             view.rooster_chosen[q])),
                      counts(pile), bytes((pile[-1] + 1 if pile else 0, view.hand_sizes[q])),
                      counts(view.known_in_hand[q]), counts(view.known_in_hand_or_coops[q]))
        parts += (bytes((view.deck_size, view.round, _PHASE_NUMBER[view.phase], view.draws,
                         (view.to_move - me) % n, (view.first_player - me) % n, view.goal)),
                  self._removed(view.removed_breeds))
        return np.frombuffer(bytearray(b"".join(parts)), dtype=np.int8)

    def observe_state(self, state: State, player: int) -> np.ndarray:
        """`observe(state.view(player))` (a fresh array), read from the state's parts that the
        view shows, without building the view: only the parts changed since this player's last
        observation are written again."""
        # The engine hands unchanged parts on as the same objects (a state's tuple of hands,
        # of piles..., and each seat's entry in them), so identity tells what a step changed:
        # mostly the acting player's hand and one barnyard or pile. Every other hand is read
        # only for its size; other barnyards only as `Barnyard.hidden()` shows them (each coop
        # written as a face-down one, its card erased); others' rooster cells only once
        # revealed, as the view does.
        seen = self._seen.get(player)
        if seen is None:
            seen = self._seen[player] = _Seen(self)
        buf, order, bases, counts = seen.buf, self._order[player], self._bases, self._counts
        hands = state.hands
        if hands is not seen.hands:
            seen.hands = hands
            hand = hands[player]
            if hand is not seen.hand:  # (hands are new most steps: counted, not cached)
                seen.hand = hand
                buf[:NUM_KINDS] = _NO_CARDS
                for k in hand:
                    buf[k] += 1
            for r, q in enumerate(order):
                buf[bases[r] + _SIZE] = len(hands[q])
        yards = state.barnyards
        if yards is not seen.yards:
            seen.yards, last = yards, seen.yard
            for r, q in enumerate(order):
                yard = yards[q]
                if yard is not last[r]:
                    last[r] = yard
                    b = bases[r]
                    # Another's barnyard as `Barnyard.hidden()` shows it: every coop face down.
                    buf[b:b + NCELLS] = (self._yard(yard) if r == 0
                                         else self._yard(yard).translate(_HIDE_COOPS))
        piles = state.discards
        if piles is not seen.piles:
            seen.piles, last = piles, seen.pile
            for r, q in enumerate(order):
                pile = piles[q]
                if pile is not last[r]:
                    last[r] = pile
                    b = bases[r] + _PILE
                    buf[b:b + NUM_KINDS] = _NO_CARDS
                    for k in pile:
                        buf[b + k] += 1
                    buf[b + NUM_KINDS] = pile[-1] + 1 if pile else 0
        known = state.known_in_hand
        if known is not seen.known:
            seen.known = known
            _write_counts(buf, known, seen.known_q, order, bases, _KNOWN, counts)
        held = state.known_in_hand_or_coops
        if held is not seen.held:
            seen.held = held
            _write_counts(buf, held, seen.held_q, order, bases, _HELD, counts)
        choices, chosen, revealed = (state.rooster_choices, state.rooster_chosen,
                                     state.roosters_revealed)
        if choices is not seen.choices or chosen is not seen.chosen or revealed != seen.revealed:
            seen.choices, seen.chosen, seen.revealed = choices, chosen, revealed
            for r, q in enumerate(order):
                cell = choices[q] if r == 0 or revealed else None  # H10: hidden till all chose
                b = bases[r] + NCELLS
                buf[b] = CELL_NUMBER[cell] + 1 if cell is not None else 0
                buf[b + 1] = chosen[q]
        removed = state.removed_breeds
        if removed is not seen.removed:
            seen.removed = removed
            buf[self.tail_base + _TAIL:] = self._removed(removed)
        n = self.players
        t = self.tail_base
        buf[t:t + _TAIL] = bytes((len(state.deck), state.round, _PHASE_NUMBER[state.phase],
                                  state.draws, (state.player - player) % n,
                                  (state.first_player - player) % n, state.goal))
        return seen.arr.copy()

    def _removed(self, removed: tuple[str, ...]) -> bytes:
        # The removed breeds' flags (cached: one game has one set).
        hit = self._tails.get(removed)
        if hit is None:
            flags = bytearray(len(BREEDS))
            for code in removed:
                flags[BREED_INDEX[code]] = 1
            hit = self._tails.put(removed, bytes(flags))
        return hit

    def _counts(self, cards: tuple[int, ...]) -> bytes:
        # Copies of each kind among `cards`, as NUM_KINDS bytes (cached by the cards).
        hit = self._count_cache.get(cards)
        if hit is None:
            out = bytearray(NUM_KINDS)
            for k in cards:
                out[k] += 1
            hit = self._count_cache.put(cards, bytes(out))
        return hit

    def _yard(self, yard: Barnyard) -> bytes:
        # A barnyard's cells as observation entries; barnyards change once a turn at most, so
        # the last few are kept by identity (`_yards`: id -> the barnyard and its entries).
        hit = self._yards.get(id(yard))
        if hit is not None and hit[0] is yard:
            return hit[1]
        grid = yard.grid
        cells = bytearray(NCELLS)
        for b in bit_list(yard.occ):
            cells[_CELL_AT_BIT[b]] = _CODE_OF[grid[b]]
        if len(self._yards) >= 64:
            self._yards.clear()
        entry = bytes(cells)
        self._yards[id(yard)] = (yard, entry)  # holding the barnyard keeps its id its own
        return entry

    def observation_space(self) -> spaces.Box:
        """The Box of observation vectors."""
        return spaces.Box(low=np.zeros(self.size, dtype=np.int8), high=self.high.copy(),
                          dtype=np.int8)


class HensAECEnv(SettlesRewards, AECEnv):
    """Hens with every seat a learner (PettingZoo AEC), agents "player_0".."player_{n-1}"
    (seat i), each observing only its own view. See the module note for the actions,
    observations and rewards. Each observation is {"observation": vector, "action_mask": int8
    mask}; the mask is all zeros for an agent that is not to move. An illegal action raises
    ValueError naming it and the legal ones, and changes nothing. The setup (removed breeds,
    goal, first player, the deal) and every deck draw come from the environment's Generator:
    the same seed to `reset` and the same actions give the same game. `render()` shows the whole
    game (every hand): it is for a spectator, not for a player."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "hens_v0",
                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, players: int = 2, *, rules: Rules | None = None, reward: str = "win",
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.codec = codec = HensCodec(players)
        n = codec.players
        if rules is not None and (not isinstance(rules, Rules) or rules.players != n):
            raise ValueError(f"rules must be None or henkit.hens Rules for {n} players, not "
                             f"{rules!r}")
        self.rules = rules
        self.reward_kind = check_choice(reward, "reward", REWARDS)
        self._points = reward == "points"
        if render_mode is not None:
            check_choice(render_mode, "render_mode", self.metadata["render_modes"])
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": codec.observation_space(),
            "action_mask": spaces.Box(0, 1, shape=(ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTIONS) for a in self.possible_agents}
        self.state: State | None = None
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._decision = codec.no_decision  # the mask of the player to move, and as bytes
        self._paid = False

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of `agent` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of `agent` (the same for all)."""
        return self.action_spaces[agent]

    def _deal(self, state: State) -> State:
        # Chance nodes (deck draws) are the environment's to play, with its Generator.
        rng = self.np_random
        while state.phase is _CHANCE:
            state = state.apply(state.sample_chance(rng))
        self._decision = self.codec.decision(state)
        return state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, set up and dealt from a Generator seeded with `seed`."""
        if seed is not None or self.state is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        n = self.codec.players
        self.state = self._deal(State.new(n, self.rules, seed=self.np_random))
        self._begin()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees now (its own view only), with its action mask (zeros unless it is
        to move)."""
        state = self.state
        assert state is not None, "call reset() first"
        seat = self._seat[agent]
        mask = self._decision[0] if state.player == seat else self.codec.no_decision[0]
        return {"observation": self.codec.observe_state(state, seat), "action_mask": mask.copy()}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None once it is done), then the deck's draws, up to
        the next decision or the end of the game."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        codec = self.codec
        i = check_action(action, ACTIONS)
        if not self._decision[1][i]:
            raise ValueError(illegal_message(i, codec.describe(i), self._legal(),
                                             codec.describe))
        points = self._points
        before = state.scores() if points else ()
        self.state = new = self._deal(state.apply(codec.action(state, i)))
        self._cumulative_rewards[agent] = 0.0
        self._settle(new, before, points)

    def _legal(self) -> list[int]:
        # The legal indices of the player to move, lowest first (for messages).
        return np.flatnonzero(self._decision[0]).tolist()

    def render(self) -> str | None:
        """The whole game in words, every hand shown ("ansi" returns it, "human" prints it);
        None without a mode."""
        if self.render_mode is None or self.state is None:
            return None
        text = self.state.describe()
        if not self.state.is_over:
            text += "\nActions: " + "; ".join(f"{i} {self.codec.describe(i)}"
                                              for i in self._legal())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


__all__ = ["ACTIONS", "CELLS", "HensAECEnv", "HensCodec"]

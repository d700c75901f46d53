"""Terminal commands for Hens: play a game against bots, and simulate many games between bots.

`henkit.cli` wires these in as `henkit play hens` and `henkit simulate hens`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from henkit.checks import games_arg, seed_arg
from henkit.core import CHANCE, Game
from henkit.hens.actions import DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.bots import BOTS, make_bot
from henkit.hens.cards import card
from henkit.hens.goals import goal_card
from henkit.hens.odds import draw_odds
from henkit.hens.rules import Rules, check_players
from henkit.hens.simulate import simulate as run_games
from henkit.hens.state import State
from henkit.results import results_table

HELP = """How to answer:
  draw phase:    deck            draw from the deck
                 2               draw the top of player 2's discard pile (players count from 1)
  place phase:   Pa3 1 2         place Pa3 as a hen at row 1, column 2
                 coop Pa3 1 2    place Pa3 face down as a chicken coop there
  discard phase: Pa3             discard Pa3
  rooster:       1 2             put the rooster on your hen at row 1, column 2
  any time:      odds Pa         chance the next 2 deck draws bring a Padovana (or 3, Pa3, ...)
                 help, quit
Rows and columns count from 0 at the top left; -1 is just above or left of the barnyard."""

ODDS_USAGE = (
    "odds: say of what, e.g. 'odds Pa' (a breed), 'odds 3' (a number) or 'odds Pa3' (a card): "
    "the chance the next 2 deck draws bring one"
)



def _bot_list(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.replace(",", " ").split() if n.strip()]
    for n in names:
        if n not in BOTS:
            raise argparse.ArgumentTypeError(f"{n!r} is not a bot: choose from {', '.join(BOTS)}")
    return names


def _parser(parser: object) -> argparse.ArgumentParser:
    """parser, checked to be an argparse parser (ValueError otherwise)."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise ValueError(f"needs an argparse.ArgumentParser, not {type(parser).__name__}")
    return parser


def _args(args: object, names: tuple[str, ...]) -> argparse.Namespace:
    """args, checked to be parsed arguments holding every option in names (ValueError
    otherwise)."""
    if not isinstance(args, argparse.Namespace):
        raise ValueError(f"needs parsed arguments (an argparse.Namespace), not "
                         f"{type(args).__name__}")
    missing = [n for n in names if not hasattr(args, n)]
    if missing:
        raise ValueError(f"the parsed arguments lack the options {missing}")
    return args


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `henkit play hens`."""
    _parser(parser)
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4),
                        help="how many players, you included (default 3)")
    parser.add_argument("--bots", type=_bot_list, default=None,
                        help="opponents' bots, comma-separated (default: greedy for each)")
    parser.add_argument("--seed", type=seed_arg, default=None, help="seed for a repeatable game")
    parser.add_argument("--goal", type=int, default=None, choices=range(1, 7),
                        help="goal card 1-6 (default: drawn at random)")
    parser.add_argument("--seat", type=int, default=1,
                        help="which player you are, 1 to --players (default 1)")


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `henkit simulate hens`."""
    _parser(parser)
    parser.add_argument("--bots", type=_bot_list, default=["greedy", "random"],
                        help="one bot per seat, comma-separated (default: greedy,random)")
    parser.add_argument("--games", type=games_arg, default=100,
                        help="how many games, 1 to 100000 (default 100)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="first game's seed (default 0)")
    parser.add_argument("--goal", type=int, default=None, choices=range(1, 7),
                        help="goal card 1-6 for every game (default: drawn per game)")


def simulate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play `args.games` seeded games between `args.bots` and print a results table."""
    _args(args, ("bots", "games", "seed", "goal"))
    out = out or sys.stdout
    names = args.bots
    try:
        check_players(len(names))
    except ValueError:
        raise ValueError(f"Hens needs 2 to 4 bots, one per seat; got {len(names)}") from None
    if not 1 <= args.games <= 100_000 or args.seed < 0:
        raise ValueError("--games must be from 1 to 100000 and --seed at least 0")
    bots = [make_bot(n) for n in names]
    rules = Rules(players=len(bots), goal=args.goal)
    results = run_games(bots, args.games, seed=args.seed, rules=rules)
    print(f"{args.games} games of Hens, seeds {args.seed}-{args.seed + args.games - 1}", file=out)
    print(results_table(results), file=out)
    return 0


# In everything printed or typed here players count from 1 ("player 2" is seat index 1).


def _who(q: int, me: int) -> str:
    """Seat q in words, from the point of view of the human at seat `me`."""
    return "you" if q == me else f"player {q + 1}"


def _show(state: State, me: int, out: TextIO) -> None:
    v = state.view(me)
    print(file=out)
    print(f"round {v.round}, {goal_card(v.goal)}", file=out)
    print(f"deck: {v.deck_size} cards", file=out)
    for q in range(v.players):
        who = _who(q, me)
        top = v.discard_tops[q]
        size = len(v.discards[q])
        pile = f"discard top {top} ({size} card{'s' if size > 1 else ''})" if top else "no discards"
        print(f"{who}: {pile}, {v.hand_sizes[q]} cards in hand", file=out)
        if q != me and len(v.barnyards[q]):
            for row in str(v.barnyards[q]).split("\n"):
                print(f"    {row}", file=out)
    print("your barnyard:" if len(v.barnyard) else "your barnyard is empty", file=out)
    for row in str(v.barnyard).split("\n"):
        if row:
            print(f"    {row}", file=out)
    print(f"your hand: {' '.join(map(str, v.hand))}", file=out)


def _prompt(state: State) -> str:
    phase = state.phase
    acts = state.legal_actions()
    if phase == "draw":
        piles = [f"{a.source + 1} ({a.card} on player {a.source + 1}'s pile)"
                 for a in acts if a.source != DECK]
        where = "deck" if any(a.source == DECK for a in acts) else ""
        return f"draw from: {', '.join([where] + piles if where else piles)}"
    if phase == "place":
        lines = []
        for k in sorted({a.card for a in acts}):
            cells = [a.cell for a in acts if type(a) is Place and a.card == k]
            lines.append(f"  {k}: {' '.join(f'{r} {c}' for r, c in cells) or 'only as a coop'}")
        coops = sorted({a.cell for a in acts if type(a) is PlaceCoop})
        lines.append(f"  coop cells: {' '.join(f'{r} {c}' for r, c in coops)}")
        return "place a card (e.g. 'Pa3 1 2' or 'coop Pa3 1 2'); hens fit at:\n" + "\n".join(lines)
    if phase == "discard":
        return "discard a card (e.g. 'Pa3')"
    if phase == "rooster":
        cells = [a.cell for a in acts if a.cell is not None]
        return "put the rooster on a hen: " + (" ".join(f"{r} {c}" for r, c in cells) or "none")
    return ""


def parse_move(state: State, text: str):
    """The action a typed line names in the current phase; ValueError says what to type."""
    if not isinstance(state, State) or not isinstance(text, str):
        raise ValueError("parse_move needs a Hens State and the typed text")
    words = text.split()
    phase = state.phase
    if not words:
        raise ValueError("type a move, or 'help'")
    if phase == "draw":
        if words[0].lower() == "deck":
            return Draw(DECK)
        try:
            number = int(words[0])
        except ValueError:
            raise ValueError(
                "type 'deck' or the number of a player whose pile to draw from, e.g. '2' for "
                "player 2's pile"
            ) from None
        if not 1 <= number <= state.players:
            raise ValueError(
                f"there is no player {number}: players are numbered 1 to {state.players}"
            )
        q = number - 1  # the seat index of player `number`
        pile = state.discards[q]
        return Draw(q, pile[-1] if pile else None)
    if phase == "place":
        coop = words[0].lower() == "coop"
        if coop:
            words = words[1:]
        if len(words) != 3:
            raise ValueError("type a card and a cell, e.g. 'Pa3 1 2' (or 'coop Pa3 1 2')")
        k = card(words[0])
        try:
            cell = (int(words[1]), int(words[2]))
        except ValueError:
            raise ValueError("the row and column must be whole numbers, e.g. 'Pa3 1 2'") from None
        return PlaceCoop(k, cell) if coop else Place(k, cell)  # ValueError for cells off the grid
    if phase == "discard":
        return Discard(card(words[0]))
    if phase == "rooster":
        if words[0].lower() == "none":
            return PlaceRooster(None)
        try:
            return PlaceRooster((int(words[0]), int(words[1])))
        except (ValueError, IndexError):
            raise ValueError("type the row and column of one of your hens, e.g. '1 2'") from None
    raise ValueError("the game is over")


def _narrate(game: Game, start: int, me: int, out: TextIO) -> None:
    """Say in words what happened since history entry `start`, hiding others' deck cards."""
    for i in range(start, len(game.history)):
        step = game.history[i]
        before = game.states[i]
        if step.player == CHANCE:
            if before.player == me:
                print(f"you drew {step.action} from the deck", file=out)
            continue
        who = _who(step.player, me)
        act = step.action
        if type(act) is PlaceCoop and step.player != me:
            print(f"{who}: place a card face down as a chicken coop at row {act.cell[0]}, "
                  f"column {act.cell[1]}", file=out)
        elif type(act) is PlaceRooster and step.player != me:
            print(f"{who} has chosen where the rooster goes", file=out)
        else:
            print(f"{who}: {act}", file=out)


def play(
    args: argparse.Namespace,
    input_fn: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> int:
    """Play one game of Hens in the terminal against bots; returns 0 when the game ends."""
    _args(args, ("players", "bots", "seed", "goal", "seat"))
    out = out or sys.stdout
    n = args.players
    names = args.bots or ["greedy"] * (n - 1)
    if len(names) != n - 1:
        raise ValueError(f"with {n} players give {n - 1} bots, not {len(names)}")
    if not 1 <= args.seat <= n:
        raise ValueError(f"--seat must be 1-{n} (which player you are), not {args.seat}")
    me = args.seat - 1  # the seat index
    bots = [make_bot(x) for x in names]
    bots.insert(me, None)
    state = State.new(n, Rules(players=n, goal=args.goal), seed=args.seed)
    game = Game(state, bots, seed=None if args.seed is None else args.seed + 1)
    print(f"Hens with {n} players; you are player {me + 1}. Type 'help' for how to answer.",
          file=out)
    seen = 0
    game.advance()
    while not game.state.is_over:
        _narrate(game, seen, me, out)
        seen = len(game.history)
        _show(game.state, me, out)
        print(_prompt(game.state), file=out)
        try:
            line = input_fn("> ")
        except EOFError:
            print("\ngoodbye", file=out)
            return 1
        word = line.strip().lower()
        if word in ("quit", "exit", "q"):
            print("goodbye", file=out)
            return 1
        if word in ("help", "?", "h"):
            print(HELP, file=out)
            continue
        if word.startswith("odds"):
            what = line.strip()[len("odds"):].strip()
            if not what:
                print(ODDS_USAGE, file=out)
                continue
            try:
                kind = int(what) if what.isdigit() else what
                view = game.state.view(me)
                print(draw_odds(view, kind, min(2, view.deck_size)), file=out)
            except ValueError as e:
                print(f"odds: {e}" if str(e) else ODDS_USAGE, file=out)
            continue
        try:
            game.play(parse_move(game.state, line))
        except ValueError as e:
            print(f"not allowed: {e}", file=out)
            continue
        game.advance()
    _narrate(game, seen, me, out)
    final = game.state
    print("\nThe game is over.", file=out)
    for q, sc in enumerate(final.score_sheets()):
        print(f"\n{_who(q, me)}:", file=out)
        for row in str(final.barnyards[q]).split("\n"):
            print(f"    {row}", file=out)
        print(sc, file=out)
    won = final.winners()
    names_won = ", ".join(_who(q, me) for q in won)
    print(f"\nwinner{'s' if len(won) > 1 else ''}: {names_won}", file=out)
    return 0

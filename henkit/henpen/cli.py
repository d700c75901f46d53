"""Terminal commands for Henpen: exact odds, a game against bots, and many simulated games.

`henkit.cli` wires these in as `henkit odds`, `henkit play henpen` and `henkit simulate henpen`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TextIO

import numpy as np

from henkit.checks import seed_arg
from henkit.core import CHANCE, Game
from henkit.henpen.actions import ROLL, Roll, Stop, Take
from henkit.henpen.advice import advice
from henkit.henpen.bots import BOTS, make_bot
from henkit.henpen.dice import FACES, WORM, face_name
from henkit.henpen.inputs import check_flag
from henkit.henpen.odds import chance_at_least, chance_exactly, expected_worms, resolve_start
from henkit.henpen.rules import MAX_PLAYERS, Rules
from henkit.henpen.simulate import simulate as run_games
from henkit.henpen.state import Phase, State
from henkit.results import results_table
from henkit.words import count

# ----- parsing helpers ----------------------------------------------------------------------


def _face(text: str) -> int:
    t = text.strip().lower()
    if t in ("w", "worm", "worms", "6"):
        return WORM
    if t in ("1", "2", "3", "4", "5"):
        return int(t)
    raise argparse.ArgumentTypeError(f"{text!r} is not a face: use 1-5 or w for the worm")


def _faces(text: str) -> frozenset[int]:
    return frozenset(_face(x) for x in text.replace(",", " ").split())


def _tiles(text: str) -> list[int]:
    """'21-28,30' -> [21, ..., 28, 30]."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            first, last = int(lo), int(hi or lo)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not a serving or a range like 21-28") from None
        if last < first:
            raise argparse.ArgumentTypeError(f"the range {part!r} runs backwards: write {last}-{first}")
        out += range(first, last + 1)
    return out



MAX_GAMES = 100_000
"""The most games one `henkit simulate henpen` plays."""


def _games(text: str) -> int:
    """The argparse type of `--games`: a whole number from 1 to MAX_GAMES."""
    try:
        games = int(text)
    except ValueError:
        games = 0
    if not 1 <= games <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"--games must be a whole number from 1 to {MAX_GAMES:,}, "
                                         f"not {text!r}")
    return games


def _bot_specs(text: str) -> list[str]:
    specs = [s.strip().lower() for s in text.replace(",", " ").split() if s.strip()]
    if not specs:
        raise argparse.ArgumentTypeError(f"name at least one bot: {', '.join(BOTS)} (threshold:T)")
    for s in specs:
        try:
            make_bot(s)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return specs


def _check_args(args: object, *names: str) -> argparse.Namespace:
    # A command's arguments come from its parser; anything else is refused, saying what is needed.
    if not isinstance(args, argparse.Namespace) or any(not hasattr(args, n) for n in names):
        raise ValueError(f"a command takes the parsed arguments (an argparse Namespace with "
                         f"{', '.join(names)}), not {args!r}")
    return args


def _rules(args: argparse.Namespace) -> Rules:
    return Rules.pickomino() if getattr(args, "pickomino", False) else Rules()


#: Digits of a numerator or denominator printed in full; beyond it the size is said instead.
#: Deep endgames' exact chances have thousands of digits (Python refuses to print more than
#: 4,300 of them), which no reader wants on a terminal.
MAX_DIGITS = 200


def _digits(n: int) -> int:
    """How many decimal digits the whole number n has (without printing it)."""
    n = abs(n)
    guess = max(1, int(n.bit_length() * 0.30103))  # log10(2): within one of the answer
    return guess + (n >= 10 ** guess)


def format_chance(x: Fraction | float, exact: bool) -> str:
    """A chance as the CLI prints it: a percentage, or (exact) the fraction and its percentage."""
    exact = check_flag(exact, "exact")
    if isinstance(x, bool) or not isinstance(x, Fraction | float | int | np.floating | np.integer):
        raise ValueError(f"a chance is a Fraction or a number, not {x!r}")
    if exact:
        if not isinstance(x, Fraction) or x.denominator == 1:
            return str(x)
        top, bottom = _digits(x.numerator), _digits(x.denominator)
        if max(top, bottom) > MAX_DIGITS:
            return (f"a fraction of {top:,} digits over {bottom:,} digits "
                    f"(= {float(x):.5%})")
        return f"{x} (= {float(x):.5%})"
    return f"{float(x):.3%}"


# ----- henkit odds ----------------------------------------------------------------------------


def _check_parser(parser: object) -> None:
    if not isinstance(parser, argparse.ArgumentParser):
        raise ValueError(f"parser must be an argparse ArgumentParser, not {parser!r}")


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `henkit odds`."""
    _check_parser(parser)
    parser.add_argument("--target", type=int, help="chance of stopping with a worm at this total "
                        "or more (default: a table for 21 to 36)")
    parser.add_argument("--exactly", action="store_true", help="chance of exactly the target")
    parser.add_argument("--worms", action="store_true",
                        help="expected worms gained this turn for the position given")
    parser.add_argument("--dice", type=int, help="dice left to roll (default: a fresh turn of 8)")
    parser.add_argument("--taken", type=_faces, default=frozenset(),
                        help="faces already set aside this turn, e.g. 'w,5' (needs --dice)")
    parser.add_argument("--total", type=int, default=0, help="the running total so far")
    parser.add_argument("--grill", type=_tiles, help="servings on the grill, e.g. '21-30,33'")
    parser.add_argument("--own-top", type=int, help="your visible serving (lost on failure)")
    parser.add_argument("--tops", type=_tiles, default=[], help="opponents' visible servings")
    parser.add_argument("--exact", action="store_true", help="exact fractions (slower)")
    parser.add_argument("--win", action="store_true",
                        help="your chance to win a 2-player game from the start of your turn, "
                        "both playing to win: the position is --grill and the two stacks "
                        "(--stack and --their-stack, or --own-top and one of --tops)")
    parser.add_argument("--stack", type=_tiles, help="with --win: your stack, bottom first")
    parser.add_argument("--their-stack", type=_tiles, help="with --win: the other player's "
                        "stack, bottom first")
    parser.add_argument("--limit", type=int, default=None,
                        help="with --win: the most endgame positions to solve (default 100,000)")


def win_odds(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """`henkit odds --win`: the mover's chance to win a 2-player endgame, both playing to win.

    The position: --grill, and the stacks (--stack, --their-stack, bottom first; or --own-top
    and a single --tops, each a stack of one serving); servings elsewhere are out of play.
    """
    from henkit.henpen.endgame import DEFAULT_LIMIT, positions, win_chance

    out = out or sys.stdout
    _check_args(args, "win", "grill", "own_top", "tops", "stack", "their_stack", "limit", "exact")
    if args.dice is not None or args.taken or args.total or args.target is not None or args.worms:
        raise ValueError("--win is a chance from the start of a turn: leave out --dice, --taken, "
                         "--total, --target and --worms")
    if args.grill is None:
        raise ValueError("--win needs the position: --grill, and the stacks (--stack and "
                         "--their-stack)")
    if args.stack is not None and args.own_top is not None:
        raise ValueError("give your stack once: --stack (all of it) or --own-top (one serving)")
    if args.their_stack is not None and args.tops:
        raise ValueError("give the other stack once: --their-stack (all of it) or --tops (one serving)")
    if len(args.tops) > 1:
        raise ValueError(f"--win plays 2-player games: one opponent's top, not {len(args.tops)}")
    mine = args.stack if args.stack is not None else ([args.own_top] if args.own_top is not None else [])
    theirs = args.their_stack if args.their_stack is not None else list(args.tops)
    state = State.new(2, Rules(), grill=args.grill, stacks=[mine, theirs])
    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    v = win_chance(state, exact=args.exact, limit=limit)
    size = positions(state, limit=limit)
    mover, other = state.worms(0), state.worms(1)
    lines = [
        (f"Grill {' '.join(map(str, state.grill))}; you {count(mover, 'worm')} "
        f"({' '.join(map(str, mine)) or 'no servings'}), the other player {count(other, 'worm')} "
        f"({' '.join(map(str, theirs)) or 'no servings'})."),
        f"Your chance to win from the start of your turn, both playing to win: {format_chance(v, args.exact)}",
        f"The other player's: {format_chance(1 - v, args.exact)} (a draw counts half to each)",
        f"Positions in this endgame (each solved once, memoised): {size:,}",
    ]
    print("\n".join(lines), file=out)
    return 0


def odds(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print exact chances or expected worms for a turn, from a fresh or mid-turn start.

    Bad input found after parsing is a ValueError (`henkit.cli.main` prints it on stderr).
    Accepted starts are those of `henkit.henpen.odds.resolve_start`: a fresh turn of 1 to 20
    dice, or a moment a turn of 8 dice can reach.
    """
    out = out or sys.stdout
    _check_args(args, "target", "exactly", "worms", "dice", "taken", "total", "grill", "own_top",
                "tops", "exact")
    if getattr(args, "win", False):
        return win_odds(args, out)
    if getattr(args, "stack", None) is not None or getattr(args, "their_stack", None) is not None:
        raise ValueError("--stack and --their-stack describe a game for --win: add --win")
    rules = Rules()
    if args.dice is None and (args.taken or args.total):
        raise ValueError("--taken and --total describe a turn in progress: give --dice too")
    start = {"dice": args.dice, "taken": args.taken, "total": args.total}
    resolve_start(rules=rules, **start)  # refuses a start no turn reaches, saying why
    # Nothing taken and no total is a turn's start: of `--dice` dice, which may differ from
    # the rules' dice (a fresh turn of 1 to 20 dice), so the words say how many.
    fresh = not args.taken and not args.total
    where = "a fresh turn" if args.dice is None else (
        f"a fresh turn of {count(args.dice, 'die', 'dice')}" if fresh else
        f"{count(args.dice, 'die', 'dice')} left, taken {sorted(face_name(f) for f in args.taken) or 'nothing'}, "
        f"total {args.total}")
    position = args.grill is not None or args.own_top is not None or bool(args.tops)
    lines: list[str] = []
    if (args.worms or position) and args.target is not None:
        raise ValueError("--target asks for a chance, --worms/--grill for expected worms: "
                         "choose one")
    if args.exactly and args.target is None:
        raise ValueError("--exactly needs --target T")
    if args.worms or position:
        tops = {i + 1: t for i, t in enumerate(args.tops)}
        v = expected_worms(args.grill, args.own_top, tops, exact=args.exact, **start)
        lines.append(f"Expected worms gained from {where}, playing to maximise them: "
                     f"{v if args.exact else f'{float(v):.4f}'}")
    elif args.target is not None:
        f = chance_exactly if args.exactly else chance_at_least
        v = f(args.target, exact=args.exact, **start)
        what = "exactly" if args.exactly else "at least"
        lines.append(f"Chance of stopping with a worm and a total of {what} {args.target} "
                     f"from {where}, playing for it: {format_chance(v, args.exact)}")
    else:
        lines.append(f"Chance of stopping with a worm at T or more from {where}, playing for T:")
        lines.append(f"{'T':>4}  {'chance':>10}")
        for t in range(21, 37):
            v = chance_at_least(t, exact=args.exact, **start)
            lines.append(f"{t:>4}  {format_chance(v, args.exact):>10}")
    print("\n".join(lines), file=out)
    return 0


# ----- henkit simulate henpen -----------------------------------------------------------------


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `henkit simulate henpen`."""
    _check_parser(parser)
    parser.add_argument("--bots", type=_bot_specs, default=["optimal", "threshold:25"],
                        help=f"one bot per seat, comma-separated, from {', '.join(BOTS)} "
                        "(threshold:T); default optimal,threshold:25")
    parser.add_argument("--games", type=_games, default=100,
                        help=f"how many games, 1 to {MAX_GAMES:,} (default 100)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="first game's seed (default 0)")
    parser.add_argument("--pickomino", action="store_true", help="the published game's P6 rule")


def simulate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play `args.games` seeded games between `args.bots` and print a results table.

    Bad input found after parsing is a ValueError (`henkit.cli.main` prints it on stderr).
    """
    out = out or sys.stdout
    _check_args(args, "bots", "games", "seed", "pickomino")
    if not isinstance(args.bots, list) or not all(isinstance(b, str) for b in args.bots):
        raise ValueError(f"bots must be a list of bot names, not {args.bots!r}")
    if not 1 <= len(args.bots) <= MAX_PLAYERS:
        raise ValueError(f"Henpen needs 1 to {MAX_PLAYERS} bots, one per seat, not {len(args.bots)}")
    results = run_games([make_bot(b) for b in args.bots], args.games, args.seed, _rules(args))
    print(f"{args.games} games of Henpen, seeds {args.seed}-{args.seed + args.games - 1}, "
          "first player rotating", file=out)
    print(results_table(results), file=out)
    return 0


# ----- henkit play henpen ---------------------------------------------------------------------

PLAY_HELP = """After a roll, type the face to take: 1-5, or w for the worms.
Otherwise type the number of a choice, or:  r  roll,  s  stop (the first claim listed).
Any time:  hint  the solver's exact advice,  help,  quit."""


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `henkit play henpen`."""
    _check_parser(parser)
    parser.add_argument("--bots", type=_bot_specs, default=["optimal"],
                        help="your opponents, comma-separated (default: optimal)")
    parser.add_argument("--seed", type=seed_arg, default=None, help="seed for a repeatable game")
    parser.add_argument("--hints", action="store_true", help="show the solver's advice every move")
    parser.add_argument("--pickomino", action="store_true", help="the published game's P6 rule")


def _parse_move(state: State, text: str) -> object:
    """A typed answer -> a legal action; ValueError with what is allowed otherwise."""
    acts = state.legal_actions()
    t = text.strip().lower()
    if state.phase is Phase.TAKE:
        try:
            return Take(_face(t))
        except argparse.ArgumentTypeError as e:
            raise ValueError(str(e)) from None
    if t.isdigit() and 1 <= int(t) <= len(acts):
        return acts[int(t) - 1]
    if t in ("r", "roll"):
        return ROLL
    if t in ("s", "stop"):
        stops = [a for a in acts if isinstance(a, Stop)]
        if stops:
            return stops[0]
        raise ValueError("you cannot stop now: you need a worm and a total matching a serving")
    raise ValueError(f"{text!r} is not a move; type 'help' to see what is allowed")


def play(args: argparse.Namespace, input_fn: Callable[[str], str] = input,
         out: TextIO | None = None) -> int:
    """A game in the terminal: you are player 1 against `args.bots`.

    Bad input found after parsing is a ValueError (`henkit.cli.main` prints it on stderr).
    """
    out = out or sys.stdout
    _check_args(args, "bots", "seed", "hints", "pickomino")
    if not isinstance(args.bots, list) or not all(isinstance(b, str) for b in args.bots):
        raise ValueError(f"bots must be a list of bot names, not {args.bots!r}")
    bots = [make_bot(b) for b in args.bots]
    if len(bots) > MAX_PLAYERS - 1:
        raise ValueError(f"at most {MAX_PLAYERS - 1} opponents, not {len(bots)}")
    game = Game(State.new(1 + len(bots), _rules(args)), [None, *bots], seed=args.seed)
    print("Henpen: you are player 1. " + PLAY_HELP, file=out)
    seen = 0
    while True:
        game.advance()
        for i in range(seen, len(game.history)):
            step, mover = game.history[i], game.states[i].player
            if mover == 0:
                continue
            who = f"  Player {mover + 1} ({bots[mover - 1].name})"
            if step.player == CHANCE:
                print(f"{who} rolled {' '.join(_show(step.action))}", file=out)
            else:
                print(f"{who}: {step.action}", file=out)
            end = game.states[i + 1].last_turn
            if end is not None and end is not game.states[i].last_turn and end.failure:
                print(f"  {end}", file=out)
        seen = len(game.history)
        s = game.state
        if s.is_over:
            print(s.describe(), file=out)
            return 0
        print("\n" + s.describe(), file=out)
        acts = s.legal_actions()
        if s.phase is Phase.TAKE:
            faces = ", ".join("w" if a.face == WORM else str(a.face) for a in acts)
            print(f"Take which face? {faces}", file=out)
        else:
            print("Choices: " + "; ".join(f"{i}) {a}" for i, a in enumerate(acts, 1)), file=out)
        if args.hints:
            print("Hint: " + "; ".join(map(str, advice(s))), file=out)
        try:
            answer = input_fn("> ")
        except EOFError:
            print("\nbye", file=out)
            return 1
        word = answer.strip().lower()
        if word in ("q", "quit", "exit"):
            return 1
        if word in ("h", "help", "?"):
            print(PLAY_HELP, file=out)
            continue
        if word == "hint":
            print("\n".join(map(str, advice(s))), file=out)
            continue
        try:
            action = _parse_move(s, answer)
            before = s.last_turn
            game.play(action)
            if isinstance(action, Roll):
                game.step()  # the dice: chance plays at once
                if game.state.last_turn is not before and game.state.last_turn is not None:
                    print(f"  {game.state.last_turn}", file=out)
                elif game.state.roll is not None:
                    print(f"  You rolled: {' '.join(_show(game.state.roll))}", file=out)
            elif game.state.last_turn is not before:
                print(f"  {game.state.last_turn}", file=out)
        except ValueError as e:
            print(f"  Not allowed: {e}", file=out)


def _show(counts: tuple[int, ...]) -> list[str]:
    return [("W" if f == WORM else str(f)) for f in FACES for _ in range(counts[f - 1])]

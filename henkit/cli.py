"""The `henkit` command: exact odds, games in the terminal and simulations, for both games, and
the class pool on the server's command line (`henkit class new|status|export --csv`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from henkit import __version__
from henkit.classpool import cli as class_cli
from henkit.henpen import cli as henpen_cli
from henkit.hens import cli as hens_cli

GAMES = {"henpen": henpen_cli, "hens": hens_cli}


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose error messages hide passwords: `henkit class status
    postgresql://user:pw@host/db` (without --db) must not print the password it was given."""

    def error(self, message: str) -> NoReturn:
        """Print the usage and the message (passwords hidden) on stderr; exit with status 2."""
        super().error(class_cli.hide_passwords(message, *sys.argv[1:],
                                               os.environ.get(class_cli.ENV, "")))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `henkit` command."""
    parser = Parser(
        prog="henkit",
        description="Henpen (dice) and Hens (cards): exact odds, play against bots, simulate.",
    )
    parser.add_argument("--version", action="version", version=f"henkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("odds", help="exact Henpen chances for a target, a mid-turn state, a grill")
    henpen_cli.add_odds_arguments(p)
    p.set_defaults(run=henpen_cli.odds)

    for verb, what in (("play", "play a game in the terminal against bots"),
                       ("simulate", "play many seeded games between bots and print a table")):
        p = sub.add_parser(verb, help=what)
        games = p.add_subparsers(dest="game", required=True, metavar="GAME")
        for name, module in GAMES.items():
            g = games.add_parser(name, help=f"{what}: {name}")
            getattr(module, f"add_{verb}_arguments")(g)
            g.set_defaults(run=getattr(module, verb))

    p = sub.add_parser("class", help="the class pool: new session, status, export as CSV")
    class_cli.add_class_arguments(p)
    p.set_defaults(run=class_cli.run_class)
    return parser


def command_name(args: argparse.Namespace) -> str:
    """The command as typed, for messages: 'henkit odds', 'henkit simulate henpen'."""
    words = ["henkit", getattr(args, "command", None), getattr(args, "game", None),
             getattr(args, "action", None)]
    return " ".join(str(w) for w in words if w)


def main(argv: list[str] | None = None) -> int:
    """Run the `henkit` command; returns the exit status.

    Bad arguments stop in argparse (usage and error on stderr, exit 2). A ValueError a command
    raises about its input after parsing (e.g. 8 bots for Henpen) is one line on stderr,
    `henkit <command>: error: <message>`, and exit status 2, without a traceback. No message
    shows a password (`henkit.classpool.cli.hide_passwords`).
    """
    if argv is not None and (not isinstance(argv, list | tuple)
                             or not all(isinstance(a, str) for a in argv)):
        raise ValueError(f"argv must be a list of command-line words (text), or None, not {argv!r}")
    args = build_parser().parse_args(None if argv is None else list(argv))
    try:
        return args.run(args)
    except ValueError as e:
        message = " ".join(str(e).split()) or type(e).__name__
        message = class_cli.hide_passwords(message, getattr(args, "db", None),
                                           os.environ.get(class_cli.ENV, ""),
                                           *(argv if argv is not None else sys.argv[1:]))
        print(f"{command_name(args)}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

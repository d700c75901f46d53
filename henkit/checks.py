"""Input checks shared by every module: bad input is a ValueError saying what is allowed."""

from __future__ import annotations

import argparse

import numpy as np

MAX_GAMES = 100_000
"""The most games one `simulate` call or `henkit simulate` plays (a typo must not run for days)."""


def whole(x: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return `x` as an int if it is a whole number in [low, high], else raise ValueError.

    Python and numpy integers are whole numbers; bools, floats and strings are not.
    """
    # The common case in one test (a kernel checks tens of thousands of engine numbers): a
    # plain int (not a bool) within plain-int bounds passes every check below as it is.
    if type(x) is int and type(what) is str and (low is None or (type(low) is int and x >= low)) and (
            high is None or (type(high) is int and x <= high)):
        return x
    return _whole_checked(x, what, low, high)


def _whole_checked(x: object, what: str, low: int | None, high: int | None) -> int:
    # `whole`'s checks one after another (its fast path must agree with them: a test says so).
    if not isinstance(what, str) or not all(
            b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in (low, high)):
        raise ValueError(f"whole(x, what, low, high) needs text and int bounds, not {what!r}, "
                         f"{low!r}, {high!r}")
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer):
        raise ValueError(f"{what} must be a whole number, not {x!r}")
    value = int(x)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        elif low is not None:
            allowed = f"at least {low}"
        else:
            allowed = f"at most {high}"
        raise ValueError(f"{what} must be {allowed}, not {value}")
    return value


def seed_arg(text: str) -> int:
    """The argparse type of every `--seed` option: a whole number 0 or more.

    Like every argparse type it refuses text with argparse.ArgumentTypeError (argparse prints
    its message in the usage error); anything but text is a ValueError.
    """
    _text_arg(text)
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number 0 or more, not {text!r}")
    return seed


def games_arg(text: str) -> int:
    """The argparse type of every `--games` option: a whole number from 1 to MAX_GAMES
    (argparse.ArgumentTypeError for other text, ValueError for anything but text)."""
    _text_arg(text)
    try:
        games = int(text)
    except ValueError:
        games = 0
    if not 1 <= games <= MAX_GAMES:
        raise argparse.ArgumentTypeError(
            f"the number of games must be a whole number from 1 to {MAX_GAMES}, not {text!r}")
    return games


def _text_arg(text: object) -> None:
    if not isinstance(text, str):
        raise ValueError(f"a command-line argument is text, not {text!r}")

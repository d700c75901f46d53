"""Input checks shared by every module: bad input is a ValueError saying what is allowed."""

from __future__ import annotations

import argparse

import numpy as np


def whole(x: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return `x` as an int if it is a whole number in [low, high], else raise ValueError."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        raise ValueError(f"{what} must be a whole number, not {x!r}")
    if (low is not None and x < low) or (high is not None and x > high):
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        elif low is not None:
            allowed = f"at least {low}"
        else:
            allowed = f"at most {high}"
        raise ValueError(f"{what} must be {allowed}, not {x}")
    return int(x)


def seed_arg(text: str) -> int:
    """The argparse type of every `--seed` option: a whole number 0 or more."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number 0 or more, not {text!r}")
    return seed

"""Checks of Henpen inputs that are not dice: flags, seeds, numbers. Each raises ValueError
naming what is allowed (numpy integers are integers; bools are not numbers)."""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational, Real

import numpy as np

from henkit.checks import whole


def check_flag(value: object, name: str) -> bool:
    """Return `value` as a bool if it is True or False (numpy bools too), else ValueError."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, not {value!r}")


def check_seed(seed: object) -> None:
    """A seed is None, a whole number 0 or more, or a numpy Generator; ValueError otherwise."""
    if seed is None or isinstance(seed, np.random.Generator):
        return
    whole(seed, "seed (None, a whole number 0 or more, or a numpy Generator)", 0)


def as_fraction(x: object, what: str) -> Fraction:
    """`x` as an exact Fraction if it is a finite real number (not a bool), else ValueError."""
    # The common cases first: the abstract-class checks below cost more than the conversion.
    if type(x) is int:
        return Fraction(x)
    if type(x) is Fraction:
        return x
    if isinstance(x, bool | np.bool_) or not isinstance(x, Real | np.integer | np.floating):
        raise ValueError(f"{what} must be a number, not {x!r}")
    if isinstance(x, int | np.integer):
        return Fraction(int(x))
    if isinstance(x, Rational):
        return Fraction(x.numerator, x.denominator)
    f = float(x)  # type: ignore[arg-type]
    if not np.isfinite(f):
        raise ValueError(f"{what} must be finite, not {x!r}")
    return Fraction(f)  # the float's exact value

"""`whole` passes a plain int within plain-int bounds at once: for every input it returns what
the full checks return (the same value and type) or raises the same ValueError."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.checks import _whole_checked, whole


def checked(x: object, what: str, low: Any = None, high: Any = None) -> int:
    """The full checks, one after another, as `whole` documents them."""
    return _whole_checked(x, what, low, high)


def outcome(f: Any, *args: Any) -> tuple[str, Any, type]:
    try:
        out = f(*args)
    except ValueError as e:
        return "error", str(e), ValueError
    return "value", out, type(out)


numbers = st.one_of(
    st.integers(-50, 50), st.booleans(), st.integers(-50, 50).map(np.int64),
    st.integers(-50, 50).map(float), st.sampled_from([None, "3", np.bool_(True), 2**70]),
)
bounds = st.one_of(st.none(), st.integers(-20, 20), st.booleans(), st.just(3.0),
                   st.integers(-20, 20).map(np.int32))
texts = st.one_of(st.just("n"), st.just(""), st.none(), st.integers(0, 3))


@settings(max_examples=500, deadline=None)
@given(numbers, texts, bounds, bounds)
def test_whole_is_the_full_checks(x: Any, what: Any, low: Any, high: Any) -> None:
    assert outcome(whole, x, what, low, high) == outcome(checked, x, what, low, high)


@given(st.integers(-(2**70), 2**70), st.integers(-100, 100), st.integers(-100, 100))
def test_plain_ints_in_range_come_back_unchanged(x: int, low: int, high: int) -> None:
    assert outcome(whole, x, "n", low, high) == outcome(checked, x, "n", low, high)
    assert outcome(whole, x, "n") == ("value", x, int)

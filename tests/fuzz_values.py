"""Arbitrary values for the bad-input tests: anything a caller might pass by mistake.

`junk()` draws None, bools, floats (nan and infinities too), huge integers, numpy scalars,
strings, bytes and nested containers of them; `only_value_error(call, *args)` runs a call and
fails the test if anything but ValueError escapes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

_numpy_scalars = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(np.int64),
    st.integers(0, 255).map(np.uint8),
    st.integers(-(2**31), 2**31 - 1).map(np.int32),
    st.floats(allow_nan=True, allow_infinity=True).map(np.float64),
    st.booleans().map(np.bool_),
)

_atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**64, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-(2**64)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.binary(max_size=8),
    _numpy_scalars,
)


def junk(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """Any value: atoms, and lists, tuples, sets and dicts nested around them."""
    hashable = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4))
    return st.recursive(
        _atoms,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.frozensets(hashable, max_size=4),
            st.dictionaries(hashable, inner, max_size=4),
        ),
        max_leaves=max_leaves,
    )


def only_value_error(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run `call(*args, **kwargs)`; a ValueError is an accepted refusal, anything else fails.

    Returns the call's result, or None when it raised ValueError.
    """
    try:
        return call(*args, **kwargs)
    except ValueError as e:
        assert str(e), f"{call!r} raised a ValueError with no message"
        return None
    except Exception as e:  # the point of the test: any other type fails it
        raise AssertionError(
            f"{getattr(call, '__qualname__', call)!r} raised {type(e).__name__}: {e!r} "
            f"for args {args!r} kwargs {kwargs!r}; only ValueError may escape"
        ) from e

"""The endgame's exact tables (each pair's roll weight modulo the solver's primes) are the
remainders Python's whole numbers give, level by level, for several dice counts."""

from __future__ import annotations

import numpy as np
import pytest

from henkit.henpen import endgame
from henkit.henpen.rules import Rules


@pytest.mark.parametrize("dice", [5, 8, 11])
def test_modular_weights_are_python_remainders(dice: int) -> None:
    rules = Rules(dice=dice)
    primes, levels, _unit, _crt, product, scale = endgame._modular(rules)
    assert product > scale
    exact_levels = endgame._space(rules).exact_levels
    assert len(levels) == len(exact_levels)
    for (a, c, _ch, _st, w, _inv), (a2, c2, _ch2, _st2, weights, _sixes) in zip(
            levels, exact_levels, strict=True):
        assert (a, c) == (a2, c2)
        want = np.array([[int(x) % int(q) for q in primes.tolist()] for x in weights],
                        dtype=np.float64)
        assert w.dtype == np.float64 and np.array_equal(w, want)
        # The exact weights themselves: the space's, as Python whole numbers.
        assert all(type(x) is int for x in weights)

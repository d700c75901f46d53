"""Long seeded runs of `simulate_turns` are kept in henkit's results cache: read back they are
the very totals a run plays; short runs and runs from a generator are never kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from henkit.henpen import batch
from henkit.henpen.batch import CACHE_FROM, simulate_turns, threshold_policy
from henkit.henpen.odds import TurnPoint


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HENKIT_CACHE", str(folder))
    return folder


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.exists() else []


def test_a_kept_run_is_read_back_as_the_same_totals(cache_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    policy = threshold_policy(25)
    want = simulate_turns(policy, CACHE_FROM, seed=4, cache=False)
    assert not entries(cache_dir)
    first = simulate_turns(policy, CACHE_FROM, seed=4)
    assert len(entries(cache_dir)) == 1
    played = []
    real = batch._play
    monkeypatch.setattr(batch, "_play", lambda *a: played.append(a) or real(*a))
    again = simulate_turns(policy, CACHE_FROM, seed=4)
    assert not played  # read, not played
    for got in (first, again):
        assert got.totals.dtype == want.totals.dtype
        assert np.array_equal(got.totals, want.totals)
        assert (got.max_total, got.policy_name) == (want.max_total, want.policy_name)
    # Another seed, start or policy is another run.
    simulate_turns(policy, CACHE_FROM, seed=5)
    simulate_turns(policy, CACHE_FROM, seed=4, start=TurnPoint(5, {6}, 15))
    simulate_turns(threshold_policy(26), CACHE_FROM, seed=4)
    assert len(played) == 3 and len(entries(cache_dir)) == 4


def test_short_runs_and_generator_seeds_are_not_kept(cache_dir: Path) -> None:
    policy = threshold_policy(25)
    simulate_turns(policy, CACHE_FROM - 1, seed=1)
    rng = np.random.default_rng(1)
    a = simulate_turns(policy, CACHE_FROM, seed=rng)
    b = simulate_turns(policy, CACHE_FROM, seed=np.random.default_rng(1), cache=False)
    assert np.array_equal(a.totals, b.totals)
    assert not entries(cache_dir)


def test_a_damaged_entry_is_replayed(cache_dir: Path) -> None:
    policy = threshold_policy(25)
    want = simulate_turns(policy, CACHE_FROM, seed=9)
    (entry,) = entries(cache_dir)
    text = entry.read_text()
    entry.write_text(text.replace('"games": [["', '"games": [["AAAA', 1))
    got = simulate_turns(policy, CACHE_FROM, seed=9)
    assert np.array_equal(got.totals, want.totals)
    assert entry.read_text() == text


def test_with_the_cache_off_a_run_is_only_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """HENKIT_CACHE=off: no key is made and nothing packed (the engines benchmark plays long
    seeded runs with the cache off, and timed that work before)."""
    monkeypatch.setenv("HENKIT_CACHE", "off")
    monkeypatch.setattr(batch, "_run_key", lambda *a: pytest.fail("a key was made"))
    policy = threshold_policy(25)
    got = simulate_turns(policy, CACHE_FROM, seed=3)
    assert np.array_equal(got.totals, simulate_turns(policy, CACHE_FROM, seed=3, cache=False).totals)


def test_cache_must_be_true_or_false() -> None:
    with pytest.raises(ValueError, match="cache must be True or False"):
        simulate_turns(threshold_policy(25), 10, seed=1, cache="yes")

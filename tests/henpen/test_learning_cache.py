"""A fresh learner's learning curve is kept in henkit's results cache: read back, it gives the
grades, tables, visits and generator state of a real run, and training on goes the same way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from henkit.henpen.learning import QLearner, learning_curve

TABLES = ("q_stop", "q_roll", "q_take", "node_visits", "pair_visits")


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HENKIT_CACHE", str(folder))
    return folder


def same_learners(a: QLearner, b: QLearner) -> None:
    for name in TABLES:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.episodes == b.episodes
    assert a.rng.bit_generator.state == b.rng.bit_generator.state


def test_a_cached_curve_is_the_trained_one_and_training_goes_on_alike(cache_dir: Path) -> None:
    played = QLearner(seed=3, batch=500)
    want = learning_curve(6_000, 2_000, learner=played, cache=False)
    assert not cache_dir.exists() or not list(cache_dir.glob("*.json"))

    first = QLearner(seed=3, batch=500)
    assert learning_curve(6_000, 2_000, learner=first) == want  # trained, then kept
    assert len(list(cache_dir.glob("*.json"))) == 1
    read = QLearner(seed=3, batch=500)
    assert learning_curve(6_000, 2_000, learner=read) == want  # read back
    same_learners(read, played)
    same_learners(first, played)
    # Training on from the read state is training on from the played one.
    assert learning_curve(1_000, 500, learner=read) == learning_curve(1_000, 500, learner=played)
    same_learners(read, played)


def test_other_settings_or_a_changed_table_train_afresh(cache_dir: Path) -> None:
    learning_curve(2_000, 1_000, learner=QLearner(seed=5, batch=500))
    other_seed = QLearner(seed=6, batch=500)
    alike = QLearner(seed=6, batch=500)
    assert learning_curve(2_000, 1_000, learner=other_seed) == learning_curve(
        2_000, 1_000, learner=alike, cache=False)
    changed, plain = QLearner(seed=5, batch=500), QLearner(seed=5, batch=500)
    for learner in (changed, plain):
        learner.q_roll[learner.root] = 1.0  # a hand-made start: not the cached run's
    got = learning_curve(2_000, 1_000, learner=changed)
    assert got == learning_curve(2_000, 1_000, learner=plain, cache=False)
    same_learners(changed, plain)
    assert len(list(cache_dir.glob("*.json"))) == 3


def test_a_damaged_entry_is_replayed(cache_dir: Path) -> None:
    want = learning_curve(2_000, 1_000, learner=QLearner(seed=8, batch=500))
    (entry,) = cache_dir.glob("*.json")
    text = entry.read_text()
    entry.write_text(text.replace('"games": [[', '"games": [["x", ', 1))
    again, played = QLearner(seed=8, batch=500), QLearner(seed=8, batch=500)
    assert learning_curve(2_000, 1_000, learner=again) == want
    learning_curve(2_000, 1_000, learner=played, cache=False)
    same_learners(again, played)
    assert entry.read_text() == text  # replayed and kept again


def test_cache_must_be_true_or_false() -> None:
    with pytest.raises(ValueError, match="cache"):
        learning_curve(10, 5, cache="yes")

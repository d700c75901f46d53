"""Pooling the floor part's rounds from several runs' printed tables (benchmarks/pool_runs.py)."""

from __future__ import annotations

import pytest

from benchmarks.pool_runs import PROBE, main, pooled, read_run, results

# As the floor part prints them (benchmarks/bench_dashboards.py, floor_results), cut short.
TABLE = """\
benchmark                                                          measured             target
machine: pickomino-env random play (reference)                  3,882 st/s
floor (probe page): open to usable, preheated                   1.508 s
    samples {probe}
01_rolling_dice.ipynb: open to usable, preheated                1.593 s               <= 1.5 s
    samples {one}; first chart median 3.17 s; text shown median 1.29 s
01_rolling_dice.ipynb: preheated, ratio to the floor             1.05 x               <= 1.1 x
    not resolved: 90 % interval 0.98-1.12 over 5 rounds; the rounds' own ratios 0.9-1.2
{extra}floor (probe page): open to usable, cold                        2.19 s
    samples {probe}
01_rolling_dice.ipynb: open to usable, cold                     2.41 s               <= 4 s
    samples {one}; text shown median 1.99 s
"""


def table(probe: list[float], one: list[float], extra: str = "") -> str:
    """A floor table whose probe and lesson 1 samples are these, preheated and cold alike."""
    return TABLE.format(probe=", ".join(f"{t:.2f}" for t in probe),
                        one=", ".join(f"{t:.2f}" for t in one), extra=extra)


MACHINE = [1.0, 1.2, 0.9, 1.1, 1.3, 1.0, 0.8]


def test_a_table_gives_each_kinds_samples_round_by_round():
    run = read_run(table(MACHINE, [1.5 * t for t in MACHINE]))
    assert set(run) == {"preheated", "cold"}
    for kind in run:
        assert run[kind][PROBE] == MACHINE
        assert run[kind]["01_rolling_dice.ipynb"] == pytest.approx([1.5 * t for t in MACHINE])


def test_text_without_floor_samples_is_refused_by_name():
    with pytest.raises(ValueError, match="run.txt holds no floor part's samples"):
        read_run("benchmark  measured\nclass pool: one click  0.17 ms\n", "run.txt")


def test_two_runs_pool_their_rounds_and_keep_each_runs_own_ratio():
    quick = read_run(table(MACHINE, [1.0 * t for t in MACHINE]))
    slow = read_run(table(MACHINE, [1.3 * t for t in MACHINE],
                          extra="02_push_your_luck.ipynb: open to usable, preheated  1.6 s\n"
                                "    samples " + ", ".join(["1.60"] * 7) + "\n"))
    ratios, each = pooled([quick, slow], "preheated")
    assert list(ratios) == ["01_rolling_dice.ipynb"]  # lesson 2 is in one run only
    assert ratios["01_rolling_dice.ipynb"].runs == 2
    assert ratios["01_rolling_dice.ipynb"].rounds == 14
    assert [own["01_rolling_dice.ipynb"].value for own in each] == pytest.approx([1.0, 1.3],
                                                                                 abs=0.01)
    rows = results([quick, slow])
    lesson = next(r for r in rows if r.name.startswith("01_rolling_dice.ipynb: cold"))
    assert "not resolved" in lesson.note and "each run: 1.00x" in lesson.note
    assert "1.30x" in lesson.note


def test_the_command_pools_the_files_it_is_given(tmp_path, capsys):
    files = []
    for i, factor in enumerate((1.0, 1.05)):
        files.append(tmp_path / f"floor-{i}.txt")
        files[-1].write_text(table(MACHINE, [factor * t for t in MACHINE]))
    assert main([str(f) for f in files]) == 0
    out = capsys.readouterr().out
    assert "01_rolling_dice.ipynb: preheated, ratio to the floor, 2 runs pooled" in out
    assert "cold, 2 runs pooled: within 1.1x, interval and all" in out


def test_the_command_needs_two_runs_and_says_what_is_wrong(tmp_path, capsys):
    assert main([str(tmp_path / "one.txt")]) == 2
    assert "two or more floor runs" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here\n")
    assert main([str(empty), str(tmp_path / "missing.txt")]) == 2
    assert "empty.txt holds no floor part's samples" in capsys.readouterr().err

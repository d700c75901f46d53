"""The dashboards' ratios to the floor from several runs of the floor part pooled (issue 14).

One run of `--parts floor` gives each dashboard's ratio to the probe page with an interval over
that run's rounds. Between runs hours apart the machine's state moves a ratio by about as much
as the margin to the 1.1x target, so a verdict from one run is a verdict on that run. Keep each
run's printed table (`.venv/bin/python -m benchmarks.bench_dashboards --parts floor | tee
floor-1.txt`), then

    .venv/bin/python -m benchmarks.pool_runs floor-1.txt floor-2.txt ...

reads the samples every table lists, round by round (as printed: to 0.01 s), and gives each dashboard's ratio over all
the rounds, its interval drawn over runs and then rounds within them (benchmarks/ratios.py), its
verdict, and each run's own ratio beside it. Only pages measured in every run are pooled.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from benchmarks.bench_dashboards import FLOOR_RATIO_TARGET, RESOLVED, resolved_summary
from benchmarks.harness import Result, format_table
from benchmarks.ratios import Ratio, ratios_to

KINDS = ("preheated", "cold")
PROBE = "probe page"
# "01_rolling_dice.ipynb: open to usable, cold   2.41 s ..." or "floor (probe page): open to
# usable, cold ...", then an indented line "samples 2.32, 2.50, ...; first chart ...".
HEADING = re.compile(r"^(?:floor \((probe page)\)|(\S+\.ipynb)): open to usable, (\w+)\s")
SAMPLES = re.compile(r"^\s+samples ([0-9.]+(?:, [0-9.]+)*)")

Run = dict[str, dict[str, list[float]]]  # kind -> page -> seconds, one per round


def read_run(text: str, where: str = "the table") -> Run:
    """Each page's samples, round by round, for each kind (preheated, cold) a floor table
    lists; a ValueError naming `where` if it lists none."""
    run: Run = {}
    heading: tuple[str, str] | None = None
    for line in text.splitlines():
        found = HEADING.match(line)
        if found:
            page, kind = found.group(1) or found.group(2), found.group(3)
            heading = (kind, page) if kind in KINDS else None
            continue
        samples = SAMPLES.match(line)
        if samples and heading:
            kind, page = heading
            run.setdefault(kind, {})[page] = [float(t) for t in samples.group(1).split(", ")]
        heading = None
    if not any(PROBE in pages for pages in run.values()):
        raise ValueError(f"{where} holds no floor part's samples (a line 'floor (probe page): "
                         "open to usable, preheated' or '..., cold' followed by its samples)")
    return run


def pooled(runs: list[Run], kind: str) -> tuple[dict[str, Ratio], list[dict[str, Ratio]]]:
    """The ratios of the pages measured in every run, over all their rounds (drawn by run,
    then round), and each run's own ratios."""
    tables = [run[kind] for run in runs if PROBE in run.get(kind, {})]
    if len(tables) != len(runs):
        raise ValueError(f"every run needs {kind} samples of the probe page; "
                         f"{len(runs) - len(tables)} of {len(runs)} have none")
    pages = [p for p in tables[0] if all(p in t for t in tables)]
    times = {p: [t for table in tables for t in table[p]] for p in pages}
    names = [i for i, table in enumerate(tables) for _ in table[PROBE]]
    return (ratios_to(times, PROBE, runs=names),
            [ratios_to({p: table[p] for p in pages}, PROBE) for table in tables])


def results(runs: list[Run]) -> list[Result]:
    """The table's rows: each kind's pooled ratios, then how many are within the target."""
    rows = []
    for kind in KINDS:
        if not all(kind in run for run in runs):
            continue
        ratios, each = pooled(runs, kind)
        for page, ratio in ratios.items():
            rows.append(Result(
                f"{page}: {kind}, ratio to the floor, {len(runs)} runs pooled", ratio.value,
                "x", FLOOR_RATIO_TARGET, False,
                f"{RESOLVED[ratio.verdict(FLOOR_RATIO_TARGET)]}: 90 % interval {ratio.low:.2f}-"
                f"{ratio.high:.2f} over {ratio.rounds} rounds; each run: "
                + ", ".join(str(own[page]) for own in each)))
        rows.append(resolved_summary(f"{kind}, {len(runs)} runs pooled", ratios))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the pooled table of the runs kept in the files named on the command line."""
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if len(paths) < 2:
        print("usage: python -m benchmarks.pool_runs RUN1.txt RUN2.txt [...]: the printed "
              "tables of two or more floor runs", file=sys.stderr)
        return 2
    try:
        runs = [read_run(p.read_text(), str(p)) for p in paths]
        print(format_table(results(runs)))
    except (OSError, ValueError) as e:
        print(f"pool_runs: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The engines side by side: this tree against an earlier commit, the same workloads, one run.

`python -m benchmarks engines [--against REV] [--this REV] [--rounds N] [--scale X]`

The earlier commit (default DEFAULT_REV, the commit before issue 10's refactor) is checked out
in a detached git worktree under the temporary folder (added once, reused while it stays clean).
For each workload of `engine_workloads.py`, two fresh worker processes of the same interpreter
(the repo's .venv) start, one with PYTHONPATH at that worktree ("before"), one at this tree
("after"). Both warm up, then play the same `rounds` chunks (about 0.2 s each) in turn, who goes
first alternating: the two figures of a chunk are measured a fraction of a second apart, so the
load of a shared machine hits both alike. Each chunk's ratio after/before is taken on the same
games; the ratio shown is their median, with the quartiles as the spread. Times are the workers'
CPU seconds. Every chunk prints a checksum of the games it played: "same games: yes" means both
trees played exactly the same games (same seeds, bots and random streams).

`--this REV` measures a worktree of REV as "after" instead of the working tree (a committed
state of the code; `--against X --this X` shows the harness's own spread, which should be 1.00).
Every chunk's figures are written to henkit-bench-engines.json in the temporary folder.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.harness import Result

DEFAULT_REV = "22266c4"
"""The commit before issue 10 (one shape for both games): the engines' speed before it."""

WITHIN = 0.9
"""After must reach this share of before (issue 10: within 10 % of before or faster)."""

REPO = Path(__file__).resolve().parents[1]
DRIVER = Path(__file__).resolve().with_name("engine_workloads.py")

WORKLOADS = {
    # name: (label, README's absolute target or None)
    "henpen-decisions-random": ("henpen: random bots, decisions/s through State", 39_000),
    "henpen-decisions-greedy": ("henpen: greedy bots, decisions/s through State", None),
    "henpen-decisions-optimal": ("henpen: optimal bots, decisions/s through State", None),
    "henpen-batch-turns": ("henpen batch: turns/s, optimal policy, 8 dice", 1_000_000),
    "henpen-games-greedy": ("henpen: 2-player games/s, greedy bots", None),
    "henpen-games-optimal": ("henpen: 2-player games/s, optimal bots", None),
    "hens-games-random": ("hens: 4-player games/s, random bots", 500),
    "hens-games-greedy": ("hens: 4-player games/s, greedy bots", 100),
}
"""Absolute targets: README "Benchmarks" (random play: 10x the 3,900 steps/s of pickomino-env here)."""


SHORT_UNITS = {"decisions/s": "st/s", "turns/s": "/s", "games/s": "games/s"}


def _git(*args: str, cwd: Path = REPO) -> str:
    """Run git in `cwd` and return its stripped output (ValueError with git's message if it fails)."""
    done = subprocess.run(["git", *args], check=False, cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise ValueError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def worktree(rev: str) -> Path:
    """A clean detached worktree of `rev` in the temporary folder: reused if there, else added."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    path = Path(tempfile.gettempdir()) / f"henkit-bench-{sha[:12]}"
    if path.exists():
        if _git("rev-parse", "HEAD", cwd=path) != sha or _git("status", "--porcelain", cwd=path):
            raise ValueError(f"{path} is not a clean checkout of {sha[:12]}: remove it "
                             f"(git worktree remove --force {path}) and run again")
        return path
    try:
        _git("worktree", "add", "--detach", str(path), sha)
    except ValueError:
        # A worktree of that path deleted by hand stays registered until pruned.
        _git("worktree", "prune")
        _git("worktree", "add", "--detach", str(path), sha)
    return path


def python() -> str:
    """The repo's virtualenv interpreter (the one `make bench` uses), else this one."""
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


@dataclass
class Side:
    """One tree to measure: where it is, what to call it, and its chunks' figures per workload."""

    name: str
    tree: Path
    label: str
    runs: dict[str, list[dict]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    worker: subprocess.Popen | None = None
    log: Any = None

    def start(self) -> None:
        """A fresh worker process (`engine_workloads.py serve`) with this tree on PYTHONPATH."""
        env = dict(os.environ, PYTHONPATH=str(self.tree), PYTHONHASHSEED="0", HENKIT_CACHE="off")
        # stderr to a file: a chatty worker must not fill a pipe nobody reads and hang.
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 - closed by stop()
        self.worker = subprocess.Popen(
            [python(), str(DRIVER), "serve"], cwd=tempfile.gettempdir(), env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)

    def stop(self) -> None:
        """End the worker (it exits when its stdin closes)."""
        if self.worker is not None:
            self.worker.stdin.close()
            try:
                self.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.worker.kill()
                self.worker.wait()
            self.worker = None
            self.log.close()

    def run(self, workload: str, chunk: int, scale: float) -> bool:
        """Ask the worker for one chunk of a workload; False (and the error kept) if it failed."""
        if workload in self.errors:
            return False
        w = self.worker
        w.stdin.write(json.dumps({"workload": workload, "chunk": chunk, "scale": scale}) + "\n")
        w.stdin.flush()
        line = w.stdout.readline()
        if not line:
            w.wait()
            self.log.seek(0)
            lines = self.log.read().strip().splitlines() or [f"exit {w.returncode}"]
            self.errors[workload] = lines[-1]
            self.worker = None
            return False
        figures = json.loads(line)
        # The editable install of henkit must not win over PYTHONPATH: check what was measured.
        if not Path(figures["henkit"]).resolve().is_relative_to(self.tree.resolve()):
            raise ValueError(f"{self.name}: measured henkit at {figures['henkit']}, not in {self.tree}")
        if chunk >= 0:
            self.runs.setdefault(workload, []).append(figures)
        return True

    def rates(self, workload: str) -> list[float]:
        """The rate of every timed chunk of a workload, in chunk order."""
        return [r["rate"] for r in self.runs.get(workload, [])]

    def median(self, workload: str) -> float | None:
        """The median rate of a workload's chunks (None if it never ran)."""
        rates = self.rates(workload)
        return statistics.median(rates) if rates else None

    def checksums(self, workload: str) -> list[str]:
        """Every chunk's checksum, in chunk order."""
        return [r["checksum"] for r in self.runs.get(workload, [])]


def paired_ratios(before: Side, after: Side, workload: str) -> list[float]:
    """After's rate / before's rate on each chunk both measured (the same games on both)."""
    return [a / b for b, a in zip(before.rates(workload), after.rates(workload), strict=False)]


def paired_ratio(before: Side, after: Side, workload: str) -> float | None:
    """The median of the paired ratios (None if no chunk ran on both sides)."""
    ratios = paired_ratios(before, after, workload)
    return statistics.median(ratios) if ratios else None


def describe_tree(tree: Path) -> str:
    """A tree's commit, and whether its henkit/ has uncommitted changes."""
    head = _git("rev-parse", "--short", "HEAD", cwd=tree)
    dirty = _git("status", "--porcelain", "--", "henkit", cwd=tree)
    return f"{head}{' + uncommitted changes in henkit/' if dirty else ''} ({tree})"


def _num(x: float | None) -> str:
    return "error" if x is None else (f"{x:,.0f}" if x >= 100 else f"{x:.1f}")


def table(before: Side, after: Side) -> str:
    """Before, after, their ratio and its spread, within 10 %, same games, the README target."""
    head = (f"{'workload (median rate of the chunks)':<48} {'before':>10} {'after':>10} "
            f"{'ratio':>5} {'middle half':>11} {'>=0.9':>5} {'same games':>10} "
            f"{'README':>9} {'met':>3}")
    lines = [f"before: {before.label}", f"after:  {after.label}", head, "-" * len(head)]
    for name, (label, target) in WORKLOADS.items():
        b, a = before.median(name), after.median(name)
        ratios = paired_ratios(before, after, name)
        ratio = statistics.median(ratios) if ratios else None
        within = "" if ratio is None else ("yes" if ratio >= WITHIN else "NO")
        spread = ""
        if len(ratios) >= 2:
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            spread = f"{q1:.2f}-{q3:.2f}"
        cb, ca = before.checksums(name), after.checksums(name)
        same = "" if not (cb and ca) else ("yes" if cb == ca else "NO")
        met = "" if target is None or a is None else ("yes" if a >= target else "NO")
        lines.append(
            f"{label:<48} {_num(b):>10} {_num(a):>10} "
            f"{'' if ratio is None else f'{ratio:.2f}':>5} {spread:>11} {within:>5} {same:>10} "
            f"{'' if target is None else '>= ' + _num(target):>9} {met:>3}"
        )
        for side in (before, after):
            if name in side.errors:
                lines.append(f"    {side.name} failed: {side.errors[name]}")
    lines.append(
        "ratio: median over chunks of after/before on the same chunk (the same games, measured "
        "one after the other);\nmiddle half: its quartiles; rates in CPU seconds of the worker "
        f"processes; {len(before.rates(next(iter(WORKLOADS))))} chunks a side per workload.")
    lines.append("played with: before " + "; ".join(sorted({_via(before, n) for n in WORKLOADS}))
                 + "\n             after " + "; ".join(sorted({_via(after, n) for n in WORKLOADS})))
    return "\n".join(lines)


def _via(side: Side, name: str) -> str:
    runs = side.runs.get(name)
    return runs[0]["via"] if runs else "-"


def compare(against: str = DEFAULT_REV, this: str | None = None, rounds: int = 16,
            scale: float = 1.0) -> tuple[Side, Side]:
    """Measure `rounds` chunks of every workload on both trees, in turn; return both sides."""
    base = worktree(against)
    before = Side("before", base, f"{against}: {describe_tree(base)}")
    now = worktree(this) if this else REPO
    after = Side("after", now, f"{this or 'working tree'}: {describe_tree(now)}")
    t0 = time.perf_counter()
    for name in WORKLOADS:
        # Fresh workers for every workload: no workload's caches or garbage meet another's.
        for side in (before, after):
            side.start()
        try:
            for chunk in range(-1, rounds):  # chunk -1 warms up imports and caches
                # Alternate who goes first so that neither side always runs on a warmer machine.
                for side in (before, after) if chunk % 2 else (after, before):
                    side.run(name, chunk, scale)
        finally:
            for side in (before, after):
                side.stop()
        print(f"  engines: {name} done ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr, flush=True)
    return before, after


def run(against: str = DEFAULT_REV, this: str | None = None, rounds: int = 16,
        scale: float = 1.0) -> list[Result]:
    """Compare the engines with `against`; print the side-by-side table, return the after rows."""
    before, after = compare(against, this, rounds, scale)
    print(table(before, after), flush=True)
    raw = Path(tempfile.gettempdir()) / "henkit-bench-engines.json"
    raw.write_text(json.dumps({s.name: {"label": s.label, "runs": s.runs, "errors": s.errors}
                               for s in (before, after)}, indent=1))
    print(f"every run's figures: {raw}", file=sys.stderr)
    results = []
    for name, (label, _target) in WORKLOADS.items():
        b, a, ratio = before.median(name), after.median(name), paired_ratio(before, after, name)
        if a is None or b is None or ratio is None:
            continue
        same = "yes" if before.checksums(name) == after.checksums(name) else "NO"
        # Target 0.9 x before, applied to the paired ratio: value / target = ratio / 0.9.
        results.append(Result(
            f"engines: {label}", a, SHORT_UNITS[after.runs[name][0]["unit"]],
            target=a * WITHIN / ratio,
            note=f"median before {b:,.0f}, after {a:,.0f}; after/before {ratio:.2f} (paired "
                 f"chunks; target >= 0.9); same games: {same}"))
    return results

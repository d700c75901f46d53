"""Run every benchmark module (benchmarks/bench_*.py), or the ones named, and print one table.

`python -m benchmarks [name ...] [--against REV] [--this REV] [--rounds N] [--scale X]`: the
options go to the modules whose `run()` takes them (the engines' side-by-side comparison).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys

import benchmarks
from benchmarks.harness import Result, format_table


def parse(argv: list[str]) -> argparse.Namespace:
    """The benchmark names and the engines comparison's options."""
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="run the modules whose names contain one of these")
    p.add_argument("--against", metavar="REV",
                   help="engines: the commit to compare with (default: the one before issue 10)")
    p.add_argument("--this", metavar="REV",
                   help="engines: measure a worktree of REV instead of the working tree")
    p.add_argument("--rounds", type=int, metavar="N",
                   help="engines: chunks of each workload on each side, in turn (default 16)")
    p.add_argument("--scale", type=float, metavar="X",
                   help="engines: multiply every workload's size by X (default 1)")
    args = p.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        p.error("--rounds must be at least 1")
    if args.scale is not None and not args.scale > 0:
        p.error("--scale must be more than 0")
    return args


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all when none is named) and print their table."""
    args = parse(argv)
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    chosen = [n for n in names if not args.names or any(a in n for a in args.names)]
    if not chosen:
        print(f"no benchmark matches {args.names}; there are: {', '.join(names)}", file=sys.stderr)
        return 2
    options = {k: v for k, v in vars(args).items() if k != "names" and v is not None}
    results: list[Result] = []
    for name in chosen:
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"running {name} ...", file=sys.stderr, flush=True)
        takes = inspect.signature(module.run).parameters
        try:
            results.extend(module.run(**{k: v for k, v in options.items() if k in takes}))
        except ValueError as e:  # e.g. a --against that git does not know
            print(f"python -m benchmarks {name}: error: {e}", file=sys.stderr)
            return 2
    print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

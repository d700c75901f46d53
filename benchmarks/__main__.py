"""Run every benchmark module (benchmarks/bench_*.py), or the ones named, and print one table."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks
from benchmarks.harness import Result, format_table


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all when none is named) and print their table."""
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    chosen = [n for n in names if not argv or any(a in n for a in argv)]
    if not chosen:
        print(f"no benchmark matches {argv}; there are: {', '.join(names)}", file=sys.stderr)
        return 2
    results: list[Result] = []
    for name in chosen:
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results.extend(module.run())
    print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

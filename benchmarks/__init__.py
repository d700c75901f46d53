"""Speed benchmarks: `python -m benchmarks [name ...]` (see the README); never timed unit tests."""

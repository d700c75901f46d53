"""Charts draw, engines compute: no chart module tallies, sums or takes square roots itself
(picking which points of a long line to draw, `_log_spaced`, is drawing).

The numbers come from the engines (henkit.henpen, henkit.hens) and from henkit.results'
generic statistics; a chart only arranges them into traces.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import henkit.charts

CHART_FILES = sorted(Path(henkit.charts.__file__).parent.glob("*.py"))
COMPUTING = {"bincount", "cumsum", "sqrt", "mean", "std", "var", "histogram", "cumprod",
             "total_probability", "score_distributions"}


@pytest.mark.parametrize("path", CHART_FILES, ids=lambda p: p.name)
def test_chart_modules_call_no_statistics_of_their_own(path):
    tree = ast.parse(path.read_text())
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            called.add(name)
    # score_distributions is fine when it is henkit.results' (imported from there).
    imported_from_results = {a.name for node in ast.walk(tree)
                             if isinstance(node, ast.ImportFrom) and node.module == "henkit.results"
                             for a in node.names}
    assert not (called & COMPUTING) - imported_from_results


def test_hens_score_distribution_chart_uses_henkit_results():
    from henkit.charts import hens
    from henkit.results import score_distributions

    assert hens.score_distributions is score_distributions

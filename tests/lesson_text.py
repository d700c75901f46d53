"""Reading a lesson notebook as its tests do: its cells, its text folded, what its outputs show.

Shared by the lesson tests (`tests/test_lessons_*.py`), so that each reads a notebook the same
way: a number the text states is found however the line breaks fall.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@cache
def cells(name: str) -> tuple[dict, ...]:
    """The cells of notebooks/<name>.ipynb."""
    return tuple(json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"])


def source(cell: dict) -> str:
    """A cell's source (or an output's text) as one string."""
    s = cell["source"]
    return s if isinstance(s, str) else "".join(s)


def fold(s: str) -> str:
    """Whitespace folded, '&nbsp;' a space and ' %' written '%' (a number may sit across a line)."""
    return " ".join(s.replace("&nbsp;", " ").split()).replace(" %", "%")


def markdown(name: str) -> str:
    """All the markdown of the lesson, folded."""
    return fold(" ".join(source(c) for c in cells(name) if c["cell_type"] == "markdown"))


def outside_answers(text: str) -> str:
    """Text with every <details> answer block cut out: what a student sees at once."""
    return re.sub(r"<details>.*?</details>", " ", text, flags=re.DOTALL)


def outputs(name: str) -> str:
    """Everything the code cells' outputs show (a widget's record aside)."""
    parts = []
    for c in cells(name):
        for out in c.get("outputs", []):
            if "text" in out:
                parts.append(source({"source": out["text"]}))
            for kind, value in out.get("data", {}).items():
                if kind != "application/vnd.jupyter.widget-view+json":
                    parts.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join(parts)

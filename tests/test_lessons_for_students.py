"""The lessons as a student meets them on a dashboard: one period long, no code talk, and every
prediction box's answer kept back until the box reveals it (docs/writing-lessons.md).

Read from the notebooks as the henkit template serves them: cells tagged `explorer` are left out,
the part from the `going-further` cell on is collapsed. The rendered pages are checked in
Chromium by tests/browser/test_lessons_as_students.py.
"""

from __future__ import annotations

import html
import re

import pytest

from .lesson_text import NOTEBOOKS, cells, source

LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb"))
WORD_BUDGET = 1000
"""Student words before "Going further": about what a class reads, predicts and discusses in a
45-minute period with its experiments."""
TAGS = re.compile(r"explorer|going-further|answer:[a-z0-9][a-z0-9-]{0,39}")
KEY = re.compile(r"""\bkey\s*=\s*["']([a-z0-9][a-z0-9-]{0,39})["']""")
WORD = re.compile(r"[A-Za-z0-9]+(?:['’.,/-][A-Za-z0-9]+)*")

CODE_TALK = {
    "inline code": re.compile(r"`"),
    "a Python value": re.compile(r"\b(True|False|None)\b"),
    "programmers' words": re.compile(
        r"\b(cells?|code|Python|notebooks?|kernels?|engine|functions?|variables?)\b", re.IGNORECASE),
    "a function call": re.compile(r"\b[A-Za-z_]*[a-z_][A-Za-z0-9_]{2,}\((?!s\))"),
    "a module name": re.compile(r"\b(henkit|numpy|np|plotly|ipywidgets|Fraction)\b|\.py\b"),
}


def tags(cell: dict) -> list[str]:
    """A cell's tags."""
    return list(cell.get("metadata", {}).get("tags", []))


def student_cells(name: str) -> list[tuple[dict, bool]]:
    """The cells a dashboard shows, each with True when it is past "Going further"."""
    shown, further = [], False
    for cell in cells(name):
        further = further or "going-further" in tags(cell)
        if "explorer" not in tags(cell):
            shown.append((cell, further))
    return shown


def plain(markup: str) -> str:
    """Markdown or HTML as the words it shows (tags and markdown marks dropped)."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.DOTALL | re.IGNORECASE)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"[#*_|>]+", " ", text)
    return html.unescape(text)


def output_text(cell: dict) -> str:
    """What a code cell's saved outputs show as text (charts and widgets aside)."""
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(source({"source": out["text"]}))
        data = out.get("data", {})
        if "text/html" in data:
            markup = source({"source": data["text/html"]})
            if "<script" not in markup:  # a chart: its data is drawn, not read
                parts.append(plain(markup))
        elif "text/plain" in data and "application/vnd.jupyter.widget-view+json" not in data:
            parts.append(source({"source": data["text/plain"]}))
    return "\n".join(parts)


def student_text(name: str, *, core_only: bool, with_answers: bool) -> str:
    """The text a student can read: markdown and printed outputs of the cells a dashboard shows
    (`core_only`: before "Going further"; `with_answers`: the collapsed worked answers too)."""
    parts = []
    for cell, further in student_cells(name):
        if core_only and further:
            continue
        if cell["cell_type"] == "markdown":
            md = source(cell)
            if not with_answers:
                md = re.sub(r"<details>.*?</details>", " ", md, flags=re.DOTALL)
            parts.append(md)
        elif cell["cell_type"] == "code":
            parts.append(output_text(cell))
    return "\n".join(parts)


def before_any_lock(name: str) -> str:
    """The core path's text and outputs that no box hides (what a student reads first)."""
    parts = []
    for c in cells(name):
        if "going-further" in tags(c):
            break
        if any(t == "explorer" or t.startswith("answer:") for t in tags(c)):
            continue
        parts.append(plain(source(c)) if c["cell_type"] == "markdown" else output_text(c))
    return " ".join(parts)


def words(text: str) -> int:
    """Words in `text` as a reader counts them."""
    return len(WORD.findall(plain(text)))


@pytest.mark.parametrize("name", LESSONS)
def test_tags_are_the_templates_own(name: str) -> None:
    bad = [(i, t) for i, c in enumerate(cells(name)) for t in tags(c) if not TAGS.fullmatch(t)]
    assert not bad, f"{name}: tags the henkit template does not know: {bad}"
    further = [i for i, c in enumerate(cells(name)) if "going-further" in tags(c)]
    assert len(further) <= 1, f"{name}: more than one going-further cell: {further}"
    for i in further:
        cell = cells(name)[i]
        assert cell["cell_type"] == "markdown" and "Going further" in source(cell), (
            f"{name}: the going-further cell {i} is a markdown cell headed 'Going further'")


@pytest.mark.parametrize("name", LESSONS)
def test_every_box_has_a_key_and_every_answer_cell_follows_its_box(name: str) -> None:
    seen: set[str] = set()
    for i, cell in enumerate(cells(name)):
        if cell["cell_type"] != "code" or "explorer" in tags(cell):
            continue
        code = source(cell)
        boxes = len(re.findall(r"\bPredict\(", code))
        keys = KEY.findall(code) if boxes else []
        assert len(keys) == boxes, f"{name} cell {i}: every Predict( needs its key='...'"
        for key in keys:
            assert key not in seen, f"{name} cell {i}: the key {key!r} is used twice"
            seen.add(key)
    for i, cell in enumerate(cells(name)):
        for t in tags(cell):
            if t.startswith("answer:"):
                assert t[7:] in seen, (f"{name} cell {i}: {t} names no box above it "
                                       f"(keys: {sorted(seen)})")
    order = {key: i for i, c in enumerate(cells(name)) for key in KEY.findall(source(c))}
    for i, cell in enumerate(cells(name)):
        for t in tags(cell):
            if t.startswith("answer:"):
                assert order[t[7:]] < i, f"{name} cell {i}: {t} stands above its box"


@pytest.mark.parametrize("name", LESSONS)
def test_a_lesson_fits_one_period(name: str) -> None:
    n = words(student_text(name, core_only=True, with_answers=False))
    assert n <= WORD_BUDGET, (f"{name}: {n} words of student text before 'Going further' "
                              f"(at most {WORD_BUDGET}: one 45-minute period)")


@pytest.mark.parametrize("name", LESSONS)
def test_students_read_no_code_talk(name: str) -> None:
    text = plain(student_text(name, core_only=False, with_answers=True))
    found = []
    for what, pattern in CODE_TALK.items():
        for m in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, m.start() - 40):m.end() + 40]!r}...")
    assert not found, f"{name}: {len(found)} places talk code to students:\n" + "\n".join(
        found[:25])


def test_the_word_count_reads_like_a_reader() -> None:
    assert words("Roll **8 dice**: 1/6 of them, 16.7 %, don't <b>stop</b>.") == 9
    assert words("<details><summary>Answer</summary>x y z</details>") == 4  # counted if asked
    text = student_text(LESSONS[0], core_only=True, with_answers=False)
    assert "<details>" not in text


"""The teacher pack's index: every lesson with its teacher page and worksheet, and a core path
for a one-week and a two-week unit made of lessons that exist, one period each."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "docs" / "teacher"
INDEX = (PACK / "README.md").read_text(encoding="utf-8")
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))


def number(stem: str) -> str:
    """'05b_hens_seen_and_unseen' -> '5b'."""
    return re.match(r"0*(\d+[a-z]?)_", stem).group(1)


def test_every_lesson_has_its_row_with_pages_that_exist():
    for stem in LESSONS:
        row = next((line for line in INDEX.splitlines()
                    if line.startswith(f"| {number(stem)}. ")), None)
        assert row, f"no row for lesson {number(stem)}"
        assert f"({stem}.md)" in row and f"(worksheets/{stem}.md)" in row, row
        assert (PACK / f"{stem}.md").is_file() and (PACK / "worksheets" / f"{stem}.md").is_file()


def test_the_core_path_fits_a_week_and_two_weeks_of_existing_lessons():
    rows = re.findall(r"^\| (one week|two weeks) \| (\d+) \| (.+) \|$", INDEX, re.MULTILINE)
    units = {unit: (int(periods), lessons) for unit, periods, lessons in rows}
    assert set(units) == {"one week", "two weeks"}
    known = {number(s) for s in LESSONS}
    for unit, (periods, lessons) in units.items():
        listed = re.findall(r"(?:^|, )(\d+[a-z]?)\b", lessons)
        assert len(listed) == periods, (unit, listed)  # one period per lesson
        assert set(listed) <= known, (unit, set(listed) - known)
        assert "8" not in listed and "11" not in listed  # a tool and enrichment, not periods
    assert units["one week"][0] == 5 and units["two weeks"][0] == 10
    assert "The class board (8) is a tool" in INDEX and "Lesson 11 is enrichment" in INDEX

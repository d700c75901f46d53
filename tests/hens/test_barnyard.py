"""Barnyard text, placement rules (adjacency, breed or one number apart, 3x4/4x3 box), groups."""

import pytest

from henkit.hens.barnyard import Barnyard
from henkit.hens.cards import card

EXAMPLE = """\
Pa1 Pa6 Pa1 Pa2
Pa3 ##  ##  Wy3
Wy4* Wy2 Wy1 Wy3"""


def test_parse_and_write_back():
    b = Barnyard.parse(EXAMPLE)
    assert b.shape == (3, 4)
    assert len(b) == 12
    assert b.at((0, 1)) == card("Pa6")
    assert b.at((1, 1)) is None and b.is_coop((1, 1))
    assert b.rooster_cell == (2, 0)
    assert Barnyard.parse(str(b)) == b
    assert str(b).split("\n")[1].split() == ["Pa3", "##", "##", "Wy3"]


def test_parse_trims_empty_border_rows_and_columns():
    b = Barnyard.parse(".. .. ..\n.. Pa3 Pa4\n.. .. ..")
    assert b.shape == (1, 2)
    assert str(b) == "Pa3 Pa4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Pa3 Px4", "line 1, cell 2"),
        ("Pa3 Pa4\nPa5 ZZ", "line 2, cell 2"),
        ("Pa3 Pa4\nPa5", "line 2 has 1 cells but line 1 has 2"),
        ("Pa1 Pa2 Pa3 Pa4 Pa5", "must fit inside a 3x4 or 4x3 box"),
        ("Pa3 ..\n.. Pa4", "cut off"),
        ("Pa3 Wy5", "neither the same breed nor one number apart"),
        ("Ce3 Ce3", "appears 2 times but the deck holds only 1"),
        ("Pa3* Pa4*", "one rooster"),
    ],
)
def test_bad_text_names_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        Barnyard.parse(text)


def test_first_card_starts_at_origin_and_barnyard_grows_every_way():
    b = Barnyard().place("Pa3", (0, 0))
    assert b.hen_cells(card("Pa1")) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    b = b.place("Pa1", (-1, 0))  # above: the barnyard shifts so the box starts at (0, 0)
    assert str(b) == "Pa1\nPa3"
    b = b.place("Wy2", (0, -1))  # left of Pa1: 2 is one apart from 1
    assert str(b) == "Wy2 Pa1\n..  Pa3"
    with pytest.raises(ValueError, match=r"first card starts the barnyard at \(0, 0\)"):
        Barnyard().place("Pa3", (1, 1))


def test_hen_cells_takes_a_card_code_like_place_does():
    b = Barnyard.parse("Pa3 Pa4\nWy2 ..")
    for code in ("Su1", "Wy5", " pa2 ", "Se5"):
        cells = b.hen_cells(code)
        assert cells == b.hen_cells(card(code)) == b.hen_cells(int(card(code)))
        for cell in b.coop_cells():  # exactly the cells where place() accepts it as a hen
            fits = cell in cells
            try:
                b.check_place(code, cell)
            except ValueError:
                assert not fits
            else:
                assert fits
    # Su1 may touch Wy2 (one apart) but neither Pa3 nor Pa4: left of and below Wy2 only.
    assert b.hen_cells("Su1") == [(1, -1), (2, 0)]
    assert (1, 1) in b.hen_cells("Wy5")
    for bad in ("Zz9", "Su", None, True, 2.0, 99):
        with pytest.raises(ValueError, match="not a card|out of range"):
            b.hen_cells(bad)


def test_placement_names_the_neighbour_and_the_rule():
    b = Barnyard.parse("Pa3 Pa4\nWy2 ..")
    # (1, 1): Pa4 above is fine for Wy5 (one apart), Wy2 to the left is the same breed.
    assert (1, 1) in b.hen_cells(card("Wy5"))
    # Se5 at (1, 1): Pa4 above is one apart, but Wy2 to the left is neither.
    with pytest.raises(ValueError, match="the hen to the left, Wy2, is another breed"):
        b.place("Se5", (1, 1))
    with pytest.raises(ValueError, match="the hen above, Pa4"):
        b.place("Se2", (1, 1))
    with pytest.raises(ValueError, match="already taken"):
        b.place("Pa5", (0, 0))
    with pytest.raises(ValueError, match="touch a placed card"):
        b.place("Pa5", (3, 3))
    with pytest.raises(ValueError, match="not a cell"):
        b.place("Pa5", (0, "x"))
    before = str(b)
    assert str(b) == before  # a failed placement leaves the barnyard as it was


def test_coops_constrain_nothing_and_any_card_may_be_a_coop():
    b = Barnyard.parse("Pa3 ##")
    # Beside a coop any hen fits, as long as its hen neighbours agree.
    assert (0, 2) in b.hen_cells(card("Ce6"))
    b2 = b.place("Ce6", (1, 0), coop=True)
    assert b2.coops == 2
    assert b2.coop_card((1, 0)) == card("Ce6")
    assert b2.hidden().coop_card((1, 0)) is None  # opponents see it face down
    assert str(b2.hidden()) == str(b2)


def test_the_box_stops_a_fifth_column_and_a_fourth_row_of_four():
    wide = Barnyard.parse("Pa1 Pa2 Pa3 Pa4")
    assert (0, 4) not in wide.coop_cells() and (0, -1) not in wide.coop_cells()
    with pytest.raises(ValueError, match="3x4 or 4x3 box"):
        wide.place("Pa5", (0, 4))
    three_by_four = Barnyard.parse("Pa1 Pa2 Pa3 Pa4\n## ## ## ##\n## ## ## ##")
    assert three_by_four.coop_cells() == []  # 3x4 full: a fourth row would make 4x4
    tall = Barnyard.parse("Pa1\nPa2\nPa3")
    # 3x1 may grow to 4 rows (4x3 box) or to 4 columns (3x4 box).
    assert set(tall.coop_cells()) == {(-1, 0), (3, 0), (0, -1), (1, -1), (2, -1), (0, 1),
                                      (1, 1), (2, 1)}


def test_groups_and_lone_hens():
    b = Barnyard.parse("Pa1 Pa2 Wy3 Wy4\nSe2 Se3 Ce2 ..")
    sizes = sorted((g.breed, g.size, g.eggs) for g in b.groups())
    assert sizes == [("Ce", 1, 2), ("Pa", 2, 3), ("Se", 2, 3), ("Wy", 2, 2)]
    assert b.lone_hens() == [(1, 2)]


def test_diagonal_hens_are_not_a_group():
    b = Barnyard.parse("Pa2 Wy3\nWy1 Pa2", check=False)
    assert sorted(g.size for g in b.groups()) == [1, 1, 1, 1]


def test_dict_round_trip_and_errors():
    b = Barnyard.parse("Pa3* Pa4").place("Ce5", (1, 0), coop=True).place("Wy2", (0, -1))
    assert Barnyard.from_dict(b.to_dict()) == b
    with pytest.raises(ValueError, match="needs the keys"):
        Barnyard.from_dict({"hens": []})
    with pytest.raises(ValueError, match="given twice"):
        Barnyard.from_dict({"hens": [[0, 0, "Pa1"], [0, 0, "Pa2"]], "coops": [],
                            "rooster": None})


@pytest.mark.parametrize(
    ("text", "places"),
    [
        # Breed clash below a trimmed empty border: lines and cells as typed, counted from 1.
        (".. ..\n.. Pa1\n.. Wy4", ["line 2, cell 2", "line 3, cell 2"]),
        (".. .. ..\n.. Pa3 ..\n.. .. Pa4", ["line 3, cell 3"]),  # cut off
        (".. Ce3 Ce3", ["line 1, cell 2", "line 1, cell 3"]),  # too many copies
        (".. Pa1 Pa2 Pa3 Pa4 Pa5", ["cells 2-6"]),  # outside the box
        (".. ..\n.. Pa1\n.. Pa2\n.. Pa3\n.. Pa4\n.. Pa5", ["lines 2-6"]),
    ],
)
def test_layout_errors_name_lines_and_cells_as_typed(text, places):
    with pytest.raises(ValueError) as err:
        Barnyard.parse(text)
    for place in places:
        assert place in str(err.value)
    assert "(0, 0)" not in str(err.value) and "(1, 0)" not in str(err.value)


def _yard(hens, coops=(), rooster=None) -> dict:
    return {"hens": [list(h) for h in hens], "coops": [list(c) for c in coops], "rooster": rooster}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_yard([(0, 0, "Pa1"), (0, 1, "Wy4")]), r"Pa1 at \(0, 0\) and Wy4 at \(0, 1\) touch"),
        (_yard([(0, 0, "Pa1"), (2, 2, "Wy4")]), r"Wy4 at \(2, 2\) .*touch"),
        (_yard([(0, 0, "Ce3")], [(0, 1, "Ce3")]), "Ce3 appears 2 times"),
        (_yard([(0, 0, "Pa1")], rooster=3), "rooster"),
        (_yard([(0, 0, "Pa1")], rooster="ab"), "rooster"),
        (_yard([(0, 0, "Pa1")], [(0, 1, "Pa2")], rooster=[0, 1]), "rooster"),
        (_yard([(0, 0, "Pa1")]) | {"hens": [[0, 0]]}, r"\[row, col, code\]"),
        (_yard([(0, 0, "Pa1")]) | {"hens": "Pa1"}, r"\[row, col, code\]"),
        (_yard([(0, 0, "Pa1")]) | {"roster": None}, r"unknown barnyard keys \['roster'\]"),
    ],
)
def test_from_dict_runs_the_layout_check_of_parse(data, message):
    with pytest.raises(ValueError, match=message):
        Barnyard.from_dict(data)


def test_from_dict_accepts_every_legal_barnyard_parse_accepts():
    b = Barnyard.parse(EXAMPLE)
    assert Barnyard.from_dict(b.to_dict()) == b
    assert Barnyard.from_dict(b.hidden().to_dict()) == b.hidden()


def test_h6_has_one_message():
    import inspect

    from henkit.hens import barnyard

    assert inspect.getsource(barnyard).count("3x4 or 4x3 box\"") == 1  # BOX_RULE only
    for text in ("Pa1 Pa2 Pa3 Pa4 Pa5",):
        with pytest.raises(ValueError, match=barnyard.BOX_RULE):
            Barnyard.parse(text, check=True)

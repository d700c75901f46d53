"""Scoring worked by hand from the rulebook's six steps, every goal card half, and ties (H15).

Egg counts come from the rulebook table: Pa/Wy 1 and 6 hatch 2, 2-5 hatch 1; Se/Ba 1, 2, 5, 6
hatch 2, 3-4 hatch 1; Su/Fa 1 and 6 hatch 3, 2 and 5 hatch 2, 3-4 hatch 1; Ce/Mo 1 and 6 hatch 3,
2-5 hatch 2. Su/Fa carry 1 medal, Ce/Mo 2.
"""

import pytest

from henkit.hens.barnyard import Barnyard
from henkit.hens.goals import GOALS, goal_card
from henkit.hens.scoring import STEPS, score, total, winners

# Pa group: Pa1 Pa6 Pa1 Pa2 Pa3 = 2+2+2+1+1 = 8 eggs, 5 hens.
# Wy group: Wy4 Wy2 Wy1 Wy3 Wy3 = 1+1+2+1+1 = 6 eggs, 5 hens. Two coops.
RULEBOOK = """\
Pa1 Pa6 Pa1 Pa2
Pa3 ##  ##  Wy3
Wy4* Wy2 Wy1 Wy3"""


def steps(b, goal=None, **kw):
    return [line.points for line in score(b, goal, **kw).lines]


def test_rulebook_example_only_the_rooster_group_scores():
    # "a group of 5 hens without a rooster that hatch 8 eggs and a group of 5 hens with the
    # Rooster Token that hatch 6 eggs ... you will only gain the points for the group that
    # contains the Rooster": steps 1 and 2 give 0 + 6 = 6.
    b = Barnyard.parse(RULEBOOK)
    s = score(b, goal=2)
    assert [line.step for line in s.lines] == list(STEPS)
    assert s.lines[0].points + s.lines[1].points == 6
    assert s.lines[0].points == 0 and s.lines[1].points == 6
    assert "only the rooster's group scores" in s.lines[0].reason
    # medals 0; coops -2; goal 2: 2 breeds (top 0), no lone hen (bottom 0).
    assert steps(b, 2) == [0, 6, 0, -2, 0, 0]
    assert s.total == 4


def test_rooster_on_the_eggier_group_and_no_rooster():
    b = Barnyard.parse(RULEBOOK)
    assert steps(b, 2, rooster=(0, 0)) == [0, 8, 0, -2, 0, 0]
    # Without a rooster the largest group is the 5 with most eggs (H12): 8.
    assert steps(b, 2, rooster=None) == [8, 0, 0, -2, 0, 0]


def test_rooster_on_a_smaller_group_both_score():
    # Pa1 Pa2 Pa3 = 2+1+1 = 4 eggs (3 hens); Wy2 Wy3 = 1+1 = 2 eggs (2 hens) under the rooster.
    b = Barnyard.parse("Pa1 Pa2 Pa3\nWy2 Wy3* ##")
    assert steps(b, 1) == [4, 2, 0, -1, 0, 0]  # goal 1: 2 groups of 2+ (<3), no lone hen
    assert total(b, 1) == 5


def test_rooster_must_stand_on_a_hen():
    b = Barnyard.parse("Pa1 Pa2 ##")
    with pytest.raises(ValueError, match="must stand on one of your hens, and \\(0, 2\\) is a chicken coop"):
        score(b, 1, rooster=(0, 2))


def test_goal_1_three_pairs_and_a_lone_hen():
    # Pa1 Pa2 (3 eggs), Wy3 Wy4 (2), Se2 Se3 (3), Ce2 alone (2 eggs, 2 medals).
    b = Barnyard.parse("Pa1 Pa2 Wy3 Wy4\nSe2 Se3 Ce2 ..")
    # largest: a pair with 3 eggs; 2 medals -> 0; top: 3 groups of 2+ -> 4; bottom: 1 lone, -2.
    assert steps(b, 1) == [3, 0, 0, 0, 4, -2]
    assert total(b, 1) == 5


def test_goal_2_five_breeds_and_lone_hens_score():
    # Five lone hens of five breeds: Pa1 (2 eggs) and Su2 (2 eggs, 1 medal) are the eggiest.
    b = Barnyard.parse("Pa1 Wy2 Se3 Ba4\nSu2 .. .. ..")
    assert steps(b, 2) == [2, 0, 0, 0, 5, 5]
    four = Barnyard.parse("Pa1 Wy2 Se3 Ba4")
    assert steps(four, 2) == [2, 0, 0, 0, 0, 4]


def test_goal_3_four_pairs_and_medals():
    # Pa1 Pa2 (3 eggs), Wy3 Wy4 (2), Se2 Se3 (3), Ce2 Ce3 (4 eggs, 4 medals -> 2 points).
    b = Barnyard.parse("Pa1 Pa2 Wy3 Wy4\nSe2 Se3 Ce2 Ce3")
    assert steps(b, 3) == [4, 0, 2, 0, 6, 0]
    assert steps(b, 1) == [4, 0, 2, 0, 4, 0]  # goal 1 needs only 3 groups: 4 points


def test_goal_4_a_row_of_one_egg_hens():
    # Row 0: Pa2 Pa3 Pa4 Pa5, one egg each, across the whole width; Wy1 alone below.
    b = Barnyard.parse("Pa2 Pa3 Pa4 Pa5\nWy1 .. .. ..")
    assert steps(b, 4) == [4, 0, 0, 0, 5, -1]
    # Pa6 hatches 2: the row fails; the group hatches 1+1+1+2 = 5.
    assert steps(Barnyard.parse("Pa2 Pa3 Pa4 Pa6\nWy1 .. .. .."), 4) == [5, 0, 0, 0, 0, -1]
    # A coop in the row: not every card of the line is a hen (H14).
    assert steps(Barnyard.parse("Pa2 Pa3 Pa4 ##\nWy1 .. .. .."), 4) == [3, 0, 0, -1, 0, -1]


def test_goal_5_a_column_of_two_egg_hens_and_groups_of_three():
    # Column Se1 Se2 Se5: 2 eggs each; one group of 3 (bottom +2); 6 eggs.
    b = Barnyard.parse("Se1\nSe2\nSe5")
    assert steps(b, 5) == [6, 0, 0, 0, 6, 2]
    # Se3 hatches 1: the column fails; 2+2+1 = 5 eggs.
    assert steps(Barnyard.parse("Se1\nSe2\nSe3"), 5) == [5, 0, 0, 0, 0, 2]


def test_goal_6_coop_neighbours_and_a_group_of_six():
    # Pa1..Pa6 = 2+1+1+1+1+2 = 8 eggs; the coop touches Pa3 (above) and Pa6 (left).
    b = Barnyard.parse("Pa1 Pa2 Pa3 Pa4\nPa5 Pa6 ##  ..")
    assert steps(b, 6) == [8, 0, 0, -1, -2, 5]
    # Pa4 touches both coops: counted once for each (the card's text).
    two = Barnyard.parse("Pa1 Pa2 Pa3\n##  Pa4 ##")
    assert steps(two, 6) == [5, 0, 0, -2, -4, 0]


@pytest.mark.parametrize(
    ("medal_cards", "points"),
    [("Su1 Su2 Su3", 2), ("Ce1 Ce2 Su2", 2), ("Ce1 Ce2 Ce3", 4), ("Su1 Su2", 0)],
)
def test_medals_two_points_for_every_three(medal_cards, points):
    b = Barnyard.parse(medal_cards, check=False)
    assert steps(b)[2] == points


def test_goal_cards_are_numbered_in_rulebook_order():
    assert [g.number for g in GOALS] == [1, 2, 3, 4, 5, 6]
    assert "3 different groups" in goal_card(1).top.text
    assert "column" in goal_card(5).top.text
    with pytest.raises(ValueError, match="numbered 1 to 6"):
        score(Barnyard.parse("Pa1"), goal=7)


def test_breakdown_reads_in_words():
    text = str(score(Barnyard.parse(RULEBOOK), 6))
    assert "largest group" in text and "rooster group" in text and "total" in text
    assert "2 chicken coops, -1 each" in text


def test_ties_points_then_largest_then_second_then_medals():
    # 3 points each: Pa2 Pa3 Pa4 (a group of 3) beats Su1 (one hen of 3 eggs): larger group.
    assert winners([Barnyard.parse("Pa2 Pa3 Pa4"), Barnyard.parse("Su1")], None) == [0]
    # 2 points each, largest 2 each: [2, 1] beats [2] on the second-largest group.
    assert winners([Barnyard.parse("Pa2 Pa3"), Barnyard.parse("Pa2 Pa3 Wy4")], None) == [1]
    # 2 points, one lone hen each: Ce3 has 2 medals, Pa1 none.
    assert winners([Barnyard.parse("Pa1"), Barnyard.parse("Ce3")], None) == [1]
    # Nothing splits them: the victory is shared.
    assert winners([Barnyard.parse("Pa1"), Barnyard.parse("Wy1")], None) == [0, 1]


def test_score_distributions_live_in_henkit_results_only():
    from henkit.hens import scoring

    for name in ("ScoreDistribution", "scores_by_bot", "score_distributions"):
        assert not hasattr(scoring, name)


def test_largest_group_key_is_the_one_home_of_h12():
    import inspect

    from henkit.hens import barnyard, scoring
    from henkit.hens.barnyard import largest_group_key

    assert "H12" in largest_group_key.__doc__
    assert largest_group_key(3, 5) > largest_group_key(3, 4) > largest_group_key(2, 9)
    assert "-g.eggs" not in inspect.getsource(barnyard)
    assert "size == best_size and eggs > best_eggs" not in inspect.getsource(scoring)

"""Bots: legal moves only, seeded and reproducible, greedy really maximises the immediate score."""

import pytest

from henkit.core import Game, make_rng
from henkit.hens.actions import Place, PlaceCoop
from henkit.hens.bots import GreedyBot, LookaheadBot, RandomBot, make_bot
from henkit.hens.scoring import total
from henkit.hens.simulate import play_game, simulate
from henkit.hens.state import State
from henkit.results import results_table, summarise


class Checked:
    """Wraps a bot and asserts every move it makes is legal."""

    def __init__(self, bot):
        self.bot, self.name = bot, bot.name

    def choose(self, state, rng):
        a = self.bot.choose(state, rng)
        assert a in state.legal_actions(), (a, state.phase)
        return a


@pytest.mark.parametrize("cls", [RandomBot, GreedyBot, LookaheadBot])
def test_bots_only_make_legal_moves(cls):
    g = Game(State.new(3, seed=4), [Checked(cls()), Checked(RandomBot()), Checked(cls())], seed=5)
    g.run()
    assert g.state.is_over


def test_greedy_places_for_the_best_immediate_score():
    g = Game(State.new(2, seed=9), [GreedyBot(), RandomBot()], seed=9)
    checked = 0
    while not g.state.is_over:
        s = g.state
        if s.phase == "place" and s.current_player == 0:
            a = g.bots[0].choose(s, g.rng)
            best = max(total(s.apply(b).barnyards[0], s.goal) for b in s.legal_actions())
            assert total(s.apply(a).barnyards[0], s.goal) == best
            g.play(a)
            checked += 1
        else:
            g.step()
    assert checked == 12


def test_same_seed_same_game_with_bots():
    a = play_game([GreedyBot(), LookaheadBot(), RandomBot()], seed=3)
    b = play_game([GreedyBot(), LookaheadBot(), RandomBot()], seed=3)
    assert a.totals == b.totals and a.final == b.final
    c = play_game([GreedyBot(), LookaheadBot(), RandomBot()], seed=4)
    assert c.final != a.final


def test_greedy_beats_random_on_average():
    results = simulate([GreedyBot(), RandomBot()], 30, seed=0)
    greedy, rand = summarise(results)
    assert greedy.mean_score > rand.mean_score + 5
    assert greedy.wins > 20
    assert "greedy" in results_table(results)


def test_results_carry_breakdowns_and_winners():
    r = play_game([RandomBot(), RandomBot()], seed=1)
    assert [s.total for s in r.final.score_sheets()] == list(r.totals)
    assert all(len(s.lines) == 6 for s in r.final.score_sheets())
    assert set(r.winners) <= {0, 1} and all(
        b.startswith("random") for b in r.to_dict()["bots"])


def test_make_bot_by_name():
    assert make_bot("Greedy").name == "greedy"
    with pytest.raises(ValueError, match="choose one of random, greedy, lookahead"):
        make_bot("clever")
    with pytest.raises(ValueError, match="samples must be from 1"):
        LookaheadBot(samples=0)
    assert isinstance(RandomBot().choose(State.new(2, seed=0), make_rng(0)), object)
    assert not any(isinstance(a, (Place, PlaceCoop)) for a in State.new(2, seed=0).legal_actions())

"""The terminal commands: a whole game typed by a scripted student, and a simulation table."""

import argparse
import io
import re

import pytest

from henkit.hens.actions import DECK, Draw
from henkit.hens.cli import (
    HELP,
    add_play_arguments,
    add_simulate_arguments,
    parse_move,
    play,
    simulate,
)
from henkit.hens.rules import Rules
from henkit.hens.state import State

from .helpers import first_state, random_game


def args_for(adder, argv):
    p = argparse.ArgumentParser()
    adder(p)
    return p.parse_args(argv)


class Student:
    """Answers prompts by reading the screen, as a student would; makes one mistake first."""

    def __init__(self, out: io.StringIO):
        self.out = out
        self.said: list[str] = []

    def __call__(self, prompt: str) -> str:
        screen = self.out.getvalue()
        last = screen[screen.rfind("your hand:"):]
        hand = re.search(r"your hand: (.*)", last).group(1).split()
        if not self.said:
            answer = "Zz9 0 0" if "place a card" in last else "help"
        elif "draw from:" in last:
            offer = last.split("draw from:")[1].split("\n")[0]
            # The first pile offered, by the player number the prompt shows (from 1).
            answer = "deck" if "deck" in offer else re.search(r"(\d+) \(", offer).group(1)
        elif "place a card" in last:
            cell = re.search(r"coop cells: (-?\d+) (-?\d+)", last)
            answer = f"coop {hand[0]} {cell.group(1)} {cell.group(2)}"
        elif "discard a card" in last:
            answer = hand[-1]
        elif "put the rooster" in last:
            answer = last.split("put the rooster on a hen: ")[1].split("\n")[0]
            answer = "none" if answer == "none" else " ".join(answer.split()[:2])
        else:
            answer = "quit"
        self.said.append(answer)
        return answer


def test_a_student_plays_a_whole_game():
    out = io.StringIO()
    student = Student(out)
    code = play(args_for(add_play_arguments, ["--players", "2", "--seed", "5", "--goal", "1"]),
                input_fn=student, out=out)
    text = out.getvalue()
    assert code == 0
    assert "The game is over." in text and "winner" in text
    assert "goal card 1" in text
    assert text.count("your hand:") >= 12 * 3  # at least draw, place and discard each turn
    assert "coop" in " ".join(student.said)
    # Players count from 1: the student (seat 0) is player 1, the bot is player 2.
    assert "you are player 1." in text and "player 0" not in text
    assert "player 2: " in text
    assert "discard top " in text and "(1 card)" in text and "(1 cards)" not in text
    # Once the deck ran out the student drew from player 2's pile by typing 2.
    assert "2" in student.said and "2 (" in text and "on player 2's pile)" in text
    assert "you: draw " in text and "from player 2's discard pile" in text
    # Opponents' deck draws and coop faces are never printed.
    assert "player 2 drew" not in text


def test_help_odds_mistakes_and_quit():
    out = io.StringIO()
    answers = iter(["help", "odds Pa", "odds", "2", "quit"])
    code = play(args_for(add_play_arguments, ["--seed", "1"]), input_fn=lambda _: next(answers),
                out=out)
    text = out.getvalue()
    assert code == 1
    assert "How to answer" in text
    assert re.search(r"\d+ of the \d+ unseen cards are Padovanas: P\(at least one in 2 draws\)",
                     text)
    assert "not allowed" in text  # '2' in round 1: no discard piles yet


def test_simulate_prints_a_table():
    out = io.StringIO()
    code = simulate(args_for(add_simulate_arguments,
                             ["--bots", "greedy,random,random", "--games", "4", "--seed", "3"]),
                    out=out)
    text = out.getvalue()
    assert code == 0
    assert "4 games of Hens, seeds 3-6" in text
    assert len([ln for ln in text.splitlines() if "random" in ln]) == 2


def test_odds_alone_answers_with_its_usage():
    out = io.StringIO()
    answers = iter(["odds", "odds   ", "quit"])
    play(args_for(add_play_arguments, ["--seed", "1"]), input_fn=lambda _: next(answers), out=out)
    text = out.getvalue()
    assert "out of range" not in text
    assert text.count("odds: say of what") == 2
    assert "odds Pa" in text.split("odds: say of what")[1]  # an example of the usage


def test_negative_seeds_are_refused_by_the_argument_parser(capsys):
    for adder in (add_play_arguments, add_simulate_arguments):
        with pytest.raises(SystemExit) as stop:
            args_for(adder, ["--seed", "-1"])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "--seed: the seed must be a whole number 0 or more, not '-1'" in err
    with pytest.raises(SystemExit):
        args_for(add_play_arguments, ["--seed", "x"])
    assert "not 'x'" in capsys.readouterr().err
    assert args_for(add_play_arguments, ["--seed", "0"]).seed == 0
    assert args_for(add_play_arguments, []).seed is None


def test_players_are_typed_and_shown_counting_from_1():
    assert "player 2's discard pile (players count from 1)" in HELP
    g = random_game(3, seed=11)
    s = first_state(g, lambda s: s.phase == "draw" and s.round > 1
                    and sum(bool(s.discards[q]) for q in range(3) if q != s.player) == 2)
    others = [q for q in range(3) if q != s.player]
    for q in others:  # typing the player number (from 1) draws from that seat's pile
        assert parse_move(s, str(q + 1)) == Draw(q, s.discards[q][-1])
        assert str(parse_move(s, str(q + 1))) == f"draw {s.discards[q][-1]} from player {q + 1}'s " \
            "discard pile"
    assert parse_move(s, "deck") == Draw(DECK)
    for typed in ("0", "4", "-1"):
        with pytest.raises(ValueError, match=f"there is no player {typed}: players are numbered "
                                             "1 to 3"):
            parse_move(s, typed)
    with pytest.raises(ValueError, match="e.g. '2' for player 2's pile"):
        parse_move(s, "Pa")
    with pytest.raises(ValueError, match="never draw from your own discard pile"):
        s.apply(parse_move(s, str(s.player + 1)))


def test_the_seat_option_counts_from_1():
    out = io.StringIO()
    answers = iter(["quit"])
    args = args_for(add_play_arguments, ["--players", "2", "--seat", "2", "--seed", "3"])
    assert play(args, input_fn=lambda _: next(answers), out=out) == 1
    text = out.getvalue()
    assert "you are player 2." in text and "player 1: " in text and "player 0" not in text
    # The same seeded game as the engine's, seen from seat index 1.
    state = State.new(2, Rules(players=2), seed=3)
    assert f"your hand: {' '.join(map(str, state.hands[1]))}" in text
    for seat in ("0", "3"):
        out = io.StringIO()
        args = args_for(add_play_arguments, ["--players", "2", "--seat", seat])
        # An error found after parsing is a ValueError: henkit's main prints it on stderr.
        with pytest.raises(ValueError, match=f"^--seat must be 1-2 \\(which player you are\\), "
                                             f"not {seat}$"):
            play(args, input_fn=lambda _: "quit", out=out)
        assert out.getvalue() == ""


def test_commands_refuse_junk_with_value_error():
    import argparse

    from henkit.hens.cli import add_play_arguments, add_simulate_arguments, play, simulate
    from tests.fuzz_values import only_value_error

    for f in (add_play_arguments, add_simulate_arguments, play, simulate):
        for bad in (None, 3, "x", argparse.Namespace()):
            only_value_error(f, bad)

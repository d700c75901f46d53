"""The terminal commands: a whole game typed by a scripted student, and a simulation table."""

import argparse
import io
import re

import pytest

from henkit.hens.cli import add_play_arguments, add_simulate_arguments, play, simulate


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
            answer = "deck" if "deck" in last.split("draw from:")[1].split("\n")[0] else "1"
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
    # Opponents' deck draws and coop faces are never printed.
    assert "player 1 drew" not in text


def test_help_odds_mistakes_and_quit():
    out = io.StringIO()
    answers = iter(["help", "odds Pa", "odds", "2", "quit"])
    code = play(args_for(add_play_arguments, ["--seed", "1"]), input_fn=lambda _: next(answers),
                out=out)
    text = out.getvalue()
    assert code == 1
    assert "How to answer" in text
    assert "unseen cards are a Padovana" in text
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

"""The `henkit` command: odds, play and simulate, for both games, driven as a user would."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest

from henkit.cli import build_parser, main
from henkit.henpen.odds import chance_at_least, expected_worms


def run(*argv: str) -> tuple[int, str]:
    """Run `henkit ARGV` in-process and capture what it prints."""
    out = io.StringIO()
    args = build_parser().parse_args(list(argv))
    code = args.run(args, out=out)
    return code, out.getvalue()


def test_help_lists_the_commands():
    proc = subprocess.run([sys.executable, "-m", "henkit", "--help"], capture_output=True, text=True,
                          check=True)
    for word in ("odds", "play", "simulate"):
        assert word in proc.stdout


def test_odds_for_a_target_prints_the_published_value():
    code, text = run("odds", "--target", "25")
    assert code == 0 and "68.033%" in text


def test_odds_exact_prints_the_solver_fraction():
    code, text = run("odds", "--target", "21", "--exact")
    assert code == 0 and str(chance_at_least(21, exact=True)) in text


def test_odds_table_lists_every_serving_decreasing():
    code, text = run("odds")
    assert code == 0
    rows = [line.split() for line in text.splitlines() if line.strip()[:2].isdigit()]
    assert [int(r[0]) for r in rows] == list(range(21, 37))
    chances = [float(r[1].rstrip("%")) for r in rows]
    assert chances == sorted(chances, reverse=True)


def test_odds_mid_turn_and_position():
    code, text = run("odds", "--dice", "3", "--taken", "w,5", "--total", "25", "--target", "25")
    assert code == 0 and "100.000%" in text  # already at 25 with a worm: stop
    code, text = run("odds", "--grill", "21-30", "--own-top", "33", "--tops", "31")
    expected = expected_worms(range(21, 31), 33, {1: 31})
    assert code == 0 and f"{float(expected):.4f}" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--dice", "3", "--taken", "w", "--total", "2", "--target", "25"], "total of 2"),
        (["--dice", "9", "--taken", "5", "--total", "5"], "at most 7"),
        (["--dice", "7", "--taken", "w", "--total", "50"], "not 50"),
        (["--dice", "3", "--taken", "w,1,2,3,4,5", "--total", "20"], "at most 2"),
        (["--exactly"], "--exactly needs --target"),
        (["--total", "20"], "give --dice too"),
        (["--grill", "21-30", "--target", "25"], "choose one"),
    ],
)
def test_odds_refuses_turns_that_cannot_happen(argv, message, capsys):
    assert main(["odds", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("henkit odds: error: ") and message in err


@pytest.mark.parametrize("argv", [["odds", "--taken", "7"], ["odds", "--grill", "30-20"],
                                  ["play", "henpen", "--seed", "-1"],
                                  ["play", "henpen", "--bots", ""],
                                  ["simulate", "henpen", "--seed", "x"]])
def test_bad_arguments_stop_with_a_usage_message(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == 2 and "error:" in capsys.readouterr().err


@pytest.mark.parametrize("game, bots", [("henpen", "optimal,greedy"), ("hens", "greedy,random")])
def test_simulate_is_reproducible(game, bots):
    first = run("simulate", game, "--bots", bots, "--games", "6", "--seed", "4")
    again = run("simulate", game, "--bots", bots, "--games", "6", "--seed", "4")
    assert first == again and first[0] == 0
    assert "win %" in first[1] and bots.split(",")[0] in first[1]


def test_simulate_refuses_unknown_bots():
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "henpen", "--bots", "clever"])


def test_play_henpen_to_the_end_by_typing():
    answers = itertools.chain(itertools.cycle(["w", "5", "4", "3", "2", "1", "s", "r"]))
    count = itertools.count()

    def typed(prompt: str) -> str:
        if next(count) > 5000:
            raise EOFError
        return next(answers)

    out = io.StringIO()
    args = build_parser().parse_args(["play", "henpen", "--bots", "greedy", "--seed", "1"])
    assert args.run(args, input_fn=typed, out=out) == 0
    text = out.getvalue()
    assert "Game over" in text and "Player 2 (greedy)" in text


def test_play_henpen_explains_an_illegal_move_and_quits():
    answers = iter(["s", "quit"])
    out = io.StringIO()
    args = build_parser().parse_args(["play", "henpen", "--seed", "2", "--hints"])
    assert args.run(args, input_fn=lambda _: next(answers), out=out) == 1
    assert "Not allowed" in out.getvalue() and "Hint: roll the dice" in out.getvalue()


def test_main_returns_the_exit_status(capsys):
    assert main(["odds", "--target", "30"]) == 0
    assert f"{float(chance_at_least(30)):.3%}" in capsys.readouterr().out
    assert main(["odds", "--exactly"]) == 2


# -- errors after parsing: one line on stderr, exit status 2 -----------------------------------

SEVEN = ",".join(["greedy"] * 7)
AFTER_PARSING = [
    (["simulate", "henpen", "--bots", SEVEN + ",greedy"], "henkit simulate henpen"),
    (["simulate", "hens", "--bots", "greedy"], "henkit simulate hens"),
    (["simulate", "hens", "--bots", "greedy,random,greedy,random,greedy"], "henkit simulate hens"),
    (["play", "henpen", "--bots", SEVEN], "henkit play henpen"),
    (["play", "hens", "--players", "2", "--bots", "greedy,random"], "henkit play hens"),
    (["play", "hens", "--players", "3", "--seat", "5"], "henkit play hens"),
    (["odds", "--exactly"], "henkit odds"),
    (["odds", "--dice", "3", "--taken", "w", "--total", "2", "--target", "25"], "henkit odds"),
]


@pytest.mark.parametrize(("argv", "command"), AFTER_PARSING)
def test_bad_input_found_after_parsing_is_one_line_on_stderr(argv, command, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{command}: error: ") and err.endswith("\n")
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("argv", "command"), AFTER_PARSING[:2] + AFTER_PARSING[4:6])
def test_the_installed_command_says_the_same_without_a_traceback(argv, command):
    proc = subprocess.run([sys.executable, "-m", "henkit", *argv], check=False,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"{command}: error: ") and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("game", ["henpen", "hens"])
@pytest.mark.parametrize("games", ["0", "-3", "100001", "1e9", "x"])
def test_games_must_be_from_1_to_100000(game, games, capsys):
    try:
        code = main(["simulate", game, "--games", games])
    except SystemExit as stop:  # argparse's own error (usage and error on stderr)
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "error:" in err and "games" in err


def test_a_commands_value_error_is_caught_by_main_and_said_in_one_line(monkeypatch, capsys):
    from henkit.hens import cli as hens_cli

    def broken(args, out=None):
        raise ValueError("first line\n  second line")

    monkeypatch.setattr(hens_cli, "simulate", broken)
    assert main(["simulate", "hens"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "henkit simulate hens: error: first line second line\n"


def test_argparse_errors_stay_argparse_errors(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "chess"])
    assert stop.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_class_commands_start_a_session_report_it_and_export_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("HENKIT_CLASS_DB", raising=False)  # the tests' own pool would come first
    data = ["--data-dir", str(tmp_path)]
    assert main(["class", "new", *data]) == 0
    started = capsys.readouterr().out
    assert started.startswith("new class session ") and str(tmp_path) in started
    session = started.split()[3]
    assert main(["class", "status", *data]) == 0
    status = capsys.readouterr().out
    assert f"* {session}" in status and "0 records" in status
    assert main(["class", "export", "--csv", *data]) == 0
    assert capsys.readouterr().out.startswith("kind,session,page,seq,time,")


def test_class_export_without_csv_is_one_line_on_stderr(tmp_path, capsys):
    assert main(["class", "export", "--data-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "henkit class export: error: henkit class export writes CSV: add --csv\n"


def test_an_exact_chance_too_long_to_print_is_given_by_its_size():
    # Deep endgames' exact win chances have thousands of digits (Python refuses to print more
    # than 4,300): the CLI says how long the fraction is, with its percentage.
    from fractions import Fraction

    from henkit.henpen.cli import MAX_DIGITS, format_chance

    assert format_chance(Fraction(1, 3), exact=True) == "1/3 (= 33.33333%)"
    assert format_chance(Fraction(1, 3), exact=False) == "33.333%"
    assert format_chance(Fraction(1), exact=True) == "1"
    edge = Fraction(10 ** (MAX_DIGITS - 1), 10 ** MAX_DIGITS - 1)  # MAX_DIGITS digits below
    assert format_chance(edge, exact=True).startswith(f"{edge.numerator}/")
    for k in (MAX_DIGITS, 4_300, 9_000):  # a denominator of k + 1 digits
        huge = Fraction(10 ** k // 3, 10 ** k + 7)
        assert format_chance(huge, exact=True) == (
            f"a fraction of {k:,} digits over {k + 1:,} digits (= {float(huge):.5%})")


# -- henkit class: no password in any output --------------------------------------------------

PASSWORD = "pw-Kq7s3cr3t"


@pytest.mark.parametrize(("argv", "env", "code", "shows"), [
    # Unreachable (nothing listens on port 9): the error line names the pool, not the password.
    (["class", "status", "--db", f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class"], None, 1,
     "the class pool at postgresql://teacher:***@127.0.0.1:9/class cannot be used"),
    (["class", "new", "--db", f"postgresql://127.0.0.1:9/class?password={PASSWORD}"], None, 1,
     "postgresql://127.0.0.1:9/class?password=*** cannot be used"),
    (["class", "export", "--csv", "--session", "20000101-000000-000000", "--db",
      f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class"], None, 1, "teacher:***@"),
    (["class", "new"], f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class", 1,
     "acting on the pool $HENKIT_CLASS_DB names: PostgreSQL database 127.0.0.1:9/class"),
    # psycopg quotes parts of a URL it cannot read.
    (["class", "status", "--db", f"postgresql://teacher:{PASSWORD}@127.0.0.1:notaport/class"],
     None, 1, 'invalid integer value "notaport"'),
    (["class", "status", "--db", f"postgresql://teacher:{PASSWORD} x@[::1/class"], None, 1,
     'unexpected spaces found in "***"'),
    # Refused before any connection: a ValueError quoting what it was given.
    (["class", "status", "--db", f"mysql://teacher:{PASSWORD}@db/class"], None, 2,
     "not 'mysql://teacher:***@db/class'"),
    (["class", "status"], f"mysql://teacher:{PASSWORD}@db/class", 2,
     "not 'mysql://teacher:***@db/class'"),
    (["class", "status", "--db", f"/nonexistent/x.sqlite3?password={PASSWORD}"], None, 2,
     "--db /nonexistent/x.sqlite3?password=*** the folder /nonexistent does not exist"),
    # argparse's own errors quote the words they could not place.
    (["class", "status", f"postgresql://teacher:{PASSWORD}@db/class"], None, "exit 2",
     "unrecognized arguments: postgresql://teacher:***@db/class"),
    (["class", f"postgresql://teacher:{PASSWORD}@db/class"], None, "exit 2",
     "invalid choice: 'postgresql://teacher:***@db/class'"),
])
def test_class_errors_never_show_a_password(argv, env, code, shows, tmp_path, monkeypatch,
                                            capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if env is None:
        monkeypatch.delenv("HENKIT_CLASS_DB", raising=False)
    else:
        monkeypatch.setenv("HENKIT_CLASS_DB", env)
    if code == "exit 2":
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    else:
        assert main(argv) == code
    out, err = capsys.readouterr()
    assert out == "" and "error: " in err
    assert PASSWORD[3:] not in err and "Kq7" not in err
    assert shows in err  # the message still says what went wrong, and where


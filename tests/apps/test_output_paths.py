"""Where the commands write, checked before any work (issue 54): the terminal game's
``save FILE`` says what is wrong with a path in one line and the game goes on; the
output options of ``play``, ``analyze`` and ``archive`` are refused before a game is
played or a match analysed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon.apps.cli import app
from backgammon.apps.output_path import check_output_path
from backgammon.apps.terminal_game import TerminalGame
from backgammon.engine.baseline import HeuristicPlayer
from backgammon.rules.dice import SeededDice

runner = CliRunner()
MATCH = Path(__file__).parents[1] / "data" / "reference" / "formats" / "match01_3pt.mat"


def test_save_to_a_path_that_cannot_take_it_says_why_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "missing"  # (not a fixed path: it may exist somewhere)
    answers = iter(
        ["save x.txt", f"save {missing}/x.mat", f"save {tmp_path}", f"save {tmp_path}/g.mat"]
    )
    lines: list[str] = []

    def read(_prompt: str) -> str:
        return next(answers, "quit")

    TerminalGame(HeuristicPlayer(), SeededDice(3), read=read, write=lines.append).run()
    said = [line for line in lines if line.startswith(("Could not save", "Saved the match"))]
    assert said == [
        "Could not save: x.txt: the format is chosen by the extension, .mat or .sgf",
        f"Could not save: {missing}/x.mat: the folder {missing} does not exist",
        f"Could not save: {tmp_path}: the format is chosen by the extension, .mat or .sgf",
        f"Saved the match to {tmp_path}/g.mat.",
    ]
    assert "Game abandoned." in lines  # the game went on until 'quit'
    assert (tmp_path / "g.mat").read_text().strip()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["play", "--save", "{missing}/dir/x.mat"], "the folder {missing}/dir does not exist"),
        (["play", "--save", "x.txt"], "the format is chosen by the extension, .mat or .sgf"),
        (["analyze", str(MATCH), "--html", "{missing}/r.html"], "folder {missing} does not"),
        (
            ["analyze", str(MATCH), "--json", "report.txt"],
            "the format is chosen by the extension, .json",
        ),
        (["archive", "gnubg", str(MATCH), "--html", "{missing}/a.html"], "folder {missing} does"),
    ],
)
def test_an_output_path_is_refused_before_any_work(
    command: list[str], words: str, tmp_path: Path
) -> None:
    missing = tmp_path / "missing"  # (not a fixed path: it may exist somewhere)
    result = runner.invoke(app, [word.format(missing=missing) for word in command], input="quit\n")
    assert result.exit_code == 2, result.output
    # Rich's box unwrapped, and a long path folded across lines joined again.
    flat = "".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert "".join(words.format(missing=missing).split()) in flat, result.output
    assert "Opening roll" not in result.output and "Analysing" not in result.output


def test_check_output_path(tmp_path: Path) -> None:
    assert check_output_path(tmp_path / "a.MAT", (".mat",)) == tmp_path / "a.MAT"
    (tmp_path / "d.mat").mkdir()
    with pytest.raises(ValueError, match=r"d\.mat: is a folder, not a file"):
        check_output_path(tmp_path / "d.mat", (".mat",))

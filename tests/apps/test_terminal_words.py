"""The terminal game and the rules' words as a person meets them (issue 54): the board is
shown before the roll-or-double question (the computer's move on it), and an illegal
play is refused with the true reason."""

from __future__ import annotations

import pytest

import backgammon as bg
from backgammon.apps.terminal_game import TerminalGame
from backgammon.engine.baseline import HeuristicPlayer
from backgammon.errors import IllegalPlayError
from backgammon.rules.dice import SeededDice


def test_the_board_is_shown_before_the_person_is_asked_to_roll_or_double() -> None:
    lines: list[str] = []
    asked: list[tuple[str, str]] = []  # (the question, what was written just before it)

    def read(prompt: str) -> str:
        asked.append((prompt, lines[-1] if lines else ""))
        return "quit" if len(asked) > 6 else ""

    TerminalGame(HeuristicPlayer(), SeededDice(4), read=read, write=lines.append).run()
    roll_questions = [before for prompt, before in asked if prompt.startswith("Your turn: roll")]
    assert roll_questions, asked
    assert all("Cube 1 (centred)" in before for before in roll_questions), roll_questions
    boards = sum("+13-14-15-16-17-18" in line for line in lines)
    moves = sum(prompt.startswith("You rolled") for prompt, _ in asked)
    assert boards <= len(roll_questions) + moves  # one board a turn, not two


@pytest.mark.parametrize(
    ("roll", "text", "reason"),
    [
        ((3, 2), "13/9 8/6", "(13/9 is 4 pips: 3-2 moves a checker 3, 2 or 5 pips)"),
        ((1, 1), "6/5 6/5 6/5 6/5 6/5", "(that is 5 moves: 1-1 plays 4 moves of 1)"),
        ((3, 2), "13/10 13/11 6/4", "(that is 3 moves: 3-2 plays one move of each die)"),
        ((3, 2), "13/10", "(both dice can be played)"),
        ((6, 6), "24/18 24/18 13/1", "(13/1: your opponent holds point 1)"),
        ((6, 6), "24/12 24/12", "(24/12: your opponent holds point 12)"),
    ],
)
def test_an_illegal_play_is_refused_with_its_true_reason(
    roll: tuple[int, int], text: str, reason: str
) -> None:
    with pytest.raises(IllegalPlayError) as refused:
        bg.Play.parse(text, bg.Position.initial(), roll)
    assert reason in str(refused.value), str(refused.value)


def test_a_checker_on_the_bar_must_enter_first() -> None:
    position = bg.Position.from_xgid("XGID=-b----E-C---eE---c-e----AA:0:0:1:00:0:0:0:0:10")
    with pytest.raises(IllegalPlayError, match=r"checkers on the bar must enter first"):
        bg.Play.parse("13/10 13/11", position, (3, 2))


def test_show_says_resignations_and_points_in_words() -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    result = CliRunner().invoke(app, ["show", "tests/data/reference/formats/match01_3pt.mat"])
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    assert "gnubg wins 1 point" in lines and "root wins 8 points" in lines
    assert "121. gnubg: resigns a gammon" in lines
    assert "122. root: accepts the resignation" in lines
    assert not any("point(s)" in line or "acceptresignation" in line for line in lines)


def test_the_person_is_told_they_move_first_in_good_english() -> None:
    for seed in range(20):
        lines: list[str] = []
        TerminalGame(
            HeuristicPlayer(), SeededDice(seed), read=lambda _prompt: "quit", write=lines.append
        ).run()
        if "You move first." in lines:
            break
    else:
        raise AssertionError("no seed of 20 let the person move first")
    assert not any("You moves" in line for line in lines)


def test_the_variants_fit_an_80_column_terminal_and_say_where_tabula_is_played() -> None:
    from typer.testing import CliRunner

    from backgammon import variants
    from backgammon.apps.cli import app

    result = CliRunner().invoke(app, ["variants"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    starts = {line.split()[0] for line in lines if line and not line.startswith(" ")}
    assert {variant.name for variant in variants.all_variants()} <= starts
    assert "…" not in result.output  # folded, never cut
    text = "".join(result.output.split())  # the rules' words folded over lines, joined
    assert "(threedice):ontheweb,orinselfplay." in text

"""The terminal game explains (issue 56): with hints, ``hint`` says in one line why the
best play beats the second, and a play of the person's that loses equity against the
best is pointed out with why. Driven by a scripted reader."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backgammon.analysis.explain import explain_play
from backgammon.apps.terminal_game import NOTICE_LOSS, TerminalGame
from backgammon.engine.baseline import HeuristicPlayer
from backgammon.engine.evaluator import Engine
from backgammon.rules.dice import ScriptedDice
from backgammon.rules.position import Position


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def _said(answers: list[str], engine: Engine | None) -> list[str]:
    """What the game says when the person opens with 3-1 (against the computer's 1)
    and answers ``answers``, then input ends."""
    lines: list[str] = []
    script: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        answer = next(script, None)
        if answer is None:
            raise EOFError
        return answer

    terminal = TerminalGame(
        HeuristicPlayer(), ScriptedDice(["3-1", "6-5"]), read, lines.append, hints=engine
    )
    terminal.run()
    return [line for line in lines if "\n" not in line]  # not the boards


def _why_line(engine: Engine, better: str, worse: str) -> str:
    """The line the game should say, from the explanation's own heaviest theme in the
    better play's favour."""
    position = Position.initial()
    explanation = explain_play(position, "3-1", worse, better, engine=engine)
    themes = [theme for theme in explanation.themes if theme.favours == "best"]
    reason = max(themes, key=lambda theme: theme.weight).says
    return f"Why {better} over {worse}: {reason}"


def test_hint_says_why_the_best_play_beats_the_second(engine: Engine) -> None:
    said = _said(["hint"], engine)
    ranked = engine.rank_plays(Position.initial(), "3-1")
    best, second = ranked[0].play.notation(), ranked[1].play.notation()
    assert best == "8/5 6/5"
    why = said[said.index(next(line for line in said if line.startswith("1. "))) + 5]
    assert why == _why_line(engine, best, second)
    assert "5-point" in why


def test_a_play_that_loses_equity_is_pointed_out_with_why(engine: Engine) -> None:
    said = _said(["24/21 6/5"], engine)
    ranked = {
        item.play.notation(): item.equity for item in engine.rank_plays(Position.initial(), "3-1")
    }
    loss = ranked["8/5 6/5"] - ranked["24/21 6/5"]
    assert loss >= NOTICE_LOSS
    at = said.index(f"The engine prefers 8/5 6/5: 24/21 6/5 loses {loss:.3f}.")
    assert said[at + 1] == _why_line(engine, "8/5 6/5", "24/21 6/5")


def test_the_best_play_or_no_engine_says_nothing_more(engine: Engine) -> None:
    assert not any(
        line.startswith(("The engine prefers", "Why")) for line in _said(["8/5 6/5"], engine)
    )
    said = _said(["hint", "24/21 6/5"], None)
    assert "No engine for hints; 'moves' lists the legal plays." in said
    assert not any(line.startswith(("The engine prefers", "Why")) for line in said)


def test_hint_moves_and_undo_answer_before_the_roll(engine: Engine) -> None:
    """The help says 'Any time: moves, hint, ... undo': at 'roll or double?' they
    answered 'Type Enter or roll...' before. Now hint gives the cube's advice, moves
    says the plays come with the dice, undo takes the last move back."""
    said = _said(["roll", "8/5 6/5", "moves", "hint", "undo"], engine)
    assert "You have rolled 3-1: type your move ('moves' lists them)." in said
    assert "Roll first: the legal plays come with the dice." in said
    assert "Hint: roll, no double yet." in said  # an opening position: no double
    assert "Move taken back." in said
    assert not any(line.startswith("Type Enter or 'roll'") for line in said)

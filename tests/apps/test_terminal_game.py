"""Tests for backgammon.apps.terminal_game: the person-against-computer loop, driven by a
scripted reader."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon.apps.terminal_game import HELP, TerminalGame
from backgammon.engine.baseline import HeuristicPlayer, RandomPlayer
from backgammon.rules.dice import ScriptedDice, SeededDice
from backgammon.rules.game import Game, Outcome
from backgammon.rules.play import Play

MAX_READS = 5_000
JUNK = ("13/x", "24/1", "moves", "board", "help", "", "undo")
REFUSED = ("13/x", "24/1")


def state(game: Game) -> tuple[Any, ...]:
    return (game.position, game.turn, game.dice, game.history, game.outcome)


class Person:
    """Answers every prompt with the first legal play; every ``junk_every``-th decision
    first tries ``JUNK``, checking after each answer what it did."""

    def __init__(self, seed: int, *, junk_every: int = 0, player: Any = None) -> None:
        self.lines: list[str] = []
        self.terminal = TerminalGame(
            HeuristicPlayer() if player is None else player,
            SeededDice(seed),
            read=self.read,
            write=self.lines.append,
        )
        self.junk_every = junk_every
        self.reads = 0
        self.decisions: list[tuple[Any, ...]] = []
        self.queue: list[str] = []
        self.last: tuple[Any, ...] | None = None
        self.answer: str | None = None
        self.mark = 0
        self.refused = 0
        self.taken_back = 0

    def read(self, prompt: str) -> str:
        self.reads += 1
        assert self.reads <= MAX_READS, "the game does not accept the first legal play"
        if prompt.startswith("Your turn: roll"):
            return ""  # roll rather than double
        if "doubles to" in prompt:
            return "take"
        game = self.terminal.game
        assert game.turn == 0
        assert game.dice is not None
        assert prompt == f"You rolled {game.dice}. Your move: "
        now = state(game)
        if self.answer is not None:
            self._check_previous_answer(now)
        if now != self.last:
            self.decisions.append(now)
            every = self.junk_every
            self.queue = list(JUNK) if every and len(self.decisions) % every == 1 else []
        answer = self.queue.pop(0) if self.queue else str(game.legal_plays()[0])
        self.last, self.answer, self.mark = now, answer, len(self.lines)
        return answer

    def _check_previous_answer(self, now: tuple[Any, ...]) -> None:
        said = self.lines[self.mark :]
        answer, before = self.answer, self.last
        assert before is not None
        if answer not in JUNK:  # a real move: accepted, so the game went on
            assert now[3][: len(before[3])] == before[3]
            assert len(now[3]) > len(before[3])
            assert not any("Not accepted" in line for line in said)
            return
        if answer == "undo" and now != before:
            assert said[0] == "Move taken back."
            self.taken_back += 1
            if len(said) == 1:  # back at a decision (not at a forced move, played again)
                old_history, history = before[3], now[3]
                assert len(history) < len(old_history)
                assert old_history[: len(history)] == history
                assert isinstance(old_history[len(history)], Play)
                assert now in self.decisions
            return
        assert now == before, f"{answer!r} changed the game"
        if answer in REFUSED:
            assert len(said) == 1
            assert said[0].startswith("Not accepted: ")
            assert repr(answer) in said[0]
            self.refused += 1
        elif answer == "moves":
            assert said == [
                f"Legal plays of {now[2]}: "
                + ", ".join(str(play) for play in self.terminal.game.legal_plays())
            ]
        elif answer == "board":
            assert len(said) == 1
            assert "BAR" in said[0]
        elif answer == "help":
            assert said == [HELP]
        elif answer == "undo":
            assert said == ["Nothing to undo."]
        else:  # an empty line is asked again silently
            assert said == []


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_with_junk_answers_ends_with_an_outcome(seed: int) -> None:
    person = Person(seed, junk_every=3)
    outcome = person.terminal.run()
    game = person.terminal.game
    assert isinstance(outcome, Outcome)
    assert game.outcome == outcome
    assert game.is_over()
    assert person.refused > 0
    assert person.refused % len(REFUSED) == 0
    assert sum("Not accepted" in line for line in person.lines) == person.refused
    assert person.taken_back > 0
    winner = "You" if outcome.winner == 0 else "Computer"
    how = "" if outcome.ending.name == "BORNE_OFF" else f" ({outcome.ending.value})"
    points = "1 point" if outcome.points == 1 else f"{outcome.points} points"
    assert person.lines[-1] == f"{winner} won a {outcome.kind.name.lower()}{how}: {points}."
    assert "BAR" in person.lines[-2]
    assert person.lines[0].startswith("You (X) against Computer (O).")
    assert any(line.startswith("Opening roll: You ") for line in person.lines)
    assert any(line.startswith("Computer rolls ") for line in person.lines)


def test_a_game_with_plain_answers_replays_the_same() -> None:
    first = Person(3, player=RandomPlayer(3))
    second = Person(3, player=RandomPlayer(3))
    assert first.terminal.run() == second.terminal.run()
    assert first.lines == second.lines
    assert first.terminal.game.history == second.terminal.game.history
    assert "Not accepted" not in "\n".join(first.lines)


def test_undo_takes_back_the_last_move() -> None:
    lines: list[str] = []
    decisions: list[tuple[Any, ...]] = []
    answers = iter(["undo", None, "undo"])

    def read(prompt: str) -> str:
        if prompt.startswith("Your turn: roll"):
            return ""
        game = terminal.game
        decisions.append(state(game))
        answer = next(answers, None)
        return answer if answer is not None else str(game.legal_plays()[0])

    # The person opens with 4-2, the computer rolls 6-5, the person 3-1 and takes back
    # the 4-2, plays it again; the computer rolls 6-4, the person 5-2, and the dice run out.
    dice = ScriptedDice(["4-2", "6-5", "3-1", "6-4", "5-2"])
    terminal = TerminalGame(RandomPlayer(0), dice, read=read, write=lines.append)
    with pytest.raises(IndexError):  # the script runs out after the person's retaken move
        terminal.run()
    assert "Nothing to undo." in lines
    assert lines.count("Move taken back.") == 1
    # Decisions: 4-2 (undo: nothing to undo), 4-2 (played), 3-1 (undo), 4-2 (taken back:
    # the same state as before it was played), 5-2.
    assert decisions[0] == decisions[1]
    assert decisions[3] == decisions[1]
    assert str(decisions[3][2]) == "4-2"
    assert str(decisions[2][2]) == "3-1"
    assert str(decisions[4][2]) == "5-2"
    assert len(decisions) == 5


@pytest.mark.parametrize("word", ["quit", "exit", "QUIT"])
def test_quit_abandons_the_game(word: str) -> None:
    lines: list[str] = []
    terminal = TerminalGame(
        HeuristicPlayer(), ScriptedDice(["4-2"]), read=lambda _: word, write=lines.append
    )
    assert terminal.run() is None
    assert lines[-1] == "Game abandoned."
    assert not terminal.game.is_over()


@pytest.mark.parametrize("stop", [EOFError, KeyboardInterrupt])
def test_end_of_input_or_an_interrupt_abandons_the_game_and_saves_it(
    stop: type[BaseException], tmp_path: Any
) -> None:
    """Ctrl-D or Ctrl-C at a prompt: the game is abandoned on a line of its own and
    saved where ``--save`` asked (Ctrl-C used to end the program with nothing saved)."""
    answers = iter(["", "8/5 6/5"])

    def read(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise stop
        return answer

    lines: list[str] = []
    saved = tmp_path / "interrupted.mat"
    terminal = TerminalGame(
        HeuristicPlayer(),
        ScriptedDice(["3-1", "6-5", "6-5", "3-1"]),
        read=read,
        write=lines.append,
        save_to=str(saved),
    )
    assert terminal.run() is None
    assert lines[-3:-1] == ["", "Game abandoned."]
    assert terminal.game.outcome is None
    assert "8/5 6/5" in saved.read_text()


def test_resigning_offers_a_resignation_the_computer_may_refuse() -> None:
    answers = iter(["resign gammon"])
    lines: list[str] = []

    def read(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        return answer

    terminal = TerminalGame(HeuristicPlayer(), ScriptedDice(["4-2"]), read=read, write=lines.append)
    outcome = terminal.run()
    # A gammon resignation is always accepted: the computer wins 2 points at once.
    assert outcome is not None
    assert outcome.winner == 1 and outcome.points == 2
    assert "Computer accepts your resignation." in lines


def test_a_match_to_three_points_is_played_to_the_end() -> None:
    lines: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Your turn: roll"):
            return ""
        if "doubles to" in prompt:
            return "drop"
        return str(terminal.game.legal_plays()[0])

    terminal = TerminalGame(
        RandomPlayer(5), SeededDice(5), read=read, write=lines.append, match_length=3
    )
    terminal.run()
    assert terminal.match.is_over()
    assert max(terminal.match.score) >= 3
    assert lines[-1].endswith("won the match.")


def test_a_match_is_saved_and_reads_back(tmp_path: Any) -> None:
    from backgammon.formats import read_match

    target = tmp_path / "played.mat"

    def read(prompt: str) -> str:
        if prompt.startswith("Your turn: roll"):
            return "double" if terminal.game.can_double() and len(lines) % 7 == 0 else ""
        if "doubles to" in prompt:
            return "take"
        return str(terminal.game.legal_plays()[0])

    lines: list[str] = []
    terminal = TerminalGame(
        RandomPlayer(11),
        SeededDice(11),
        read=read,
        write=lines.append,
        match_length=3,
        save_to=str(target),
    )
    terminal.run()
    record = read_match(target)
    assert record.length == 3
    assert record.score == terminal.match.score
    assert len(record.games) == len(terminal.match.games)

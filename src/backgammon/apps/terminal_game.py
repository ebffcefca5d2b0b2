"""A game of backgammon in the terminal: a person against a built-in opponent.

The person is player 0 and plays ``X`` at the bottom of the board; moves are typed in
notation (``13/7 8/7``, ``bar/22``, ``6/off``). Input and output go through two
callables, so tests and other front ends can drive the same loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from backgammon.engine.baseline import Player
from backgammon.errors import BackgammonError
from backgammon.notation.diagram import draw_board
from backgammon.rules.dice import DiceSource
from backgammon.rules.game import Game, OpeningRoll, Outcome
from backgammon.rules.play import Play

__all__ = ["HELP", "TerminalGame"]

HELP = """Type your move in notation, e.g. '13/7 8/7', 'bar/22', '6/off', '8/4(2)'.
Commands: moves (list the legal plays), board (draw the board), undo (take back your
last move), help, quit."""

HUMAN = 0
COMPUTER = 1


@dataclass
class _Names:
    human: str
    computer: str


class TerminalGame:
    """Runs one game between a person (reading from ``read``) and ``opponent``.

    Args:
        opponent: the built-in player.
        dice: where the dice come from (seeded for a reproducible game).
        read: asks the person for a line, given a prompt; raises ``EOFError`` when
            input ends.
        write: shows a line of text.
        name: the person's name.
    """

    def __init__(
        self,
        opponent: Player,
        dice: DiceSource,
        read: Callable[[str], str],
        write: Callable[[str], None],
        *,
        name: str = "You",
    ) -> None:
        self.game = Game()
        self.opponent = opponent
        self.dice = dice
        self.read = read
        self.write = write
        self.names = _Names(name, "Computer")

    def run(self) -> Outcome | None:
        """Play until the game ends or the person quits; return the outcome if any."""
        game = self.game
        self.write(f"{self.names.human} (X) against {self.names.computer} (O). {HELP}")
        while not game.is_over():
            if game.turn is None:
                self._opening_roll()
                continue
            if game.dice is None:
                game.roll_dice(self.dice)
            if game.turn == COMPUTER:
                self._computer_turn()
            elif not self._human_turn():
                self.write("Game abandoned.")
                return None
        outcome = game.outcome
        assert outcome is not None
        winner = self.names.human if outcome.winner == HUMAN else self.names.computer
        self.write(self._board())
        self.write(f"{winner} won a {outcome.kind.name.lower()} ({outcome.points} points).")
        return outcome

    def _board(self) -> str:
        position = self.game.position_for(HUMAN)
        return draw_board(
            position.player,
            position.opponent,
            player_name=f"{self.names.human}",
            opponent_name=self.names.computer,
        )

    def _opening_roll(self) -> None:
        action = self.game.roll_dice(self.dice)
        assert isinstance(action, OpeningRoll)
        self.write(
            f"Opening roll: {self.names.human} {action.die0}, {self.names.computer} {action.die1}."
        )
        if action.is_tie:
            self.write("A tie: rolling again.")
        else:
            starter = self.names.human if action.starter == HUMAN else self.names.computer
            self.write(f"{starter} moves first.")

    def _computer_turn(self) -> None:
        game = self.game
        dice = game.dice
        assert dice is not None
        play = self.opponent.choose(game.position, dice)
        game.push(play)
        self.write(f"{self.names.computer} rolls {dice}: {play.notation()}")

    def _human_turn(self) -> bool:
        """One decision of the person; False when they quit."""
        game = self.game
        dice = game.dice
        assert dice is not None
        plays = game.legal_plays()
        self.write(self._board())
        if not plays:
            self.write(f"You rolled {dice}: no legal move.")
            game.push(Play.no_move(game.position))
            return True
        if len(plays) == 1:
            self.write(f"You rolled {dice}: the only legal play is {plays[0]}.")
            game.push(plays[0])
            return True
        while True:
            try:
                line = self.read(f"You rolled {dice}. Your move: ").strip()
            except EOFError:
                return False
            command = line.lower()
            if command in ("quit", "exit", "resign"):
                return False
            if command in ("help", "?"):
                self.write(HELP)
                continue
            if command == "board":
                self.write(self._board())
                continue
            if command in ("moves", "hint", "list"):
                self.write(f"Legal plays of {dice}: " + ", ".join(str(p) for p in plays))
                continue
            if command == "undo":
                if self._undo():
                    return True
                self.write("Nothing to undo.")
                continue
            if not line:
                continue
            try:
                game.play(line)
            except BackgammonError as error:
                self.write(f"Not accepted: {error}")
                continue
            return True

    def _undo(self) -> bool:
        """Take back everything since the person's last play; False if there is none."""
        game = self.game
        popped = []
        while game.history and not isinstance(game.history[-1], OpeningRoll):
            action = game.pop()
            popped.append(action)
            if isinstance(action, Play) and game.turn == HUMAN:
                self.write("Move taken back.")
                return True
        for action in reversed(popped):
            game.push_unchecked(action)
        return False

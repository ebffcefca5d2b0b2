"""Backgammon in the terminal: a person against a built-in opponent, one game or a
match, with the doubling cube.

The person is player 0 and plays ``X`` at the bottom of the board; moves are typed in
notation (``13/7 8/7``, ``bar/22``, ``6/off``). Input and output go through two
callables, so tests and other front ends can drive the same loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from backgammon.apps.output_path import check_output_path
from backgammon.engine.baseline import HeuristicCube, Player

if TYPE_CHECKING:
    from backgammon.engine.evaluation import PlayEvaluation
    from backgammon.engine.evaluator import Engine
from backgammon.errors import BackgammonError
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    RejectResignation,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import DiceSource, Roll
from backgammon.rules.game import ChooseDouble, Explode, Game, OpeningRoll, Outcome
from backgammon.rules.match import Match
from backgammon.rules.play import Play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = ["HELP", "TerminalGame"]

HELP = """Type your move in notation, e.g. '13/7 8/7', 'bar/22', '6/off', '8/4(2)'.
Before rolling: Enter or 'roll' to roll, 'double' to double. When doubled: 'take',
'drop' (or 'pass'), 'beaver'. Any time: moves (list the legal plays), hint (the
engine's best plays with equities, and why the best), board, undo (take back your
last move), resign [single|gammon|backgammon], save FILE (.mat or .sgf), help, quit."""

HUMAN = 0
COMPUTER = 1
NOTICE_LOSS = 0.01
"""With hints, a play of the person's that loses this much equity or more against the
engine's best is pointed out, with why."""
_LEVELS = {"single": ResignLevel.SINGLE, "gammon": ResignLevel.GAMMON}
_LEVELS["backgammon"] = ResignLevel.BACKGAMMON


class CubeAdvisor(Protocol):
    """Cube and resignation decisions for the built-in opponent."""

    def should_double(self, game: Game) -> bool:
        """Whether the side on roll should double now."""
        ...

    def should_take(self, game: Game) -> bool:
        """Whether the doubled side should take (the doubler is on roll)."""
        ...

    def accepts_resignation(self, game: Game, level: int) -> bool:
        """Whether to accept the side on roll's resignation at ``level``."""
        ...


class _QuitError(Exception):
    """The person ended the session."""


class TerminalGame:
    """Runs a game, or a match to ``match_length`` points, between a person (reading
    from ``read``) and ``opponent``.

    Args:
        opponent: the built-in player.
        dice: where the dice come from (seeded for a reproducible game).
        read: asks the person for a line, given a prompt; raises ``EOFError`` when
            input ends.
        write: shows a line of text.
        name: the person's name.
        match_length: points to play to; 0 plays a single money game.
        rules: cube and match options.
        save_to: where to save the match (``.mat`` or ``.sgf``) when it ends.
        variant: the variant to play (standard by default).
        cube_sense: the opponent's cube and resignation decisions (default: a simple
            heuristic).
        hints: an engine that answers the person's ``hint`` command.
    """

    def __init__(
        self,
        opponent: Player,
        dice: DiceSource,
        read: Callable[[str], str],
        write: Callable[[str], None],
        *,
        name: str = "You",
        match_length: int = 0,
        rules: CubeRules | None = None,
        save_to: str | None = None,
        variant: Variant = STANDARD,
        cube_sense: CubeAdvisor | None = None,
        hints: Engine | None = None,
    ) -> None:
        self.match = Match(match_length, rules=rules, variant=variant, players=(name, "Computer"))
        self.opponent = opponent
        self.cube_sense: CubeAdvisor = HeuristicCube() if cube_sense is None else cube_sense
        self.hints = hints
        self.dice = dice
        self.read = read
        self.write = write
        self.names = (name, "Computer")
        self.save_to = save_to
        self._shown_turn: tuple[int, int] | None = None
        self.match.new_game()

    @property
    def game(self) -> Game:
        """The game being played."""
        game = self.match.game
        assert game is not None
        return game

    def run(self) -> Outcome | None:
        """Play until the game (or match) ends or the person quits; return the last
        game's outcome, or ``None`` if the person quit first."""
        self.write(f"{self.names[0]} (X) against {self.names[1]} (O). {HELP}")
        if self.match.length:
            self.write(f"A {self.match.length}-point match.")
        try:
            while True:
                game = self.game
                if game.is_over():
                    self._announce(game)
                    if not self.match.length or self.match.is_over():
                        break
                    game = self.match.new_game()
                    crawford = " (Crawford game)" if game.context.crawford else ""
                    self.write(f"Game {len(self.match.games)}{crawford}.")
                if game.turn is None:
                    self._opening_roll()
                elif game.decider == COMPUTER:
                    self._computer_step()
                else:
                    self._human_step()
        except _QuitError:
            self.write("Game abandoned.")
            self._save()
            return None
        self._save()
        return self.game.outcome

    # -- output ------------------------------------------------------------------

    def _board(self) -> str:
        position = self.game.position_for(HUMAN)
        game = self.game
        cube = game.cube
        owner = "centred" if cube.owner is None else f"owned by {self.names[cube.owner]}"
        score = ""
        if self.match.length:
            a, b = game.context.score
            score = f", score {a}-{b} to {self.match.length}"
        board = position.diagram(
            game.variant, player_name=self.names[0], opponent_name=self.names[1]
        )
        if not game.variant.cube:
            return board + (f"\nScore {score[2:]}" if score else "")
        return board + f"\nCube {cube.value} ({owner}){score}"

    def _announce(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        self.write(self._board())
        kind = outcome.kind.name.lower()
        how = "" if outcome.ending.name == "BORNE_OFF" else f" ({outcome.ending.value})"
        points = f"{outcome.points} point{'' if outcome.points == 1 else 's'}"
        self.write(f"{self.names[outcome.winner]} won a {kind}{how}: {points}.")
        if self.match.length:
            a, b = self.match.score
            self.write(f"Score: {self.names[0]} {a}, {self.names[1]} {b}.")
            if self.match.is_over():
                winner = self.match.winner
                assert winner is not None
                self.write(f"{self.names[winner]} won the match.")

    def _save(self) -> None:
        if self.save_to:
            self._save_as(self.save_to)

    def _save_as(self, path: str) -> None:
        """Write the match to ``path`` (.mat or .sgf); a path that cannot take it is
        said in one line and the game goes on."""
        from backgammon.formats import record_of_match, write_match

        try:
            check_output_path(path, (".mat", ".sgf"))
            write_match(record_of_match(self.match), path)
        except (OSError, ValueError, BackgammonError) as error:
            self.write(f"Could not save: {error}")
        else:
            self.write(f"Saved the match to {Path(path)}.")

    # -- turns -------------------------------------------------------------------

    def _opening_roll(self) -> None:
        action = self.game.roll_dice(self.dice)
        assert isinstance(action, OpeningRoll)
        self.write(f"Opening roll: {self.names[0]} {action.die0}, {self.names[1]} {action.die1}.")
        if action.is_tie:
            self.write("A tie: rolling again.")
        else:
            assert action.starter is not None
            starter = self.names[action.starter]
            self.write("You move first." if starter == "You" else f"{starter} moves first.")

    def _computer_step(self) -> None:
        game = self.game
        pending = game.pending
        if pending is not None and pending.kind == "choose-double":
            from backgammon.engine.players import EnginePlayer
            from backgammon.engine.strength import largest_playable_double

            opponent = self.opponent
            number = (
                opponent.choose_double(game)
                if isinstance(opponent, EnginePlayer)
                else largest_playable_double(game)
            )
            game.push(ChooseDouble(number))
            self.write(f"{self.names[1]} chooses {number}-{number}.")
            return
        if pending is not None and pending.kind == "double":
            # The person doubled; the position is seen from the person (on roll).
            if self.cube_sense.should_take(game):
                game.push(Take())
                self.write(f"{self.names[1]} takes. The cube is now {game.cube.value}.")
            else:
                game.push(Drop())
                self.write(f"{self.names[1]} drops.")
            return
        if pending is not None and pending.kind == "resign":
            if self.cube_sense.accepts_resignation(game, pending.level):
                game.push(AcceptResignation())
                self.write(f"{self.names[1]} accepts your resignation.")
            else:
                game.push(RejectResignation())
                self.write(f"{self.names[1]} rejects your resignation.")
            return
        if game.dice is None:
            if game.can_double() and self.cube_sense.should_double(game):
                game.push(Double())
                self.write(f"{self.names[1]} doubles to {game.cube.value * 2}.")
                return
            game.roll_dice(self.dice)
        dice = game.dice
        assert dice is not None
        play = self.opponent.choose(game.position, dice, game.variant, game.continuation)
        game.push(play)
        self.write(f"{self.names[1]} rolls {dice}: {play.notation()}")

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, Ctrl-C: the game is saved
            self.write("")  # off the prompt's line
            raise _QuitError from None

    def _common(self, line: str) -> bool:
        """Handle a command valid at any prompt; True if it was one."""
        command, _, argument = line.partition(" ")
        command = command.lower()
        if command in ("quit", "exit"):
            raise _QuitError
        if command in ("help", "?"):
            self.write(HELP)
        elif command == "board":
            self.write(self._board())
        elif command == "save":
            if argument:
                self._save_as(argument.strip())
            else:
                self.write("Say where: save match.mat (or .sgf).")
        elif command == "resign":
            level = _LEVELS.get(argument.strip().lower() or "single")
            if level is None:
                self.write("Resign single, gammon or backgammon.")
            elif self.game.turn != HUMAN or self.game.pending is not None:
                self.write("You can resign on your own turn.")
            else:
                self.game.push(Resign(level))
        else:
            return False
        return True

    def _human_step(self) -> None:
        game = self.game
        pending = game.pending
        if pending is not None and pending.kind == "choose-double":
            line = self._ask("Acey-deucey! Choose a double to play (1-6): ")
            if line in {"1", "2", "3", "4", "5", "6"}:
                game.push(ChooseDouble(int(line)))
            elif not self._common(line):
                self.write("Type a number from 1 to 6.")
            return
        if pending is not None and pending.kind == "double":
            self._answer_double()
            return
        if game.dice is None:
            self._show_turn()
            if game.variant.atomic and game.explode_refusal() is None:
                line = self._ask("Your turn: roll (Enter) or 'bomb' to explode the bomb? ")
                if line.lower() == "bomb":
                    game.push(Explode())
                    self.write("Boom: every blot goes to the bar.")
                    return
                if line and line.lower() != "roll" and not self._common(line):
                    self.write("Type Enter or 'roll' to roll, 'bomb' to explode the bomb.")
                    return
            if game.can_double():
                line = self._ask("Your turn: roll (Enter) or double? ")
                if line.lower() == "double":
                    game.push(Double())
                    self.write(f"You double to {game.cube.value * 2}.")
                    return
                if line and line.lower() != "roll":
                    if not self._before_roll(line) and not self._common(line):
                        self.write("Type Enter or 'roll' to roll, 'double' to double.")
                    return
            game.roll_dice(self.dice)
        self._move()

    def _before_roll(self, line: str) -> bool:
        """``hint`` (the cube: double or roll), ``moves`` and ``undo`` before the
        roll; True if ``line`` was one of them."""
        command = line.lower()
        if command in ("moves", "list"):
            self.write("Roll first: the legal plays come with the dice.")
        elif command == "hint":
            if self.hints is None:
                self.write("No engine for hints.")
            else:
                from backgammon.engine.players import EngineCube

                double = EngineCube(self.hints).should_double(self.game)
                self.write(f"Hint: {'double' if double else 'roll, no double yet'}.")
        elif command == "undo":
            if not self._undo():
                self.write("Nothing to undo.")
        else:
            return False
        return True

    def _show_turn(self) -> None:
        """The board, once at the start of each of the person's turns (before the
        roll-or-double question: the computer's move is on it)."""
        turn = (len(self.match.games), len(self.game.history))
        if self._shown_turn != turn:
            self._shown_turn = turn
            self.write(self._board())

    def _answer_double(self) -> None:
        game = self.game
        value = game.cube.value * 2
        self.write(self._board())
        line = self._ask(f"{self.names[1]} doubles to {value}. take or drop? ").lower()
        try:
            if line == "take":
                game.push(Take())
            elif line in ("drop", "pass"):
                game.push(Drop())
            elif line == "beaver":
                game.push(Beaver())
            elif not self._common(line):
                self.write("Answer take, drop or beaver.")
        except BackgammonError as error:
            self.write(f"Not accepted: {error}")

    def _move(self) -> None:
        game = self.game
        dice = game.dice
        assert dice is not None
        plays = game.legal_plays()
        if self._shown_turn != (len(self.match.games), len(game.history) - 1):
            self.write(self._board())  # (not again right after the turn's first board)
        if not plays:
            self.write(f"You rolled {dice}: no legal move.")
            game.push(Play.no_move(game.position))
            return
        if len(plays) == 1:
            self.write(f"You rolled {dice}: the only legal play is {plays[0]}.")
            game.push(plays[0])
            return
        while True:
            line = self._ask(f"You rolled {dice}. Your move: ")
            command = line.lower()
            if command in ("moves", "list"):
                self.write(f"Legal plays of {dice}: " + ", ".join(str(p) for p in plays))
                continue
            if command == "hint":
                self._hint()
                continue
            if command == "undo":
                if self._undo():
                    return
                self.write("Nothing to undo.")
                continue
            if command in ("roll", "double"):
                self.write(f"You have rolled {dice}: type your move ('moves' lists them).")
                continue
            if not line:
                continue
            if self._common(line):
                if game.pending is not None:
                    return
                continue
            position = game.position
            try:
                game.play(line)
            except BackgammonError as error:
                self.write(f"Not accepted: {error}")
                continue
            played = game.history[-1]
            assert isinstance(played, Play)
            self._judge(position, dice, played)
            return

    def _judge(self, position: Position, dice: Roll, played: Play) -> None:
        """With hints: if the engine's best play beats ``played`` by
        :data:`NOTICE_LOSS` or more, say so, and why in one line."""
        if self.hints is None:
            return
        ranked = self.hints.rank_plays(position, dice)
        mine = next((item for item in ranked if item.play.position == played.position), None)
        if mine is None or ranked[0].equity - mine.equity < NOTICE_LOSS:
            return
        best = ranked[0]
        self.write(
            f"The engine prefers {best.play.notation()}: {mine.play.notation()} loses "
            f"{best.equity - mine.equity:.3f}."
        )
        self._why(position, dice, best, mine)

    def _why(
        self, position: Position, dice: Roll, better: PlayEvaluation, worse: PlayEvaluation
    ) -> None:
        """One line: why ``better`` beats ``worse``, the heaviest theme of their
        explanation (:func:`backgammon.analysis.explain.explain_play`) in its favour;
        nothing where none is, or in a variant whose moves are not the standard ones."""
        from backgammon.analysis.explain import explain_play

        if not self.game.variant.plain_movement:
            return
        chances = (worse.evaluation.probabilities, better.evaluation.probabilities)
        try:
            found = explain_play(position, dice, worse.play, better.play, probabilities=chances)
        except BackgammonError:
            return
        themes = [theme for theme in found.themes if theme.favours == "best"]
        if themes:
            reason = max(themes, key=lambda theme: theme.weight).says
            self.write(f"Why {better.play.notation()} over {worse.play.notation()}: {reason}")

    def _hint(self) -> None:
        game = self.game
        dice = game.dice
        if self.hints is None or dice is None:
            self.write("No engine for hints; 'moves' lists the legal plays.")
            return
        ranked = self.hints.rank_plays(game.position, dice)
        best = ranked[0].equity
        for index, item in enumerate(ranked[:5], 1):
            self.write(
                f"{index}. {item.play.notation():26} {item.equity:+.3f} ({item.equity - best:+.3f})"
            )
        if len(ranked) > 1:
            self._why(game.position, dice, ranked[0], ranked[1])

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

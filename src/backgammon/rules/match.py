"""Matches and money sessions: a sequence of games with a running score.

A :class:`Match` to ``length`` points (or a money session, ``length=0``) creates each
:class:`~backgammon.rules.game.Game` with the right
:class:`~backgammon.rules.cube.MatchContext`: the score before the game, and whether it
is the Crawford game (the game after a player first reaches match point minus one, in
which nobody may double) or a post-Crawford game. Scores are not capped: a gammon at
match point counts in full, as match files report it.

>>> from backgammon.rules.dice import ScriptedDice
>>> match = Match(3)
>>> game = match.new_game()
>>> game.context
MatchContext(length=3, score=(0, 0), crawford=False, post_crawford=False)
"""

from __future__ import annotations

from backgammon.errors import IllegalActionError
from backgammon.rules.cube import CubeRules, MatchContext
from backgammon.rules.game import Game
from backgammon.rules.match_state import GameState, MatchState, Resignation
from backgammon.rules.variant import STANDARD, Variant

__all__ = ["Match"]


class Match:
    """A match to ``length`` points, or a money session when ``length`` is 0.

    Attributes:
        length: points needed to win (0 for money).
        rules: cube and match options used for every game.
        variant: the variant every game is played in.
        players: the two players' names, player 0 first.
    """

    def __init__(
        self,
        length: int = 0,
        *,
        rules: CubeRules | None = None,
        variant: Variant = STANDARD,
        players: tuple[str, str] = ("Player 1", "Player 2"),
    ) -> None:
        """Start a match (no games yet: call :meth:`new_game`).

        Raises:
            ValueError: for a negative length.
        """
        if length < 0:
            raise ValueError(f"a match length is >= 0 (0 = money), got {length}")
        self.length = length
        self.rules = CubeRules() if rules is None else rules
        self.variant = variant
        self.players = players
        self._games: list[Game] = []

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game started so far, oldest first."""
        return tuple(self._games)

    @property
    def game(self) -> Game | None:
        """The current (last started) game, if any."""
        return self._games[-1] if self._games else None

    @property
    def score(self) -> tuple[int, int]:
        """Points of player 0 and player 1 from every finished game."""
        return self.score_after(len(self._games))

    def score_after(self, games: int) -> tuple[int, int]:
        """The score after the first ``games`` games (unfinished ones count nothing)."""
        score = [0, 0]
        for game in self._games[:games]:
            outcome = game.outcome
            if outcome is not None:
                score[outcome.winner] += outcome.points
        return score[0], score[1]

    @property
    def winner(self) -> int | None:
        """The player who has won the match (never, in a money session)."""
        if not self.length:
            return None
        for player, points in enumerate(self.score):
            if points >= self.length:
                return player
        return None

    def is_over(self) -> bool:
        """True once a player has reached the match length."""
        return self.winner is not None

    def next_context(self) -> MatchContext:
        """The match context the next game will be played in."""
        score = self.score
        if self.length <= 1 or not self.rules.crawford:
            # Money play, or a 1-point match (whose games are never Crawford games).
            return MatchContext(self.length, score)
        if any(game.context.crawford for game in self._games):
            return MatchContext(self.length, score, post_crawford=True)
        if any(points == self.length - 1 for points in score):
            return MatchContext(self.length, score, crawford=True)
        return MatchContext(self.length, score)

    def new_game(self) -> Game:
        """Start the next game and return it.

        Raises:
            IllegalActionError: if the current game is unfinished or the match is over.
        """
        current = self.game
        if current is not None and not current.is_over():
            raise IllegalActionError("the current game is not over")
        if self.is_over():
            raise IllegalActionError("the match is over")
        game = Game(self.variant, rules=self.rules, context=self.next_context())
        self._games.append(game)
        return game

    def pop_game(self) -> Game:
        """Remove the last game (to undo past its start).

        Raises:
            IndexError: if there are no games.
        """
        if not self._games:
            raise IndexError("the match has no games")
        return self._games.pop()

    def state(self) -> MatchState:
        """The current state as GNU Backgammon's Match ID describes it."""
        game = self.game
        if game is None:
            return MatchState(match_length=self.length, score=self.score)
        score = game.context.score if not game.is_over() else self.score
        on_roll = game.turn if game.turn is not None else 0
        pending = game.pending
        game_state = GameState.OVER if game.is_over() else GameState.PLAYING
        resignation = Resignation.NONE
        if pending is not None and pending.kind == "resign":
            resignation = Resignation(int(pending.level))
        decider = game.decider
        return MatchState(
            match_length=self.length,
            score=score,
            cube_value=game.cube.value,
            cube_owner=game.cube.owner,
            player_on_roll=on_roll,
            turn=on_roll if decider is None else decider,
            crawford=game.context.crawford,
            game_state=game_state,
            double_offered=pending is not None and pending.kind == "double",
            resignation=resignation,
            dice=None if game.dice is None else (game.dice.first, game.dice.second),
            jacoby=self.rules.jacoby and not self.length,
        )

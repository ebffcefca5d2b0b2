"""The match record and the visitor that match files stream through.

A reader calls the hooks of a :class:`MatchVisitor` in file order: ``begin_match``,
then per game ``begin_game``, ``roll``/``play``/``cube``/``resign``/``comment`` as they
come, ``end_game``; finally ``end_match``. :class:`RecordBuilder` is the visitor that
**replays every action through the rules** (a :class:`~backgammon.rules.match.Match`)
and builds a :class:`MatchRecord`; an illegal move, a wrong score or a bad cube action
raises :class:`~backgammon.errors.MatchFileError` with its file, line and column.
Writers are visitors too: :meth:`MatchRecord.accept` replays a record into any visitor.

Players are numbered in the file's order: player 0 is the first player named (the
left column of a .mat file, ``PW`` in GNU Backgammon's SGF).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from backgammon.errors import BackgammonError, MatchFileError
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    Raccoon,
    RejectResignation,
    Resign,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, ChooseDouble, Explode, Game, OpeningRoll, Outcome
from backgammon.rules.match import Match
from backgammon.rules.play import Play, parse_play
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "CubeEvent",
    "GameRecord",
    "Location",
    "MatchInfo",
    "MatchRecord",
    "MatchVisitor",
    "RecordBuilder",
    "RecordEntry",
    "ResignEvent",
]


@dataclass(frozen=True, slots=True)
class Location:
    """Where something is in a file: path (or ``None``), 1-based line and column."""

    path: str | None = None
    line: int | None = None
    column: int | None = None

    def error(self, message: str) -> MatchFileError:
        """A :class:`MatchFileError` at this location."""
        return MatchFileError(message, path=self.path, line=self.line, column=self.column)


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a match file says before its first game.

    Attributes:
        length: match length in points, 0 for money play.
        players: the two names, player 0 first.
        rules: the cube and match options in force.
        variant: the variant played.
        metadata: event, round, place, date, annotator, ... as the file gives them
            (keys in lower case, e.g. ``"event"``, ``"date"``).
    """

    length: int
    players: tuple[str, str] = ("Player 1", "Player 2")
    rules: CubeRules = field(default_factory=CubeRules)
    variant: Variant = STANDARD
    metadata: dict[str, str] = field(default_factory=dict)


CubeEvent = Double | Take | Drop | Beaver | Raccoon
ResignEvent = Resign | AcceptResignation | RejectResignation


@dataclass(slots=True)
class RecordEntry:
    """One action of a game, who made it, and what the file said about it.

    Attributes:
        player: 0 or 1 (file order).
        action: the validated rules action (a ``Play`` is the legal play the text
            resolved to).
        comment: a comment attached to it, if any.
        annotations: other properties the file attached (e.g. GNU Backgammon's SGF
            analysis), raw, keyed by property name.
    """

    player: int
    action: Action
    comment: str | None = None
    annotations: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class GameRecord:
    """One game of a match record.

    Attributes:
        number: 1-based game number.
        score_before: (player 0, player 1) points before the game.
        entries: every action in order.
        outcome: how the rules ended the game (``None`` if the file stops mid-game).
        crawford: whether this was the Crawford game.
        comment: a comment on the game as a whole.
        annotations: raw properties the file attached to the whole game (e.g. GNU
            Backgammon's game statistics ``GS``), keyed by property name.
    """

    number: int
    score_before: tuple[int, int]
    entries: list[RecordEntry] = field(default_factory=list)
    outcome: Outcome | None = None
    crawford: bool = False
    comment: str | None = None
    annotations: dict[str, Any] = field(default_factory=dict)

    @property
    def score_after(self) -> tuple[int, int]:
        """(player 0, player 1) points after the game (not capped at the match length)."""
        if self.outcome is None:
            return self.score_before
        score = list(self.score_before)
        score[self.outcome.winner] += self.outcome.points
        return score[0], score[1]

    @property
    def winner(self) -> int | None:
        """The player who won this game, if it ended."""
        return None if self.outcome is None else self.outcome.winner


@dataclass(slots=True)
class MatchRecord:
    """A whole match as read from (or to be written to) a match file.

    Attributes:
        info: length, players, rules, variant and metadata.
        games: every game in order.
        comment: a comment on the match as a whole.
    """

    info: MatchInfo
    games: list[GameRecord] = field(default_factory=list)
    comment: str | None = None

    @property
    def length(self) -> int:
        """The match length in points (0 for money play)."""
        return self.info.length

    @property
    def players(self) -> tuple[str, str]:
        """The players' names, player 0 first."""
        return self.info.players

    @property
    def score(self) -> tuple[int, int]:
        """The final score."""
        return self.games[-1].score_after if self.games else (0, 0)

    def accept(self, visitor: MatchVisitor) -> None:
        """Replay this record into ``visitor``, hook by hook, as a reader would."""
        here = Location()
        visitor.begin_match(self.info, here)
        if self.comment:
            visitor.comment(self.comment, here)
        for game in self.games:
            visitor.begin_game(game.number, game.score_before, here)
            if game.annotations:
                visitor.annotate_game(game.annotations, here)
            if game.comment:
                visitor.comment(game.comment, here)
            for entry in game.entries:
                action = entry.action
                if isinstance(action, OpeningRoll):
                    roll = action.roll
                    if roll is not None:
                        assert action.starter is not None
                        visitor.roll(action.starter, (roll.first, roll.second), here)
                elif isinstance(action, Roll):
                    visitor.roll(entry.player, (action.first, action.second), here)
                elif isinstance(action, Play):
                    visitor.play(entry.player, action, here)
                elif isinstance(action, Resign | AcceptResignation | RejectResignation):
                    visitor.resign(entry.player, action, here)
                elif isinstance(action, Explode | ChooseDouble):
                    visitor.variant_action(entry.player, action, here)
                else:
                    visitor.cube(entry.player, action, here)
                if entry.comment or entry.annotations:
                    visitor.annotate(entry.comment, entry.annotations, here)
            outcome = game.outcome
            visitor.end_game(
                None if outcome is None else outcome.winner,
                None if outcome is None else outcome.points,
                here,
            )
        visitor.end_match(here)


class MatchVisitor:
    """Hooks a match file streams through, in file order. Every hook does nothing by
    default; readers call them, writers and builders implement them."""

    def begin_match(self, info: MatchInfo, where: Location) -> None:
        """The match header has been read."""

    def begin_game(self, number: int, score: tuple[int, int], where: Location) -> None:
        """A game starts, with the (player 0, player 1) score before it."""

    def roll(self, player: int, dice: tuple[int, int], where: Location) -> None:
        """``player`` rolled ``dice`` (for the game's first roll: the opening roll that
        ``player`` plays)."""

    def play(self, player: int, move: str | Play, where: Location) -> None:
        """``player`` played ``move``: notation in the mover's numbering, or a Play."""

    def cube(self, player: int, action: CubeEvent, where: Location) -> None:
        """``player`` doubled, took, dropped, beavered or raccooned."""

    def resign(self, player: int, action: ResignEvent, where: Location) -> None:
        """``player`` resigned, or accepted or rejected a resignation."""

    def annotate(self, comment: str | None, annotations: dict[str, Any], where: Location) -> None:
        """A comment and/or raw annotations for the action just reported."""

    def variant_action(self, player: int, action: Action, where: Location) -> None:
        """An action only some variants have (e.g. the atomic bomb's ``Explode``)."""

    def annotate_game(self, annotations: dict[str, Any], where: Location) -> None:
        """Raw annotations on the current game as a whole (e.g. its statistics)."""

    def comment(self, text: str, where: Location) -> None:
        """A free comment (on the match before any game, else on the current game)."""

    def end_game(self, winner: int | None, points: int | None, where: Location) -> None:
        """The game ended; the file's winner and points (``None`` where it says none)."""

    def end_match(self, where: Location) -> None:
        """The end of the file."""


class RecordBuilder(MatchVisitor):
    """Builds a :class:`MatchRecord` by replaying every action through the rules.

    Raises :class:`MatchFileError` (with the location) for anything the rules refuse
    or the file contradicts: an illegal play, a cube action out of turn, a score that
    does not follow from the games.
    """

    def __init__(self) -> None:
        self._record: MatchRecord | None = None
        self._match: Match | None = None
        self._game: Game | None = None
        self._game_record: GameRecord | None = None

    @property
    def record(self) -> MatchRecord:
        """The record built so far.

        Raises:
            MatchFileError: if no match header was read.
        """
        if self._record is None:
            raise MatchFileError("no match was read")
        return self._record

    def begin_match(self, info: MatchInfo, where: Location) -> None:
        """Start the record and the rules' match."""
        self._record = MatchRecord(info)
        self._match = Match(
            info.length, rules=info.rules, variant=info.variant, players=info.players
        )

    def _require_game(self, where: Location) -> tuple[Game, GameRecord]:
        if self._game is None or self._game_record is None:
            raise where.error("an action outside any game")
        return self._game, self._game_record

    def begin_game(self, number: int, score: tuple[int, int], where: Location) -> None:
        """Start the next game; the file's score must be the score the rules reached."""
        if self._record is None or self._match is None:
            raise where.error("a game before the match header")
        if self._game is not None and not self._game.is_over():
            raise where.error(f"game {number} starts before game {number - 1} ended")
        expected = self._match.score
        if tuple(score) != expected:
            raise where.error(
                f"game {number} starts at {score[0]}-{score[1]}, but the games before "
                f"give {expected[0]}-{expected[1]}"
            )
        try:
            self._game = self._match.new_game()
        except BackgammonError as error:
            raise where.error(f"game {number}: {error}") from None
        self._game_record = GameRecord(number, expected, crawford=self._game.context.crawford)
        self._record.games.append(self._game_record)

    def _push(self, player: int, action: Action, where: Location) -> RecordEntry:
        game, record = self._require_game(where)
        try:
            game.push(action)
        except BackgammonError as error:
            raise where.error(f"game {record.number}: {error}") from None
        entry = RecordEntry(player, action)
        record.entries.append(entry)
        return entry

    def roll(self, player: int, dice: tuple[int, int], where: Location) -> None:
        """Push the roll (the opening roll if the game has not started)."""
        game, record = self._require_game(where)
        if player not in (0, 1):
            raise where.error(f"no player {player}")
        try:
            roll = Roll(*dice)
        except (TypeError, ValueError) as error:
            raise where.error(f"invalid dice {dice!r}: {error}") from None
        if game.turn is None:
            if roll.is_double:
                raise where.error(f"the opening roll cannot be a double ({roll})")
            high, low = roll.high, roll.low
            action: Action = OpeningRoll(high, low) if player == 0 else OpeningRoll(low, high)
        else:
            if game.turn != player:
                raise where.error(
                    f"game {record.number}: player {player} rolls, but it is player "
                    f"{game.turn}'s turn"
                )
            action = roll
        self._push(player, action, where)

    def play(self, player: int, move: str | Play, where: Location) -> None:
        """Resolve the notation against the position and dice, and push the play."""
        game, record = self._require_game(where)
        if game.turn != player:
            raise where.error(
                f"game {record.number}: player {player} moves, but it is player {game.turn}'s turn"
            )
        if game.dice is None:
            raise where.error(f"game {record.number}: a move without a roll")
        if isinstance(move, Play):
            play = move
        else:
            try:
                play = parse_play(move, game.position, game.dice)
            except BackgammonError as error:
                raise where.error(f"game {record.number}: {error}") from None
        self._push(player, play, where)

    def cube(self, player: int, action: CubeEvent, where: Location) -> None:
        """Push a cube action after checking it is made by the right player."""
        game, record = self._require_game(where)
        expected = game.turn if isinstance(action, Double | Raccoon) else game.decider
        if isinstance(action, Raccoon) and game.pending is not None:
            expected = game.pending.by
        if expected is not None and player != expected:
            raise where.error(
                f"game {record.number}: {type(action).__name__} by player {player}, but "
                f"player {expected} must act"
            )
        self._push(player, action, where)

    def resign(self, player: int, action: ResignEvent, where: Location) -> None:
        """Push a resignation, acceptance or rejection, made by the right player."""
        game, record = self._require_game(where)
        expected = game.turn if isinstance(action, Resign) else game.decider
        if expected is not None and player != expected:
            raise where.error(
                f"game {record.number}: {type(action).__name__} by player {player}, but "
                f"player {expected} must act"
            )
        if isinstance(action, Resign) and expected is None:
            action = Resign(action.level, player)  # before the opening roll: say who
        self._push(player, action, where)

    def variant_action(self, player: int, action: Action, where: Location) -> None:
        """Push a variant's own action (e.g. the atomic bomb)."""
        self._push(player, action, where)

    def annotate(self, comment: str | None, annotations: dict[str, Any], where: Location) -> None:
        """Attach a comment and annotations to the last action."""
        _, record = self._require_game(where)
        if not record.entries:
            raise where.error("an annotation before any action")
        entry = record.entries[-1]
        if comment:
            entry.comment = comment if entry.comment is None else f"{entry.comment}\n{comment}"
        entry.annotations.update(annotations)

    def annotate_game(self, annotations: dict[str, Any], where: Location) -> None:
        """Attach raw annotations to the current game."""
        _, record = self._require_game(where)
        record.annotations.update(annotations)

    def comment(self, text: str, where: Location) -> None:
        """A comment on the match (before the first game) or on the current game."""
        if self._game_record is not None:
            previous = self._game_record.comment
            self._game_record.comment = text if previous is None else f"{previous}\n{text}"
        elif self._record is not None:
            previous = self._record.comment
            self._record.comment = text if previous is None else f"{previous}\n{text}"

    def end_game(self, winner: int | None, points: int | None, where: Location) -> None:
        """Close the game; what the file says must agree with the rules' outcome."""
        game, record = self._require_game(where)
        outcome = game.outcome
        record.outcome = outcome
        if winner is None and points is None:
            return
        if outcome is None:
            raise where.error(
                f"game {record.number}: the file says player {winner} wins, but the game "
                "is not over by the rules"
            )
        if winner is not None and winner != outcome.winner:
            raise where.error(
                f"game {record.number}: the file says player {winner} wins, but the rules "
                f"give the game to player {outcome.winner}"
            )
        if points is not None and points not in (outcome.points, self._to_win(record, outcome)):
            raise where.error(
                f"game {record.number}: the file says {points} points, but the rules give "
                f"{outcome.points}"
            )

    def _to_win(self, record: GameRecord, outcome: Outcome) -> int:
        """The points the winner still needed for the match (``outcome.points`` in
        money play): XG and some servers write a match's last game with its points
        capped at that."""
        length = self.record.info.length
        if not length:
            return outcome.points
        return min(outcome.points, length - record.score_before[outcome.winner])

    def end_match(self, where: Location) -> None:
        """Nothing to check beyond what each game checked."""

"""The state of a match or money session, as GNU Backgammon's Match ID records it.

:class:`MatchState` is a frozen value: the match length and score, the cube, who is on
roll and who must decide now, the Crawford flag, the state of the game, a pending
double or resignation, and the dice. It converts exactly to and from the Match ID
(GNU Backgammon manual, "A technical description of the Match ID"; codec in
:mod:`backgammon.notation.match_id`): every valid state has one Match ID and every
Match ID the codec accepts gives one state, so ``MatchState.from_match_id(text)``
followed by ``.match_id`` returns ``text``.

Players are numbered 0 and 1 as in GNU Backgammon.

>>> state = MatchState.from_match_id("QYkqASAAIAAA")
>>> state.match_length, state.score, state.cube_value, state.cube_owner, state.dice
(9, (2, 4), 2, 0, (5, 2))
>>> state.match_id
'QYkqASAAIAAA'
>>> MatchState.initial(7).match_id
'MAHgAAAAAAAE'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from backgammon.errors import InvalidIdError
from backgammon.notation.match_id import MatchIdFields, decode_match_id, encode_match_id

__all__ = ["GameState", "MatchState", "Resignation"]

_MAX_15_BITS = (1 << 15) - 1
_MAX_CUBE_LOG2 = 15
_CENTRED = 3


class GameState(IntEnum):
    """Where the current game stands (Match ID bits 9-11)."""

    NONE = 0
    """No game has started."""
    PLAYING = 1
    """A game is being played."""
    OVER = 2
    """The game ended by bearing off."""
    RESIGNED = 3
    """The game ended by an accepted resignation."""
    DROPPED = 4
    """The game ended by a dropped double."""


class Resignation(IntEnum):
    """A resignation on offer, by how much the resigning player concedes (bits 14-15)."""

    NONE = 0
    """No resignation is on offer."""
    SINGLE = 1
    """A single game (the cube value)."""
    GAMMON = 2
    """A gammon (twice the cube value)."""
    BACKGAMMON = 3
    """A backgammon (three times the cube value)."""


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be a bool, got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """A match or money-session state: everything a Match ID holds.

    Attributes:
        match_length: the match length, 0 for a money session (at most 32767).
        score: ``(player 0's score, player 1's score)``.
        cube_value: the cube value, a power of two from 1 to 32768.
        cube_owner: the player who owns the cube, or ``None`` while it is centred.
        player_on_roll: the player on roll, or who did roll (the dice owner).
        turn: the player who must decide now (after a double: the one who must take
            or drop; after a resignation offer: the one who must accept or reject).
        crawford: whether this game is the Crawford game.
        game_state: where the current game stands.
        double_offered: whether a double is on offer.
        resignation: the resignation on offer, if any.
        dice: the dice as rolled, each 1..6, or ``None`` if not rolled. GNU Backgammon
            writes the higher die first; the order given here is kept.
        jacoby: whether the Jacoby rule is in use. GNU Backgammon 1.07 records
            ``False`` in match play (Match ID bit 67).

    Raises:
        ValueError: from the constructor, if a value is out of range or the values
            contradict each other (a Crawford game in a money session, a game being
            played at a score that has already ended the match).
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    jacoby: bool = False

    def __post_init__(self) -> None:
        _check_int("match_length", self.match_length, 0, _MAX_15_BITS)
        if not isinstance(self.score, tuple) or len(self.score) != 2:
            raise ValueError(f"score must be a tuple of two ints, got {self.score!r}")
        for points in self.score:
            _check_int("a score", points, 0, _MAX_15_BITS)
        _check_int("cube_value", self.cube_value, 1, 1 << _MAX_CUBE_LOG2)
        if self.cube_value & (self.cube_value - 1):
            raise ValueError(f"cube_value must be a power of two, got {self.cube_value}")
        if self.cube_owner is not None:
            _check_int("cube_owner", self.cube_owner, 0, 1)
        _check_int("player_on_roll", self.player_on_roll, 0, 1)
        _check_int("turn", self.turn, 0, 1)
        _check_bool("crawford", self.crawford)
        _check_bool("double_offered", self.double_offered)
        _check_bool("jacoby", self.jacoby)
        try:
            object.__setattr__(self, "game_state", GameState(self.game_state))
        except ValueError:
            raise ValueError(f"game_state must be a GameState, got {self.game_state!r}") from None
        try:
            object.__setattr__(self, "resignation", Resignation(self.resignation))
        except ValueError:
            raise ValueError(
                f"resignation must be a Resignation, got {self.resignation!r}"
            ) from None
        if self.dice is not None:
            if not isinstance(self.dice, tuple) or len(self.dice) != 2:
                raise ValueError(f"dice must be None or a tuple of two ints, got {self.dice!r}")
            for die in self.dice:
                _check_int("a die", die, 1, 6)
        if self.crawford and self.match_length == 0:
            raise ValueError("a money session (match_length 0) has no Crawford game")
        if (
            self.game_state is GameState.PLAYING
            and self.match_length > 0
            and max(self.score) >= self.match_length
        ):
            raise ValueError(
                f"a game is being played but the score {self.score[0]}-{self.score[1]} "
                f"already ends the {self.match_length}-point match"
            )

    def __repr__(self) -> str:
        """The canonical form, which can be pasted back: ``MatchState.from_match_id(...)``."""
        return f"MatchState.from_match_id({self.match_id!r})"

    @classmethod
    def initial(cls, match_length: int = 0) -> MatchState:
        """The state before the first roll of a match (or a money session if 0).

        Score 0-0, cube 1 centred, player 0 to roll, a game being played, no dice.

        Raises:
            ValueError: if ``match_length`` is negative or above 32767.
        """
        return cls(match_length=match_length)

    @classmethod
    def from_match_id(cls, text: str) -> MatchState:
        """Decode a GNU Backgammon Match ID (12 Base64 characters).

        Raises:
            InvalidIdError: if ``text`` is not a valid Match ID; the message quotes it.
        """
        fields = decode_match_id(text)
        try:
            return cls(
                match_length=fields.match_length,
                score=(fields.score0, fields.score1),
                cube_value=1 << fields.cube_log2,
                cube_owner=None if fields.cube_owner == _CENTRED else fields.cube_owner,
                player_on_roll=fields.dice_owner,
                turn=fields.turn,
                crawford=fields.crawford,
                game_state=GameState(fields.game_state),
                double_offered=fields.double_offered,
                resignation=Resignation(fields.resignation),
                dice=None if fields.dice == (0, 0) else fields.dice,
                jacoby=fields.jacoby,
            )
        except ValueError as exc:  # pragma: no cover - the codec checks the same things
            raise InvalidIdError(f"invalid Match ID {text!r}: {exc}") from exc

    @property
    def match_id(self) -> str:
        """This state's GNU Backgammon Match ID (12 Base64 characters)."""
        return encode_match_id(
            MatchIdFields(
                cube_log2=self.cube_value.bit_length() - 1,
                cube_owner=_CENTRED if self.cube_owner is None else self.cube_owner,
                dice_owner=self.player_on_roll,
                crawford=self.crawford,
                game_state=int(self.game_state),
                turn=self.turn,
                double_offered=self.double_offered,
                resignation=int(self.resignation),
                dice=(0, 0) if self.dice is None else self.dice,
                match_length=self.match_length,
                score0=self.score[0],
                score1=self.score[1],
                jacoby=self.jacoby,
            )
        )

    @property
    def is_money(self) -> bool:
        """Whether this is a money session rather than a match (``match_length == 0``)."""
        return self.match_length == 0

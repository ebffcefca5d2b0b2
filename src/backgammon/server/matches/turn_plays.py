"""The legal plays of the roll in front of a live match's player, worked out once.

A roll's legal plays are needed several times over one turn: to see whether the roll
has no play at all, to resolve the play the player sends, and (for web clients) in
the state, each play's notation and steps. :class:`TurnPlays` holds them for one
position and roll; :meth:`TurnPlays.of` returns the one given when it is still for
the game's current position and roll, else a new one. The plays' texts are written
only when first asked for (a FIBS client is sent boards, not the list of plays, and
writing every play's notation at each roll was the largest cost of an action under
load); they come from a :class:`PlayTexts` that the server's matches share: the same
steps always read the same, and the same few thousand plays come up again and again.
"""

from __future__ import annotations

from collections.abc import Iterable

from backgammon.rules.dice import Roll
from backgammon.rules.game import Game
from backgammon.rules.movegen import STEP_FIELDS
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["PlayTexts", "TurnPlays"]

StepPairs = tuple[tuple[int, int], ...]
"""A play's steps as (source, destination) pairs, as clients are sent them."""


def _pairs(code: bytes) -> StepPairs:
    """The (source, destination) pairs of a play's packed steps (source, die, hit)."""
    return tuple(
        (source, max(source - die, 0))
        for source, die in zip(code[0::STEP_FIELDS], code[1::STEP_FIELDS], strict=True)
    )


class PlayTexts:
    """Each play's notation and steps, remembered by its packed steps, at most
    ``limit`` of them: when the newer half is full, the older half is forgotten and
    the newer becomes the older (what is still in use is moved back on its next use,
    so a full table never forgets everything at once)."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._newer: dict[bytes, tuple[str, StepPairs]] = {}
        self._older: dict[bytes, tuple[str, StepPairs]] = {}

    def __len__(self) -> int:
        return len(self._newer) + len(self._older)

    def of(self, play: Play) -> tuple[str, StepPairs]:
        """The play's canonical notation and its steps."""
        key = play.step_bytes
        known = self._newer.get(key)
        if known is None:
            known = self._older.pop(key, None)
            if known is None:
                known = (play.notation(), _pairs(key))
            if len(self._newer) >= max(1, self.limit // 2):
                self._older = self._newer
                self._newer = {}
            self._newer[key] = known
        return known


class TurnPlays:
    """The legal plays of ``dice`` from ``position`` as clients are sent them: their
    canonical notation and steps, in the rules' order, written on first use. Only
    the plays' packed steps are kept, not the plays: a turn's state lives for
    seconds, and bytes drop out of the garbage collector's tracking where a thousand
    matches' play objects made every young-generation pass longer."""

    __slots__ = (
        "_codes",
        "_index",
        "_texts",
        "_written",
        "dice",
        "position",
        "to_move",
    )

    def __init__(
        self, position: Position, dice: Roll, plays: Iterable[Play], texts: PlayTexts
    ) -> None:
        self.position = position
        self.dice = dice
        listed = tuple(plays)
        self._codes = tuple(play.step_bytes for play in listed)
        self.to_move: int = max((play.dice_used for play in listed), default=0)
        """How many dice the roll lets the player use (CLIP's can-move)."""
        self._texts = texts
        self._written: list[tuple[str, StepPairs]] | None = None
        self._index: dict[str, int] | None = None

    @classmethod
    def of(
        cls, game: Game, known: TurnPlays | None = None, texts: PlayTexts | None = None
    ) -> TurnPlays:
        """The plays of the game's position and dice (``known`` when it is theirs),
        written with ``texts`` (a new one by default).

        Raises:
            IllegalActionError: if no dice have been rolled.
        """
        if known is not None and known.dice == game.dice and known.position == game.position:
            return known
        plays = game.legal_plays()  # raises without dice
        assert game.dice is not None
        return cls(game.position, game.dice, plays, PlayTexts() if texts is None else texts)

    def __len__(self) -> int:
        return len(self._codes)

    def _texts_of(self, game: Game) -> list[tuple[str, StepPairs]]:
        if self._written is None:
            self._written = [self._texts.of(play) for play in game.legal_plays()]
        return self._written

    def notations(self, game: Game) -> tuple[str, ...]:
        """Each play's canonical notation (``game``: the game these plays are of)."""
        return tuple(notation for notation, _ in self._texts_of(game))

    def steps(self, game: Game) -> tuple[StepPairs, ...]:
        """Each play's steps as (source, destination) pairs."""
        return tuple(steps for _, steps in self._texts_of(game))

    def written(self, notation: str, game: Game) -> Play | None:
        """The play of ``game`` (the game these plays are of) whose canonical notation
        is exactly ``notation``, if any (other spellings are for
        :func:`~backgammon.rules.play.parse_play`)."""
        if self._index is None:
            self._index = {text: index for index, (text, _) in enumerate(self._texts_of(game))}
        index = self._index.get(notation)
        return None if index is None else game.legal_plays()[index]

    def with_steps(self, steps: Iterable[tuple[int, int]], game: Game) -> Play | None:
        """The one play of ``game`` that makes exactly these single-die steps, in any
        order ((source, destination) pairs, the mover's points, 25 the bar and 0
        off: how FIBS clients send a play), or None if no play or more than one does."""
        wanted = sorted(steps)
        length = STEP_FIELDS * len(wanted)
        sources = bytes(sorted(source for source, _ in wanted)) if wanted else b""
        found = [
            index
            for index, code in enumerate(self._codes)
            # The packed sources first: a cheap test that rules out nearly every play.
            if len(code) == length
            and bytes(sorted(code[0::STEP_FIELDS])) == sources
            and sorted(_pairs(code)) == wanted
        ]
        return game.legal_plays()[found[0]] if len(found) == 1 else None

"""The legal plays of the roll in front of a live match's player, worked out once.

A roll's legal plays are needed several times over one turn: in the state sent to
clients (each play's notation and steps), to resolve the play the player sends, and
to see whether the roll has no play at all. Written out for every state, they were
the largest cost of an action under load. :class:`TurnPlays` holds them for one
position and roll; :meth:`TurnPlays.of` returns the one given when it is still for
the game's current position and roll, else a new one. The texts themselves come from
a :class:`PlayTexts` that the server's matches share: the same steps always read the
same, and the same few thousand plays come up again and again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from backgammon.rules.dice import Roll
from backgammon.rules.game import Game
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["PlayTexts", "TurnPlays"]

StepPairs = tuple[tuple[int, int], ...]
"""A play's steps as (source, destination) pairs, as clients are sent them."""


class PlayTexts:
    """Each play's notation and steps, remembered by its packed steps; forgets
    everything when ``limit`` plays are held (a bound on memory, rarely reached)."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._known: dict[bytes, tuple[str, StepPairs]] = {}

    def __len__(self) -> int:
        return len(self._known)

    def of(self, play: Play) -> tuple[str, StepPairs]:
        """The play's canonical notation and its steps."""
        key = play.step_bytes
        known = self._known.get(key)
        if known is None:
            if len(self._known) >= self.limit:
                self._known.clear()
            steps = tuple((step.source, step.destination) for step in play.steps)
            known = self._known[key] = (play.notation(), steps)
        return known


@dataclass(frozen=True, slots=True)
class TurnPlays:
    """The legal plays of ``dice`` from ``position`` as clients are sent them: their
    canonical notation and steps, in the rules' order. Only texts and tuples of
    numbers are kept, not the plays: a turn's state lives for seconds, and tuples of
    numbers drop out of the garbage collector's tracking where a thousand matches'
    play objects made every young-generation pass longer."""

    position: Position
    dice: Roll
    notations: tuple[str, ...]
    steps: tuple[StepPairs, ...]
    to_move: int
    _index: dict[str, int] = field(repr=False, compare=False)

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
        texts = PlayTexts() if texts is None else texts
        written = [texts.of(play) for play in plays]
        notations = tuple(notation for notation, _ in written)
        return cls(
            position=game.position,
            dice=game.dice,
            notations=notations,
            steps=tuple(steps for _, steps in written),
            to_move=max((play.dice_used for play in plays), default=0),
            _index={notation: index for index, notation in enumerate(notations)},
        )

    def written(self, notation: str, game: Game) -> Play | None:
        """The play of ``game`` (the game these plays are of) whose canonical notation
        is exactly ``notation``, if any (other spellings are for
        :func:`~backgammon.rules.play.parse_play`)."""
        index = self._index.get(notation)
        return None if index is None else game.legal_plays()[index]

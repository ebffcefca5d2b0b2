"""A chouette session as one mutable object with ``push``/``pop``, as
:class:`~backgammon.rules.game.Game` has.

The box plays one board against a team. The player holding the team's checkers (the
captain, or the next member in line after a captain who dropped) throws and plays for
the team; every team member has a cube of their own against the box (or, in the older
form, the team shares one). Each game is an ordinary :class:`Game` between the box
(player 0) and the team (player 1), played without its own cube: the cubes are the
chouette's. When a game ends each cube still in play is settled by the board's result,
the lineup rotates and the next game begins.

>>> from backgammon.rules.dice import ScriptedDice
>>> table = Chouette(["Ann", "Bob", "Cy"])
>>> table.box, table.captain, table.team
('Ann', 'Bob', ('Bob', 'Cy'))
>>> table.roll_dice("Ann", ScriptedDice(["3-1"]))  # the opening throw: Ann 3, Bob 1
OpeningRoll(die0=3, die1=1)
>>> str(table.play("Ann", "8/5 6/5"))
'8/5 6/5'
>>> table.push(CubeDouble("Cy", "Cy")); table.pending
(Offer(doubler='Cy', member='Cy'),)
>>> table.push(CubeDrop("Ann", "Cy")); table.scores
{'Ann': -1, 'Bob': 0, 'Cy': 1}
>>> table.push(CubeDouble("Ann", "Bob"))
Traceback (most recent call last):
...
backgammon.errors.IllegalActionError: Ann may not double Bob's cube: Bob (the team) is on roll
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from backgammon.errors import IllegalActionError
from backgammon.rules.chouette.actions import (
    TEAM,
    BoardAction,
    ChouetteAction,
    CubeDouble,
    CubeDrop,
    CubeTake,
    Offer,
)
from backgammon.rules.chouette.lineup import rotate, validate_lineup
from backgammon.rules.chouette.results import CubeResult, GameResult
from backgammon.rules.chouette.settings import ChouetteRules
from backgammon.rules.cube import CubeRules, CubeState
from backgammon.rules.dice import DiceSource, Roll
from backgammon.rules.game import Game, OpeningRoll, Outcome, WinKind
from backgammon.rules.play import Play, PlayList, parse_play
from backgammon.rules.position import Position

__all__ = ["Chouette"]

BOX, TEAM_SIDE = 0, 1  # the box is player 0 of every game, the team player 1


@dataclass(frozen=True, slots=True)
class _Snapshot:
    lineup: tuple[str, ...]
    game: Game
    board_pushed: bool
    holder: str
    cubes: tuple[tuple[str, CubeState], ...]
    out: frozenset[str]
    pending: tuple[Offer, ...]
    settled: tuple[CubeResult, ...]
    scores: tuple[tuple[str, int], ...]
    results_count: int


def _new_game() -> Game:
    return Game(rules=CubeRules(cube=False))


class Chouette:
    """A chouette: the box against a captain and a team, each member with their own
    cube, the lineup rotating after each game, and each player's running score.

    The session never ends by itself: after each game the next one starts at once.
    """

    def __init__(self, players: Sequence[str], rules: ChouetteRules | None = None) -> None:
        """Seat the players: the box first, then the captain, then the rest of the team
        in line.

        Raises:
            ValueError: for fewer than three players, a repeated name or a name the
                session record cannot hold (see :func:`validate_lineup`).
        """
        self.players: tuple[str, ...] = validate_lineup(players)
        """Every player, in the first game's lineup."""
        self.rules = ChouetteRules() if rules is None else rules
        self._lineup = self.players
        self._scores = dict.fromkeys(self.players, 0)
        self._results: list[GameResult] = []
        self._history: list[ChouetteAction] = []
        self._undo: list[_Snapshot] = []
        self._start_game()

    def _start_game(self) -> None:
        self._game = _new_game()
        self._holder = self._lineup[1]
        self._cubes = {member: CubeState() for member in self._lineup[1:]}
        self._out: frozenset[str] = frozenset()
        self._pending: tuple[Offer, ...] = ()
        self._settled: tuple[CubeResult, ...] = ()

    # -- state -------------------------------------------------------------------

    @property
    def lineup(self) -> tuple[str, ...]:
        """This game's lineup: the box, the captain, then the rest of the team in line."""
        return self._lineup

    @property
    def box(self) -> str:
        """The player in the box."""
        return self._lineup[0]

    @property
    def captain(self) -> str:
        """The captain who began this game (whose result against the box decides the
        rotation), even after they dropped."""
        return self._lineup[1]

    @property
    def team(self) -> tuple[str, ...]:
        """The team members in line, the captain first."""
        return self._lineup[1:]

    @property
    def holder(self) -> str:
        """Who plays the team's checkers now: the captain, or after the captain dropped
        out of this game, the next member in line still in it."""
        return self._holder

    @property
    def members_in(self) -> tuple[str, ...]:
        """The team members still in this game (not dropped), in line."""
        return tuple(member for member in self.team if member not in self._out)

    def cube(self, member: str) -> CubeState:
        """``member``'s cube in this game: owner 0 is the box, owner 1 the member.

        Raises:
            ValueError: if ``member`` is not on this game's team.
        """
        if member not in self._cubes:
            raise ValueError(f"{member!r} is not on this game's team ({', '.join(self.team)})")
        return self._cubes[member]

    @property
    def cubes(self) -> dict[str, CubeState]:
        """Every team member's cube in this game (a copy)."""
        return dict(self._cubes)

    @property
    def pending(self) -> tuple[Offer, ...]:
        """The doubles waiting for an answer, in the order they were offered."""
        return self._pending

    @property
    def settled(self) -> tuple[CubeResult, ...]:
        """The cubes of this game already settled by a drop."""
        return self._settled

    @property
    def scores(self) -> dict[str, int]:
        """Each player's points over the session (a copy); they always sum to zero."""
        return dict(self._scores)

    def money(self, player: str) -> Decimal:
        """``player``'s winnings (negative: losses) at the stake per point.

        Raises:
            ValueError: if ``player`` is not at this chouette.
        """
        if player not in self._scores:
            raise ValueError(f"{player!r} is not at this chouette")
        return self._scores[player] * self.rules.stake

    @property
    def results(self) -> tuple[GameResult, ...]:
        """Every finished game, oldest first."""
        return tuple(self._results)

    @property
    def history(self) -> tuple[ChouetteAction, ...]:
        """Every action pushed so far, oldest first."""
        return tuple(self._history)

    @property
    def position(self) -> Position:
        """The board, seen from the side on roll (from the box before the opening)."""
        return self._game.position

    @property
    def dice(self) -> Roll | None:
        """The dice rolled and not yet played, if any."""
        return self._game.dice

    @property
    def on_roll(self) -> str | None:
        """Who is on roll (the box or the holder of the team's checkers), or ``None``
        before the opening throw."""
        turn = self._game.turn
        if turn is None:
            return None
        return self.box if turn == BOX else self._holder

    def legal_plays(self) -> PlayList:
        """The legal plays of the dice rolled.

        Raises:
            IllegalActionError: if no dice have been rolled.
        """
        return self._game.legal_plays()

    def roller(self) -> str | None:
        """Who must throw next (the box or the holder; either may make the opening
        throw, and then this is the box), or ``None`` while a double waits for an
        answer or the dice are already rolled."""
        if self._pending or self._game.dice is not None:
            return None
        return self.on_roll or self.box

    def legal_actions(self) -> list[ChouetteAction]:
        """Every decision open now: the doubles, takes and drops anybody may make, or
        the plays of the dice rolled (the empty play where nothing can move). Throws
        are not listed (they are chance): see :meth:`roller`."""
        actions: list[ChouetteAction] = []
        if self._game.dice is not None:
            mover = self.on_roll
            assert mover is not None
            plays = list(self._game.legal_plays()) or [Play.no_move(self._game.position)]
            actions.extend(BoardAction(mover, play) for play in plays)
            return actions
        for offer in self._pending:
            for answerer in self._answerers(offer):
                actions.append(CubeTake(answerer, offer.member))
                actions.append(CubeDrop(answerer, offer.member))
        for player in self._lineup:
            for member in (TEAM, *self.team):
                action = CubeDouble(player, member)
                if self.refusal(action) is None:
                    actions.append(action)
        return actions

    def deciders(self) -> tuple[str, ...]:
        """Who may act now, in lineup order: whoever must answer a double, or the
        player to throw or move and every player who may double first."""
        names = {action.player for action in self.legal_actions()}
        roller = self.roller()
        if roller is not None:
            names.add(roller)
            if self.on_roll is None:
                names.add(self._holder)
        return tuple(name for name in self._lineup if name in names)

    def _answerers(self, offer: Offer) -> tuple[str, ...]:
        if offer.doubler == self.box:
            assert offer.member is not None
            return (offer.member,)
        return (self.box,)

    # -- checks ------------------------------------------------------------------

    def refusal(self, action: ChouetteAction) -> str | None:
        """Why ``action`` may not be pushed now, or ``None`` if it may (a play is only
        checked against the seat and the turn here; :meth:`push` checks it on the
        board)."""
        if isinstance(action, BoardAction):
            return self._board_refusal(action)
        if isinstance(action, CubeDouble):
            return self._double_refusal(action)
        if isinstance(action, CubeTake | CubeDrop):
            return self._answer_refusal(action)
        return f"not a chouette action: {action!r}"

    def _seated(self, player: str) -> str | None:
        if not isinstance(player, str) or player not in self._scores:
            return f"{player!r} is not at this chouette"
        return None

    def _board_refusal(self, action: BoardAction) -> str | None:
        player, move = action.player, action.action
        if (refusal := self._seated(player)) is not None:
            return refusal
        if not isinstance(move, OpeningRoll | Roll | Play):
            return f"not a throw or a play: {move!r}"
        if self._pending:
            waiting = ", ".join(_describe(offer) for offer in self._pending)
            return f"a double waits for an answer ({waiting})"
        mover = self.on_roll
        if mover is None:
            if player not in (self.box, self._holder):
                return (
                    f"{player} may not throw: the opening throw is made by the box "
                    f"({self.box}) or the team's checker player ({self._holder})"
                )
            if not isinstance(move, OpeningRoll):
                return "the game starts with the opening throw"
            return None
        if player != mover:
            return f"{player} may not move: {mover} is on roll"
        return None

    def _double_refusal(self, action: CubeDouble) -> str | None:
        player, member = action.player, action.member
        if (refusal := self._seated(player)) is not None:
            return refusal
        cube_name = "the team's cube" if member is TEAM else f"{member}'s cube"
        why = self._cube_refusal(player, member)
        return None if why is None else f"{player} may not double {cube_name}: {why}"

    def _cube_refusal(self, player: str, member: str | None) -> str | None:
        game = self._game
        if member is TEAM and not self.rules.team_cube:
            return "every member has a cube of their own (name the member)"
        if member is not TEAM and self.rules.team_cube:
            return "the team shares one cube (double it as the team's cube)"
        if member is not TEAM and (not isinstance(member, str) or member not in self.team):
            return f"{member!r} is not on the team"
        if member is not TEAM and member in self._out:
            return f"{member} is out of this game"
        if game.turn is None:
            return "the game has not started (opening throw)"
        if game.dice is not None:
            return "the dice are already rolled: double before rolling"
        doubler_side = BOX if player == self.box else TEAM_SIDE
        if game.turn != doubler_side:
            return f"{self.on_roll} ({'the box' if game.turn == BOX else 'the team'}) is on roll"
        if player != self.box:
            owner = self._holder if member is TEAM else member
            if player != owner:
                return f"only {owner} doubles it"
        covered = self.members_in if member is TEAM else (member,)
        if any(offer.member in (TEAM, *covered) for offer in self._pending):
            return "it is already doubled and waits for an answer"
        cube = self._cubes[covered[0]]
        if not cube.available_to(doubler_side):
            return "the other side owns it"
        limit = self.rules.max_cube
        if limit is not None and cube.value * 2 > limit:
            return f"it is at {cube.value}, and the table's cube limit is {limit}"
        return None

    def _answer_refusal(self, action: CubeTake | CubeDrop) -> str | None:
        player, member = action.player, action.member
        verb = "take" if isinstance(action, CubeTake) else "drop"
        if (refusal := self._seated(player)) is not None:
            return refusal
        offer = next((offer for offer in self._pending if offer.member == member), None)
        cube_name = "the team's cube" if member is TEAM else f"{member}'s cube"
        if offer is None:
            return f"{player} may not {verb} {cube_name}: no double of it waits for an answer"
        answerer = self._answerers(offer)[0]
        if player != answerer:
            return f"{player} may not {verb} {cube_name}: {answerer} answers that double"
        return None

    # -- actions -----------------------------------------------------------------

    def push(self, action: ChouetteAction) -> None:
        """Apply an action after checking that ``action.player`` may take it now.

        Raises:
            IllegalActionError: for an action out of turn, by the wrong seat, by a
                player who is not at the table, or one the rules do not allow now.
            IllegalPlayError: for a play that is not legal on the board.
        """
        refusal = self.refusal(action)
        if refusal is not None:
            raise IllegalActionError(refusal)
        if isinstance(action, BoardAction):
            self._game.push(action.action)  # raises, changing nothing, on an illegal play
        self._save(board_pushed=isinstance(action, BoardAction))
        self._history.append(action)
        if isinstance(action, BoardAction):
            outcome = self._game.outcome
            if outcome is not None:
                self._settle_board(outcome)
        elif isinstance(action, CubeDouble):
            self._apply_double(action)
        elif isinstance(action, CubeTake):
            self._apply_take(action)
        else:
            self._apply_drop(action)

    def _save(self, *, board_pushed: bool) -> None:
        self._undo.append(
            _Snapshot(
                self._lineup,
                self._game,
                board_pushed,
                self._holder,
                tuple(self._cubes.items()),
                self._out,
                self._pending,
                self._settled,
                tuple(self._scores.items()),
                len(self._results),
            )
        )

    def _apply_double(self, action: CubeDouble) -> None:
        if action.player == self.box and action.member is TEAM:
            offers = tuple(Offer(action.player, member) for member in self.members_in)
        else:
            offers = (Offer(action.player, action.member),)
        self._pending = (*self._pending, *offers)

    def _take_offer(self, member: str | None) -> Offer:
        offer = next(offer for offer in self._pending if offer.member == member)
        self._pending = tuple(other for other in self._pending if other is not offer)
        return offer

    def _apply_take(self, action: CubeTake) -> None:
        offer = self._take_offer(action.member)
        taker = BOX if offer.doubler != self.box else TEAM_SIDE
        members = self.members_in if offer.member is TEAM else (offer.member,)
        for member in members:
            assert member is not None
            self._cubes[member] = CubeState(self._cubes[member].value * 2, taker)

    def _apply_drop(self, action: CubeDrop) -> None:
        offer = self._take_offer(action.member)
        winner_is_box = offer.doubler == self.box
        members = self.members_in if offer.member is TEAM else (offer.member,)
        for member in members:
            assert member is not None
            winner = self.box if winner_is_box else member
            self._settle(CubeResult(member, self._cubes[member], winner, WinKind.SINGLE, True))
        self._out = self._out | frozenset(name for name in members if name is not None)
        still_in = self.members_in
        if not still_in:
            self._finish_game()
        elif self._holder in self._out:
            self._holder = still_in[0]

    def _settle_board(self, outcome: Outcome) -> None:
        for member in self.members_in:
            cube = self._cubes[member]
            kind = WinKind.SINGLE if self.rules.jacoby and cube.value == 1 else outcome.kind
            winner = self.box if outcome.winner == BOX else member
            self._settle(CubeResult(member, cube, winner, kind, False))
        self._finish_game()

    def _settle(self, result: CubeResult) -> None:
        loser = self.box if result.winner == result.member else result.member
        self._scores[result.winner] += result.points
        self._scores[loser] -= result.points
        self._settled = (*self._settled, result)

    def _finish_game(self) -> None:
        captain_won = any(
            result.member == self.captain and result.winner == self.captain
            for result in self._settled
        )
        self._results.append(
            GameResult(len(self._results) + 1, self._lineup, self._settled, captain_won)
        )
        self._lineup = rotate(self._lineup, captain_won)
        self._start_game()

    def pop(self) -> ChouetteAction:
        """Undo the last action and return it.

        Raises:
            IndexError: if there is nothing to undo.
        """
        if not self._history:
            raise IndexError("pop from a chouette with no actions")
        snapshot = self._undo.pop()
        self._lineup = snapshot.lineup
        self._game = snapshot.game
        if snapshot.board_pushed:
            self._game.pop()
        self._holder = snapshot.holder
        self._cubes = dict(snapshot.cubes)
        self._out = snapshot.out
        self._pending = snapshot.pending
        self._settled = snapshot.settled
        self._scores = dict(snapshot.scores)
        del self._results[snapshot.results_count :]
        return self._history.pop()

    # -- conveniences ------------------------------------------------------------

    def roll_dice(self, player: str, source: DiceSource) -> OpeningRoll | Roll:
        """``player`` throws with ``source``: the opening throw (the box's die first)
        before the first turn, else a roll. Returns what was pushed.

        Raises:
            IllegalActionError: if ``player`` may not throw now.
        """
        opening = self.on_roll is None
        probe: OpeningRoll | Roll = OpeningRoll(2, 1) if opening else Roll(1, 1)
        refusal = self._board_refusal(BoardAction(player, probe))
        if refusal is None and self._game.dice is not None:
            refusal = f"the dice ({self._game.dice}) are already rolled"
        if refusal is not None:
            raise IllegalActionError(refusal)
        thrown = source.roll()
        action: OpeningRoll | Roll
        action = OpeningRoll(thrown.first, thrown.second) if opening else thrown
        self.push(BoardAction(player, action))
        return action

    def play(self, player: str, move: str | Play) -> Play:
        """``player`` plays ``move`` (notation, parsed against the board and dice).

        Raises:
            IllegalActionError: if ``player`` may not move now or nothing is rolled.
            InvalidNotationError, IllegalPlayError, AmbiguousPlayError: for bad moves.
        """
        refusal = self._board_refusal(BoardAction(player, Play.no_move(self.position)))
        if refusal is not None:
            raise IllegalActionError(refusal)
        dice = self._game.dice
        if dice is None:
            raise IllegalActionError("roll the dice before playing")
        play = move if isinstance(move, Play) else parse_play(move, self.position, dice)
        self.push(BoardAction(player, play))
        return play

    def __repr__(self) -> str:
        scores = " ".join(f"{name}{self._scores[name]:+d}" for name in self.players)
        return f"<Chouette game {len(self._results) + 1} box={self.box} {scores}>"


def _describe(offer: Offer) -> str:
    cube = "the team's cube" if offer.member is TEAM else f"{offer.member}'s cube"
    return f"{offer.doubler} doubled {cube}"

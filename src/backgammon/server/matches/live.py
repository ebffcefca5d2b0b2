"""One match as the server holds it: the rules' :class:`Match`, the seats, the
verifiable dice and the clocks, driven by logged actions.

A :class:`LiveMatch` is pure (no I/O, no wall clock: every call takes ``now``). A
player's action goes through :meth:`LiveMatch.act`, which checks it with the rules
and either raises :class:`ActionRefusedError` (changing nothing) or applies it together
with what follows automatically (the server's rolls when a player cannot double or
the cube is dead for them, a turn with no legal move, the next game's opening throw,
the end of the match) and returns the applied :data:`Entry` list. The server
commits those entries to its log before telling anyone, and a restarted server
rebuilds the same match by :meth:`LiveMatch.replay` of the log: the dice come from the
log, checked against the seed.

An entry is a JSON object: ``{"kind": ..., "by": seat or null, "at": seconds, ...}``
with the action's own fields (``dice`` and ``index`` of a throw; ``move``, ``steps``
and ``result`` of a play; ``level``, ``number``; ``player``: whose turn an automatic
roll or empty play was, or who ran out of time) and, on the entry that ended a game,
``game_over`` (winner, points, kind, ending, and the match score after it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.formats import record_of_match
from backgammon.formats.record import MatchRecord
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    Double,
    Drop,
    Raccoon,
    RejectResignation,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import Roll
from backgammon.rules.game import Action, ChooseDouble, Explode, Game, OpeningRoll, WinKind
from backgammon.rules.match import Match
from backgammon.rules.play import Play, parse_play
from backgammon.server.matches.fair_dice import commitment, derive_throw_of
from backgammon.server.matches.turn_plays import PlayTexts, TurnPlays
from backgammon.server.protocol import ActionBody, MatchSettings
from backgammon.variants import find

__all__ = ["ActionRefusedError", "Entry", "LiveMatch", "cube_rules"]

Entry = dict[str, Any]
"""One logged action (see the module docstring)."""

_SIMPLE: dict[str, Callable[[], Action]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "beaver": Beaver,
    "raccoon": Raccoon,
    "accept": AcceptResignation,
    "reject": RejectResignation,
    "explode": Explode,
}


class ActionRefusedError(Exception):
    """An action the server will not apply; nothing changed.

    Attributes:
        code: a stable machine-readable reason (``not_your_turn``, ``illegal``,
            ``not_a_player``, ``stale``, ``over``, ``bad_action``, ``time_up``).
        message: what is wrong, for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def cube_rules(settings: MatchSettings) -> CubeRules:
    """The rules' cube options for ``settings``."""
    return CubeRules(
        cube=settings.cube,
        beavers=settings.beavers,
        raccoons=settings.raccoons,
        automatic_doubles=settings.automatic_doubles,
        jacoby=settings.jacoby,
        max_cube=settings.max_cube,
        crawford=settings.crawford,
    )


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended: ``winner`` (None for an even money session), ``reason``
    (score, timeout, left, abandoned, adjudicated) and the final score."""

    winner: int | None
    reason: str
    score: tuple[int, int]

    def as_json(self) -> dict[str, Any]:
        """The result as sent to clients and stored."""
        return {"winner": self.winner, "reason": self.reason, "score": list(self.score)}


class LiveMatch:
    """A match in play: rules state, dice, clocks and result, rebuilt from its log.

    Args:
        match_id: the server's id for it.
        settings: variant, length, cube rules and clock.
        names: the two players' names, seat 0 first.
        seed: the secret dice seed; ``nonces``: the players' dice nonces.
        play_texts: the plays' notation and steps, remembered (the server shares one
            among its matches; a small one of its own by default).
    """

    def __init__(
        self,
        match_id: str,
        settings: MatchSettings,
        names: tuple[str, str],
        seed: bytes,
        nonces: tuple[str, str] = ("", ""),
        play_texts: PlayTexts | None = None,
    ) -> None:
        self.id = match_id
        self.settings = settings
        self.names = names
        self.variant = find(settings.variant)
        self.match = Match(
            settings.length, rules=cube_rules(settings), variant=self.variant, players=names
        )
        self._seed = seed
        self.nonces = nonces
        self.commitment = commitment(seed)
        self.throws = 0
        self.entries: list[Entry] = []
        self.result: Result | None = None
        clock = settings.clock
        reserve = 0.0
        if clock is not None:
            reserve = (
                clock.reserve_per_point * settings.length
                if settings.length
                else clock.money_reserve
            )
        self.reserves = [reserve, reserve]
        self.turn_started = 0.0
        self._turn_plays: TurnPlays | None = None
        self._play_texts = PlayTexts(limit=1_000) if play_texts is None else play_texts
        self.event: dict[str, Any] | None = None
        """The event the match is played in (a tournament: its id, name and round),
        named in its state so that its pages lead back to it; None for a lone match."""

    # -- state ---------------------------------------------------------------------

    def turn_plays(self, game: Game) -> TurnPlays:
        """The legal plays of ``game``'s dice, worked out once per roll.

        Raises:
            IllegalActionError: if no dice have been rolled.
        """
        self._turn_plays = TurnPlays.of(game, self._turn_plays, self._play_texts)
        return self._turn_plays

    @property
    def seq(self) -> int:
        """How many entries the log holds (the next entry's number)."""
        return len(self.entries)

    @property
    def game(self) -> Game | None:
        """The current game, if one has started."""
        return self.match.game

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.result is not None

    @property
    def waiting_for(self) -> int | None:
        """The seat that must act now (its clock runs), or None."""
        game = self.match.game
        if self.result is not None or game is None or game.is_over() or game.turn is None:
            return None
        return game.decider

    def deadline(self) -> float | None:
        """When the waiting player's time runs out, or None if no clock runs."""
        clock, seat = self.settings.clock, self.waiting_for
        if clock is None or seat is None:
            return None
        return self.turn_started + clock.delay + self.reserves[seat]

    def reserves_at(self, now: float) -> tuple[float, float]:
        """Both players' reserves at ``now`` (the waiting one's counting down)."""
        reserves = list(self.reserves)
        seat, clock = self.waiting_for, self.settings.clock
        if seat is not None and clock is not None:
            overrun = max(0.0, now - self.turn_started - clock.delay)
            reserves[seat] = max(0.0, reserves[seat] - overrun)
        return reserves[0], reserves[1]

    def seed_hex(self) -> str | None:
        """The dice seed, once the match is over (None before: it is secret)."""
        return self._seed.hex() if self.finished else None

    # -- acting --------------------------------------------------------------------

    def start(self, now: float) -> list[Entry]:
        """Begin the match: the first game and its opening throw. Returns the entries."""
        if self.entries:
            raise ActionRefusedError("bad_action", "the match has already started")
        return self._advance([], now)

    def act(
        self, seat: int, action: ActionBody, now: float, expect: int | None = None
    ) -> list[Entry]:
        """Apply ``seat``'s ``action`` and what follows it automatically.

        Raises:
            ActionRefusedError: if the action is not allowed now (not this seat's turn,
                illegal by the rules, the match is over or has moved on, time is up);
                nothing changes.
        """
        if seat not in (0, 1):
            raise ActionRefusedError("not_a_player", "only the match's players act in it")
        if self.result is not None:
            raise ActionRefusedError("over", "the match is over")
        if expect is not None and expect != self.seq:
            raise ActionRefusedError(
                "stale", f"the match has moved on: state {self.seq}, not {expect}"
            )
        deadline = self.deadline()
        if deadline is not None and now > deadline and self.waiting_for == seat:
            raise ActionRefusedError("time_up", f"{self.names[seat]} has run out of time")
        entry, checked = self._entry_for(seat, action, now)
        self._apply(entry, checked)
        return self._advance([entry], now)

    def timeout(self, now: float) -> list[Entry]:
        """If the waiting player's time has run out at ``now``, end the match (they
        lose) and return the entry; otherwise return nothing."""
        deadline = self.deadline()
        seat = self.waiting_for
        if deadline is None or seat is None or now <= deadline:
            return []
        entry: Entry = {"kind": "timeout", "by": None, "at": now, "player": seat}
        self._apply(entry)
        return [entry]

    def adjudicate(self, winner: int | None, now: float) -> list[Entry]:
        """End an abandoned match, with ``winner`` (or None: no winner)."""
        if self.result is not None:
            return []
        entry: Entry = {"kind": "adjudicate", "by": None, "at": now, "winner": winner}
        self._apply(entry)
        return [entry]

    def abandon(self, loser: int, now: float) -> list[Entry]:
        """End the match because ``loser`` stayed away (their opponent claimed the
        win; the service checked the claim); returns the entry."""
        if self.result is not None:
            return []
        entry: Entry = {"kind": "abandoned", "by": None, "at": now, "player": loser}
        self._apply(entry)
        return [entry]

    def replay(self, entries: list[Entry]) -> None:
        """Apply logged entries (from the database) in order, checking each.

        Raises:
            ValueError: if an entry does not apply (a corrupt log).
        """
        for entry in entries:
            try:
                self._apply(entry)
            except (ActionRefusedError, BackgammonError, KeyError, TypeError) as error:
                raise ValueError(
                    f"match {self.id}: entry {len(self.entries)} {entry!r} does not apply: {error}"
                ) from None

    def resume_clock(self, now: float) -> None:
        """Restart the waiting player's clock at ``now`` (after a server restart, so
        the downtime costs nobody any time)."""
        self.turn_started = max(self.turn_started, now)

    # -- internals -----------------------------------------------------------------

    def _entry_for(self, seat: int, action: ActionBody, now: float) -> tuple[Entry, Action | None]:
        """Check ``seat``'s action against the rules without changing anything;
        return its log entry and the checked rules' action (None for match-level
        actions)."""
        kind = action.kind
        game = self.match.game
        base: Entry = {"kind": kind, "by": seat, "at": now}
        if kind == "claim":
            raise ActionRefusedError(
                "bad_action", "a claim is checked by the server against who is connected"
            )
        if kind in ("leave", "next_game"):
            if kind == "next_game":
                if self.settings.length:
                    raise ActionRefusedError("bad_action", "next_game is for money sessions")
                if game is not None and not game.is_over():
                    raise ActionRefusedError("bad_action", "the current game is not over")
            return base, None
        if game is None or game.is_over():
            raise ActionRefusedError("bad_action", "no game is in progress (send next_game)")
        if game.decider != seat:
            waiting = game.decider
            who = "nobody" if waiting is None else self.names[waiting]
            raise ActionRefusedError("not_your_turn", f"it is {who}'s turn to act, not yours")
        rules_action = self._rules_action(game, base, action)
        try:
            game.push(rules_action)
        except BackgammonError as error:
            raise ActionRefusedError("illegal", str(error)) from None
        game.pop()
        return base, rules_action

    def _play_of(self, game: Game, action: ActionBody) -> Play:
        """The legal play an action names by its move or its steps."""
        assert game.dice is not None
        turn = self.turn_plays(game)
        if action.steps is not None:
            play = turn.with_steps(action.steps, game)
            if play is not None:
                return play
            # Not one play's single-die steps: read them as written moves ("24/12").
            move = " ".join(f"{source}/{destination}" for source, destination in action.steps)
        else:
            assert action.move is not None
            move = action.move
            play = turn.written(move, game)
            if play is not None:
                return play
        try:
            return parse_play(move, game.position, game.dice, game.variant)
        except BackgammonError as error:
            raise ActionRefusedError("illegal", str(error)) from None

    def _rules_action(self, game: Game, entry: Entry, action: ActionBody) -> Action:
        """Fill ``entry`` with the action's fields and return the rules' action."""
        kind = action.kind
        if kind == "roll":
            if game.dice is not None:
                raise ActionRefusedError("illegal", f"the dice ({game.dice}) are already rolled")
            dice = derive_throw_of(self._seed, self.nonces, self.throws, game.variant.dice)
            entry.update(dice=list(dice), index=self.throws)
            return Roll(*dice)
        if kind == "play":
            if (action.move is None) == (action.steps is None):
                raise ActionRefusedError(
                    "bad_action",
                    "a play needs its move, e.g. '13/7 8/7', or its steps, e.g. "
                    "[[13, 7], [8, 7]] (one of them, not both)",
                )
            if game.dice is None:
                raise ActionRefusedError("illegal", "roll the dice before playing")
            play = self._play_of(game, action)
            notation, steps = self._play_texts.of(play)
            entry.update(
                move=notation,
                result=play.position.slots_text,
                steps=[list(pair) for pair in steps],
            )
            return play
        if kind == "resign":
            level = 1 if action.level is None else action.level
            entry["level"] = level
            return Resign(ResignLevel(level))
        if kind == "choose_double":
            if action.number is None:
                raise ActionRefusedError("bad_action", "choose_double needs its number (1-6)")
            entry["number"] = action.number
            return ChooseDouble(action.number)
        return _SIMPLE[kind]()

    def _stored_action(self, game: Game, entry: Entry) -> Action:
        """The rules' action of a logged entry (for replay)."""
        kind = entry["kind"]
        if kind in ("roll", "opening"):
            dice = tuple(entry["dice"])
            if entry["index"] != self.throws:
                raise ValueError(f"throw {entry['index']} logged where {self.throws} was due")
            count = 2 if kind == "opening" else game.variant.dice
            if dice != derive_throw_of(self._seed, self.nonces, self.throws, count):
                raise ValueError(f"throw {self.throws} does not follow from the seed")
            return OpeningRoll(*dice) if kind == "opening" else Roll(*dice)
        if kind == "play":
            if game.dice is None:
                raise ValueError("a play before the dice")
            result = entry.get("result")
            plays = game.legal_plays()
            for play in plays:
                if play.position.slots_text == result:
                    return play
            if not plays and not entry.get("move"):
                return Play.no_move(game.position)
            return parse_play(entry["move"], game.position, game.dice, game.variant)
        if kind == "resign":
            return Resign(ResignLevel(entry["level"]))
        if kind == "choose_double":
            return ChooseDouble(entry["number"])
        return _SIMPLE[kind]()

    def _apply(self, entry: Entry, checked: Action | None = None) -> None:
        """Apply one entry: a logged one is checked against the rules as it is
        replayed; ``checked`` is its rules' action when that was already checked (an
        action from :meth:`act`, or the server's own roll or empty play)."""
        kind, by, now = entry["kind"], entry["by"], float(entry["at"])
        if self.result is not None:
            raise ValueError(f"{kind} after the end of the match")
        clock = self.settings.clock
        if by is not None and clock is not None and by == self.waiting_for:
            overrun = max(0.0, now - self.turn_started - clock.delay)
            self.reserves[by] = max(0.0, self.reserves[by] - overrun)
        if kind == "new_game" or kind == "next_game":
            self.match.new_game()
        elif kind == "leave":
            self._finish_left(by)
        elif kind == "timeout":
            self.reserves[entry["player"]] = 0.0
            self._finish_left(entry["player"], reason="timeout")
        elif kind == "abandoned":
            self._finish_left(entry["player"], reason="abandoned")
        elif kind == "adjudicate":
            self.result = Result(entry["winner"], "adjudicated", self.match.score)
        else:
            game = self.match.game
            if game is None:
                raise ValueError(f"{kind} before the first game")
            if checked is None:
                game.push(self._stored_action(game, entry))
            else:
                game.push_unchecked(checked)
            if kind in ("roll", "opening"):
                self.throws += 1
            outcome = game.outcome
            if outcome is not None:
                entry["game_over"] = {
                    "winner": outcome.winner,
                    "points": outcome.points,
                    "kind": outcome.kind.name.lower(),
                    "ending": outcome.ending.value,
                    "score": list(self.match.score),
                }
            if self.match.length and self.match.is_over():
                self.result = Result(self.match.winner, "score", self.match.score)
        self.entries.append(entry)
        self.turn_started = now

    def _finish_left(self, loser: int, reason: str = "left") -> None:
        """``loser`` concedes (leaves, or runs out of time)."""
        score = self.match.score
        if self.settings.length:
            final = list(score)
            final[1 - loser] = max(final[1 - loser], self.settings.length)
            self.result = Result(1 - loser, reason, (final[0], final[1]))
            return
        game = self.match.game
        final = list(score)
        if game is not None and not game.is_over():
            # A money game left unfinished is lost at its highest value.
            top = WinKind.BACKGAMMON if self.variant.backgammons else WinKind.GAMMON
            top = top if self.variant.gammons else WinKind.SINGLE
            final[1 - loser] += int(top) * game.cube.value
        winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
        self.result = Result(winner, reason, (final[0], final[1]))

    def _advance(self, applied: list[Entry], now: float) -> list[Entry]:
        """Apply what follows automatically; returns ``applied`` plus those entries."""
        while self.result is None:
            game = self.match.game
            entry: Entry | None = None
            action: Action | None = None
            if game is None or game.is_over():
                if not self.settings.length and game is not None:
                    break  # a money session waits for next_game or leave
                entry = {"kind": "new_game", "by": None, "at": now}
            elif game.turn is None:
                dice = derive_throw_of(self._seed, self.nonces, self.throws, 2)
                entry = {"kind": "opening", "by": None, "at": now}
                entry.update(dice=list(dice), index=self.throws)
                action = OpeningRoll(*dice)
            elif game.pending is None or game.pending.kind == "beaver":
                if game.dice is None and not self._has_choice_before_rolling(game):
                    dice = derive_throw_of(self._seed, self.nonces, self.throws, game.variant.dice)
                    entry = {"kind": "roll", "by": None, "at": now, "player": game.turn}
                    entry.update(dice=list(dice), index=self.throws)
                    action = Roll(*dice)
                elif game.dice is not None and not len(self.turn_plays(game)):
                    entry = {"kind": "play", "by": None, "at": now, "player": game.turn}
                    entry.update(move="", steps=[])
                    entry["result"] = game.position.slots_text
                    action = Play.no_move(game.position)
            if entry is None:
                break
            self._apply(entry, action)
            applied.append(entry)
        return applied

    @staticmethod
    def _has_choice_before_rolling(game: Game) -> bool:
        """Whether the player on roll has something to decide before the dice: a
        double that could matter (not where the cube is dead for them: a 1-point
        match, double match point, a cube that covers their score), a raccoon, or
        exploding the bomb."""
        pending = game.pending
        if pending is not None and pending.kind == "beaver":
            return game.rules.raccoons
        return game.double_matters() or (game.variant.atomic and game.explode_refusal() is None)

    # -- views ---------------------------------------------------------------------

    def state(self, now: float, legal_plays: bool = True) -> dict[str, Any]:
        """The whole state for clients (the same for players and spectators; the
        seed only once the match is over). Without ``legal_plays``, the legal plays'
        notations and steps are left out (``None``; FIBS clients are not sent them)."""
        game = self.match.game
        game_state: dict[str, Any] | None = None
        if game is not None:
            position = game.position_for(0)
            pending = game.pending
            legal: list[str] | None = None
            legal_steps: list[tuple[tuple[int, int], ...]] | None = None
            to_move = 0
            if game.dice is not None and game.pending is None and not game.is_over():
                turn = self.turn_plays(game)
                to_move = turn.to_move
                if legal_plays:
                    legal, legal_steps = list(turn.notations(game)), list(turn.steps(game))
            game_state = {
                "number": len(self.match.games),
                "score": list(game.context.score),
                "crawford": game.context.crawford,
                "turn": game.turn,
                "dice": None if game.dice is None else list(game.dice.dice),
                "cube": {"value": game.cube.value, "owner": game.cube.owner},
                "pending": None
                if pending is None
                else {"kind": pending.kind, "by": pending.by, "level": int(pending.level)},
                "board": {
                    "slots": position.slots_text,
                    "player0": list(position.player),
                    "player1": list(position.opponent),
                    "pips": list(position.pip_counts()),
                },
                "can_double": game.turn is not None and game.double_matters(),
                "legal_plays": legal,
                "legal_steps": legal_steps,
                "to_move": to_move,
                "over": game.is_over(),
                "outcome": None
                if game.outcome is None
                else {
                    "winner": game.outcome.winner,
                    "points": game.outcome.points,
                    "kind": game.outcome.kind.name.lower(),
                    "ending": game.outcome.ending.value,
                },
            }
        clock = self.settings.clock
        reserves = self.reserves_at(now)
        return {
            "match": self.id,
            "seq": self.seq,
            "settings": self.settings.model_dump(),
            "players": list(self.names),
            "score": list(self.match.score),
            "game": game_state,
            "waiting_for": self.waiting_for,
            "waiting_since": None if self.waiting_for is None else self.turn_started,
            "clock": None
            if clock is None
            else {
                "delay": clock.delay,
                "reserves": [round(reserves[0], 3), round(reserves[1], 3)],
                "deadline": self.deadline(),
                "now": now,
            },
            "dice": {
                "version": 1,
                "commitment": self.commitment,
                "nonces": list(self.nonces),
                "throws": self.throws,
                "seed": self.seed_hex(),
            },
            "result": None if self.result is None else self.result.as_json(),
            "last_play": self.last_play(),
            "event": self.event,
        }

    def last_play(self) -> dict[str, Any] | None:
        """The current game's latest play (so that a page opened mid-turn can say
        what the opponent just did): ``by`` (the seat that played), ``move`` (our
        notation; empty when they could not move) and ``steps`` ([from, to] in their
        numbering); None before the game's first play."""
        for entry in reversed(self.entries):
            if entry["kind"] in ("new_game", "next_game"):
                return None
            if entry["kind"] == "play":
                by = entry["by"] if entry["by"] is not None else entry.get("player")
                return {"by": by, "move": entry.get("move", ""), "steps": entry.get("steps", [])}
        return None

    def record(self) -> MatchRecord:
        """The match as a record for the .mat and SGF writers."""
        return record_of_match(self.match)

    def dice_record(self) -> dict[str, Any]:
        """What ``backgammon verify-dice`` checks: the commitment, the nonces, the
        seed (once revealed) and every throw with its index, from the log."""
        throws = [
            {"index": entry["index"], "dice": entry["dice"], "kind": entry["kind"]}
            for entry in self.entries
            if entry["kind"] in ("roll", "opening")
        ]
        return {
            "format": "backgammon-dice-record",
            "version": 1,
            "match": self.id,
            "players": list(self.names),
            "commitment": self.commitment,
            "nonces": list(self.nonces),
            "seed": self.seed_hex(),
            "throws": throws,
        }

"""The wire protocol: every message a client sends or receives, as typed schemas.

Every WebSocket message is one JSON object with a ``type``; the server validates what a
client sends against :data:`ClientMessage` (a tagged union) and refuses anything else
with an ``error`` naming what is wrong. Messages from the server carry their ``type``
too. :data:`PROTOCOL_VERSION` is sent in the ``welcome`` message and at
``GET /api/version``; it changes whenever a message changes incompatibly. The HTTP
API's request bodies are here too. ``docs/server.md`` documents them with examples.

>>> message = parse_client_message('{"type": "action", "match": "m1", "action": {"kind": "roll"}}')
>>> message.action.kind
'roll'
>>> parse_client_message('{"type": "shout"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon.server.protocol.ProtocolError: bad message: type: 'shout' is not one of ...
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from backgammon import variants
from backgammon.rules.dice import Roll

__all__ = [
    "ACTION_KINDS",
    "PROTOCOL_VERSION",
    "ActionBody",
    "ActionKind",
    "ActionMessage",
    "AnalysisUpload",
    "ChatMessage",
    "ChouetteActionBody",
    "ChouetteActionMessage",
    "ClientMessage",
    "ClockSettings",
    "CreateMatch",
    "Credentials",
    "GiveNonce",
    "JoinMatch",
    "MatchSettings",
    "PingMessage",
    "PositionQuery",
    "ProtocolError",
    "SubscribeMessage",
    "TellMessage",
    "UnsubscribeMessage",
    "parse_body",
    "parse_client_message",
    "parse_position_query",
]

PROTOCOL_VERSION = 1
"""The protocol's version; clients compare it with the ``welcome`` message's."""


class ProtocolError(ValueError):
    """A message that is not valid JSON or does not match any schema."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_Body = TypeVar("_Body", bound=BaseModel)


REQUEST_ID_PATTERN = r"^[A-Za-z0-9_-]+$"
"""What a client request id may be made of (8-40 of these characters)."""


class ClockSettings(_Strict):
    """A time control: ``delay`` seconds per decision that cost nothing, then the
    player's reserve runs; the reserve is ``reserve_per_point`` seconds per point of
    the match (``money_reserve`` in money sessions). Running out loses the match."""

    delay: float = Field(default=12.0, ge=0, le=600)
    reserve_per_point: float = Field(default=60.0, ge=0, le=3600)
    money_reserve: float = Field(default=600.0, ge=0, le=36000)


class MatchSettings(_Strict):
    """What a match is played under, chosen when it is created."""

    variant: str = "standard"
    length: int = Field(default=5, ge=0, le=64, description="points to win; 0 = money session")
    cube: bool = True
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = Field(default=0, ge=0, le=6)
    max_cube: int | None = Field(default=None, ge=1, le=1 << 20)
    clock: ClockSettings | None = Field(default_factory=ClockSettings)

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, name: str) -> str:
        try:
            variant = variants.find(name)
        except KeyError as error:
            raise ValueError(str(error.args[0])) from None
        return variant.name


class Credentials(_Strict):
    """A name and password (register, log in)."""

    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class CreateMatch(_Strict):
    """``POST /api/matches``: a new match, open to anyone, to one invitee, or against
    a bot (``opponent`` ``"bot:expert"``)."""

    settings: MatchSettings = Field(default_factory=MatchSettings)
    rated: bool = True
    public: bool = True
    opponent: str | None = Field(
        default=None, max_length=40, description="a user name to invite, or bot:LEVEL"
    )
    commitment: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{64}$",
        description="a dice commitment from POST /api/matches/commitment (needed with a nonce)",
    )
    nonce: str = Field(default="", max_length=64, pattern=r"^[A-Za-z0-9_-]*$")
    request_id: str | None = Field(
        default=None,
        min_length=8,
        max_length=40,
        pattern=REQUEST_ID_PATTERN,
        description="the client's id for this request: sent again (a double click, a "
        "retry), it gets the match it created the first time instead of another",
    )


class Rematch(_Strict):
    """``POST /api/matches/{id}/rematch``: the asker's dice commitment and nonce, as
    for a new match (both optional; a nonce needs the commitment), and the client's
    ``request_id`` as :class:`CreateMatch`'s."""

    commitment: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    nonce: str = Field(default="", max_length=64, pattern=r"^[A-Za-z0-9_-]*$")
    request_id: str | None = Field(
        default=None, min_length=8, max_length=40, pattern=REQUEST_ID_PATTERN
    )


class GiveNonce(_Strict):
    """``POST /api/matches/{id}/nonce``: a player's dice nonce for a seated match
    (a tournament's) before its first throw, sent after its commitment is published."""

    nonce: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]*$")


class JoinMatch(_Strict):
    """``POST /api/matches/{id}/join``: take the open seat, adding a dice nonce."""

    nonce: str = Field(default="", max_length=64, pattern=r"^[A-Za-z0-9_-]*$")


NO_DICE_WORDS = frozenset({"none", "no dice", "no", "0", "-"})
"""What the position tool's dice field may say for "no dice" (any case)."""


class PositionQuery(_Strict):
    """``POST /api/position``: a Position ID, an XGID or a FIBS ``board:`` line, the
    dice to rank the plays of (``"3-1"``; ``"none"``: no dice, even where the text
    carries some, so the evaluation and cube decision alone; absent or empty: the
    text's own dice, if any) and the lookahead, 0-2 plies."""

    position: str = Field(min_length=1, max_length=400)
    dice: str | None = Field(default=None, max_length=10)
    ply: int = Field(default=0, ge=0, le=2)

    @field_validator("dice")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if value.strip().lower() in NO_DICE_WORDS:
            return "none"
        roll = Roll.parse(value)  # InvalidNotationError is a ValueError
        return f"{roll.first}-{roll.second}"

    @property
    def roll(self) -> tuple[int, int] | None:
        """The dice as two numbers: None for the text's own, ``(0, 0)`` for none."""
        if self.dice is None:
            return None
        if self.dice == "none":
            return (0, 0)
        first, second = self.dice.split("-")
        return int(first), int(second)


def parse_body(schema: type[_Body], text: str | bytes) -> _Body:
    """Validate an HTTP request body against ``schema`` (e.g. :class:`PositionQuery`,
    :class:`AnalysisUpload`).

    Raises:
        ProtocolError: naming the first thing wrong (not JSON, a missing or bad field).
    """
    try:
        return schema.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "json_invalid":
            message = "not JSON"
        raise ProtocolError(f"{where}: {message}") from None


def parse_position_query(text: str | bytes) -> PositionQuery:
    """Validate a ``POST /api/position`` body (see :func:`parse_body`).

    Raises:
        ProtocolError: naming the first thing wrong.
    """
    return parse_body(PositionQuery, text)


class AnalysisUpload(_Strict):
    """``POST /api/analysis``: a match file's text (.mat or SGF, at most a million
    characters) or its bytes in base64 ``data`` (eXtreme Gammon's ``.xg``, OGXM's
    ``.ogxm``; at most a million bytes), and its file name (which tells the format
    when the content alone does not), or instead of them the id of a finished
    ``match`` played on this server; and the analysis' lookahead ``ply`` (0, the
    fastest, to 2)."""

    text: str | None = Field(default=None, min_length=1, max_length=1_000_000)
    data: str | None = Field(default=None, min_length=1, max_length=1_333_336)
    name: str | None = Field(default=None, max_length=200)
    match: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[\w-]+$")
    ply: int = Field(default=0, ge=0, le=2, strict=True)


ActionKind = Literal[
    "roll",
    "play",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "resign",
    "accept",
    "reject",
    "choose_double",
    "explode",
    "next_game",
    "leave",
    "claim",
]
"""Every kind of action a player may send."""

ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)
"""The action kinds, in the protocol's order."""


_Point = Annotated[int, Field(ge=0, le=25)]
"""A point in the mover's numbering: 1-24, 25 the bar, 0 off."""


class ActionBody(_Strict):
    """One game action. ``kind`` is one of roll, play (with ``move`` in our
    notation, e.g. ``"13/7 8/7"``, or with ``steps``, the single-die steps as
    (from, to) pairs in any order, 25 the bar and 0 off, e.g. ``[[13, 7], [8, 7]]``
    for 6-1: how FIBS clients send a play), double, take, drop, beaver, raccoon, resign (with
    ``level`` 1-3: single, gammon, backgammon), accept, reject (a resignation),
    choose_double (acey-deucey, with ``number``), explode (atomic), next_game (money:
    start the next game), leave (concede the match or end the money session), claim
    (the win of a match without a clock whose opponent has been disconnected, while
    the match waits on them, for the server's ``claim_after`` seconds)."""

    kind: ActionKind
    move: str | None = Field(default=None, max_length=200)
    steps: list[tuple[_Point, _Point]] | None = Field(default=None, min_length=1, max_length=8)
    level: int | None = Field(default=None, ge=1, le=3)
    number: int | None = Field(default=None, ge=1, le=6)


class ActionMessage(_Strict):
    """Act in a match. ``expect`` (optional) is the ``seq`` of the state the client
    acts on: if the match has moved on, the action is refused instead of applied to
    a state the player has not seen. ``ref`` is echoed in the answer."""

    type: Literal["action"]
    match: str = Field(max_length=16)
    action: ActionBody
    expect: int | None = Field(default=None, ge=0)
    ref: str | None = Field(default=None, max_length=40)


class ChouetteActionBody(_Strict):
    """One action at a chouette table: ``roll`` (the server throws the dice: the
    opening throw or a roll), ``play`` (with ``move``, e.g. ``"13/7 8/7"``), or
    ``double``, ``take``, ``drop`` of ``member``'s cube. Without ``member`` a team
    member acts on their own cube (in the one-team-cube form: the team's cube, or
    their own stake when the box doubled it); the box names the member whose cube it
    doubles or answers."""

    kind: Literal["roll", "play", "double", "take", "drop"]
    move: str | None = Field(default=None, max_length=200)
    member: str | None = Field(default=None, min_length=1, max_length=40)


class ChouetteActionMessage(_Strict):
    """Act at chouette table ``table`` (its room is ``chouette:ID``). ``expect`` and
    ``ref`` as in :class:`ActionMessage`; the answer is an ``ack`` naming the table
    and the action's ``seq``, or an ``error``."""

    type: Literal["chouette"]
    table: str = Field(max_length=16)
    action: ChouetteActionBody
    expect: int | None = Field(default=None, ge=0)
    ref: str | None = Field(default=None, max_length=40)


class SubscribeMessage(_Strict):
    """Receive a match's states (as player or spectator), or ``"lobby"``'s updates."""

    type: Literal["subscribe"]
    match: str = Field(max_length=40, description="a match id, lobby, tournament:ID or chouette:ID")


class UnsubscribeMessage(_Strict):
    """Stop receiving a match's (or the lobby's) updates."""

    type: Literal["unsubscribe"]
    match: str = Field(max_length=40)


class ChatMessage(_Strict):
    """Say something in ``room`` (``"lobby"``, a match id or ``chouette:ID``). In a
    match or at a chouette table, players' chat goes to everyone there, spectators'
    chat to spectators only. The service
    checks ``text`` as it checks every user's text for every front end
    (:mod:`backgammon.server.social.user_text`: at most 500 characters, no control
    characters); a refusal is an ``error`` that echoes ``ref``."""

    type: Literal["chat"]
    room: str = Field(max_length=41)
    text: str
    ref: str | None = Field(default=None, max_length=40)


class TellMessage(_Strict):
    """A private message to one user (wherever they are connected: web or FIBS);
    ``text`` is checked as :class:`ChatMessage`'s is. Not to oneself, nor to a bot.
    The sender's connections are sent ``told`` (the thread on every open page); a
    refusal is an ``error`` that echoes ``ref``."""

    type: Literal["tell"]
    to: str = Field(max_length=40)
    text: str
    ref: str | None = Field(default=None, max_length=40)


class PingMessage(_Strict):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    ref: str | None = Field(default=None, max_length=40)


ClientMessage = Annotated[
    ActionMessage
    | ChouetteActionMessage
    | SubscribeMessage
    | UnsubscribeMessage
    | ChatMessage
    | TellMessage
    | PingMessage,
    Field(discriminator="type"),
]
"""Anything a client may send over the WebSocket."""

_CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_TYPES = "action, chat, chouette, ping, subscribe, tell, unsubscribe"


def parse_client_message(text: str | bytes) -> Any:
    """Validate one client message; returns the typed message.

    Raises:
        ProtocolError: naming the first thing wrong (not JSON, nested too deeply, not
            an object, an unknown ``type``, a missing or bad field).
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(f"bad message: not JSON ({error})") from None
    except RecursionError:
        # The decoder gives up after the interpreter's recursion limit (about a
        # thousand levels), having read each level once: linear in the message.
        raise ProtocolError("bad message: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"bad message: a JSON object is expected, got {type(data).__name__}")
    if json_holds_nul(text):
        raise ProtocolError("bad message: U+0000 is not allowed in any text")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES.split(", "):
        raise ProtocolError(f"bad message: type: {kind!r} is not one of {_TYPES}")
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError(f"bad message: {where}: {first['msg']}") from None


def json_holds_nul(text: str | bytes) -> bool:
    """Whether JSON text holds the escape of U+0000 (``\\u0000`` after an odd run of
    backslashes: an even run is an escaped backslash and the text "u0000"), the only
    way JSON can carry it. No id, name or text of the API may: PostgreSQL cannot store
    it. Linear: each run of backslashes is counted once."""
    body = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    start = 0
    while (found := body.find(b"u0000", start)) != -1:
        run = 0
        while found - run - 1 >= start and body[found - run - 1] == 0x5C:
            run += 1
        if run % 2 == 1:
            return True
        start = found + 5
    return False

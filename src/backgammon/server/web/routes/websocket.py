"""The live connection, ``/ws``: authenticate, then read the client's messages and
hand them to the service, and write what the service publishes, until either side
closes. A client without a session is an anonymous viewer: the service lets it
watch matches and refuses everything else (docs/server.md)."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from backgammon.server.chouettes.service import ChouetteService
from backgammon.server.lobby.hub import ANONYMOUS, Connection
from backgammon.server.lobby.rate_limit import TokenBucket
from backgammon.server.protocol import (
    ActionMessage,
    ChatMessage,
    ChouetteActionMessage,
    PingMessage,
    ProtocolError,
    SubscribeMessage,
    TellMessage,
    UnsubscribeMessage,
    parse_client_message,
)
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings
from backgammon.server.web.routes.chouettes import chouettes_of
from backgammon.server.web.routes.dependencies import client_address, origin_allowed, session_token
from backgammon.server.web.routes.state import service_of
from backgammon.server.web.routes.tournaments import tournaments_of

__all__ = ["router"]

log = logging.getLogger("backgammon.server")

router = APIRouter()


@router.websocket("/ws")
async def websocket_endpoint(websocket: WebSocket) -> None:
    service = service_of(websocket)
    await _serve_websocket(websocket, service, service.settings, chouettes_of(websocket))


async def _serve_websocket(
    websocket: WebSocket, service: GameService, settings: Settings, chouettes: ChouetteService
) -> None:
    """One client's live connection: authenticate, then read messages and write
    what the service publishes, until either side closes."""
    if not origin_allowed(websocket, settings):
        log.warning("websocket refused: origin %r", websocket.headers.get("origin"))
        await websocket.close(code=4403, reason="origin not allowed")
        return
    since = service.moderation_epoch
    # No live session (none, expired, revoked): an anonymous viewer, told so by
    # its welcome's ``"user": null``.
    user = await service.authenticate(session_token(websocket))
    await websocket.accept()
    connection = Connection(user or ANONYMOUS, address=client_address(websocket))
    if not await _admit(websocket, connection, service, since):
        return
    writer = asyncio.create_task(_write(websocket, connection))
    limit = TokenBucket(settings.messages_per_second, settings.message_burst)
    try:
        if user is not None and user.kind != "guest":
            for pairing in await tournaments_of(websocket).pairings_waiting(user.id):
                connection.send(pairing)  # told while this page was loading
        while not connection.closed:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            data = received.get("text")
            if data is None:
                data = received.get("bytes") or b""
            if len(data) > settings.max_message_bytes:
                connection.send(
                    {
                        "type": "error",
                        "code": "too_large",
                        "message": f"a message has at most {settings.max_message_bytes} bytes",
                    }
                )
                connection.close()
                break
            if not limit.allow():
                refusal = {"type": "error", "code": "rate_limited", "ref": _ref_of(data)}
                if limit.flooding:
                    connection.send({**refusal, "message": "too many messages: disconnected"})
                    connection.close()
                    break
                connection.send({**refusal, "message": "too many messages: slow down"})
                continue
            await _handle(data, connection, service, chouettes)
    except WebSocketDisconnect:
        pass
    finally:
        service.disconnect(connection)
        await writer


async def _admit(
    websocket: WebSocket, connection: Connection, service: GameService, since: int
) -> bool:
    """Register a user's connection (within its user's and its address's caps) or an
    anonymous viewer, or tell it why not and close (code 4429)."""
    try:
        if connection.anonymous:
            service.connect_viewer(connection)
        else:
            service.connect_capped(connection, since)
    except ServiceError as error:
        refusal = {"type": "error", "code": error.code, "message": error.message}
        try:
            await websocket.send_text(json.dumps(refusal))
            await websocket.close(code=4429, reason=error.code)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # gone already
        return False
    return True


def _ref_of(data: str | bytes) -> str | None:
    """The ``ref`` of a message that will not be handled, if it has a usable one."""
    try:
        ref = json.loads(data).get("ref")
    except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):
        return None
    return ref if isinstance(ref, str) and len(ref) <= 40 else None


async def _next_text(connection: Connection) -> str | None:
    """The next queued message's JSON text, or None at the end."""
    message = await connection.queue.get()
    return None if message is None else message.json()


async def _write(websocket: WebSocket, connection: Connection) -> None:
    try:
        # Only the text is held while it is sent, and nothing while the next message
        # is awaited: two thousand idle writers each keeping their last state's dict
        # alive made every young-generation collection pass over all of them.
        while (text := await _next_text(connection)) is not None:
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        connection.closed = True
        if websocket.application_state == WebSocketState.CONNECTED:
            try:
                code = 1009 if connection.overflowed else 1000
                await websocket.close(code=code)
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass


async def _handle(
    data: str | bytes, connection: Connection, service: GameService, chouettes: ChouetteService
) -> None:
    """Dispatch one client message; every failure answers an ``error``."""
    ref = None
    try:
        message = parse_client_message(data)
        ref = getattr(message, "ref", None)
        if isinstance(message, ActionMessage):
            seq = await service.act(connection.user, message.match, message.action, message.expect)
            connection.send({"type": "ack", "match": message.match, "seq": seq, "ref": ref})
        elif isinstance(message, ChouetteActionMessage):
            seq = await chouettes.act(
                connection.user, message.table, message.action, message.expect
            )
            connection.send({"type": "ack", "chouette": message.table, "seq": seq, "ref": ref})
        elif isinstance(message, SubscribeMessage):
            await service.subscribe(connection, message.match)
        elif isinstance(message, UnsubscribeMessage):
            service.lobby_service.unsubscribe(connection, message.match)
        elif isinstance(message, ChatMessage) and message.room.startswith("chouette:"):
            await chouettes.chat(connection.user, message.room, message.text)
        elif isinstance(message, ChatMessage):
            await service.chat(connection.user, message.room, message.text)
        elif isinstance(message, TellMessage):
            await service.tell(connection.user, message.to, message.text)
        elif isinstance(message, PingMessage):
            connection.send({"type": "pong", "ref": ref})
    except ProtocolError as error:
        connection.send(
            {"type": "error", "code": "bad_message", "message": str(error), "ref": _ref_of(data)}
        )
    except ServiceError as error:
        connection.send({"type": "error", "code": error.code, "message": error.message, "ref": ref})

"""Control characters refused in a request's path and query, and U+0000 in its JSON
body, before any route runs.

No id, name or filter of the API holds a control character, and PostgreSQL cannot
store U+0000 at all: a path such as ``/api/matches/%00``, or a login's name with
``\u0000`` in it, reached the database and answered 500 ("invalid byte sequence for
encoding UTF8: 0x00"). :class:`ControlCharacters` is an ASGI middleware that answers
such a request 400 with the API's usual JSON (``{"error": "bad_request", "message":
"path: ..."}``) without calling the app. It reads a JSON body whole before the route
does (inside :class:`~backgammon.server.web.body_limit.BodySizeLimit`, which caps it).
"""

from __future__ import annotations

import json
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backgammon.server.protocol import json_holds_nul

__all__ = ["ControlCharacters", "has_control_character"]

_CONTROLS = frozenset(range(0x20)) | {0x7F}


def has_control_character(text: str | bytes) -> bool:
    """Whether ``text`` holds a C0 control character or DEL (tab, CR and LF too)."""
    codes = text if isinstance(text, bytes) else (ord(char) for char in text)
    return any(code in _CONTROLS for code in codes)


class ControlCharacters:
    """Answers 400 to an HTTP request whose path or query string (percent-decoded)
    holds a control character, or whose JSON body holds U+0000; closes such a
    WebSocket handshake (4400)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        where = _where(scope)
        if where is not None and scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4400})
            return
        if where is not None:
            await _refuse(send, f"{where}: a control character (such as U+0000) is not allowed")
            return
        if scope["type"] == "http" and _is_json(scope):
            messages = await _whole_body(receive)
            body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
            if json_holds_nul(body):
                await _refuse(send, "body: U+0000 is not allowed in any text")
                return
            receive = _replay(messages, receive)
        await self.app(scope, receive, send)


def _is_json(scope: Scope) -> bool:
    headers = dict(scope.get("headers", ()))
    return b"json" in headers.get(b"content-type", b"")


async def _whole_body(receive: Receive) -> list[Message]:
    """The request's messages up to its body's last (or a disconnect)."""
    messages = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` again, then the real one's."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


async def _refuse(send: Send, message: str) -> None:
    encoded = json.dumps({"error": "bad_request", "message": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(encoded)).encode()),
    ]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": encoded})


def _where(scope: Scope) -> str | None:
    """``path`` or ``query`` if that part of the request has a control character."""
    if has_control_character(scope["path"]):
        return "path"
    if has_control_character(unquote_to_bytes(scope.get("query_string", b""))):
        return "query"
    return None

"""A cap on HTTP request bodies, applied before they are read.

:class:`BodySizeLimit` is an ASGI middleware: a request whose ``Content-Length`` is
over the cap is answered 413 at once, without reading a byte of its body; a body sent
without a length (chunked) or longer than it said is counted as it streams in, and
answered 413 as soon as it passes the cap (the route never sees it). The error is the
API's usual JSON: ``{"error": "too_large", "message": "body: at most N bytes ..."}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodySizeLimit"]


class BodySizeLimit:
    """Caps request bodies at ``default`` bytes, or at ``by_path[path]`` for the
    paths named there (a larger upload route, say)."""

    def __init__(
        self, app: ASGIApp, default: int, by_path: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.default = default
        self.by_path = dict(by_path or {})

    def limit_for(self, path: str) -> int:
        """The cap on a body sent to ``path``."""
        return self.by_path.get(path, self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _content_length(scope)
        if declared == -1:
            await _answer(send, 400, "bad_request", "Content-Length: expected a number of bytes")
            return
        if declared is not None and declared > limit:
            await _answer(send, 413, "too_large", _too_large(limit))
            return
        await _LimitedRequest(self.app, limit).run(scope, receive, send)


class _LimitedRequest:
    """One request whose body is counted as the route reads it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.received = 0
        self.refused = False
        self.started = False

    async def run(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def counted_receive() -> Message:
            if self.refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                self.received += len(message.get("body", b""))
                if self.received > self.limit:
                    self.refused = True
                    if not self.started:
                        await _answer(send, 413, "too_large", _too_large(self.limit))
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if self.refused:
                return  # the route's answer to a body it did not get: already answered
            if message["type"] == "http.response.start":
                self.started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not self.refused:
                raise  # a route that failed on a cut-off body: the 413 said it all


def _content_length(scope: Scope) -> int | None:
    """The declared body length; None if not declared, -1 if not a number."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else -1
    return None


def _too_large(limit: int) -> str:
    return f"body: at most {limit} bytes"


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers: list[Any] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

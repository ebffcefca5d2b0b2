"""A Python client for the server: for bots, scripts, tests and load benchmarks.

:class:`ServerClient` logs in over HTTP (a bearer token) and keeps one WebSocket,
collecting the server's messages; :meth:`ServerClient.wait_for` waits for a message
that matches, and :meth:`ServerClient.act` sends an action. Everything goes over the
documented protocol, so what works here works for any client.

    async with ServerClient("http://127.0.0.1:8080") as client:
        await client.register("alice", "a long password")
        match = await client.create_match(opponent="bot:expert", length=3)
        await client.connect()
        await client.subscribe(match["id"])
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["ClientError", "ServerClient"]

Message = dict[str, Any]


class ClientError(Exception):
    """The server refused an HTTP request (``code``, ``message``, ``status``)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class ServerClient:
    """One user's session with a server at ``base_url`` (``http://host:port``)."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)
        self.token: str | None = None
        self.user: Message | None = None
        self.messages: list[Message] = []
        self.states: dict[str, Message] = {}
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Condition()
        self.closed_with: int | None = None

    async def __aenter__(self) -> ServerClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # -- HTTP ----------------------------------------------------------------------

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        """An API call; returns the JSON answer.

        Raises:
            ClientError: for an error answer.
        """
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        response = await self.http.request(method, path, json=body, headers=headers)
        if response.status_code >= 400:
            try:
                data = response.json()
                code = data.get("error", "error")
                message = data.get("message") or json.dumps(data.get("detail"))
            except ValueError:
                code, message = "error", response.text
            raise ClientError(response.status_code, code, message)
        if response.headers.get("content-type", "").startswith("application/json"):
            return response.json()
        return response.text

    async def _session(self, path: str, body: Any = None) -> Message:
        data: Message = await self.request("POST", path, body)
        self.token, self.user = data["token"], data["user"]
        return data

    async def register(self, name: str, password: str) -> Message:
        """Create an account and log in as it."""
        return await self._session("/api/register", {"name": name, "password": password})

    async def login(self, name: str, password: str) -> Message:
        """Log in."""
        return await self._session("/api/login", {"name": name, "password": password})

    async def guest(self) -> Message:
        """Play as a new guest."""
        return await self._session("/api/guest")

    async def create_match(
        self,
        *,
        opponent: str | None = None,
        rated: bool = True,
        public: bool = True,
        nonce: str = "",
        request_id: str | None = None,
        **settings: Any,
    ) -> Message:
        """Create a match (``settings``: variant, length, cube rules, clock, ...).

        With a dice ``nonce``, the server's commitment to the dice seed is asked for
        first and the nonce sent after it, as docs/fair-dice.md describes. With a
        ``request_id``, sending the same call again creates nothing new: the server
        answers with the match the first call created.

        Raises:
            ClientError: the server refused, or it answered with another commitment
                than the one it published.
        """
        body = {"settings": settings, "rated": rated, "public": public, "opponent": opponent}
        if request_id is not None:
            body["request_id"] = request_id
        if nonce:
            published = await self.request("POST", "/api/matches/commitment")
            body |= {"commitment": published["commitment"], "nonce": nonce}
        result: Message = await self.request("POST", "/api/matches", body)
        if nonce and result.get("commitment") != body["commitment"]:
            raise ClientError(0, "commitment", "the match does not use the published commitment")
        return result

    async def join(self, match_id: str, nonce: str = "") -> Message:
        """Take the open seat of a match."""
        result: Message = await self.request(
            "POST", f"/api/matches/{match_id}/join", {"nonce": nonce}
        )
        return result

    async def give_nonce(self, match_id: str, nonce: str) -> Message:
        """Give this player's dice nonce for a seated match (a tournament's) before its
        first throw; check the returned ``commitment`` against the one you were told."""
        result: Message = await self.request(
            "POST", f"/api/matches/{match_id}/nonce", {"nonce": nonce}
        )
        return result

    async def download(self, match_id: str, kind: str) -> str:
        """A record of the match: ``mat``, ``sgf`` or ``dice`` (JSON text)."""
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        response = await self.http.get(f"/api/matches/{match_id}/record.{kind}", headers=headers)
        if response.status_code >= 400:
            data = response.json()
            raise ClientError(response.status_code, data.get("error", ""), data.get("message", ""))
        return response.text

    # -- WebSocket -----------------------------------------------------------------

    async def connect(self, *, origin: str | None = None) -> Message:
        """Open the WebSocket; returns the ``welcome`` message."""
        url = "ws" + self.base_url.removeprefix("http") + "/ws"
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        if origin is not None:
            headers["origin"] = origin
        self._ws = await connect(url, additional_headers=headers, max_size=2**24)
        self._reader = asyncio.create_task(self._read())
        return await self.wait_for(lambda m: m["type"] == "welcome")

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for text in self._ws:
                message = json.loads(text)
                message["_received"] = time.perf_counter()
                if message.get("type") == "state":
                    self.states[message["match"]] = message["state"]
                async with self._arrived:
                    self.messages.append(message)
                    self._arrived.notify_all()
        except Exception:
            pass
        finally:
            self.closed_with = self._ws.close_code if self._ws.close_code is not None else 1006
            async with self._arrived:
                self._arrived.notify_all()

    async def send(self, message: Message | str | bytes) -> None:
        """Send a message (a dict is sent as JSON)."""
        assert self._ws is not None, "connect() first"
        data = message if isinstance(message, str | bytes) else json.dumps(message)
        await self._ws.send(data)

    async def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = 30.0, since: int = 0
    ) -> Message:
        """The first message (from index ``since``) that ``predicate`` accepts,
        waiting up to ``timeout`` seconds.

        Raises:
            TimeoutError: if none arrives; ConnectionError if the socket closes first.
        """
        deadline = time.monotonic() + timeout
        async with self._arrived:
            while True:
                for message in self.messages[since:]:
                    if predicate(message):
                        return message
                if self.closed_with is not None:
                    raise ConnectionError(f"the connection closed ({self.closed_with})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no matching message arrived (last: {self.messages[-1:]})")
                try:
                    await asyncio.wait_for(self._arrived.wait(), left)
                except TimeoutError:
                    continue

    async def subscribe(self, room: str) -> Message:
        """Listen to a match (returns its state message) or the lobby."""
        mark = len(self.messages)
        await self.send({"type": "subscribe", "match": room})
        kind = "lobby" if room == "lobby" else "state"
        return await self.wait_for(
            lambda m: (
                (m["type"] == kind and (kind == "lobby" or m["match"] == room))
                or m["type"] == "error"
            ),
            since=mark,
        )

    async def act(
        self, match_id: str, kind: str, *, expect: int | None = None, **fields: Any
    ) -> Message:
        """Send an action and wait for its answer: the ``ack`` (the new state follows
        it in ``states``) or an ``error``. ``expect``: the state's ``seq`` the action
        is meant for (refused as ``stale`` if the match has moved on)."""
        mark = len(self.messages)
        ref = f"r{mark}-{time.monotonic_ns()}"
        message: Message = {
            "type": "action",
            "match": match_id,
            "action": {"kind": kind, **fields},
            "ref": ref,
        }
        if expect is not None:
            message["expect"] = expect
        await self.send(message)
        return await self.wait_for(
            lambda m: m.get("ref") == ref and m["type"] in ("ack", "error"), since=mark
        )

    async def close(self) -> None:
        """Close the WebSocket and the HTTP client."""
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        await self.http.aclose()

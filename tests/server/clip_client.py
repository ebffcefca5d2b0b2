"""A scripted FIBS/CLIP client for the tests: a raw TCP connection that collects
the server's lines and sends commands, as a FIBS client program does."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from .fibs_classifier import MessageClassifier

PROMPTS = (
    "login: ",
    "> ",
    "password: ",
    "Please give your password: ",
    "Please retype your password: ",
)
"""Prompts the server sends without a line end; a client reads each as a message."""


class ClipClient:
    """One telnet connection to the FIBS listener."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.lines: list[str] = []
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()
        self.closed = False
        self.partial = ""
        # Every message as a real client classifies it (a prompt on its own).
        self.classifier = MessageClassifier()
        self._prompt_sent = ""

    async def connect(self, source: str | None = None) -> None:
        """Connect (from the loopback address ``source`` if given: as from a
        machine of its own)."""
        local = None if source is None else (source, 0)
        self._reader, self._writer = await asyncio.open_connection(
            self.host, self.port, local_addr=local
        )
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self._reader is not None
        buffer = b""
        try:
            while True:
                chunk = await self._reader.read(65536)
                if not chunk:
                    break
                buffer += chunk
                *complete, rest = buffer.split(b"\n")
                buffer = rest
                for raw in complete:
                    line = raw.decode("utf-8").rstrip("\r")
                    self._classify(line)
                    # Like FIBS clients, drop a prompt the line was glued to.
                    for prompt in ("login: ", "> ", "password: "):
                        line = line.removeprefix(prompt)
                    self.lines.append(line)
                self.partial = buffer.decode("utf-8", "replace")
                if self.partial.endswith(PROMPTS) and self.partial != self._prompt_sent:
                    self.classifier.feed(self.partial.removeprefix(self._prompt_sent))
                    self._prompt_sent = self.partial
                self._arrived.set()
        finally:
            self.closed = True
            self._arrived.set()

    def _classify(self, line: str) -> None:
        """Classify a completed line, less a prompt already classified."""
        if self._prompt_sent and line.startswith(self._prompt_sent):
            line = line[len(self._prompt_sent) :]
            self._prompt_sent = ""
            if not line:
                return
        self._prompt_sent = ""
        self.classifier.feed(line)

    def unknown(self) -> list[str]:
        """The lines received so far that a real FIBS client could not place."""
        return self.classifier.unknown()

    async def send(self, line: str | bytes) -> None:
        assert self._writer is not None
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        self._writer.write(data + b"\r\n")
        await self._writer.drain()

    async def wait_for(
        self, predicate: Callable[[str], bool], since: int = 0, timeout: float = 30.0
    ) -> int:
        """The index of the first line from ``since`` that ``predicate`` accepts."""
        deadline = time.monotonic() + timeout
        while True:
            for index in range(since, len(self.lines)):
                if predicate(self.lines[index]):
                    return index
            if self.closed:
                raise ConnectionError("the server closed the connection")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching line; the last: {self.lines[-5:]}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def wait_prompt(self, text: str, timeout: float = 30.0) -> None:
        """Wait until the unterminated prompt ``text`` (e.g. ``login: ``) arrives."""
        deadline = time.monotonic() + timeout
        while not self.partial.endswith(text):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no prompt {text!r}; have {self.partial!r}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), 0.5)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

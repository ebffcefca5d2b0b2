"""Text from one user to others: one set of limits for every front end (WebSocket and
FIBS), and no text that can forge a protocol line in another user's client."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from backgammon.server.client import ServerClient
from backgammon.server.fibs.session import FibsSession
from backgammon.server.settings import Settings
from backgammon.server.social.user_text import MAX_MARKS, MAX_TEXT, UserTextError, check_text

from .test_fibs import _clip_login, _fibs_port

PASSWORD = "a long enough password"

HOSTILE = {
    "hi\r\n12 admin you are banned": "character 3 is U+000D (CARRIAGE RETURN)",
    "x\nboard:You:alice:1:0:0:0": "character 2 is U+000A (LINE FEED)",
    "a\u2028b": "character 2 is U+2028 (LINE SEPARATOR)",
    "\u202eevil": "character 1 is U+202E (RIGHT-TO-LEFT OVERRIDE)",
    "nel\u0085": "character 4 is U+0085",
    "x" * (MAX_TEXT + 1): f"at most {MAX_TEXT} characters (got {MAX_TEXT + 1})",
    "   ": "empty",
}
"""Texts every front end refuses, and what the refusal says."""


def test_check_text_allows_ordinary_text_and_names_what_is_wrong() -> None:
    for text in ("good luck", "שלום and مرحبا\u200f", "x" * MAX_TEXT, "tab-free 😀"):
        assert check_text(text) == text
    for text, reason in HOSTILE.items():
        with pytest.raises(UserTextError, match=r"^text: ") as refused:
            check_text(text)
        assert reason in str(refused.value)


@pytest.mark.parametrize(
    "text",
    ["\u200b\u200b", "\ufeff", "\u3164", "\u115f\u1160", "\uffa0 \u200d", " \u2060\u00ad\t"],
)
def test_text_that_only_looks_blank_is_refused(text: str) -> None:
    with pytest.raises(UserTextError, match="empty"):
        check_text(text)


def test_combining_marks_are_bounded_in_a_row_and_emoji_sequences_pass() -> None:
    accents = "a" + "\u0301" * MAX_MARKS
    assert check_text(accents) == accents
    with pytest.raises(UserTextError, match=f"at most {MAX_MARKS}"):
        check_text("Z" + "\u0336\u0301\u0489" * 40)
    with pytest.raises(UserTextError, match="combining mark"):
        check_text("a" + "\u0301" * (MAX_MARKS + 1))
    for text in (
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: joined by U+200D
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag
        "1\ufe0f\u20e3",  # keycap one
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "gg\u200b!",  # an invisible character inside a text that says something
    ):
        assert check_text(text) == text


def test_the_fibs_writer_never_sends_a_line_break_from_text() -> None:
    written: list[str] = []

    async def write(text: str) -> None:
        written.append(text)

    async def read_line() -> str:
        raise EOFError

    service: Any = SimpleNamespace(settings=Settings())
    session = FibsSession(service, read_line, write, "127.0.0.1")
    asyncio.run(session.line("12 alice hi\r\n12 admin forged\u2028board:x\x00"))
    assert written == ["12 alice hi??12 admin forged?board:x?\r\n"]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_websocket_tell_reaches_its_addressee(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")

    async def scenario() -> None:
        alice, carol, fred_web = (ServerClient(server.url) for _ in range(3))
        await alice.register("alice", PASSWORD)
        await carol.register("carol", PASSWORD)
        await fred_web.register("fred", PASSWORD)
        for client in (alice, carol):
            await client.connect()
        fred = await _clip_login(_fibs_port(server), "fred", PASSWORD)
        await alice.send({"type": "tell", "to": "carol", "text": "just for you"})
        told = await carol.wait_for(lambda m: m["type"] == "tell")
        assert (told["from"], told["text"]) == ("alice", "just for you")
        await alice.send({"type": "tell", "to": "fred", "text": "hello fred"})
        await fred.wait_for(lambda line: line == "12 alice hello fred")
        assert not any(m["type"] == "error" for m in alice.messages)
        await alice.send({"type": "tell", "to": "nobody_here", "text": "hi"})
        error = await alice.wait_for(lambda m: m["type"] == "error")
        assert error["code"] == "not_found"
        await fred.close()
        for client in (alice, carol, fred_web):
            await client.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_hostile_text_is_refused_alike_on_the_web_and_on_fibs(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        alice, fred_web, gail_web = (ServerClient(server.url) for _ in range(3))
        await alice.register("alice", PASSWORD)
        await fred_web.register("fred", PASSWORD)
        await gail_web.register("gail", PASSWORD)
        await alice.connect()
        await alice.subscribe("lobby")
        fred = await _clip_login(port, "fred", PASSWORD)
        gail = await _clip_login(port, "gail", PASSWORD)
        web_refusals: dict[str, str] = {}
        for text in HOSTILE:
            for message in (
                {"type": "chat", "room": "lobby", "text": text},
                {"type": "tell", "to": "fred", "text": text},
            ):
                mark = len(alice.messages)
                await alice.send(message)
                error = await alice.wait_for(lambda m: m["type"] == "error", since=mark)
                assert error["code"] == "bad_request", error
                web_refusals[text] = error["message"]
        # A FIBS client cannot send CR or LF inside a line; everything else it can.
        for text in HOSTILE:
            if "\r" in text or "\n" in text or text != text.strip():
                continue  # (FIBS commands are stripped: U+0085 is a blank)
            for command in (f"shout {text}", f"tell alice {text}"):
                mark = len(gail.lines)
                await gail.send(command)
                index = await gail.wait_for(lambda line: line.startswith("** "), since=mark)
                assert gail.lines[index] == f"** {web_refusals[text]}"
        # Text at the limit passes both ways; then nothing forged ever arrived.
        longest = "y" * MAX_TEXT
        await alice.send({"type": "chat", "room": "lobby", "text": longest})
        await fred.wait_for(lambda line: line == f"13 alice {longest}")
        await gail.send("shout done")
        await alice.wait_for(lambda m: m["type"] == "chat" and m["text"] == "done")
        for client in (fred, gail):
            assert not any(line.startswith(("12 admin", "board:")) for line in client.lines)
            assert not any("you are banned" in line for line in client.lines)
        assert not any(
            m["type"] in ("chat", "tell") and m["text"] in HOSTILE for m in alice.messages
        )
        for fibs in (fred, gail):
            await fibs.close()
        for client in (alice, fred_web, gail_web):
            await client.close()

    asyncio.run(scenario())

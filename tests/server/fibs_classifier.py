"""How a real FIBS client reads the server: each message is put in a class by a fixed,
public table of patterns (tests/data/fibs_cookie_monster.json, from GNU Backgammon for
Android's ``CookieMonster``; the file names its source and license), with the table's
states (login, message of the day, registration, run, logged out).

A line the client cannot place is ``FIBS_Unknown``: a real client drops it. The tests
feed every message a session receives through :class:`MessageClassifier` and require
that none of them is unknown."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).parent.parent / "data" / "fibs_cookie_monster.json"

UNKNOWN = "FIBS_Unknown"


@dataclass(frozen=True)
class Classified:
    """One message and its class; ``pushed_back`` for the text after a pattern's
    match, which the client classifies again as a message of its own."""

    message: str
    cls: str
    state: str
    pushed_back: bool = False


def load_table() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """The batches of the table: name -> [(class, compiled pattern)] in order."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return {
        name: [(row["class"], re.compile(row["regex"])) for row in rows]
        for name, rows in data["batches"].items()
    }


class MessageClassifier:
    """The client's state machine over the table (``fIBSCookie`` in the source)."""

    def __init__(self) -> None:
        self.batches = load_table()
        self.state = "login"
        self.seen: list[Classified] = []

    def feed(self, message: str) -> list[Classified]:
        """Classify one message (and whatever text the match leaves over)."""
        out: list[Classified] = []
        pending: list[tuple[str, bool]] = [(message, False)]
        while pending:
            text, pushed = pending.pop()
            state = self.state
            cls, rest = self._classify(text)
            out.append(Classified(text, cls, state, pushed))
            if rest:
                pending.append((rest, True))
        self.seen.extend(out)
        return out

    def _search(self, batch: str, text: str) -> tuple[str, str] | None:
        for cls, pattern in self.batches[batch]:
            found = pattern.search(text)
            if found is not None:
                return cls, text[found.end() :]
        return None

    def _classify(self, text: str) -> tuple[str, str]:
        state = self.state
        if state == "logout":
            return "FIBS_PostGoodbye", ""
        if state == "run":
            if not text:
                return "FIBS_Empty", ""
            first = text[0]
            batch = "digit" if first.isdigit() else "star" if first == "*" else "other"
            found = self._search(batch, text)
            if found is None:
                return UNKNOWN, ""
            if found[0] == "FIBS_Goodbye":
                self.state = "logout"
            return found
        default = {"login": "FIBS_PreLogin", "motd": "FIBS_MOTD", "register": "FIBS_MOTD"}
        found = self._search(state, text) or (default[state], "")
        if state == "login" and found[0] == "CLIP_MOTD_BEGIN":
            self.state = "motd"
        elif state == "login" and found[0] == "FIBS_WelcomeToFibs":
            self.state = "register"
        elif state == "motd" and found[0] == "CLIP_MOTD_END":
            self.state = "run"
        return found

    def unknown(self) -> list[str]:
        """The messages (not pushed-back remainders) the client could not place."""
        return [c.message for c in self.seen if c.cls == UNKNOWN and not c.pushed_back]

    def classes(self) -> list[str]:
        """The class of every message so far (remainders left out)."""
        return [c.cls for c in self.seen if not c.pushed_back]

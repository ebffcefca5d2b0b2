"""CLIP who lines (``5 ...``), rendered once per change and shared by every session.

A login storm is quadratic in FIBS: each newcomer is sent a who line per user online
and every user online is sent the newcomer's. With N users that is N² lines, so each
one must cost a dictionary lookup, not a formatting: a user's line is rendered when
their facts (:class:`~backgammon.server.lobby.presence.WhoFacts`, shared by the service's
who cache until they change) or their login time change, and kept for every session
of the listener. Only a viewer's own line differs (its ``ready`` toggle), and the
session renders that one itself.
"""

from __future__ import annotations

from backgammon.server.fibs.clip import line_safe, who_info_line
from backgammon.server.lobby.presence import WhoFacts

__all__ = ["WhoLines"]


class WhoLines:
    """Rendered who lines by user id, with the login times sessions report.

    Args:
        size: the most users kept (all are dropped past it, to be rendered again).
    """

    def __init__(self, size: int = 100_000) -> None:
        self.size = size
        self._lines: dict[int, tuple[WhoFacts, int, str]] = {}
        self._logins: dict[int, int] = {}

    def logged_in(self, user_id: int, when: int) -> None:
        """Note when a user logged in here (the who line's login field)."""
        if len(self._logins) >= self.size:
            self._logins.clear()
        self._logins[user_id] = when

    def line(self, user_id: int, facts: WhoFacts, ready: bool | None = None) -> str:
        """The CLIP who line of ``user_id`` (made safe: no control characters).

        ``ready`` overrides the ready flag (a viewer's own line shows its toggle);
        otherwise bots are ready and people are not.
        """
        login = self._logins.get(user_id, 0)
        if ready is None:
            kept = self._lines.get(user_id)
            if kept is not None and kept[0] is facts and kept[1] == login:
                return kept[2]
        text = line_safe(
            who_info_line(
                facts.name,
                opponent=facts.opponent or "-",
                ready=facts.kind == "bot" if ready is None else ready,
                rating=facts.rating,
                experience=facts.experience,
                login=login,
                client="bot" if facts.kind == "bot" else "-",
            )
        )
        if ready is None:
            if len(self._lines) >= self.size:
                self._lines.clear()
            self._lines[user_id] = (facts, login, text)
        return text

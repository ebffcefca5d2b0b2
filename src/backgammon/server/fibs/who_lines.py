"""CLIP who lines (``5 ...``), rendered once per change and shared by every session.

A login storm is quadratic in FIBS: each newcomer is sent a who line per user online
and every user online is sent the newcomer's. With N users that is N² lines, so each
one must cost a dictionary lookup, not a formatting: a user's line is rendered when
their facts (:class:`~backgammon.server.lobby.presence.WhoFacts`, shared by the service's
who cache until they change) or their login time change, and kept for every session
of the listener. What only FIBS knows of a user (the ``ready`` toggle, whom the
user watches) is kept here too, by the sessions of this listener
(:meth:`WhoLines.set_status`): a user without one (on the web, a bot, on another
process) is ready and watches no one.
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
        self._lines: dict[int, tuple[WhoFacts, int, tuple[bool, str], str]] = {}
        self._logins: dict[int, int] = {}
        self._status: dict[int, tuple[bool, str]] = {}
        self._sessions: dict[int, object] = {}

    def claim(self, user_id: int, session: object) -> object | None:
        """Make ``session`` the user's FIBS session here; returns the one it replaces
        (a second login to the same account), if any."""
        previous = self._sessions.get(user_id)
        self._sessions[user_id] = session
        return None if previous is session else previous

    def release(self, user_id: int, session: object) -> None:
        """``session`` ended: forget the user's status, unless a newer login holds it."""
        if self._sessions.get(user_id) is session:
            del self._sessions[user_id]
            self._status.pop(user_id, None)

    def set_status(self, user_id: int, ready: bool, watching: str | None) -> None:
        """Note a FIBS user's ``ready`` toggle and whom they watch (None: no one)."""
        self._status[user_id] = (ready, watching or "-")

    def status(self, user_id: int) -> tuple[bool, str | None]:
        """Whether the user is ready to play and whom they watch (None: no one)."""
        ready, watching = self._status.get(user_id, (True, "-"))
        return ready, None if watching == "-" else watching

    def logged_in(self, user_id: int, when: int) -> None:
        """Note when a user logged in here (the who line's login field)."""
        if len(self._logins) >= self.size:
            self._logins.clear()
            self._status.clear()
        self._logins[user_id] = when

    def line(self, user_id: int, facts: WhoFacts, ready: bool | None = None) -> str:
        """The CLIP who line of ``user_id`` (made safe: no control characters).

        ``ready`` overrides the ready flag; otherwise it is the user's status here
        (:meth:`set_status`).
        """
        login = self._logins.get(user_id, 0)
        status = self._status.get(user_id, (True, "-"))
        if ready is None:
            kept = self._lines.get(user_id)
            if kept is not None and kept[0] is facts and kept[1:3] == (login, status):
                return kept[3]
        text = line_safe(
            who_info_line(
                facts.name,
                opponent=facts.opponent or "-",
                watching=status[1],
                ready=status[0] if ready is None else ready,
                rating=facts.rating,
                experience=facts.experience,
                login=login,
                client="bot" if facts.kind == "bot" else "-",
            )
        )
        if ready is None:
            if len(self._lines) >= self.size:
                self._lines.clear()
            self._lines[user_id] = (facts, login, status, text)
        return text

"""What moderation does, and each process's view of who is muted or banned.

An administrator's moderation is one of :data:`MODERATIONS`:

- ``mute`` / ``unmute``: the user may (not) send text to others (chat, tell, shout,
  kibitz, whisper) from any front end; playing goes on.
- ``kick``: every open connection of the user, in every process, is closed, and
  every session token of the user is revoked, so a page that reconnects is told to
  log in again (a kick lasts until the user logs in again with the password; a
  guest, who has none, is gone for good).
- ``ban`` / ``unban``: as a kick, and the account may not log in until unbanned.

The service commits the change and, in the same transaction, tells the other
processes (the event bus); every process then forgets its cached standing of the
user and closes or warns the user's connections. :class:`Standings` is that cache:
the service reads a user's flags from it on each action (a dictionary look-up), and
from the database only on a miss.
"""

from __future__ import annotations

from collections import OrderedDict

from backgammon.server.db.repository import User

__all__ = ["CLOSING", "MODERATIONS", "Standings"]

MODERATIONS = ("mute", "unmute", "kick", "ban", "unban")
"""What an administrator may do to a user."""

CLOSING = ("kick", "ban")
"""The moderations that close the user's connections and revoke their tokens."""


class Standings:
    """Users as last read from the database (their ``muted``/``banned`` flags), kept
    until a moderation event says they changed; at most ``capacity`` users, the
    least recently used forgotten first.

    A read that started before a moderation event may have read the old flags, so
    :meth:`store` keeps a user only if nothing was forgotten since the read began
    (:attr:`epoch` then is unchanged). In the same way a connection authenticated
    before a kick but registered after it is closed: :meth:`closed_since`.
    """

    def __init__(self, capacity: int = 50_000) -> None:
        self.capacity = capacity
        self.epoch = 0
        self._users: OrderedDict[int, User] = OrderedDict()
        self._closed_at: OrderedDict[int, int] = OrderedDict()

    def get(self, user_id: int) -> User | None:
        """The cached user, or None (read it from the database, then :meth:`store`)."""
        user = self._users.get(user_id)
        if user is not None:
            self._users.move_to_end(user_id)
        return user

    def store(self, user: User, epoch: int) -> None:
        """Keep ``user`` as read when :attr:`epoch` was ``epoch`` (unless something
        was forgotten since)."""
        if epoch != self.epoch:
            return
        self._users[user.id] = user
        self._users.move_to_end(user.id)
        while len(self._users) > self.capacity:
            self._users.popitem(last=False)

    def forget(self, user_id: int, closing: bool = False) -> None:
        """The user's standing changed: read it afresh next time (``closing``: a
        kick or ban closed the user's connections)."""
        self.epoch += 1
        self._users.pop(user_id, None)
        if closing:
            self._closed_at[user_id] = self.epoch
            self._closed_at.move_to_end(user_id)
            while len(self._closed_at) > self.capacity:
                self._closed_at.popitem(last=False)

    def closed_since(self, user_id: int, epoch: int) -> bool:
        """Whether a kick or ban of the user was heard after :attr:`epoch` was
        ``epoch``."""
        return self._closed_at.get(user_id, -1) > epoch

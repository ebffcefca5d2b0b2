"""Moderation: administrators' mutes, kicks and bans, and the checks every action and text passes.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from backgammon.server.common import (
    ServiceError,
    _login_required,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User
from backgammon.server.lobby.hub import ANONYMOUS
from backgammon.server.moderation.flags import CLOSING, MODERATIONS
from backgammon.server.social.user_text import UserTextError, check_text

if TYPE_CHECKING:
    from backgammon.server.service import GameService


class ModerationService:
    """Moderation: administrators' mutes, kicks and bans, and the checks every action and
    text passes."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    async def moderate(self, admin: User, name: str, what: str) -> None:
        """An administrator mutes, unmutes, kicks, bans or unbans a user (see
        :mod:`backgammon.server.moderation.flags`): committed, then applied at once to
        every open connection of the user in every process.

        Raises:
            ServiceError: ``forbidden`` unless ``admin`` is an administrator,
                ``bad_request`` for an unknown moderation, ``not_found``.
        """
        if not admin.is_admin:
            raise ServiceError("forbidden", "administrators only", 403)
        if what not in MODERATIONS:
            known = ", ".join(MODERATIONS)
            raise ServiceError("bad_request", f"unknown moderation {what[:20]!r}: {known}")
        target = await self.site.account_service.user_named(name)
        event = {"k": "moderation", "user": target.id, "what": what}
        async with self.site.db.transaction() as connection:
            if what in ("mute", "unmute"):
                await repo.set_user_flags(connection, target.id, muted=what == "mute")
            elif what in ("ban", "unban"):
                await repo.set_user_flags(connection, target.id, banned=what == "ban")
            if what in CLOSING:
                await repo.delete_tokens_of(connection, target.id)
            await self.site.bus.send_in(connection, event)
        log.info("moderation admin=%s target=%s action=%s", admin.name, target.name, what)
        self._apply_moderation(target.id, what)
        for hook in self.site.moderation_hooks:
            try:
                await hook(target.id, what)
            except Exception:
                log.exception("moderation of %s: a hook failed", target.name)

    def _apply_moderation(self, user_id: int, what: str) -> None:
        """A user's moderation was committed (here or in another process): forget
        their cached standing and tell (or close) their connections here."""
        self.site._standings.forget(user_id, closing=what in CLOSING)
        if what in CLOSING:
            message = {"type": "kicked", "message": f"{what} by an administrator"}
        else:
            words = "muted" if what == "mute" else "no longer muted"
            message = {"type": "moderation", "action": what, "message": f"you are {words}"}
        self.site._deliver_to_user(user_id, message, what in CLOSING)

    async def standing(self, user: User) -> User:
        """``user`` with their current ``muted`` and ``banned`` flags (cached per
        process, forgotten on every moderation event; the database on a miss).

        Raises:
            ServiceError: ``login_required`` for an anonymous viewer, ``forbidden``
                for an account that no longer exists.
        """
        if user.id == ANONYMOUS.id:
            raise _login_required("play or chat")
        cached = self.site._standings.get(user.id)
        if cached is not None:
            return cached
        epoch = self.site._standings.epoch
        fresh = await self._fresh_user(user.id)
        if fresh is None:
            raise ServiceError("forbidden", "no such account", 403)
        self.site._standings.store(fresh, epoch)
        return fresh

    async def _check_active(self, user: User) -> None:
        """Refuse anything from a banned user (a ban closes their connections; this
        refuses what was already on its way)."""
        if (await self.standing(user)).banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)

    async def _check_speaker(self, user: User, text: str, what: str = "text") -> None:
        """Refuse a text that others may not receive, or any text from a muted or
        banned user (chat, and every name a user gives what others see: a chouette
        table's, a tournament's; ``what``: the field, for the error)."""
        try:
            check_text(text, what)
        except UserTextError as error:
            raise ServiceError("bad_request", str(error)) from None
        current = await self.standing(user)
        if current.banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)
        if current.muted:
            raise ServiceError("forbidden", "you are muted", 403)

    async def _fresh_user(self, user_id: int) -> User | None:
        async with self.site.db.transaction() as connection:
            return await repo.user_by_id(connection, user_id)

"""Accounts: sign-ups, logins and their throttles, guests, sessions, profiles and match histories.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from backgammon.server.accounts import throttle
from backgammon.server.accounts.passwords import (
    PasswordWorkersBusyError,
    check_name,
    check_password,
    hash_password,
    hash_token,
    needs_rehash,
    new_token,
    verify_password,
)
from backgammon.server.common import (
    FORGET_THROTTLES_AFTER,
    MAX_TOKENS_PER_USER,
    ServiceError,
    _busy,
    _throttled,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import MatchRow, User
from backgammon.server.matches import history

if TYPE_CHECKING:
    from backgammon.server.service import GameService


class AccountService:
    """Accounts: sign-ups, logins and their throttles, guests, sessions, profiles and match
    histories."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    async def _issue_token(self, user: User) -> str:
        token = new_token()
        now = self.site.clock.now()
        async with self.site.db.transaction() as connection:
            # The new token is always kept; the oldest go beyond the limit.
            await repo.revoke_old_tokens(connection, user.id, MAX_TOKENS_PER_USER - 1, now)
            await repo.store_token(
                connection,
                hash_token(token),
                user.id,
                now,
                now + self.site.settings.session_days * 86400,
            )
        return token

    async def _take_signup(self, address: str | None) -> None:
        """Count one account made from ``address`` (None: an in-process caller).

        Raises:
            ServiceError: ``throttled`` when the address has made too many.
        """
        if address is None:
            return
        key = f"signup:{throttle.client_address(address)}"
        async with self.site.db.transaction() as connection:
            wait = await throttle.take(
                connection, key, self.site.clock.now(), self.site._signup_policy
            )
        if wait:
            log.warning("sign-up throttled address=%s", address)
            raise _throttled("too many new accounts from your address", wait)

    async def register(
        self, name: str, password: str, *, address: str | None = None
    ) -> tuple[User, str]:
        """Create an account and log it in; returns the user and a session token.

        Args:
            name: the new name (unique whatever its case).
            password: its password.
            address: the client's address: accounts made from one address are
                limited (``signups_per_hour``); None for in-process callers (tools,
                tests), which are not.

        Raises:
            ServiceError: ``bad_request`` for a bad name or password, ``conflict`` for
                a name taken (in any case), ``throttled`` for too many accounts from
                the address, ``busy`` when too many passwords wait to be hashed.
        """
        try:
            check_name(name)
            check_password(password)
        except ValueError as error:
            raise ServiceError("bad_request", str(error)) from None
        taken = ServiceError("conflict", f"the name {name!r} is taken", 409)
        async with self.site.db.transaction() as connection:
            if await repo.user_by_name(connection, name) is not None:
                raise taken
        try:
            with self.site.passwords.admit():
                await self._take_signup(address)
                hashed = await self.site.passwords.run(hash_password, password)
        except PasswordWorkersBusyError:
            raise _busy() from None
        now = self.site.clock.now()
        try:
            async with self.site.db.transaction() as connection:
                user = await repo.create_user(connection, name, hashed, "human", now)
                if address is not None:
                    client = throttle.client_address(address)
                    await throttle.remember_address(connection, user.id, client, now)
        except IntegrityError:  # the unique index on lower(name): a racing registration
            raise taken from None
        log.info("registered user=%s", user.name)
        return user, await self._issue_token(user)

    async def _take_login_try(
        self, name: str, client: str, now: float
    ) -> tuple[tuple[User, str | None] | None, list[str]]:
        """Count a login try before its password is checked: against the client's
        address, and against the account unless the client's address has logged in
        to it before. Returns the account found and the keys counted.

        Raises:
            ServiceError: ``throttled`` (nothing counted) when either must wait.
        """
        policy = self.site._login_policy
        async with self.site.db.transaction() as connection:
            found = await repo.user_by_name(connection, name)
            known = found is not None and await throttle.is_known_address(
                connection, found[0].id, client
            )
            keys = [f"login-address:{client}"]
            wait = await throttle.take(connection, keys[0], now, policy)
            if wait:
                raise _throttled("too many failed logins from your address", wait)
            if not known:
                keys.append(f"login-account:{name.lower()[:64]}")
                wait = await throttle.take(connection, keys[1], now, policy)
                if wait:  # leaving the transaction undoes the address's count
                    raise _throttled(
                        "too many failed logins to this account from new addresses "
                        "(an address that logged in to it before may try at once)",
                        wait,
                    )
        return found, keys

    async def login(self, name: str, password: str, address: str) -> tuple[User, str]:
        """Check a password (:meth:`check_login`) and open a session: the user and a new
        session token.

        Raises:
            ServiceError: as :meth:`check_login`.
        """
        user = await self.check_login(name, password, address)
        return user, await self._issue_token(user)

    async def check_login(self, name: str, password: str, address: str) -> User:
        """Check a password, without a session token (a FIBS connection is its own
        session); the account it opens.

        Every try is counted before its password is checked (and given back when it
        was right): per client address, and per account from addresses that never
        logged in to it, so strangers cannot lock the owner out (docs/security.md).

        Raises:
            ServiceError: ``throttled`` (429) when this address, or this account
                from a new address, must wait (even with the right password);
                ``busy`` (503) when too many passwords wait to be checked;
                ``unauthorized`` for a wrong name or password, ``forbidden`` for a
                banned account.
        """
        client = throttle.client_address(address)
        now = self.site.clock.now()
        try:
            with self.site.passwords.admit():
                found, keys = await self._take_login_try(name, client, now)
                hashed = found[1] if found is not None else None
                good = hashed is not None and await self.site.passwords.run(
                    verify_password, hashed, password
                )
                rehashed = None
                if good and hashed is not None and needs_rehash(hashed):
                    rehashed = await self.site.passwords.run(hash_password, password)
        except PasswordWorkersBusyError:
            raise _busy() from None
        except ServiceError:
            log.warning("login throttled name=%r address=%s", name[:40], address)
            raise
        if not good or found is None:
            log.info("login failed name=%r address=%s", name[:40], address)
            raise ServiceError("unauthorized", "wrong name or password", 401)
        user = found[0]
        async with self.site.db.transaction() as connection:
            for key in keys:
                await throttle.give_back(connection, key)
            await throttle.remember_address(connection, user.id, client, now)
            if rehashed is not None:
                await repo.replace_password_hash(connection, user.id, hashed, rehashed)
            await throttle.forget_stale(connection, now - FORGET_THROTTLES_AFTER)
        if user.banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)
        return user

    async def guest(self, *, address: str | None = None) -> tuple[User, str]:
        """A new guest account (unrated play) and its session token.

        Raises:
            ServiceError: ``throttled`` for too many accounts from ``address``
                (None for in-process callers, which are not limited).
        """
        await self._take_signup(address)
        async with self.site.db.transaction() as connection:
            for _ in range(5):
                name = f"guest{secrets.randbelow(10**8):08d}"
                if await repo.user_by_name(connection, name) is None:
                    user = await repo.create_user(
                        connection, name, None, "guest", self.site.clock.now()
                    )
                    break
            else:  # pragma: no cover - 10**8 names
                raise ServiceError("conflict", "no guest name free; try again", 503)
        return user, await self._issue_token(user)

    async def logout(self, token: str) -> None:
        """End a session."""
        async with self.site.db.transaction() as connection:
            await repo.delete_token(connection, hash_token(token))

    async def authenticate(self, token: str | None) -> User | None:
        """The user a session token belongs to (None for none, expired or banned)."""
        if not token or len(token) > 200:
            return None
        async with self.site.db.transaction() as connection:
            user = await repo.user_for_token(connection, hash_token(token), self.site.clock.now())
        return None if user is None or user.banned else user

    async def user_named(self, name: str) -> User:
        """The account called ``name``.

        Raises:
            ServiceError: ``not_found``.
        """
        async with self.site.db.transaction() as connection:
            found = await repo.user_by_name(connection, name)
        if found is None:
            raise ServiceError("not_found", f"no user called {name[:40]!r}", 404)
        return found[0]

    async def profile(self, name: str) -> dict[str, Any]:
        """A user's public page: ratings per variant with history, recent matches."""
        user = await self.user_named(name)
        async with self.site.db.transaction() as connection:
            ratings = await repo.ratings_of(connection, user.id)
            history = await repo.rating_history_of(connection, user.id)
            rows = await repo.list_matches(connection, user_id=user.id, limit=50)
        return {
            **user.public(),
            "ratings": {
                variant: {"rating": round(rating, 2), "experience": experience}
                for variant, (rating, experience) in ratings.items()
            },
            "rating_history": history,
            # an unlisted open match's id is its invitation link, and an invitation
            # is its invitee's business: neither is shown
            "matches": [
                await self.site.lobby_service._summary(row)
                for row in rows
                if row.status != "open" or (row.public and row.invitee is None)
            ],
        }

    async def match_history(
        self, name: str, wanted: history.HistoryFilter, opponent: str | None = None
    ) -> dict[str, Any]:
        """One page of a user's matches that pass ``wanted`` (and, by name, against
        ``opponent``), newest first, with the total that pass: the player page's
        history. An opponent with no account has played no match: an empty page.

        Raises:
            ServiceError: ``not_found`` for no user called ``name``.
        """
        user = await self.user_named(name)
        rows: list[MatchRow] = []
        total = 0
        async with self.site.db.transaction() as connection:
            found = None if opponent is None else await repo.user_by_name(connection, opponent)
            if opponent is None or found is not None:
                if found is not None:
                    wanted = wanted.against(found[0].id)
                rows, total = await history.history_page(connection, user.id, wanted)
        return {
            "matches": [await self.site.lobby_service._summary(row) for row in rows],
            "total": total,
            "page": wanted.page,
            "per_page": wanted.per_page,
        }

"""Making matches: open matches and invitations, joins, rematches, tournament seats, dice
commitments and nonces, and a match's start.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from backgammon.server.accounts import throttle
from backgammon.server.common import (
    MAX_OPEN_MATCHES,
    PENDING_COMMITMENTS,
    READY_SECONDS,
    ServiceError,
    _new_match_id,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import MatchRow, User
from backgammon.server.matches.fair_dice import commitment
from backgammon.server.protocol import (
    CreateMatch,
    MatchSettings,
    Rematch,
)

if TYPE_CHECKING:
    from backgammon.server.service import GameService


class MatchMaking:
    """Making matches: open matches and invitations, joins, rematches, tournament seats,
    dice commitments and nonces, and a match's start."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    async def create_match(
        self, user: User, request: CreateMatch, *, address: str | None = None
    ) -> dict[str, Any]:
        """Create a match: open (public), by invitation, or against a bot (it starts
        at once). The creator sits in seat 0. An invitation is told to its invitee
        only; an open public match to the whole lobby.

        With a ``request_id``, the request is idempotent: the same id from the same
        user (again, or at the same time, in any process) gets the match the first
        request created, and creates nothing.

        ``address``: the client's address (None: an in-process caller); at most
        ``open_matches_per_address`` open matches are made from one (an IPv6
        client's /64), whatever the accounts.

        Raises:
            ServiceError: ``bad_request`` for an unknown opponent; ``conflict``
                for a user in :data:`MAX_OPEN_MATCHES` unfinished matches already;
                ``throttled`` for an address with its open matches; ``forbidden``
                for a banned user.
        """
        await self.site.moderation_service._check_active(user)
        request_id = request.request_id
        if request_id is not None:
            earlier = await self._created_by_request(user, request_id)
            if earlier is not None:
                return earlier
        try:
            network = None if address is None else throttle.client_address(address)
            return await self._create_match(user, request, network)
        except (ServiceError, IntegrityError):
            # A concurrent request with the same id got there first (its insert, or
            # its use of the same dice commitment, won): answer with its match.
            earlier = None
            if request_id is not None:
                earlier = await self._created_by_request(user, request_id)
            if earlier is None:
                raise
            return earlier

    async def _created_by_request(self, user: User, request_id: str) -> dict[str, Any] | None:
        """The summary of the match ``user`` created with ``request_id``, if any."""
        async with self.site.db.transaction() as connection:
            row = await repo.match_by_request(connection, user.id, request_id)
        return None if row is None else await self.site.lobby_service._summary(row)

    async def _create_match(
        self, user: User, request: CreateMatch, network: str | None
    ) -> dict[str, Any]:
        opponent: User | None = None
        invitee: User | None = None
        rated = request.rated and user.kind != "guest"
        if request.opponent:
            if request.opponent.startswith("bot:"):
                opponent = self.site.bot_service.bot_user(request.opponent.removeprefix("bot:"))
            else:
                invitee = await self.site.account_service.user_named(request.opponent)
                if invitee.id == user.id:
                    raise ServiceError("bad_request", "you cannot invite yourself")
                if invitee.kind == "bot":
                    raise ServiceError(
                        "bad_request", f"{invitee.name} is a bot: play it with bot:LEVEL"
                    )
                if invitee.kind == "guest":
                    rated = False
        if not request.settings.length:
            rated = False
        match_id = _new_match_id()
        now = self.site.clock.now()
        async with self.site.db.transaction() as connection:
            await self._check_open_matches(connection, user, network)
            seed = await self._committed_seed(connection, user, request)
            await repo.create_match(
                connection,
                id=match_id,
                created_at=now,
                created_by=user.id,
                config=request.settings.model_dump(),
                status="open",
                player0=user.id,
                player1=None if opponent is None else opponent.id,
                invitee=None if invitee is None else invitee.id,
                rated=rated,
                public=request.public,
                seed=seed.hex(),
                commitment=commitment(seed),
                nonce0=request.nonce,
                nonce1="",
                request_id=request.request_id,
                created_from=network,
            )
        if opponent is not None:
            await self._begin(match_id)
        elif invitee is not None:  # told to the invitee alone, not to the lobby
            self.site._to_user(
                invitee.id,
                {
                    "type": "invitation",
                    "match": match_id,
                    "from": user.name,
                    "settings": request.settings.model_dump(),
                },
            )
        elif request.public:  # an unlisted match's id is its invitation link: not told
            self.site.lobby_service._lobby_event({"event": "match_open", "match": match_id})
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        assert row is not None
        return await self.site.lobby_service._summary(row)

    async def _check_open_matches(self, connection: Any, user: User, network: str | None) -> None:
        """Refuse a new match to a user in :data:`MAX_OPEN_MATCHES` unfinished ones,
        or from a client address (``network``) with ``open_matches_per_address``
        open ones (the user's row and the address are held, so concurrent requests
        count one after another)."""
        if network is not None:
            most = self.site.settings.open_matches_per_address
            if await repo.count_open_matches_from(connection, network) >= most:
                raise ServiceError(
                    "throttled",
                    f"{most} matches made from your address wait for an opponent: "
                    "cancel one, or wait until one starts",
                    429,
                    retry_after=60,
                )
        await repo.lock_user(connection, user.id)
        unfinished = await repo.count_unfinished_matches(connection, user.id)
        if unfinished >= MAX_OPEN_MATCHES:
            raise ServiceError(
                "conflict",
                f"you are in {unfinished} unfinished matches (open ones, invitations, "
                "matches in play, against bots too): finish or cancel one first",
                409,
            )

    async def decline(self, user: User, match_id: str) -> dict[str, Any]:
        """The invitee of an open invitation declines it: the match is deleted, and
        the inviter and the invitee (and whoever watches the match's page) are told.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` unless ``user`` is its
                invitee; ``conflict`` once it has started.
        """
        return await self._close_open_match(user, match_id, by_invitee=True)

    async def cancel(self, user: User, match_id: str) -> dict[str, Any]:
        """The creator of an open match withdraws it (an invitation is cancelled):
        the match is deleted and everyone who could see it is told.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` unless ``user`` created it;
                ``conflict`` once it has started.
        """
        return await self._close_open_match(user, match_id, by_invitee=False)

    async def _close_open_match(
        self, user: User, match_id: str, *, by_invitee: bool
    ) -> dict[str, Any]:
        await self.site.moderation_service._check_active(user)
        async with self.site._lock(match_id), self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            if by_invitee and row.invitee != user.id:
                raise ServiceError(
                    "forbidden", f"match {match_id}: only its invitee may decline it", 403
                )
            if not by_invitee and row.created_by != user.id:
                raise ServiceError(
                    "forbidden", f"match {match_id}: only its creator may cancel it", 403
                )
            if not await repo.delete_open_match(connection, match_id):
                raise ServiceError("conflict", f"match {match_id} has started", 409)
        reason = "withdrawn" if row.invitee is None else "cancelled"
        if by_invitee:
            reason = "declined"
        message = {
            "type": "match_closed",
            "match": match_id,
            "reason": reason,
            "by": user.name,
            "host": await self.site.lobby_service._name_of(row.player0),
            "invitee": await self.site.lobby_service._name_of(row.invitee),
        }
        for user_id in (row.player0, row.invitee):
            if user_id is not None:
                self.site._to_user(user_id, message)
        self.site._to_room(match_id, message)
        if row.public and row.invitee is None:
            self.site.lobby_service._lobby_event({"event": "match_closed", "match": match_id})
        log.info("match %s %s by %s", match_id, reason, user.name)
        return message

    async def dice_commitment(self, user: User) -> dict[str, str]:
        """Draw the seed of ``user``'s next match and publish its commitment now,
        before the user chooses a dice nonce (docs/fair-dice.md); the match created
        with this commitment uses that seed. The newest
        :data:`PENDING_COMMITMENTS` per user are kept."""
        seed = self.site._dice_seeds()
        published = commitment(seed)
        async with self.site.db.transaction() as connection:
            await repo.add_dice_commitment(
                connection,
                published,
                user.id,
                seed.hex(),
                self.site.clock.now(),
                PENDING_COMMITMENTS,
            )
        return {"commitment": published}

    async def _committed_seed(self, connection: Any, user: User, request: CreateMatch) -> bytes:
        """The new match's seed: the one behind the creator's commitment (used up), or
        a fresh one when the creator gives neither commitment nor nonce.

        Raises:
            ServiceError: ``bad_request`` for a nonce without a commitment, or a
                commitment not handed out to this user (or already used).
        """
        if request.commitment is None:
            if request.nonce:
                raise ServiceError(
                    "bad_request",
                    "nonce: give it with a commitment the server published first "
                    "(POST /api/matches/commitment), so that the dice seed is fixed "
                    "before your nonce is seen",
                )
            return self.site._dice_seeds()
        seed_hex = await repo.take_dice_commitment(connection, request.commitment, user.id)
        if seed_hex is None:
            raise ServiceError(
                "bad_request",
                f"commitment: {request.commitment[:16]}... is not one the server gave you, "
                "or it was used already: ask for a new one (POST /api/matches/commitment)",
            )
        return bytes.fromhex(seed_hex)

    async def join_match(self, user: User, match_id: str, nonce: str = "") -> dict[str, Any]:
        """Take the open seat of a match (seat 1) and start it.

        Raises:
            ServiceError: ``not_found``, or ``conflict`` if it is not open, is your
                own, or is by invitation for someone else; ``forbidden`` for a
                banned user.
        """
        await self.site.moderation_service._check_active(user)
        async with self.site._lock(match_id), self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            if row.status != "open":
                raise ServiceError("conflict", f"match {match_id} is not open", 409)
            if row.player0 == user.id:
                raise ServiceError("conflict", "you created this match; wait for an opponent", 409)
            if row.invitee is not None and row.invitee != user.id:
                raise ServiceError("forbidden", f"match {match_id} is by invitation", 403)
            rated = row.rated and user.kind != "guest"
            claimed = await repo.claim_seat(connection, match_id, user.id, nonce, rated)
            if not claimed:
                raise ServiceError("conflict", f"match {match_id} is not open", 409)
        await self._begin(match_id)
        async with self.site.db.transaction() as connection:
            joined = await repo.match_row(connection, match_id)
        assert joined is not None
        return await self.site.lobby_service._summary(joined)

    async def rematch(
        self,
        user: User,
        match_id: str,
        dice: Rematch | None = None,
        *,
        address: str | None = None,
    ) -> dict[str, Any]:
        """A new match with the same settings and opponent, seats swapped (a bot
        opponent starts it at once, a person is invited); ``dice`` carries the
        asker's commitment and nonce, and ``address`` the client's address (an
        invitation waiting for its answer counts among the address's open
        matches), as for :meth:`create_match`."""
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None:
            raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
        seats = (row.player0, row.player1)
        if user.id not in seats:
            raise ServiceError("forbidden", "only the players may ask for a rematch", 403)
        if row.status != "finished":
            raise ServiceError("conflict", "the match is not over", 409)
        other_id = seats[1] if seats[0] == user.id else seats[0]
        async with self.site.db.transaction() as connection:
            other = await repo.user_by_id(connection, other_id) if other_id else None
        if other is None:
            raise ServiceError("conflict", "the opponent no longer exists", 409)
        opponent = f"bot:{other.bot_level}" if other.kind == "bot" else other.name
        request = CreateMatch(
            settings=MatchSettings(**row.config),
            rated=row.rated,
            public=row.public,
            opponent=opponent,
            commitment=None if dice is None else dice.commitment,
            nonce="" if dice is None else dice.nonce,
            request_id=None if dice is None else dice.request_id,
        )
        created = await self.create_match(user, request, address=address)
        async with self.site.db.transaction() as connection:
            await repo.update_match(connection, created["id"], rematch_of=match_id)
        created["rematch_of"] = match_id
        return created

    async def seat_match(
        self,
        connection: Any,
        players: tuple[User, User],
        settings: MatchSettings,
        *,
        rated: bool,
        owner: int | None = None,
    ) -> str:
        """Store a match between ``players`` with both seats taken, inside the
        caller's transaction (a tournament stores its link in the same one); it
        starts with :meth:`begin_match` once committed. Returns its id. ``owner``
        (the first player by default) is the user it is created by, whose work its
        bots' decisions count as (a tournament's organiser)."""
        match_id = _new_match_id()
        seed = self.site._dice_seeds()
        await repo.create_match(
            connection,
            id=match_id,
            created_at=self.site.clock.now(),
            created_by=players[0].id if owner is None else owner,
            config=settings.model_dump(),
            status="open",
            player0=players[0].id,
            player1=players[1].id,
            invitee=None,
            rated=rated and "guest" not in (players[0].kind, players[1].kind),
            public=True,
            seed=seed.hex(),
            commitment=commitment(seed),
            nonce0="",
            nonce1="",
            request_id=None,
        )
        return match_id

    async def begin_match(self, match_id: str) -> None:
        """Start a match stored by :meth:`seat_match` now (nothing if it has started)."""
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is not None and row.status == "open":
            await self._begin(match_id, seated=True)

    async def begin_when_ready(self, match_id: str) -> float | None:
        """Start a match stored by :meth:`seat_match` once each person in it has
        given a dice nonce, or :data:`READY_SECONDS` after it was stored, whichever
        comes first (docs/fair-dice.md). Returns when it starts at the latest (None
        if it has started already)."""
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None or row.status != "open":
                return None
            ready = await self._seats_ready(connection, row)
        if ready:
            await self.begin_match(match_id)
            return None
        deadline = row.created_at + READY_SECONDS
        if match_id not in self.site._ready_waits:
            task = asyncio.create_task(self._begin_at(match_id, deadline))
            self.site._ready_waits[match_id] = task
            task.add_done_callback(lambda _: self.site._ready_waits.pop(match_id, None))
        return deadline

    async def _begin_at(self, match_id: str, deadline: float) -> None:
        """Start a seated match at ``deadline`` (if nobody started it before)."""
        await asyncio.sleep(max(0.0, deadline - self.site.clock.now()))
        try:
            await self.begin_match(match_id)
        except Exception:  # pragma: no cover - logged; a restart begins it again
            log.exception("match %s could not start", match_id)

    async def give_nonce(self, user: User, match_id: str, nonce: str) -> dict[str, Any]:
        """``user``'s dice nonce for their seat of a seated match that has not started
        (a tournament's), sent after its commitment was published; the match starts
        once every person in it has given one. Returns its summary.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` for anyone not seated in it;
                ``conflict`` once it has started or for a second nonce.
        """
        await self.site.moderation_service._check_active(user)
        async with self.site._lock(match_id), self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            seats = (row.player0, row.player1)
            if user.id not in seats:
                raise ServiceError("forbidden", "only the match's players give nonces", 403)
            if row.status != "open" or row.player1 is None:
                raise ServiceError(
                    "conflict", f"match {match_id}: nonces are taken before the first throw", 409
                )
            seat = seats.index(user.id)
            if (row.nonce0, row.nonce1)[seat]:
                raise ServiceError("conflict", "you gave your nonce for this match already", 409)
            await repo.update_match(connection, match_id, **{f"nonce{seat}": nonce})
            row = await repo.match_row(connection, match_id)
            assert row is not None
            ready = await self._seats_ready(connection, row)
        if ready:
            await self.begin_match(match_id)
        return await self.site.lobby_service._summary(row)

    @staticmethod
    async def _seats_ready(connection: Any, row: MatchRow) -> bool:
        """Whether every person seated in ``row`` has given a nonce (a bot's is empty)."""
        for user_id, nonce in ((row.player0, row.nonce0), (row.player1, row.nonce1)):
            user = None if user_id is None else await repo.user_by_id(connection, user_id)
            if user is None or (user.kind != "bot" and not nonce):
                return False
        return True

    async def _begin(self, match_id: str, seated: bool = False) -> None:
        """Start a match whose seats are filled: the first game's opening throw. A
        ``seated`` match (:meth:`seat_match`) starts once only, in any process."""
        async with self.site._lock(match_id):
            async with self.site.db.transaction() as connection:
                if seated:
                    if not await repo.start_seated(connection, match_id):
                        return
                else:
                    await repo.update_match(connection, match_id, status="playing")
            # A copy loaded while it was open (a chat, an early action) has the nonces
            # of then: nothing is played yet, so read it again with the nonces given.
            self.site._live.pop(match_id, None)
            live = await self.site.match_service._load(match_id)
            entries = live.start(self.site.clock.now())
            await self.site.match_service._commit(live, entries)
        self.site.metrics.matches_started += 1
        seats = self.site._seats.get(match_id)
        if seats is None or seats.public:  # an unlisted match's id is its link: not told
            self.site.lobby_service._lobby_event({"event": "match_started", "match": match_id})
        if seats is not None:
            self.site._who.forget(*(user.id for user in seats.users if user is not None))
            names = [None if user is None else user.name for user in seats.users]
            for user in seats.users:
                if user is not None and user.kind != "bot":
                    self.site._to_user(
                        user.id, {"type": "match_started", "match": match_id, "players": names}
                    )
        self.site.bot_service._wake_bot(match_id)

    async def invitation_from(self, user: User, inviter: str) -> str:
        """The open match ``inviter`` created for ``user`` (or for anyone), newest
        first.

        Raises:
            ServiceError: ``not_found`` if there is none.
        """
        host = await self.site.account_service.user_named(inviter)
        async with self.site.db.transaction() as connection:
            rows = await repo.list_matches(connection, status="open", user_id=host.id)
        for row in rows:
            if row.player0 == host.id and row.invitee in (None, user.id):
                return row.id
        raise ServiceError("not_found", f"{host.name} did not invite you", 404)

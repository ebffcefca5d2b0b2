"""Reading and writing the database: one function per query, each taking the
connection (and so the transaction) it runs in explicitly.

The service decides what goes in one transaction; these functions only say how.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from backgammon.server.db.tables import (
    chat_allowance,
    chat_messages,
    dice_commitments,
    fibs_settings,
    friends,
    gags,
    match_actions,
    matches,
    rating_history,
    ratings,
    stored_messages,
    tokens,
    tournament_matches,
    tournaments,
    users,
)

__all__ = [
    "MatchRow",
    "User",
    "add_chat",
    "add_dice_commitment",
    "add_friend",
    "add_stored_message",
    "append_entries",
    "append_rows",
    "claim_seat",
    "count_stored_messages",
    "count_stored_messages_from",
    "count_unfinished_matches",
    "create_match",
    "create_user",
    "delete_open_match",
    "delete_token",
    "fibs_settings_of",
    "forget_stored_messages",
    "friend_ids",
    "gagged_names",
    "get_rating",
    "insert_rating_history",
    "list_matches",
    "lock_user",
    "match_by_request",
    "match_entries",
    "match_event",
    "match_row",
    "rating_history_of",
    "ratings_of",
    "recent_chat",
    "remove_friend",
    "replace_password_hash",
    "revoke_old_tokens",
    "set_fibs_settings",
    "set_gag",
    "set_rating",
    "set_user_flags",
    "start_seated",
    "store_token",
    "take_chat_token",
    "take_dice_commitment",
    "take_stored_messages",
    "update_match",
    "user_by_id",
    "user_by_name",
    "user_for_token",
    "who_facts",
]


@dataclass(frozen=True, slots=True)
class User:
    """An account as the server sees it (never with its password hash)."""

    id: int
    name: str
    kind: str  # human, guest, bot
    is_admin: bool = False
    muted: bool = False
    banned: bool = False
    bot_level: str | None = None

    def public(self) -> dict[str, Any]:
        """What other users may see of this account."""
        return {"name": self.name, "kind": self.kind, "bot_level": self.bot_level}


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match's stored row (the log is apart, in ``match_actions``)."""

    id: str
    created_at: float
    created_by: int
    config: dict[str, Any]
    status: str
    player0: int | None
    player1: int | None
    invitee: int | None
    rated: bool
    public: bool
    seed: str
    commitment: str
    nonce0: str
    nonce1: str
    winner: int | None
    result: dict[str, Any] | None
    finished_at: float | None
    rematch_of: str | None
    request_id: str | None = None
    created_from: str | None = None


_USER_COLUMNS = (
    users.c.id,
    users.c.name,
    users.c.kind,
    users.c.is_admin,
    users.c.muted,
    users.c.banned,
    users.c.bot_level,
)


def _user(row: Any) -> User:
    return User(
        row.id,
        row.name,
        row.kind,
        bool(row.is_admin),
        bool(row.muted),
        bool(row.banned),
        row.bot_level,
    )


async def create_user(
    connection: AsyncConnection,
    name: str,
    password_hash: str | None,
    kind: str,
    now: float,
    *,
    bot_level: str | None = None,
    is_admin: bool = False,
) -> User:
    """Insert a user (raises IntegrityError if the name is taken)."""
    result = await connection.execute(
        insert(users)
        .values(
            name=name,
            password_hash=password_hash,
            kind=kind,
            bot_level=bot_level,
            is_admin=is_admin,
            muted=False,
            banned=False,
            created_at=now,
        )
        .returning(*_USER_COLUMNS)
    )
    return _user(result.one())


async def user_by_name(connection: AsyncConnection, name: str) -> tuple[User, str | None] | None:
    """The user called ``name`` (case-insensitive) and its password hash, or None."""
    result = await connection.execute(
        select(*_USER_COLUMNS, users.c.password_hash).where(
            func.lower(users.c.name) == name.lower()
        )
    )
    row = result.first()
    return None if row is None else (_user(row), row.password_hash)


async def numbered_bot(
    connection: AsyncConnection, level: str, taken: set[str], now: float
) -> User:
    """The bot account ``bot_LEVEL_N`` with the smallest N whose name is not in
    ``taken`` (the seats or entries it joins), created on first use."""
    number = 1
    while f"bot_{level}_{number}" in taken:
        number += 1
    name = f"bot_{level}_{number}"
    found = await user_by_name(connection, name)
    if found is not None:
        return found[0]
    return await create_user(connection, name, None, "bot", now, bot_level=level)


async def user_by_id(connection: AsyncConnection, user_id: int) -> User | None:
    """The user with ``user_id``, or None."""
    row = (await connection.execute(select(*_USER_COLUMNS).where(users.c.id == user_id))).first()
    return None if row is None else _user(row)


async def set_user_flags(connection: AsyncConnection, user_id: int, **flags: bool) -> None:
    """Set ``muted``, ``banned`` or ``is_admin``."""
    await connection.execute(update(users).where(users.c.id == user_id).values(**flags))


async def store_token(
    connection: AsyncConnection, token_hash: str, user_id: int, now: float, expires: float
) -> None:
    """Remember a session token (by its hash)."""
    await connection.execute(
        insert(tokens).values(
            token_hash=token_hash, user_id=user_id, created_at=now, expires_at=expires
        )
    )


async def revoke_old_tokens(
    connection: AsyncConnection, user_id: int, keep: int, now: float
) -> None:
    """Forget a user's tokens but its ``keep`` newest live ones (and its expired ones)."""
    newest = (
        select(tokens.c.token_hash)
        .where(tokens.c.user_id == user_id, tokens.c.expires_at > now)
        .order_by(tokens.c.created_at.desc(), tokens.c.token_hash)
        .limit(keep)
    )
    await connection.execute(
        delete(tokens).where(tokens.c.user_id == user_id, tokens.c.token_hash.not_in(newest))
    )


async def user_for_token(connection: AsyncConnection, token_hash: str, now: float) -> User | None:
    """The user a live token belongs to, or None."""
    result = await connection.execute(
        select(*_USER_COLUMNS)
        .join(tokens, tokens.c.user_id == users.c.id)
        .where(tokens.c.token_hash == token_hash, tokens.c.expires_at > now)
    )
    row = result.first()
    return None if row is None else _user(row)


async def delete_token(connection: AsyncConnection, token_hash: str) -> None:
    """Forget a token (log out)."""
    await connection.execute(delete(tokens).where(tokens.c.token_hash == token_hash))


async def delete_tokens_of(connection: AsyncConnection, user_id: int) -> None:
    """Forget every token of a user (a ban)."""
    await connection.execute(delete(tokens).where(tokens.c.user_id == user_id))


async def replace_password_hash(
    connection: AsyncConnection, user_id: int, old: str | None, new: str
) -> None:
    """Store ``new`` as the user's password hash if it is still ``old`` (a rehash
    with today's parameters loses to a concurrent change of password)."""
    await connection.execute(
        update(users)
        .where(users.c.id == user_id, users.c.password_hash == old)
        .values(password_hash=new)
    )


async def create_match(connection: AsyncConnection, **values: Any) -> None:
    """Insert a match row."""
    await connection.execute(insert(matches).values(**values))


async def match_row(connection: AsyncConnection, match_id: str) -> MatchRow | None:
    """A match's row, or None."""
    row = (await connection.execute(select(matches).where(matches.c.id == match_id))).first()
    return None if row is None else MatchRow(**row._asdict())


async def match_event(connection: AsyncConnection, match_id: str) -> dict[str, Any] | None:
    """The event a match is played in, as its players' pages name it and lead back to
    it: ``{"kind": "tournament", "id", "name", "format", "round"}`` (the round from 1;
    an arena's game number), or None."""
    query = (
        select(
            tournaments.c.id, tournaments.c.name, tournaments.c.format, tournament_matches.c.round
        )
        .join(tournaments, tournaments.c.id == tournament_matches.c.tournament_id)
        .where(tournament_matches.c.match_id == match_id)
    )
    row = (await connection.execute(query)).first()
    if row is None:
        return None
    return {
        "kind": "tournament",
        "id": row.id,
        "name": row.name,
        "format": row.format,
        "round": row.round,
    }


async def match_by_request(
    connection: AsyncConnection, user_id: int, request_id: str
) -> MatchRow | None:
    """The match ``user_id`` created with the client request id ``request_id``, or None."""
    row = (
        await connection.execute(
            select(matches).where(
                matches.c.created_by == user_id, matches.c.request_id == request_id
            )
        )
    ).first()
    return None if row is None else MatchRow(**row._asdict())


async def count_unfinished_matches(connection: AsyncConnection, user_id: int) -> int:
    """How many matches ``user_id`` sits in that are not finished: open ones (waiting
    for an opponent or an invitee) and those in play, against bots included (an
    invitation to ``user_id`` is not theirs until they accept it)."""
    result = await connection.execute(
        select(func.count())
        .select_from(matches)
        .where(
            or_(matches.c.player0 == user_id, matches.c.player1 == user_id),
            matches.c.status.in_(("open", "playing")),
        )
    )
    return int(result.scalar_one())


async def count_open_matches_from(connection: AsyncConnection, address: str) -> int:
    """How many matches created from client ``address`` are still open (not started),
    holding the address until the transaction ends (PostgreSQL's advisory lock;
    SQLite's transactions take turns anyway), so that concurrent requests from one
    address, in any processes, count and add their rows one after the other."""
    if connection.dialect.name == "postgresql":
        await connection.execute(
            select(func.pg_advisory_xact_lock(func.hashtext(f"open-matches:{address}")))
        )
    result = await connection.execute(
        select(func.count())
        .select_from(matches)
        .where(matches.c.created_from == address, matches.c.status == "open")
    )
    return int(result.scalar_one())


async def lock_user(connection: AsyncConnection, user_id: int) -> None:
    """Hold ``user_id``'s row until the transaction ends (PostgreSQL's ``FOR
    UPDATE``; SQLite's transactions take turns anyway), so that two requests of one
    user, in any processes, count and add their rows one after the other."""
    await connection.execute(select(users.c.id).where(users.c.id == user_id).with_for_update())


async def delete_open_match(connection: AsyncConnection, match_id: str) -> bool:
    """Delete a match that is still open (declined, cancelled, withdrawn),
    atomically against a joiner (:func:`claim_seat`): True if this call deleted it."""
    result = await connection.execute(
        delete(matches).where(
            matches.c.id == match_id, matches.c.status == "open", matches.c.player1.is_(None)
        )
    )
    return result.rowcount == 1


async def update_match(connection: AsyncConnection, match_id: str, **values: Any) -> None:
    """Change a match's row."""
    await connection.execute(update(matches).where(matches.c.id == match_id).values(**values))


async def start_seated(connection: AsyncConnection, match_id: str) -> bool:
    """Mark a seated match (both seats taken) as playing, atomically: True for the
    one call, in any process, that does it."""
    result = await connection.execute(
        update(matches)
        .where(matches.c.id == match_id, matches.c.status == "open")
        .values(status="playing")
    )
    return bool(result.rowcount == 1)


async def claim_seat(
    connection: AsyncConnection, match_id: str, user_id: int, nonce: str, rated: bool
) -> bool:
    """Take seat 1 of an open match, atomically (only one of two racing joiners, in
    any process, gets it); True if this call got it."""
    result = await connection.execute(
        update(matches)
        .where(matches.c.id == match_id, matches.c.status == "open", matches.c.player1.is_(None))
        .values(player1=user_id, nonce1=nonce, rated=rated, status="playing")
    )
    return result.rowcount == 1


async def list_matches(
    connection: AsyncConnection,
    *,
    status: str | None = None,
    user_id: int | None = None,
    public_only: bool = False,
    open_to_all: bool = False,
    limit: int = 200,
) -> list[MatchRow]:
    """Matches, newest first, filtered by status, by player (or invitee), public
    ones, or (``open_to_all``) those with a seat free for anyone (no invitee)."""
    query = select(matches).order_by(matches.c.created_at.desc()).limit(limit)
    if status is not None:
        query = query.where(matches.c.status == status)
    if user_id is not None:
        query = query.where(
            or_(
                matches.c.player0 == user_id,
                matches.c.player1 == user_id,
                matches.c.invitee == user_id,
            )
        )
    if public_only:
        query = query.where(matches.c.public.is_(True))
    if open_to_all:
        query = query.where(matches.c.invitee.is_(None), matches.c.player1.is_(None))
    rows = (await connection.execute(query)).all()
    return [MatchRow(**row._asdict()) for row in rows]


async def append_entries(
    connection: AsyncConnection, match_id: str, first_seq: int, entries: list[dict[str, Any]]
) -> None:
    """Append log entries numbered from ``first_seq`` (a duplicate number raises
    IntegrityError: another process got there first)."""
    if entries:
        await connection.execute(
            insert(match_actions),
            [
                {"match_id": match_id, "seq": first_seq + offset, "entry": entry}
                for offset, entry in enumerate(entries)
            ],
        )


async def append_rows(connection: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    """Append log rows (``match_id``, ``seq``, ``entry``) of any matches at once."""
    if rows:
        await connection.execute(insert(match_actions), rows)


async def match_entries(
    connection: AsyncConnection, match_id: str, after: int = -1
) -> list[dict[str, Any]]:
    """A match's log entries with a number above ``after``, in order."""
    result = await connection.execute(
        select(match_actions.c.entry)
        .where(and_(match_actions.c.match_id == match_id, match_actions.c.seq > after))
        .order_by(match_actions.c.seq)
    )
    return [row.entry for row in result]


async def get_rating(
    connection: AsyncConnection, user_id: int, variant: str
) -> tuple[float, int] | None:
    """(rating, experience) of a user in a variant, or None if never rated."""
    row = (
        await connection.execute(
            select(ratings.c.rating, ratings.c.experience).where(
                ratings.c.user_id == user_id, ratings.c.variant == variant
            )
        )
    ).first()
    return None if row is None else (float(row.rating), int(row.experience))


async def set_rating(
    connection: AsyncConnection, user_id: int, variant: str, rating: float, experience: int
) -> None:
    """Store a user's rating in a variant."""
    updated = await connection.execute(
        update(ratings)
        .where(ratings.c.user_id == user_id, ratings.c.variant == variant)
        .values(rating=rating, experience=experience)
    )
    if updated.rowcount == 0:
        await connection.execute(
            insert(ratings).values(
                user_id=user_id, variant=variant, rating=rating, experience=experience
            )
        )


async def insert_rating_history(connection: AsyncConnection, **values: Any) -> None:
    """Add a point to a user's rating history."""
    await connection.execute(insert(rating_history).values(**values))


async def ratings_of(connection: AsyncConnection, user_id: int) -> dict[str, tuple[float, int]]:
    """A user's rating and experience per variant."""
    result = await connection.execute(
        select(ratings.c.variant, ratings.c.rating, ratings.c.experience).where(
            ratings.c.user_id == user_id
        )
    )
    return {row.variant: (float(row.rating), int(row.experience)) for row in result}


async def rating_history_of(
    connection: AsyncConnection, user_id: int, variant: str | None = None
) -> list[dict[str, Any]]:
    """A user's rating after each rated match, oldest first."""
    query = (
        select(
            rating_history.c.variant,
            rating_history.c.match_id,
            rating_history.c.rating,
            rating_history.c.experience,
            rating_history.c.at,
        )
        .where(rating_history.c.user_id == user_id)
        .order_by(rating_history.c.id)
    )
    if variant is not None:
        query = query.where(rating_history.c.variant == variant)
    return [dict(row._asdict()) for row in await connection.execute(query)]


CHAT_LINES_KEPT = 200
"""The newest chat lines kept per room (the lobby, a match, a chouette table): adding a
line deletes those older than this many."""


async def add_chat(
    connection: AsyncConnection,
    room: str,
    audience: str,
    user_id: int,
    text: str,
    now: float,
    keep: int = CHAT_LINES_KEPT,
) -> None:
    """Keep a chat line, and forget the room's lines older than its newest ``keep``
    (one step down the room's index: the lines past the newest ``keep`` are usually
    one)."""
    await connection.execute(
        insert(chat_messages).values(
            room=room, audience=audience, user_id=user_id, text=text, at=now
        )
    )
    oldest_kept = (
        select(chat_messages.c.id)
        .where(chat_messages.c.room == room)
        .order_by(chat_messages.c.id.desc())
        .offset(keep - 1)
        .limit(1)
        .scalar_subquery()
    )
    await connection.execute(
        delete(chat_messages).where(chat_messages.c.room == room, chat_messages.c.id < oldest_kept)
    )


async def add_stored_message(
    connection: AsyncConnection, recipient: int, sender: int, text: str, now: float
) -> None:
    """Keep a message for a user until their next login."""
    await connection.execute(
        insert(stored_messages).values(recipient=recipient, sender=sender, text=text, at=now)
    )


async def count_stored_messages(connection: AsyncConnection, recipient: int) -> int:
    """How many messages wait for ``recipient``."""
    result = await connection.execute(
        select(func.count())
        .select_from(stored_messages)
        .where(stored_messages.c.recipient == recipient)
    )
    return int(result.scalar_one())


async def count_stored_messages_from(
    connection: AsyncConnection, sender: int, recipient: int | None = None
) -> int:
    """How many messages from ``sender`` wait (for ``recipient`` alone if given)."""
    query = select(func.count()).select_from(stored_messages)
    query = query.where(stored_messages.c.sender == sender)
    if recipient is not None:
        query = query.where(stored_messages.c.recipient == recipient)
    return int((await connection.execute(query)).scalar_one())


async def forget_stored_messages(connection: AsyncConnection, before: float) -> None:
    """Delete every stored message kept since before ``before`` (expired)."""
    await connection.execute(delete(stored_messages).where(stored_messages.c.at < before))


async def take_stored_messages(
    connection: AsyncConnection, recipient: int, since: float = 0.0
) -> list[dict[str, Any]]:
    """The messages waiting for ``recipient`` kept since ``since`` and from users
    ``recipient`` does not gag (oldest first, with the senders' names); every
    message read is deleted, those left out too."""
    gagged = select(gags.c.gagged_id).where(gags.c.user_id == recipient)
    result = await connection.execute(
        select(
            stored_messages.c.id,
            stored_messages.c.text,
            stored_messages.c.at,
            users.c.name,
            stored_messages.c.sender.in_(gagged).label("gagged"),
        )
        .join(users, users.c.id == stored_messages.c.sender)
        .where(stored_messages.c.recipient == recipient)
        .order_by(stored_messages.c.id)
    )
    rows = result.all()
    if rows:
        await connection.execute(
            delete(stored_messages).where(stored_messages.c.id.in_([row.id for row in rows]))
        )
    return [
        {"from": row.name, "text": row.text, "at": row.at}
        for row in rows
        if row.at >= since and not row.gagged
    ]


async def gagged_names(connection: AsyncConnection, user_id: int) -> set[str]:
    """The names of the users ``user_id`` gags."""
    result = await connection.execute(
        select(users.c.name)
        .join(gags, gags.c.gagged_id == users.c.id)
        .where(gags.c.user_id == user_id)
    )
    return set(result.scalars())


async def set_gag(
    connection: AsyncConnection, user_id: int, gagged_id: int, gagged: bool, now: float
) -> int:
    """Gag (or un-gag) ``gagged_id`` for ``user_id``; returns how many users
    ``user_id`` gags now."""
    await connection.execute(
        delete(gags).where(gags.c.user_id == user_id, gags.c.gagged_id == gagged_id)
    )
    if gagged:
        await connection.execute(
            insert(gags).values(user_id=user_id, gagged_id=gagged_id, added_at=now)
        )
    result = await connection.execute(
        select(func.count()).select_from(gags).where(gags.c.user_id == user_id)
    )
    return int(result.scalar_one())


async def fibs_settings_of(connection: AsyncConnection, user_id: int) -> str | None:
    """A user's stored FIBS settings (a JSON text), or None if never changed."""
    result = await connection.execute(
        select(fibs_settings.c.settings).where(fibs_settings.c.user_id == user_id)
    )
    return result.scalar_one_or_none()


async def set_fibs_settings(
    connection: AsyncConnection, user_id: int, settings: str, now: float
) -> None:
    """Store a user's FIBS settings (a JSON text), replacing what was kept."""
    await connection.execute(delete(fibs_settings).where(fibs_settings.c.user_id == user_id))
    await connection.execute(
        insert(fibs_settings).values(user_id=user_id, settings=settings, updated_at=now)
    )


async def take_chat_token(
    connection: AsyncConnection, user_id: int, now: float, rate: float, burst: int
) -> bool:
    """Take one line from ``user_id``'s shared chat allowance (``rate`` lines a second
    in bursts of ``burst``, refilled since it was last taken); False, changing
    nothing, if none is left. One statement (PostgreSQL's ``INSERT ... ON CONFLICT
    DO UPDATE ... WHERE``), so processes taking at once each see the other's take."""
    from sqlalchemy.dialects.postgresql import insert as postgresql_insert

    refilled = func.least(
        burst, chat_allowance.c.tokens + (now - chat_allowance.c.updated_at) * rate
    )
    statement = (
        postgresql_insert(chat_allowance)
        .values(user_id=user_id, tokens=burst - 1, updated_at=now)
        .on_conflict_do_update(
            index_elements=[chat_allowance.c.user_id],
            set_={"tokens": refilled - 1, "updated_at": now},
            where=refilled >= 1,
        )
        .returning(chat_allowance.c.tokens)
    )
    return (await connection.execute(statement)).first() is not None


async def recent_chat(
    connection: AsyncConnection, room: str, limit: int = 50
) -> list[dict[str, Any]]:
    """The last chat lines of a room, oldest first, with the speakers' names."""
    result = await connection.execute(
        select(chat_messages.c.audience, chat_messages.c.text, chat_messages.c.at, users.c.name)
        .join(users, users.c.id == chat_messages.c.user_id)
        .where(chat_messages.c.room == room)
        .order_by(chat_messages.c.id.desc())
        .limit(limit)
    )
    return [dict(row._asdict()) for row in reversed(result.all())]


async def add_dice_commitment(
    connection: AsyncConnection, commitment: str, user_id: int, seed_hex: str, at: float, keep: int
) -> None:
    """Store a seed handed out (as its commitment) to a user for a match to come,
    keeping only the user's newest ``keep``."""
    await connection.execute(
        insert(dice_commitments).values(
            commitment=commitment, user_id=user_id, seed=seed_hex, created_at=at
        )
    )
    newest = (
        select(dice_commitments.c.commitment)
        .where(dice_commitments.c.user_id == user_id)
        .order_by(dice_commitments.c.created_at.desc())
        .limit(keep)
    )
    await connection.execute(
        delete(dice_commitments).where(
            dice_commitments.c.user_id == user_id,
            dice_commitments.c.commitment.not_in(newest.scalar_subquery()),
        )
    )


async def take_dice_commitment(
    connection: AsyncConnection, commitment: str, user_id: int
) -> str | None:
    """The seed (hex) behind a commitment handed out to ``user_id``, removed so that
    it serves one match only; None if there is none (or another request took it)."""
    seed = await connection.scalar(
        select(dice_commitments.c.seed).where(
            dice_commitments.c.commitment == commitment, dice_commitments.c.user_id == user_id
        )
    )
    if seed is None:
        return None
    taken = await connection.execute(
        delete(dice_commitments).where(
            dice_commitments.c.commitment == commitment, dice_commitments.c.user_id == user_id
        )
    )
    return str(seed) if taken.rowcount == 1 else None


async def who_facts(
    connection: AsyncConnection, user_ids: list[int]
) -> dict[int, tuple[str, str, float, int, str | None]]:
    """For each of ``user_ids`` that exists: name, kind, standard rating, experience
    and the name of the opponent in a public match it is playing (None if none: an
    unlisted match is its players' business), in three queries whatever the number
    of users (the who list of a FIBS login)."""
    found: dict[int, tuple[str, str, float, int, str | None]] = {}
    for start in range(0, len(user_ids), 500):
        chunk = user_ids[start : start + 500]
        rows = await connection.execute(
            select(users.c.id, users.c.name, users.c.kind).where(users.c.id.in_(chunk))
        )
        names = {row.id: (row.name, row.kind) for row in rows}
        rated = await connection.execute(
            select(ratings.c.user_id, ratings.c.rating, ratings.c.experience).where(
                ratings.c.user_id.in_(chunk), ratings.c.variant == "standard"
            )
        )
        by_user = {row.user_id: (float(row.rating), int(row.experience)) for row in rated}
        opponent_of: dict[int, int] = {}
        playing = await connection.execute(
            select(matches.c.player0, matches.c.player1)
            .where(
                matches.c.status == "playing",
                matches.c.public.is_(True),
                or_(matches.c.player0.in_(chunk), matches.c.player1.in_(chunk)),
            )
            .order_by(matches.c.created_at.desc())
        )
        for row in playing:
            for me, other in ((row.player0, row.player1), (row.player1, row.player0)):
                if me in names and other is not None:
                    opponent_of.setdefault(me, other)
        missing = set(opponent_of.values()) - names.keys()
        others = dict(names)
        if missing:
            extra = await connection.execute(
                select(users.c.id, users.c.name, users.c.kind).where(users.c.id.in_(missing))
            )
            others.update({row.id: (row.name, row.kind) for row in extra})
        for user_id, (name, kind) in names.items():
            rating, experience = by_user.get(user_id, (1500.0, 0))
            opponent = opponent_of.get(user_id)
            found[user_id] = (
                name,
                kind,
                rating,
                experience,
                None if opponent is None else others.get(opponent, ("?", ""))[0],
            )
    return found


async def friend_ids(connection: AsyncConnection, user_id: int) -> list[int]:
    """The ids of ``user_id``'s friends, in the order they were added."""
    result = await connection.execute(
        select(friends.c.friend_id)
        .where(friends.c.user_id == user_id)
        .order_by(friends.c.added_at, friends.c.friend_id)
    )
    return [int(row.friend_id) for row in result]


async def add_friend(connection: AsyncConnection, user_id: int, friend_id: int, now: float) -> bool:
    """Put ``friend_id`` on ``user_id``'s friends list; False if already there."""
    present = await connection.execute(
        select(friends.c.friend_id).where(
            friends.c.user_id == user_id, friends.c.friend_id == friend_id
        )
    )
    if present.first() is not None:
        return False
    await connection.execute(
        insert(friends).values(user_id=user_id, friend_id=friend_id, added_at=now)
    )
    return True


async def remove_friend(connection: AsyncConnection, user_id: int, friend_id: int) -> bool:
    """Take ``friend_id`` off ``user_id``'s friends list; False if it was not there."""
    result = await connection.execute(
        delete(friends).where(friends.c.user_id == user_id, friends.c.friend_id == friend_id)
    )
    return bool(result.rowcount)

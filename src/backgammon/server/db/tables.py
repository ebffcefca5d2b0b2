"""The database tables (SQLAlchemy Core), apart from the API's message schemas.

A match is stored as its configuration (``matches``) and the log of every accepted
action (``match_actions``, one row per action, numbered from 0). The live state is
always the replay of that log, so what was committed is exactly what a restarted
server resumes; the ``(match_id, seq)`` key makes two server processes that race to
append the same action fail instead of forking the match.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
)

__all__ = [
    "chat_allowance",
    "chat_messages",
    "chouette_actions",
    "chouette_tables",
    "dice_commitments",
    "fibs_settings",
    "friends",
    "gags",
    "login_addresses",
    "match_actions",
    "matches",
    "metadata",
    "rating_history",
    "ratings",
    "stored_messages",
    "throttles",
    "tokens",
    "tournament_matches",
    "tournament_players",
    "tournaments",
    "users",
]

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(32), nullable=False, unique=True),
    # Argon2id hash (argon2-cffi's encoded form); NULL for guests and bots.
    Column("password_hash", String(255)),
    Column("kind", String(8), nullable=False),  # human, guest, bot
    Column("bot_level", String(16)),
    Column("is_admin", Boolean, nullable=False, default=False),
    Column("muted", Boolean, nullable=False, default=False),
    Column("banned", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
)
# One account per name whatever its case: "Alice" and "alice" are the same user.
Index("uq_users_name_lower", func.lower(users.c.name), unique=True)

tokens = Table(
    "tokens",
    metadata,
    # SHA-256 of the token: a stolen database gives no usable session.
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    # A user's sessions are counted at each login and dropped at a password change.
    Index("ix_tokens_user", "user_id", "created_at"),
)

throttles = Table(
    "throttles",
    metadata,
    # What is limited and for whom: "login-address:10.0.0.1", "login-account:alice",
    # "signup:10.0.0.1" (see backgammon.server.accounts.throttle).
    Column("key", String(96), primary_key=True),
    # Tries counted and not yet forgiven (they leak away at the policy's rate) ...
    Column("level", Float, nullable=False),
    # ... as of this time; and when the next try may come.
    Column("at", Float, nullable=False),
    Column("next_at", Float, nullable=False),
    Index("ix_throttles_at", "at"),
)

login_addresses = Table(
    "login_addresses",
    metadata,
    # Where an account has logged in from (or registered): failures from these
    # addresses never hold the account back for anyone else.
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)

matches = Table(
    "matches",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    # The match's settings as the API took them (variant, length, rules, clock, ...).
    Column("config", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, finished
    Column("player0", Integer, ForeignKey("users.id")),
    Column("player1", Integer, ForeignKey("users.id")),
    Column("invitee", Integer, ForeignKey("users.id")),
    Column("rated", Boolean, nullable=False),
    Column("public", Boolean, nullable=False),
    # The dice: the secret seed (hex; revealed only when the match is over), its
    # SHA-256 commitment, and each player's nonce.
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("nonce0", String(64), nullable=False, default=""),
    Column("nonce1", String(64), nullable=False, default=""),
    Column("winner", Integer),
    Column("result", JSON),
    Column("finished_at", Float),
    Column("rematch_of", String(16)),
    # The creator's client request id: the same id from the same user gets the first
    # match back instead of a second one (a double click, a retried request).
    Column("request_id", String(40)),
    # The creator's client address (an IPv6 client's /64) for a match made over the
    # network: open matches are counted per address as well as per account.
    Column("created_from", String(64)),
    Index("ix_matches_status", "status"),
    Index("ix_matches_created_from", "created_from", "status"),
    Index("uq_matches_request", "created_by", "request_id", unique=True),
)

dice_commitments = Table(
    "dice_commitments",
    metadata,
    # A seed drawn for a user's next match and its SHA-256 commitment, handed out
    # before the user chooses a dice nonce; used once (docs/fair-dice.md).
    Column("commitment", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("seed", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_dice_commitments_user", "user_id", "created_at"),
)

match_actions = Table(
    "match_actions",
    metadata,
    Column("match_id", String(16), ForeignKey("matches.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("entry", JSON, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("experience", Integer, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("match_id", String(16), nullable=False),
    Column("rating", Float, nullable=False),
    Column("experience", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_history_user", "user_id", "variant"),
)

stored_messages = Table(
    "stored_messages",
    metadata,
    # FIBS's ``message NAME TEXT`` for a user who is not online: kept until their next
    # login, then delivered and deleted.
    Column("id", Integer, primary_key=True),
    Column("recipient", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("sender", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_stored_messages_recipient", "recipient", "id"),
    # Each sender's messages waiting (bounded per sender), the oldest (expired).
    Index("ix_stored_messages_sender", "sender", "recipient"),
    Index("ix_stored_messages_at", "at"),
)

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room", String(24), nullable=False),  # "lobby" or a match id
    Column("audience", String(12), nullable=False),  # all, players, spectators
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_room", "room", "id"),
)

friends = Table(
    "friends",
    metadata,
    # A user's friends list: one row per friend, readable and writable by its owner
    # alone (the lobby shows which friends are online).
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("friend_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("added_at", Float, nullable=False),
)

gags = Table(
    "gags",
    metadata,
    # FIBS's ``gag NAME``: whose words (tells, shouts, stored messages) a user does not
    # hear, kept across logins.
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("gagged_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("added_at", Float, nullable=False),
)

fibs_settings = Table(
    "fibs_settings",
    metadata,
    # A user's FIBS toggles and variables (``toggle ready``, ``set boardstyle 2``), as
    # FIBS keeps them with the account: a JSON object of the values changed from
    # the defaults.
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)

chat_allowance = Table(
    "chat_allowance",
    metadata,
    # What a user may still say (a token bucket: ``tokens`` as of ``updated_at``),
    # shared by every server process on the database (issue 53).
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("format", String(16), nullable=False),  # knockout, swiss, round-robin
    Column("organiser", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("starts_at", Float),  # when the service starts it by itself, if set
    Column("status", String(16), nullable=False),  # open, running, finished, cancelled
    # The settings as the API took them, and the library's JSON record of the
    # rounds recorded so far (the round in play is its matches' rows).
    Column("settings", JSON, nullable=False),
    Column("state", JSON),
    Index("ix_tournaments_status", "status"),
    Index("ix_tournaments_organiser", "organiser"),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("registered_at", Float, nullable=False),
)

tournament_matches = Table(
    "tournament_matches",
    metadata,
    # Which match plays pairing number ``pairing`` (0-based) of round ``round``.
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("pairing", Integer, primary_key=True),
    Column("match_id", String(16), ForeignKey("matches.id"), nullable=False),
    Index("ix_tournament_matches_match", "match_id", unique=True),
)

chouette_tables = Table(
    "chouette_tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("owner", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, closed
    # The rules and the number of seats as the API took them; the seats in order
    # (the first session's lineup: the box first), each {"user_id", "name", "bot",
    # "left"} (a person who left a session in play: a bot plays their seat), and
    # "nonce" once its person gave a dice nonce.
    Column("settings", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    # The secret seed of the session's throws (hex), drawn when the table opens and
    # revealed once it is closed (docs/fair-dice.md); null for tables opened before.
    Column("dice_seed", String(64)),
    Index("ix_chouette_tables_status", "status"),
)

chouette_actions = Table(
    "chouette_actions",
    metadata,
    # Every accepted action of a table's session, numbered from 0 (the key makes two
    # processes that race to append the same action fail instead of forking it).
    Column("table_id", String(16), ForeignKey("chouette_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", JSON, nullable=False),
)

"""The FIBS commands by their word: one dispatch table over the command families
(``commands_play``, ``commands_info``, ``commands_social``). Each handler takes the
session and the rest of the command's line; the session looks the word up
(lowercased) and says FIBS's ``Unknown command`` for a word not here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from backgammon.server.fibs import commands_info as info
from backgammon.server.fibs import commands_play as play
from backgammon.server.fibs import commands_social as social
from backgammon.server.fibs.state import SessionState

__all__ = ["COMMANDS", "LOGOUT_WORDS", "Handler"]

Handler = Callable[[SessionState, str], Awaitable[None]]
"""A command's handler: the session and the rest of its line."""

LOGOUT_WORDS = ("bye", "quit", "exit", "adios", "ciao", "logout")
"""The words that end a login (the session says goodbye and closes)."""


async def _nothing(_session: SessionState, _rest: str) -> None:
    return None


COMMANDS: dict[str, Handler] = {
    "who": info.cmd_who,
    "rawwho": info.cmd_rawwho,
    "invite": play.cmd_invite,
    "join": play.cmd_join,
    "roll": play.cmd_roll,
    "r": play.cmd_roll,
    "move": play.cmd_move,
    "m": play.cmd_move,
    "double": play.cmd_double,
    "accept": play.cmd_accept,
    "reject": play.cmd_reject,
    "resign": play.cmd_resign,
    "leave": play.cmd_leave,
    "nonce": play.cmd_nonce,
    "board": info.cmd_board,
    "watch": info.cmd_watch,
    "unwatch": info.cmd_unwatch,
    "look": info.cmd_look,
    "say": social.cmd_say,
    "shout": social.cmd_shout,
    "kibitz": social.cmd_kibitz,
    "whisper": social.cmd_whisper,
    "tell": social.cmd_tell,
    "toggle": info.cmd_toggle,
    "set": info.cmd_set,
    "help": info.cmd_help,
    "message": social.cmd_message,
    "waitfor": social.cmd_waitfor,
    "gag": social.cmd_gag,
    "blind": social.cmd_blind,
    "whois": info.cmd_whois,
    "pip": info.cmd_pip,
    **dict.fromkeys(LOGOUT_WORDS, _nothing),
}
"""Each command's handler by its word (the logout words' handler does nothing: the
session answers them itself)."""

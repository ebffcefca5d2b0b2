"""``help`` and ``help TOPIC``: FIBS's help pages (NAME, SYNOPSIS, DESCRIPTION), for
the commands this front end knows and for beginners, as pure data and a function.
"""

from __future__ import annotations

__all__ = ["HELP", "help_lines"]

HELP: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "beginner": (
        "very short introduction to the server",
        "",
        (
            "If you want to play, enter the following commands:",
            "",
            "  who                  (tells you who is logged on)",
            "  invite player n      (tells player you want to play a n point match;",
            "                        invite bot_beginner 3 plays a bot at once)",
            "",
            "If you get invited:",
            "",
            "  join player          (and the game can begin)",
            "",
            "In a game: roll, move 13-7 8-7 (bar and off too), double, accept,",
            "reject, resign n|g|b, leave (the match is saved), board.",
            "",
            "  toggle ready         (refuse invitations, or take them again)",
            "  bye                  closes the connection to the server.",
            "  help topic           gives you more help on topic",
        ),
    ),
    "help": ("help on different topics", "help [topic]", ("Shows the help on topic.",)),
    "who": (
        "who is logged in",
        "who [name]",
        ("One line per user: rating, experience, whom they play, ready, watching.",),
    ),
    "rawwho": (
        "who is logged in, as client programs read it",
        "rawwho [name]",
        ("CLIP's who lines ('5 name opponent watching ready ...'), then '6'.",),
    ),
    "whois": (
        "information about a user",
        "whois name",
        ("Whether name is logged in, ready, watching or playing, the rating.",),
    ),
    "invite": (
        "invite a user to a match",
        "invite name [n|unlimited]",
        (
            "Invites name to a n point match (1 if n is not given). A user who",
            "has toggled ready off is refusing games. With a match with name",
            "going on, 'invite name' resumes it.",
        ),
    ),
    "join": (
        "accept an invitation, or resume a saved match",
        "join name",
        (
            "Starts the match name invited you to, or resumes your saved match",
            "with name. Between two games, 'join' alone starts the next game.",
        ),
    ),
    "leave": (
        "leave the match (it is saved)",
        "leave",
        ("The match is saved; 'join name' or a new login resumes it.",),
    ),
    "roll": ("roll the dice", "roll", ("Rolls the dice when it is your turn.",)),
    "move": (
        "move your checkers",
        "move from-to [from-to ...]",
        (
            "Each step moves one checker by one die, in your own numbering:",
            "move 13-7 8-7, move bar-22 6-off. 'move 13 7 8 7' works too.",
        ),
    ),
    "double": ("offer the cube", "double", ("Offers a double before you roll.",)),
    "accept": ("accept a double or a resignation", "accept", ("",)),
    "reject": ("reject a double or a resignation", "reject", ("",)),
    "resign": (
        "offer to resign",
        "resign n|g|b",
        ("Offers to resign a normal game, a gammon or a backgammon.",),
    ),
    "board": ("show the board again", "board", ("In your board style (help boardstyle).",)),
    "boardstyle": (
        "the various boardstyles",
        "set boardstyle 1|2|3",
        (
            "1, 2: a board for people; style 2 has its point numbers on lines",
            "   of their own (two lines more).",
            "3: the 'board:' line client programs read.",
        ),
    ),
    "watch": ("watch a player", "watch name", ("Shows name's match, or the next one.",)),
    "unwatch": ("stop watching", "unwatch", ("",)),
    "look": ("look at a player's board once", "look name", ("",)),
    "pip": ("the pip counts", "pip", ("Of the match you play or watch.",)),
    "say": ("talk to your opponent", "say text", ("",)),
    "tell": ("talk to a user", "tell name text", ("",)),
    "shout": ("talk to everyone", "shout text", ("",)),
    "kibitz": ("talk to players and watchers", "kibitz text", ("",)),
    "whisper": ("talk to the watchers", "whisper text", ("",)),
    "message": (
        "leave a message",
        "message name text",
        ("Told at once, or at name's next login.",),
    ),
    "waitfor": ("be told when a user logs in", "waitfor [name]", ("",)),
    "gag": ("stop hearing a user (kept)", "gag name", ("'gag name' again undoes it.",)),
    "blind": ("hide a user's invitations", "blind name", ("For this login.",)),
    "toggle": (
        "switch a setting on or off",
        "toggle [name]",
        ("Alone, lists the toggles. They are kept with your account.",),
    ),
    "set": (
        "set a variable",
        "set [boardstyle|linelength|pagelength|redoubles|sortwho|timezone [value]]",
        ("Alone, lists the variables. They are kept with your account.",),
    ),
    "nonce": (
        "add your dice nonce to a tournament match",
        "nonce word",
        ("Before its first throw (1 to 64 of A-Z a-z 0-9 _ -).",),
    ),
    "bye": ("leave the server", "bye", ("Your match is saved.",)),
}
"""Each topic: what it is, how it is typed, and what it does."""


def help_lines(topic: str) -> list[str] | None:
    """FIBS's help page on ``topic`` (``""``: the list of topics), or None when there
    is none."""
    if not topic:
        return [
            " NAME",
            "  help - help on different topics",
            "",
            " SYNOPSIS",
            "  help [topic]",
            "",
            " DESCRIPTION",
            "  Help is available on the following topics:",
            "",
            *_columns(sorted(HELP)),
            "",
            "  Type 'help beginner' to get started.",
        ]
    page = HELP.get(topic.lower())
    if page is None:
        return None
    what, synopsis, text = page
    lines = [" NAME", f"  {topic.lower()} - {what}", ""]
    if synopsis:
        lines += [" SYNOPSIS", f"  {synopsis}", ""]
    body = [f"  {line}" if line else "" for line in text]
    if any(body):
        lines += [" DESCRIPTION", *body]
    return [line.rstrip() for line in lines]


def _columns(words: list[str], width: int = 12, per_line: int = 5) -> list[str]:
    """Words in columns, as FIBS lists its help topics."""
    return [
        "  " + "".join(f"{word:{width}}" for word in words[start : start + per_line]).rstrip()
        for start in range(0, len(words), per_line)
    ]

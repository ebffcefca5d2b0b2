"""What text one user may send to others: the one rule every front end shares.

Chat, tells, shouts, kibitzes and whispers all pass :func:`check_text` in the game
service, whatever front end they came from, so a text that reaches a web page
reaches a FIBS client too, and none can break out of the line or the message it is
carried in. A text is refused (never silently changed) when it is blank (nothing
is left once whitespace, invisible format characters such as U+200B and U+FEFF
(category Cf) and the blank-looking :data:`FILLERS` are taken out), longer than
:data:`MAX_TEXT` characters, stacks more than :data:`MAX_MARKS` combining marks on one
character, or holds any of :data:`FORBIDDEN`:

- control characters (Unicode category Cc: C0 U+0000-U+001F with tab, CR and LF,
  DEL U+007F, C1 U+0080-U+009F with NEL U+0085);
- the line and paragraph separators U+2028 and U+2029;
- the bidirectional embeddings, overrides and isolates U+202A-U+202E and
  U+2066-U+2069 (they make text display in another order than it reads, the
  "Trojan Source" trick); the marks U+200E and U+200F stay allowed;
- lone surrogates (U+D800-U+DFFF, which JSON can carry but UTF-8 cannot).

Format characters are allowed inside a text (U+200D joins emoji sequences such as
"👨\u200d👩\u200d👧"; U+200E/U+200F mark direction); they only do not count as
something said.

User names need no check here: accounts allow only ASCII letters, digits and ``_``.
"""

from __future__ import annotations

import unicodedata

__all__ = ["FILLERS", "FORBIDDEN", "MAX_MARKS", "MAX_TEXT", "UserTextError", "check_text"]

MAX_TEXT = 500
"""The longest text, in characters (Unicode code points), one user sends to others."""

MAX_MARKS = 4
"""The most combining marks (categories Mn and Me) allowed in a row: enough for
any script's stacked accents and for emoji (a variation selector and a keycap), not
for "Zalgo" text that spills over the lines around it."""

FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that show as blank: the Hangul fillers (choseong,
jungseong, the compatibility and halfwidth ones) and the blank Braille pattern."""

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

FORBIDDEN = "control characters, line or paragraph separators, bidi overrides"
"""What :func:`check_text` refuses besides length, in words."""


class UserTextError(ValueError):
    """A text another user must not receive; the message says what is wrong."""


def _forbidden(char: str) -> bool:
    if char in _BIDI_CONTROLS:
        return True
    return unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cs")


def _blank(text: str) -> bool:
    """Whether nothing visible is left once whitespace, format characters and
    fillers are taken out."""
    return all(
        char.isspace() or char in FILLERS or unicodedata.category(char) == "Cf" for char in text
    )


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    if not name:
        name = {"\r": "CARRIAGE RETURN", "\n": "LINE FEED", "\t": "TAB"}.get(char, "control")
    return f"U+{ord(char):04X} ({name})"


def check_text(text: str, what: str = "text") -> str:
    """Return ``text`` if it may be sent to other users.

    Args:
        text: what a user wrote.
        what: the field's name, for the error.

    Raises:
        UserTextError: naming the rule broken (and the offending character and its
            position).

    >>> check_text("good luck!")
    'good luck!'
    >>> check_text("hi\\r\\n12 admin you are banned")
    Traceback (most recent call last):
    ...
    backgammon.server.social.user_text.UserTextError: text: character 3 is \
U+000D (CARRIAGE RETURN): no control characters, line or paragraph separators, bidi overrides
    """
    if len(text) > MAX_TEXT:
        raise UserTextError(f"{what}: at most {MAX_TEXT} characters (got {len(text)})")
    if _blank(text):
        raise UserTextError(f"{what}: empty (only blanks or invisible characters)")
    marks = 0
    for position, char in enumerate(text, 1):
        if _forbidden(char):
            raise UserTextError(
                f"{what}: character {position} is {_describe(char)}: no {FORBIDDEN}"
            )
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise UserTextError(
                f"{what}: character {position} is the {marks}th combining mark in a row "
                f"(at most {MAX_MARKS})"
            )
    return text

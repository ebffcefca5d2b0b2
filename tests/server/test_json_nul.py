"""``json_holds_nul``: whether JSON text carries U+0000 (refused before the database,
which cannot store it, by the WebSocket protocol and the HTTP middleware)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from backgammon.server.protocol import json_holds_nul

texts = st.text(alphabet=st.sampled_from(["\x00", "\\", "u", "0", "a", '"', "é"]), max_size=30)
values = st.recursive(
    texts, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3)
)


def _holds(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds(key) or _holds(item) for key, item in value.items())
    return any(_holds(item) for item in value)


@given(values, st.booleans())
def test_it_says_whether_any_key_or_text_holds_u0000(value: Any, ascii_only: bool) -> None:
    """As the parsed value says, for text made of backslashes, 'u', zeros and U+0000
    (an escaped backslash before "u0000" is text, not U+0000)."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_holds_nul(text) == _holds(value)
    assert json_holds_nul(text.encode()) == _holds(value)

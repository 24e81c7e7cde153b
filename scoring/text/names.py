"""Text that people type or import: names of players and groups.

Pure (no database, no clock): the services and the importer call ``name_clean`` and turn its ``ValueError``
into a field error.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

# Letters that draw nothing although Unicode does not file them under "format": Hangul fillers, the braille
# blank, the combining grapheme joiner, the Mongolian vowel separator and the Khmer inherent vowels.  A name
# made of them looks empty, and next to a real name it makes a second "Anna" that nobody can tell apart.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u180e\u17b4\u17b5")
# Control (Cc) and format (Cf) characters: zero-width spaces and joiners, the bidi overrides and isolates that
# turn "Anna" around on screen, the byte order mark, soft hyphens; surrogates, private use and unassigned; and
# the line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
NAME_MAX = 60


def name_clean(value: object, *, max_length: int | None = NAME_MAX) -> str:
    """A name in Unicode normal form NFKC with its white space collapsed to single spaces.

    Raises ``ValueError`` (with a translated message) for something that is not text, when nothing is left,
    when the name holds a character that cannot be seen or that changes the direction of the text around it,
    and when it is longer than ``max_length`` (``None``: the caller checks the length).
    """
    if not isinstance(value, str):
        raise ValueError(gettext("A name is required."))
    text = unicodedata.normalize("NFKC", value)
    for char in text:
        if char in _INVISIBLE or (unicodedata.category(char) in _REFUSED_CATEGORIES and not char.isspace()):
            raise ValueError(
                gettext("A name cannot contain invisible or text-direction characters (here: U+%(code)04X).")
                % {"code": ord(char)}
            )
    text = " ".join(text.split())
    if not text:
        raise ValueError(gettext("A name is required."))
    if max_length is not None and len(text) > max_length:
        raise ValueError(gettext("A name has at most %(n)d characters.") % {"n": max_length})
    return text


def any_text(value: Any, test: Callable[[str], object]) -> bool:
    """Whether ``test`` is true of any text in the parsed JSON ``value`` (object keys included); walked without
    recursion, so a document nested deeper than Python's recursion limit is no error."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if test(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False

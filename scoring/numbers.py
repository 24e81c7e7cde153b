"""Whole numbers read from requests (query strings, headers, form fields, URL parts).

Python's ``int()`` and ``str.isdigit()`` take any Unicode digit: ``int("١")`` is 1 and ``"²".isdigit()`` is true
while ``int("²")`` fails, and ``int("1_0")`` is 10. A request gets ASCII digits ``0-9`` (with an optional sign
where a sign makes sense) or it is not a number: one parser for the API and the pages, so that both surfaces
refuse the same text. Pure standard library.
"""

from __future__ import annotations

import re

_UNSIGNED = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")
# "−" (U+2212) is the minus sign the pages print; a number copied from the page comes back with it.
_MINUS_SIGNS = str.maketrans({"\u2212": "-"})

# 18 digits always fit a signed 64-bit integer (PostgreSQL bigint), whatever the digits are.
MAX_DIGITS = 18


def parse_whole(raw: object, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """``raw`` as an int when it is ASCII digits (surrounding blanks allowed; a leading ``+``/``-``/``−`` only
    when ``signed``) of at most ``max_digits`` digits; otherwise None. An int (not a bool) passes as itself when
    it is in range."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if (signed or raw >= 0) and len(str(abs(raw))) <= max_digits else None
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if signed:
        text = text.translate(_MINUS_SIGNS)
    if not (_SIGNED if signed else _UNSIGNED).fullmatch(text):
        return None
    if len(text.lstrip("+-")) > max_digits:
        return None
    return int(text)

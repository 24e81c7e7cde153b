"""Whole numbers read from requests (query strings, headers, form fields, URL parts), and decimals as every page,
image and table prints them.

Python's ``int()`` and ``str.isdigit()`` take any Unicode digit: ``int("١")`` is 1 and ``"²".isdigit()`` is true
while ``int("²")`` fails, and ``int("1_0")`` is 10. A request gets ASCII digits ``0-9`` (with an optional sign
where a sign makes sense) or it is not a number: one parser for the API and the pages, so that both surfaces
refuse the same text.

A decimal shown to a reader is rounded once, here, the same way on every surface (pages, the night image, charts):
half away from zero on the number's shortest decimal form (``repr``), as Django's ``floatformat`` does, so 2.675
shows as 2.68 whatever its binary value. Hungarian writes the decimal comma, English the point. Pure standard
library.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

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


# The decimal mark of each language the site speaks (``settings.LANGUAGES``); anything else writes a point.
DECIMAL_MARKS = {"hu": ","}
MINUS = "\u2212"


def decimal_mark(language: str | None) -> str:
    """The decimal mark of ``language`` ("hu", "hu-hu", "en" …)."""
    return DECIMAL_MARKS.get((language or "").split("-")[0].lower(), ".")


def decimal_round(value: float | int | Decimal, places: int) -> Decimal:
    """``value`` rounded half away from zero at ``places`` decimals, from its shortest decimal form."""
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def decimal_text(
    value: float | int | Decimal, places: int, *, mark: str = ".", sign: bool = False, trim: bool = False
) -> str:
    """``value`` rounded to ``places`` decimals (:func:`decimal_round`) and written with ``mark``: a fall with the
    minus sign U+2212, a rise with "+" when ``sign``, trailing zeros (and a bare mark) dropped when ``trim``.
    Whatever rounds to zero is written without a sign ("0.0", never "−0.0")."""
    rounded = decimal_round(value, places)
    digits = f"{abs(rounded):f}"
    if trim and "." in digits:
        digits = digits.rstrip("0").rstrip(".")
    digits = digits.replace(".", mark)
    if rounded == 0:
        return digits
    if rounded < 0:
        return MINUS + digits
    return "+" + digits if sign else digits

"""Usernames at sign-up (the web page and the API): one spelling, nothing hidden, no look-alikes.

- Normalised to NFKC (as Django's own forms do), with surrounding spaces dropped.
- Refused when they hold an invisible character (Unicode's Default_Ignorable_Code_Point: zero-width spaces and
  joiners, soft hyphens, variation selectors, the Hangul fillers that Django's ``\\w`` lets through) or a
  bidirectional control (RLO, LRI, ALM ...), which make one name display as another.
- Refused when they are confusable with an existing username: the same *skeleton* in the sense of Unicode
  Technical Standard #39 (Cyrillic "а" and Latin "a", "rn" and "m", "1" and "l" map to one prototype). The
  skeletons come from ICU's spoof checker (PyICU, already a pinned dependency for sorting names), which ships
  the Unicode Consortium's confusables data and follows its updates; the comparison is made on the name as
  typed and on its case-folded form, because usernames are unique without regard to case.

Existing usernames are compared one by one (a skeleton takes microseconds; sign-up is rate limited). A site with
very many accounts would store each user's skeleton in an indexed column instead.
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

import icu
from django.contrib.auth import get_user_model
from django.utils.translation import gettext

_local = threading.local()  # ICU's spoof checker is not shared between threads


def _checker() -> Any:
    checker = getattr(_local, "checker", None)
    if checker is None:
        checker = _local.checker = icu.SpoofChecker()
    return checker


def normalise(username: str) -> str:
    """The stored spelling of a typed username: NFKC, without surrounding spaces."""
    return unicodedata.normalize("NFKC", username or "").strip()


def hidden_characters(text: str) -> list[str]:
    """The invisible and bidirectional-control characters in ``text`` (as U+XXXX), in order of appearance."""
    found: list[str] = []
    for char in text:
        if icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT) or icu.Char.hasBinaryProperty(
            char, icu.UProperty.BIDI_CONTROL
        ):
            code = f"U+{ord(char):04X}"
            if code not in found:
                found.append(code)
    return found


def skeletons(username: str) -> set[str]:
    """The TR39 skeletons of a username as typed and case-folded (two names sharing one look alike)."""
    name = normalise(username)
    checker = _checker()
    return {checker.getSkeleton(0, name), checker.getSkeleton(0, name.casefold())}


def confusable_with(username: str, *, exclude_pk: Any = None) -> str | None:
    """The existing username that ``username`` could be mistaken for (an exact match included), or None."""
    mine = skeletons(username)
    users = get_user_model().objects.all()
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    for existing in users.values_list("username", flat=True).iterator(chunk_size=2000):
        if mine & skeletons(existing):
            return str(existing)
    return None


def problems(username: str) -> list[str]:
    """Why a new account cannot take ``username`` (empty: it can). Run after Django's own username validators."""
    name = normalise(username)
    hidden = hidden_characters(name)
    if hidden:
        return [
            gettext("A username cannot contain invisible or text-direction characters (%(codes)s).")
            % {"codes": ", ".join(hidden)}
        ]
    other = confusable_with(name)
    if other is None:
        return []
    if other.casefold() == name.casefold():
        return [gettext("That username is taken.")]
    return [gettext("That username looks too much like an existing one. Please choose another.")]

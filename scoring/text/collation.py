"""Sorting names the way a reader of the active language expects (ICU collation through PyICU).

Python's own ``sorted`` compares code points, which puts "Éva" after "Zoltán".  ICU's collation for the active
language gets it right: in Hungarian á/é/í/ó/ú sort with their base letters, ö/ő come after o and ü/ű after u, and
cs, dz, dzs, gy, ly, ny, sz, ty, zs are letters of their own ("Zoltán" < "Zuzana" < "Zsófi"); in English
accents only break ties ("Ödön" < "Oszkár").

PyICU is a pinned dependency.  Should it be missing (a machine where it was not built), names still sort without
regard to case and accents, and a warning says why the Hungarian letters are not in their places.
"""

from __future__ import annotations

import logging
import threading
import unicodedata
from collections.abc import Iterable
from typing import Any, TypeVar

from django.utils.translation import get_language

logger = logging.getLogger(__name__)

T = TypeVar("T")

try:
    import icu
except ImportError:  # pragma: no cover - PyICU is a dependency; this keeps a machine without it usable
    icu = None
    logger.warning("PyICU is not installed: names are sorted without the rules of the active language")

_local = threading.local()  # ICU collators are not shared between threads


def _collator(language: str) -> Any:
    cache: dict[str, Any] = _local.__dict__.setdefault("collators", {})
    if language not in cache:
        cache[language] = icu.Collator.createInstance(icu.Locale(language))
    return cache[language]


def _plain_key(text: str) -> tuple[str, str]:
    base = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return (base.casefold(), text.casefold())


def sort_key(text: str, *, language: str | None = None) -> Any:
    """A key that orders ``text`` by the collation of ``language`` (default: the active language)."""
    language = (language or get_language() or "en").replace("_", "-").split("-")[0]
    if icu is None:  # pragma: no cover
        return _plain_key(text)
    return _collator(language).getSortKey(text)


def sorted_by_name(items: Iterable[T], *, language: str | None = None) -> list[T]:
    """``items`` (objects with a ``name``) in the alphabetical order of the active language; ties by id."""
    return sorted(items, key=lambda item: (sort_key(item.name, language=language), getattr(item, "pk", 0) or 0))  # type: ignore[attr-defined]

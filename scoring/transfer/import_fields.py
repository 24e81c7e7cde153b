"""The field checks of an import document (``import_check``): collected problems under field paths, shapes,
texts and names, whole numbers in range, strict dates, and the characters the database cannot store."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from django.utils.translation import gettext, ngettext

from scoring.text.names import any_text, name_clean

INT32 = 2**31 - 1
MAX_PROBLEMS = 200  # listed; the rest are counted
_DATE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,6}))?)?"
    r"(Z|[+-][0-9]{2}:?[0-9]{2})\Z"
)
_OFFSET_MAX = 14 * 60  # minutes: the widest offset in use (UTC+14, Kiribati)
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # PostgreSQL stores neither NUL nor a lone surrogate


class Problems:
    """Field path -> messages, in document order."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.found.setdefault(path, []).append(message)

    def merge(self, problems: dict[str, list[str]]) -> None:
        for path, messages in problems.items():
            for message in messages:
                self.add(path, message)

    def listed(self) -> dict[str, list[str]]:
        if len(self.found) <= MAX_PROBLEMS:
            return self.found
        shown = dict(list(self.found.items())[:MAX_PROBLEMS])
        more = len(self.found) - MAX_PROBLEMS
        text = ngettext("…and %(n)d more field with problems.", "…and %(n)d more fields with problems.", more)
        shown.setdefault("non_field_errors", []).append(text % {"n": more})
        return shown

    # --- shapes -------------------------------------------------------------------------------------

    def obj(self, value: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(path, gettext("Expected a JSON object."))
            return None
        return value

    def items(self, value: Any, path: str, *, limit: int, least: int = 0) -> list[Any]:
        if not isinstance(value, list):
            self.add(path, gettext("Expected a list."))
            return []
        if not least <= len(value) <= limit:
            self.add(path, gettext("Expected %(low)d to %(high)d entries.") % {"low": least, "high": limit})
            return []
        return value

    def text(self, value: Any, path: str, *, null: bool = False, max_length: int = 150) -> str | None:
        if value is None and null:
            return None
        if not isinstance(value, str) or not value.strip() or len(value) > max_length or "\x00" in value:
            self.add(path, gettext("Expected a text of 1 to %(n)d characters.") % {"n": max_length})
            return None
        return value

    def name(self, value: Any, path: str) -> str | None:
        try:
            return name_clean(value)
        except ValueError as exc:
            self.add(path, str(exc))
            return None

    def whole(self, value: Any, path: str, *, low: int, high: int) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.add(path, gettext("Expected a whole number from %(low)d to %(high)d.") % {"low": low, "high": high})
            return None
        return value

    def when(self, value: Any, path: str, *, null: bool = False) -> datetime | None:
        if value is None and null:
            return None
        found = _DATE.match(value) if isinstance(value, str) else None
        if found is None:
            self.add(path, gettext("Expected a date and time such as 2026-03-14T19:30:00+01:00."))
            return None
        year, month, day, hour, minute, second, fraction, offset = found.groups()
        if offset == "Z":
            minutes = 0
        else:
            digits = offset[1:].replace(":", "")
            minutes = int(digits[:2]) * 60 + int(digits[2:])
            if int(digits[2:]) > 59 or minutes > _OFFSET_MAX:
                self.add(path, gettext("A time zone offset is at most ±14:00."))
                return None
            minutes = -minutes if offset[0] == "-" else minutes
        try:
            parsed = datetime(
                int(year),
                int(month),
                int(day),
                int(hour),
                int(minute),
                int(second or 0),
                int((fraction or "0").ljust(6, "0")),
                tzinfo=timezone(timedelta(minutes=minutes)),
            )
        except ValueError:
            self.add(path, gettext("There is no such date or time."))
            return None
        if not 1900 <= parsed.year <= 2999:
            self.add(path, gettext("Expected a year from 1900 to 2999."))
            return None
        return parsed.astimezone(UTC)


def unstorable(value: Any) -> bool:
    """Whether any text in the JSON ``value`` (keys included) holds a character the database cannot store."""
    return any_text(value, _UNSTORABLE.search)

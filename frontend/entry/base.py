"""The pieces round entry is built from, below both ``entry`` (which renders and reads the forms) and
``entry_games`` (one adapter per game): the form's match context, the field readers and the adapter registry.

``entry_games`` registers its adapters here with :func:`register`; ``entry`` imports ``entry_games`` so that
they are registered before it looks one up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scoring.rules import Ruleset
from scoring.text.numbers import parse_whole


@dataclass
class EntryContext:
    """What a round-entry form needs to know about its match."""

    ruleset: Ruleset
    names: list[str]
    options: dict[str, Any]
    board: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.ruleset.key

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": s, "name": name} for s, name in enumerate(self.names)]

    def ref(self, name: str) -> int | None:
        """Seat of the board's next dealer / next starter, if the rules fix it."""
        ref = self.board.get(name)
        return ref["seat"] if isinstance(ref, dict) else None

    @property
    def module(self) -> Any:
        return self.ruleset.module


# A number field may hold a sum, as on a paper score sheet: "3+6+2" is 11. Whole numbers only (ASCII digits),
# an optional sign in front of the first term, at most MAX_TERMS terms so that a pasted wall of text stays cheap.
_SUM = re.compile(r"\s*[+\-\u2212]?\s*[0-9]+(?:\s*\+\s*[0-9]+)*\s*")
MAX_TERMS = 40


def read_number(raw: Any) -> int | None:
    """A form field's whole number: digits with an optional sign, or a sum of such ("3+6+2" → 11); None for
    anything else ("3+x", "4a1", "3+", blank)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if not isinstance(raw, str) or not _SUM.fullmatch(raw) or raw.count("+") > MAX_TERMS:
        return None
    text = raw.strip().replace("\u2212", "-").replace(" ", "")
    sign = -1 if text.startswith("-") else 1
    terms = text.lstrip("+-").split("+")
    numbers = [parse_whole(term) for term in terms]
    if any(n is None for n in numbers):  # a term longer than a stored number can be
        return None
    first, *rest = (n for n in numbers if n is not None)
    return parse_whole(sign * first + sum(rest), signed=True)


def looks_numeric(raw: Any) -> bool:
    """Whether a field's text was meant as a number (it holds a digit) though it cannot be read as one."""
    return isinstance(raw, str) and any(ch.isdigit() for ch in raw) and read_number(raw) is None


def to_int(raw: Any, default: Any = None) -> Any:
    """A whole number (or a sum of them) from a form field; blank gives ``default``; anything else is passed on
    unchanged so that the rules engine refuses it at its field (and the form names it: see ``entry``)."""
    if raw is None:
        return default
    text = str(raw).strip()
    if text == "":
        return default
    number = read_number(text)
    return text if number is None else number


def per_seat(post: Any, name: str, n: int, default: Any = 0) -> list[Any]:
    return [to_int(post.get(f"{name}.{seat}"), default) for seat in range(n)]


def seats_checked(post: Any, name: str) -> list[Any]:
    return sorted({to_int(v) for v in post.getlist(name) if str(v).strip() != ""}, key=str)


def seat_values(name: str, items: Any) -> dict[str, Any]:
    return {f"{name}.{seat}": value for seat, value in enumerate(items or ())}


class GameEntry:
    """Default adapter: the facts' fields are the form's field names (flat values and per-seat lists)."""

    key = ""

    def defaults(self, c: EntryContext) -> dict[str, Any]:
        return {}

    def to_facts(self, post: Any, c: EntryContext) -> dict[str, Any]:
        raise NotImplementedError

    def from_facts(self, facts: dict[str, Any], c: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in facts.items():
            if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
                out.update(seat_values(name, value))
            elif not isinstance(value, (list, dict)):
                out[name] = value
        return out

    def context(self, c: EntryContext) -> dict[str, Any]:
        return {}

    def values_context(self, c: EntryContext, values: Any) -> dict[str, Any]:
        """Template context that depends on the form's current values (asked of the rules, never decided here)."""
        return {}


ADAPTERS: dict[str, GameEntry] = {}


def register(cls: type[GameEntry]) -> type[GameEntry]:
    ADAPTERS[cls.key] = cls()
    return cls

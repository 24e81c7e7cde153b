"""The one error the rules engine raises for impossible input."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .types import Scalar
from .wording import fill


@dataclass(frozen=True)
class Problem:
    """One field-level complaint: which field, which rule, in plain English.

    ``field`` is a dotted path into the submitted facts ("tricks.2", "bid");
    an empty string means the round as a whole. ``text`` is the English
    rendering of ``msg`` with ``params``; the Django layer may translate it.
    """

    field: str
    msg: str
    rule: str
    text: str
    params: tuple[tuple[str, Scalar], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "msg": self.msg, "rule": self.rule, "text": self.text, "params": dict(self.params)}


class InvalidRound(ValueError):
    """Raised when round facts or match options break a rule of the game."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.field or 'round'}: {p.text}" for p in self.problems))

    def by_field(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in self.problems:
            out.setdefault(p.field or "non_field_errors", []).append(p.text)
        return out


class Complaints:
    """Collects problems so that validation reports every broken rule at once.

    Usage::

        c = Complaints(MESSAGES)
        c.check(sum(tricks) == n, "tricks", "njet.tricks_sum", "njet-tricks", total=sum(tricks), expected=n)
        c.raise_if_any()
    """

    def __init__(self, messages: dict[str, str], kinds: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.messages = messages
        self.kinds = kinds or {}
        self.problems: list[Problem] = []

    def add(self, field: str, msg: str, rule: str, **params: Scalar) -> None:
        text = fill(self.messages[msg], params, kinds=self.kinds.get(msg), labels=self.messages)
        self.problems.append(Problem(field=field, msg=msg, rule=rule, text=text, params=tuple(sorted(params.items()))))

    def check(self, ok: bool, field: str, msg: str, rule: str, **params: Scalar) -> bool:
        if not ok:
            self.add(field, msg, rule, **params)
        return ok

    def raise_if_any(self) -> None:
        if self.problems:
            raise InvalidRound(self.problems)

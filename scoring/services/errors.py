"""Errors raised by the services; the API maps each one to one HTTP status."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules import InvalidRound


class ServiceError(Exception):
    """Base class: something the caller asked for cannot be done."""


class ValidationFailed(ServiceError):
    """Bad input (HTTP 400). ``problems`` maps a field path to its messages.

    ``details`` keeps the rules engine's structured problems (message id, rule
    anchor, params) when the complaint came from there.
    """

    def __init__(self, problems: Mapping[str, Sequence[str]], *, details: Sequence[dict[str, Any]] = ()) -> None:
        self.problems = {key: list(messages) for key, messages in problems.items()}
        self.details = list(details)
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in self.problems.items()))

    @classmethod
    def single(cls, field: str, message: str) -> ValidationFailed:
        return cls({field: [message]})

    @classmethod
    def from_rules(cls, error: InvalidRound, *, prefix: str = "", translate: Any = None) -> ValidationFailed:
        """Field-level messages from the rules engine, fields prefixed (``facts.tricks.2``)."""
        problems: dict[str, list[str]] = {}
        details = []
        for problem in error.problems:
            field = problem.field
            if prefix and field != prefix and not field.startswith(f"{prefix}."):
                field = f"{prefix}.{field}" if field else prefix
            field = field or "non_field_errors"
            text = problem.text
            if translate is not None:
                try:
                    text = translate(problem)
                except (KeyError, IndexError, ValueError):
                    text = problem.text
            problems.setdefault(field, []).append(text)
            details.append({**problem.as_dict(), "field": field, "text": text})
        return cls(problems, details=details)


class NotAllowed(ServiceError):
    """The user may see the object but not do this to it (HTTP 403)."""


class Conflict(ServiceError):
    """The request clashes with the current state (HTTP 409), e.g. a finished match."""


class StaleVersion(Conflict):
    """An edit named a version that is no longer current (HTTP 409 with the current state)."""

    def __init__(self, *, expected: int, current: int, obj: Any) -> None:
        self.expected = expected
        self.current = current
        self.obj = obj
        super().__init__(f"version {expected} is stale; the current version is {current}")

    def message(self) -> str:
        """The sentence shown to people (translated), for the API and the pages alike."""
        from django.utils.translation import gettext

        return gettext("Someone changed this in the meantime (you had version %(old)s, it is now %(new)s).") % {
            "old": self.expected,
            "new": self.current,
        }


class IdempotencyMismatch(ServiceError):
    """An Idempotency-Key was reused for a different request (HTTP 422)."""


class RoundTaken(Conflict):
    """A new round was entered on a form for round ``expected``, but that is no longer the next round's number
    (HTTP 409): another phone saved that round meanwhile (``round``, saved by ``by``), or rounds were deleted.
    Nothing was stored; ``next_number`` is the number the round would get now."""

    def __init__(self, *, expected: int, next_number: int, round: Any = None, by: str = "") -> None:
        self.expected = expected
        self.next_number = next_number
        self.round = round
        self.by = by
        super().__init__(self.message())

    def message(self) -> str:
        """The sentence shown to people (translated), for the API and the pages alike."""
        from django.utils.translation import gettext

        if self.round is not None and self.by:
            return gettext("Round %(n)s was just saved by %(name)s.") % {"n": self.expected, "name": self.by}
        if self.round is not None:
            return gettext("Round %(n)s was just saved on another phone.") % {"n": self.expected}
        return gettext("The rounds changed meanwhile: this would now be round %(next)s, not %(n)s.") % {
            "n": self.expected,
            "next": self.next_number,
        }


class AlreadyUndone(StaleVersion):
    """An undo made against a match version that is no longer current: a repeated tap (the change it meant
    was already undone) or another change in between (HTTP 409 with the current match).  Nothing was undone."""

    def message(self) -> str:
        from django.utils.translation import gettext

        return gettext(
            "Nothing was undone: that change was already undone, or the match changed meanwhile. "
            "Check the rounds and tap Undo again if needed."
        )

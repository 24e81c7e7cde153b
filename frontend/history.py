"""A match's change history in words: who changed which round, and what changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from frontend import labels
from frontend.fields import field_words
from scoring.models import RoundEvent

# Facts whose values are seats (or lists of seats): shown as the players' names, never as numbers.
SEAT_FACTS = frozenset(
    {"start_player", "chief", "vice", "partner", "last_trick", "monster", "declarer", "breach", "last_tied", "tied"}
    | {"holding", "order"}
)


def _number(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def _show(value: Any, names: Sequence[str], key: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(_show(v, names, key) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_field(str(k), names)}: {_show(v, names, str(k))}" for k, v in value.items())
    if isinstance(value, int):
        if key in SEAT_FACTS and 0 <= value < len(names):
            return names[value]
        return _number(value)
    if isinstance(value, str):
        return _word(value, key)
    return str(value)


def _word(value: str, key: str) -> str:
    """An id as the words the entry form shows for it (an option's choice, a colour, a task, a type…)."""
    for table in (labels.CHOICES.get(key, {}), labels.COLOURS, labels.WAS_STICHT_TASKS, labels.MUZICANDO_TYPES):
        if value in table:
            return str(table[value])
    table = {"discard": labels.NJET_DISCARDS, "end": labels.ABLUXXEN_ENDS}.get(key, {})
    return str(table.get(value, value))


def _field(key: str, names: Sequence[str]) -> str:
    """A fact's name in words (the id itself only when nothing better is known)."""
    return field_words(key, names)[1] or key


def facts_diff(before: Any, after: Any, names: Sequence[str]) -> list[dict[str, str]]:
    """The facts that differ between two snapshots, field by field (lists by seat when they line up)."""
    before = before or {}
    after = after or {}
    out = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) == len(names):
            for seat, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b:
                    out.append(
                        {
                            "field": f"{_field(key, names)} · {names[seat]}",
                            "old": _show(a, names, key),
                            "new": _show(b, names, key),
                        }
                    )
            continue
        out.append({"field": _field(key, names), "old": _show(old, names, key), "new": _show(new, names, key)})
    return out


def history_rows(events: Sequence[RoundEvent], names: Sequence[str], ruleset_key: str) -> list[dict[str, Any]]:
    rows = []
    for event in events:
        before, after = event.before or {}, event.after or {}
        row: dict[str, Any] = {
            "id": event.pk,
            "at": event.at,
            "actor": event.actor.get_username() if event.actor else gettext("someone"),
            "action": event.get_action_display(),
            "round": event.round_number,
            "changes": [],
            "points": None,
        }
        if event.round_number is not None:
            row["changes"] = facts_diff(before.get("facts"), after.get("facts"), names)
            old_points, new_points = before.get("points"), after.get("points")
            if old_points != new_points and (old_points or new_points):
                row["points"] = [
                    {"name": name, "old": _pick(old_points, seat), "new": _pick(new_points, seat)}
                    for seat, name in enumerate(names)
                ]
            if after.get("undid"):
                row["undid"] = dict(RoundEvent.Action.choices).get(after["undid"], after["undid"])
        elif event.action == RoundEvent.Action.OPTIONS:
            row["changes"] = facts_diff(before.get("options"), after.get("options"), names)
        elif event.action == RoundEvent.Action.MERGE:
            row["changes"] = [{"field": gettext("player"), "old": before.get("name", ""), "new": after.get("name", "")}]
        rows.append(row)
    rows.reverse()
    return rows


def _pick(points: Any, seat: int) -> Any:
    if isinstance(points, list) and seat < len(points):
        return points[seat]
    return None

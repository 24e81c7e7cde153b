"""A match's change history in words: who changed which round, and what changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from frontend.entry import labels
from frontend.entry.fields import PER_SEAT, field_words, name_list
from scoring.models import RoundEvent

# Facts whose values are seats (or lists of seats): shown as the players' names, never as numbers.
SEAT_FACTS = frozenset(
    {"start_player", "chief", "vice", "partner", "last_trick", "monster", "declarer", "breach", "last_tied", "tied"}
    | {"holding", "order"}
)


def _number(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


# Words for the keys inside a fact that the entry forms never name on their own (Sticheln's per-seat entries,
# a chooser card's colour and value, Was sticht?'s returned task).
INNER_LABELS: dict[str, Any] = {
    "colour": _("colour"),
    "value": _("value"),
    "taken": _("cards taken"),
    "pain_values": _("values of the pain cards"),
    "start_return": _("task returned by the start player"),
}


def _blank(value: Any) -> bool:
    """Nothing entered: None, or a list or mapping holding only that."""
    if isinstance(value, list):
        return all(_blank(v) for v in value)
    if isinstance(value, dict):
        return all(_blank(v) for v in value.values())
    return value is None


def _show(value: Any, names: Sequence[str], key: str = "", depth: int = 0) -> str:
    if _blank(value):
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(_show(v, names, key, depth) for v in value)
    if isinstance(value, dict):  # a seat: "pain colour: red; chooser card: (colour: red, value: 4); other cards: 14"
        parts = [f"{_field(str(k), names)}: {_show(v, names, str(k), depth + 1)}" for k, v in value.items()]
        parts = [part for part, v in zip(parts, value.values(), strict=True) if not _blank(v)]
        return "; ".join(parts) if depth == 0 else f"({', '.join(parts)})"
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
    found = field_words(key, names)[1]
    if not found and key in INNER_LABELS:
        found = str(INNER_LABELS[key])
    return found or key


def _by_seat(key: str, old: Any, new: Any, n: int) -> bool:
    """Whether a fact is one entry per player (shown player by player, also when a round is created or
    deleted): a known per-seat fact, or two lists as long as the table that are not lists of seats."""
    if key in SEAT_FACTS:
        return False
    lists = [v for v in (old, new) if v is not None]
    if not lists or not all(isinstance(v, list) and len(v) == n for v in lists):
        return False
    return key in PER_SEAT or len(lists) == 2


def _teams(value: Any, names: Sequence[str]) -> str:
    """NJET's teams (a team number per seat, the start player's team first) as the people in each team:
    "Anna and Cili against Bence and Dani"."""
    if _blank(value) or not isinstance(value, list):
        return "–"
    groups: dict[Any, list[str]] = {}
    for seat, team in enumerate(value):
        if seat < len(names):
            groups.setdefault(team, []).append(names[seat])
    teams = [name_list(people) for people in groups.values()]
    if len(teams) == 2:
        return gettext("%(first)s against %(second)s") % {"first": teams[0], "second": teams[1]}
    return " / ".join(teams)


def facts_diff(before: Any, after: Any, names: Sequence[str]) -> list[dict[str, str]]:
    """The facts that differ between two snapshots, field by field; a fact held per player line by line, each
    headed by the player's name ("task card · Bence"); nothing shown for what stayed blank."""
    before = before or {}
    after = after or {}
    out = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new or (_blank(old) and _blank(new)):
            continue
        if key == "teams":  # not one flag per player: who played with whom
            out.append({"field": gettext("teams"), "old": _teams(old, names), "new": _teams(new, names)})
            continue
        if _by_seat(key, old, new, len(names)):
            olds = old if isinstance(old, list) else [None] * len(names)
            news = new if isinstance(new, list) else [None] * len(names)
            for seat, (a, b) in enumerate(zip(olds, news, strict=True)):
                if a != b and not (_blank(a) and _blank(b)):
                    field = names[seat] if key == "seats" else f"{_field(key, names)} · {names[seat]}"
                    out.append({"field": field, "old": _show(a, names, key), "new": _show(b, names, key)})
            continue
        out.append({"field": _field(key, names), "old": _show(old, names, key), "new": _show(new, names, key)})
    return out


def history_rows(
    events: Sequence[RoundEvent],
    names: Sequence[str],
    ruleset_key: str,
    actors: dict[int, str] | None = None,
) -> list[dict[str, Any]]:
    """The events newest first, each naming who made it as the table calls them (``actors``: user id -> name,
    see ``selectors.entered_by_names``; the account's username otherwise)."""
    rows = []
    for event in events:
        before, after = event.before or {}, event.after or {}
        actor = (actors or {}).get(event.actor_id or 0) or (event.actor.get_username() if event.actor else "")
        row: dict[str, Any] = {
            "id": event.pk,
            "at": event.at,
            "actor": actor or gettext("someone"),
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
        if event.action == RoundEvent.Action.DISPUTE and after.get("note"):
            row["note"] = after["note"]  # what the other side said was wrong
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
